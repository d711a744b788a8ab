from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class ReferenceConfig(AppConfig):
    """The reference pages (rules, variants, FAQ, glossary).  The app keeps the label "rules"
    it had when it shared the rules/ folder with the engine: its tables, migrations and
    content types are named by it."""

    name = "reference"
    label = "rules"
    verbose_name = _("Rules and reference")

    def ready(self) -> None:
        from . import signals  # noqa: F401  (connects the content version to the models)
