"""Production settings for end-to-end tests on plain-HTTP loopback (tests/hardening, bench).

Everything is prod except what plain HTTP on 127.0.0.1 cannot do: no HTTPS redirect, cookies
without the Secure flag, static files served from the finders (no collectstatic manifest).
SECRET_KEY, ALLOWED_HOSTS, DATABASE_URL and REDIS_URL still come from the environment;
E2E_CACHE_PREFIX keeps one test run's cache keys apart from another's.
"""

import os

from .prod import *  # noqa: F403

SECURE_SSL_REDIRECT = False
SESSION_COOKIE_SECURE = False
CSRF_COOKIE_SECURE = False
SECURE_HSTS_SECONDS = 0
STORAGES = {**STORAGES,  # noqa: F405
            "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"}}
WHITENOISE_USE_FINDERS = True
STATIC_ROOT = None  # nothing collected: whitenoise serves from the finders
if "default" in CACHES and os.environ.get("E2E_CACHE_PREFIX"):  # noqa: F405
    CACHES["default"]["KEY_PREFIX"] = os.environ["E2E_CACHE_PREFIX"]  # noqa: F405
    LIVE_CHANNEL_PREFIX = os.environ["E2E_CACHE_PREFIX"] + ":"
