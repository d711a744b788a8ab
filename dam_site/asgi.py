"""ASGI entry point: the process that serves the live classroom's event streams.

    uvicorn dam_site.asgi:application --host 0.0.0.0 --port 8001

It is the whole site (the same settings and URLs as ``dam_site.wsgi``), but production sends
it only ``/live/``: an open stream there is a coroutine waiting on Redis, so one process holds
thousands of phones while the sync gunicorn workers serve the pages.
"""

import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "dam_site.settings.prod")

application = get_asgi_application()
