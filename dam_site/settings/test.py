from .base import *  # noqa: F403

DEBUG = False
PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
# Tests render templates without running collectstatic first.
STORAGES = {**STORAGES, "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"}}  # noqa: F405
WHITENOISE_AUTOREFRESH = True
RATE_LIMITS = {}  # tests/web/test_ratelimit.py switches them on
LIVE_JOIN_FAILURES = None  # tests/hardening/test_live.py switches it on
LIVE_REDIS_URL = None  # the in-process bus (tests/hardening starts servers with Redis)
# Tasks run at once inside the request (tests/practice/test_tasks.py uses the database queue
# and its worker).
TASKS = {"default": {"BACKEND": "django.tasks.backends.immediate.ImmediateBackend"}}
TABLE_JOIN_FAILURES = None  # tests/tables switch it on
