"""Security settings: the content security policy, headers and cookies in production, and
limits on request sizes.  (``check --deploy`` on prod: tests/site/test_settings.py.)"""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from django.urls import reverse
from django.utils import translation

from practice.models import PracticeGame

ROOT = Path(__file__).resolve().parents[2]

PROD_PROBE = """
import json
from django.conf import settings as s
from django.test import Client
from games.registry import KEYS
from web.ratelimit import limit_for
c = Client()
r = c.get('/healthz/', secure=True, HTTP_HOST='dam.example')
plain = c.get('/en/', HTTP_HOST='dam.example')
plain_health = c.get('/healthz/', HTTP_HOST='dam.example')
print(json.dumps({
    "headers": {k.lower(): v for k, v in r.headers.items()},
    "plain_status": plain.status_code, "plain_location": plain.get("Location"),
    "plain_health": [plain_health.status_code, plain_health.content.decode()],
    "settings": {k: getattr(s, k) for k in (
        "SESSION_COOKIE_SECURE", "CSRF_COOKIE_SECURE", "SESSION_COOKIE_HTTPONLY",
        "SECURE_HSTS_SECONDS", "SECURE_SSL_REDIRECT", "DEBUG",
        "DATA_UPLOAD_MAX_MEMORY_SIZE", "FILE_UPLOAD_MAX_MEMORY_SIZE")},
    "limited": {k: limit_for(f"practice_{k}") is not None for k in KEYS},
    "middleware": s.MIDDLEWARE,
}))
"""


@pytest.fixture(scope="module")
def prod():
    env = {k: v for k, v in os.environ.items()
           if k not in {"DATABASE_URL", "REDIS_URL", "DJANGO_ALLOW_ASYNC_UNSAFE"}}
    env.update(DJANGO_SETTINGS_MODULE="dam_site.settings.prod", SECRET_KEY="p" * 60,
               ALLOWED_HOSTS="dam.example")
    result = subprocess.run([sys.executable, "manage.py", "shell", "--no-imports", "-c",
                             PROD_PROBE], cwd=ROOT, env=env, capture_output=True, text=True,
                            timeout=120)
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout.strip().splitlines()[-1])


def csp_directives(header: str) -> dict[str, list[str]]:
    out = {}
    for part in header.split(";"):
        words = part.split()
        if words:
            out[words[0]] = words[1:]
    return out


def test_prod_sends_hsts(prod):
    assert prod["settings"]["SECURE_HSTS_SECONDS"] >= 31536000
    assert "max-age=" in prod["headers"]["strict-transport-security"]


def test_prod_sends_nosniff_and_referrer_policy(prod):
    assert prod["headers"]["x-content-type-options"] == "nosniff"
    assert prod["headers"]["referrer-policy"] == "same-origin"
    assert prod["headers"]["x-frame-options"] == "DENY"


def test_prod_redirects_plain_http_to_https(prod):
    assert prod["plain_status"] == 301
    assert prod["plain_location"].startswith("https://dam.example/")


def test_prod_answers_a_plain_http_health_check(prod):
    """A load balancer's health check usually speaks plain HTTP to the app server: a redirect
    to HTTPS would read as a failed check."""
    assert prod["plain_health"] == [200, "ok"]


def test_prod_cookies_are_secure(prod):
    s = prod["settings"]
    assert s["SESSION_COOKIE_SECURE"] and s["CSRF_COOKIE_SECURE"] and s["SESSION_COOKIE_HTTPONLY"]
    assert s["DEBUG"] is False


def test_prod_limits_request_and_upload_sizes(prod):
    assert 0 < prod["settings"]["DATA_UPLOAD_MAX_MEMORY_SIZE"] <= 1024 * 1024
    assert 0 < prod["settings"]["FILE_UPLOAD_MAX_MEMORY_SIZE"] <= 1024 * 1024


def test_prod_rate_limits_game_creation(prod):
    assert "web.ratelimit.RateLimitMiddleware" in prod["middleware"]
    assert prod["limited"] == {"dam": True, "dolda": True, "spardame": True}


def test_prod_csp_allows_no_inline_script_or_style(prod):
    directives = csp_directives(prod["headers"]["content-security-policy"])
    for name in ("script-src", "style-src"):
        assert directives[name] == ["'self'"], directives
    assert directives["object-src"] == ["'none'"]
    assert directives["default-src"] == ["'self'"]
    header = prod["headers"]["content-security-policy"]
    for weak in ("unsafe-inline", "unsafe-eval", "unsafe-hashes", "nonce-", "sha256-", "*"):
        assert weak not in header


@pytest.mark.django_db
def test_every_page_sends_the_csp(client):
    with translation.override("en"):
        r = client.get(reverse("home"))
    assert "script-src 'self'" in r["Content-Security-Policy"]
    assert "unsafe-inline" not in r["Content-Security-Policy"]


@pytest.mark.django_db
def test_an_oversized_post_is_refused_and_changes_nothing(client):
    with translation.override("en"):
        url = reverse("practice_dam")
    body = "name=" + "a" * (1024 * 1024)
    r = client.post(url, body, content_type="application/x-www-form-urlencoded")
    assert r.status_code == 400
    assert PracticeGame.objects.count() == 0


@pytest.mark.django_db
def test_a_post_with_too_many_fields_is_refused(client):
    with translation.override("en"):
        url = reverse("practice_dam")
    body = "&".join(f"f{i}=1" for i in range(5000))
    r = client.post(url, body, content_type="application/x-www-form-urlencoded")
    assert r.status_code == 400
    assert PracticeGame.objects.count() == 0
