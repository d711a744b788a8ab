"""Finished tutorials, remembered per browser in one cookie (no account, no database)."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse

from .lessons import TUTORIALS

COOKIE = "tutorials_done"
MAX_AGE = 365 * 24 * 3600
_KNOWN = {t.key for t in TUTORIALS.values()}


def finished(request: HttpRequest) -> set[str]:
    """Keys (``game:slug``) of the tutorials this browser finished; unknown values are ignored."""
    raw = request.COOKIES.get(COOKIE, "")
    return {k for k in raw.split(".") if k in _KNOWN}


def mark_finished(request: HttpRequest, response: HttpResponse, key: str) -> None:
    done = finished(request)
    if key in done or key not in _KNOWN:
        return
    done.add(key)
    response.set_cookie(COOKIE, ".".join(sorted(done)), max_age=MAX_AGE, samesite="Lax",
                        httponly=True, secure=request.is_secure())


def reset(response: HttpResponse) -> None:
    response.delete_cookie(COOKIE, samesite="Lax")
