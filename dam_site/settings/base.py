"""Settings shared by every environment; dev, test and prod import and adjust these."""

from pathlib import Path

import dj_database_url
from django.utils.translation import gettext_lazy as _

BASE_DIR = Path(__file__).resolve().parent.parent.parent

SECRET_KEY = "insecure-development-key-not-for-production"  # prod.py replaces it
DEBUG = False
ALLOWED_HOSTS: list[str] = ["127.0.0.1", "localhost", "[::1]"]

INSTALLED_APPS = [
    # modeltranslation must come before the admin so its admin integration patches it.
    "modeltranslation",
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "django_htmx",
    "django_tasks_db",
    "games",
    "web",
    "reference",
    "tutorials",
    "practice",
    "teacher",
    "live",
    "tables",
    "puzzles",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    # Static files come compressed from whitenoise; pages and htmx answers are compressed here.
    "django.middleware.gzip.GZipMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django.middleware.csp.ContentSecurityPolicyMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    "web.ratelimit.RateLimitMiddleware",
]

ROOT_URLCONF = "dam_site.urls"
WSGI_APPLICATION = "dam_site.wsgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.template.context_processors.i18n",
                "django.template.context_processors.csp",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "web.context_processors.site",
            ],
            "builtins": ["django.templatetags.i18n", "django.templatetags.static"],
        },
    }
]

DATABASES = {
    "default": dj_database_url.config(
        default=f"sqlite:///{BASE_DIR / 'db.sqlite3'}", conn_max_age=60, conn_health_checks=True
    )
}
if DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql":
    # Django's backend, with a health check that reads the socket instead of a SELECT 1.
    DATABASES["default"]["ENGINE"] = "dam_site.postgresql"
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"


def cache_settings(redis_url: str | None) -> dict:
    # "shipped": what is derived from the files a release ships (rendered tutorial steps), kept
    # in each process, so a new release never meets an old release's entries.
    shipped = {"BACKEND": "django.core.cache.backends.locmem.LocMemCache",
               "LOCATION": "shipped", "TIMEOUT": None, "OPTIONS": {"MAX_ENTRIES": 4000}}
    # "pages": whole pages that depend only on the shipped files, the content and the language
    # (web/pagecache.py), and each address's language links, kept in each process: reading
    # them is a dictionary lookup, no round trip.  Their keys hold the release and the content
    # version, so nothing needs deleting; the oldest entries make room past MAX_ENTRIES.
    pages = {"BACKEND": "django.core.cache.backends.locmem.LocMemCache",
             "LOCATION": "pages", "TIMEOUT": None, "OPTIONS": {"MAX_ENTRIES": 3000}}
    if redis_url:
        return {"default": {"BACKEND": "web.rediscache.Cache",
                            "LOCATION": redis_url, "KEY_PREFIX": "dam"}, "shipped": shipped,
                "pages": pages}
    return {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"},
            "shipped": shipped, "pages": pages}


import os  # noqa: E402  (kept beside the one place that reads the environment here)

CACHES = cache_settings(os.environ.get("REDIS_URL"))
# Sessions are read from Redis when there is one (written through to the database, so none is
# lost when Redis is): every page of a practice game reads its owner's session first.  Without
# Redis the cache is each process's own, where another process's change would go unseen.
SESSION_ENGINE = ("django.contrib.sessions.backends.cached_db" if os.environ.get("REDIS_URL")
                  else "django.contrib.sessions.backends.db")
# The coach's hints and reviews run as tasks (django.tasks, practice/tasks.py), off the request
# path: queued in the database (django-tasks-db) and run by `manage.py db_worker`, which
# `make run` starts next to runserver and production runs as its own processes (README).
TASKS = {"default": {"BACKEND": "django_tasks_db.DatabaseBackend"}}
# The live classroom's bus (live/bus.py): Redis pub/sub when set, else inside the process
# (one runserver is all `make run` needs).  Live sessions end after LIVE_HOURS at the latest.
LIVE_REDIS_URL = os.environ.get("REDIS_URL") or None
LIVE_HOURS = 4

# English is the source language of the catalogues; Swedish is the fallback for "/" because
# the games are Swedish first.
LANGUAGE_CODE = "sv"
LANGUAGES = [
    ("sv", _("Swedish")),
    ("fi", _("Finnish")),
    ("nb", _("Norwegian Bokmål")),
    ("en", _("English")),
]
MODELTRANSLATION_DEFAULT_LANGUAGE = "en"
MODELTRANSLATION_LANGUAGES = ("sv", "fi", "nb", "en")
MODELTRANSLATION_FALLBACK_LANGUAGES = ("en",)
LOCALE_PATHS = [BASE_DIR / "locale"]
USE_I18N = True
TIME_ZONE = "Europe/Stockholm"
USE_TZ = True

STATIC_URL = "/static/"
STATIC_ROOT: Path | None = BASE_DIR / "staticfiles"
STATICFILES_DIRS = [BASE_DIR / "static"]
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "whitenoise.storage.CompressedManifestStaticFilesStorage"},
}

# No inline script anywhere: every script is a static file.
from django.utils.csp import CSP  # noqa: E402

SECURE_CSP = {
    "default-src": [CSP.SELF],
    "script-src": [CSP.SELF],
    "style-src": [CSP.SELF],
    "img-src": [CSP.SELF, "data:"],
    "object-src": [CSP.NONE],
    "base-uri": [CSP.SELF],
    "frame-ancestors": [CSP.NONE],
    "form-action": [CSP.SELF],
}
SECURE_CONTENT_TYPE_NOSNIFF = True
SECURE_REFERRER_POLICY = "same-origin"
X_FRAME_OPTIONS = "DENY"
SESSION_COOKIE_HTTPONLY = True
SESSION_COOKIE_SAMESITE = "Lax"
DATA_UPLOAD_MAX_MEMORY_SIZE = 512 * 1024
FILE_UPLOAD_MAX_MEMORY_SIZE = 512 * 1024
# POSTs that create things, per client address and URL name (web/ratelimit.py: a sliding
# window counted in the cache); a name ending in * is a prefix, <game> any game's key (a new
# practice game: practice_<game>).
RATE_LIMITS: dict[str, str] = {"practice_<game>": "20/m", "scenarios_*": "20/m",
                               "live_start": "20/m", "tables_<game>_new": "10/m",
                               "tables_join": "30/m", "tables_sit": "30/m"}
# The home page shows the next lesson from the tutorials' progress cookies (tutorials/progress.py):
# its kept copies (web/pagecache.py) are keyed on them.
HOME_VARY_COOKIES: tuple[str, ...] = ("tutorials_done", "tutorials_stars")
# Wrong join codes per client address (live/views.py): only failures count, so a class
# behind one school address can all join at once.
LIVE_JOIN_FAILURES: str | None = "10/m"
# Tables with friends (tables/): wrong table codes per client address, how long a seat whose
# player left waits before a bot plays it, and how long a table lives without a move.
TABLE_JOIN_FAILURES: str | None = "10/m"
TABLE_GRACE_SECONDS = 60
TABLE_IDLE_MINUTES = 120
# Addresses or networks of the reverse proxies whose X-Forwarded-For is believed; none in
# development, so the client is REMOTE_ADDR.  prod.py reads them from the environment.
TRUSTED_PROXIES: list[str] = []

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": "WARNING"},
}
