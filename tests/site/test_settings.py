import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def manage(*args: str, **env: str) -> subprocess.CompletedProcess:
    environment = {k: v for k, v in os.environ.items()
                   if k not in {"SECRET_KEY", "ALLOWED_HOSTS", "DATABASE_URL", "REDIS_URL",
                                "DJANGO_ALLOW_ASYNC_UNSAFE"}}
    environment.update(DJANGO_SETTINGS_MODULE="dam_site.settings.prod", **env)
    return subprocess.run([sys.executable, "manage.py", *args], cwd=ROOT, env=environment,
                          capture_output=True, text=True, timeout=120)


def test_prod_settings_pass_check_deploy_without_warnings():
    result = manage("check", "--deploy", "--fail-level", "WARNING",
                    SECRET_KEY="k" * 20 + "-a-long-and-random-enough-production-secret-key-0123456789",
                    ALLOWED_HOSTS="dam.example,www.dam.example",
                    DATABASE_URL="postgres://user@127.0.0.1:5432/dam",
                    REDIS_URL="redis://127.0.0.1:6379/0")
    assert result.returncode == 0, result.stdout + result.stderr
    assert "System check identified no issues" in result.stdout


def test_prod_refuses_to_start_without_a_secret_key():
    result = manage("check", ALLOWED_HOSTS="dam.example")
    assert result.returncode != 0
    assert "SECRET_KEY must be set" in result.stderr


def test_prod_reads_database_cache_and_hosts_from_the_environment():
    code = ("from django.conf import settings as s; "
            "print(s.DATABASES['default']['ENGINE'], s.CACHES['default']['BACKEND'], "
            "s.SESSION_ENGINE, s.ALLOWED_HOSTS)")
    result = manage("shell", "--no-imports", "-c", code, SECRET_KEY="x" * 60, ALLOWED_HOSTS="a.example,b.example",
                    DATABASE_URL="postgres://user@127.0.0.1:5432/dam",
                    REDIS_URL="redis://127.0.0.1:6379/0")
    assert result.returncode == 0, result.stderr
    assert result.stdout.split(" ", 3) == [
        "dam_site.postgresql", "web.rediscache.Cache",
        "django.contrib.sessions.backends.cached_db", "['a.example', 'b.example']\n"]


def test_without_database_url_sqlite_and_local_memory_cache_are_used():
    from dam_site.settings import base

    assert base.cache_settings(None)["default"]["BACKEND"].endswith("LocMemCache")
    if not os.environ.get("DATABASE_URL"):
        from django.conf import settings

        assert settings.DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3"
