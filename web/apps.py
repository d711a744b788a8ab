from django.apps import AppConfig
from django.utils.autoreload import file_changed


class WebConfig(AppConfig):
    """The shared web pieces (no models): an app so that it can hook into runserver."""

    name = "web"

    def ready(self) -> None:
        from . import pagecache  # it reads the content version's model, loaded by now

        file_changed.connect(pagecache.forget_on_change, dispatch_uid="pagecache-file-changed")
