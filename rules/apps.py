from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class RulesConfig(AppConfig):
    name = "rules"
    verbose_name = _("Rules and reference")

    def ready(self) -> None:
        from django.utils.autoreload import file_changed

        from web import pagecache

        from . import signals  # noqa: F401  (connects the content version to the models)

        file_changed.connect(pagecache.forget_on_change, dispatch_uid="pagecache-file-changed")
