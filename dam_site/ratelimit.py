"""Rate limiting of requests that create things (practice games, scenarios).

A middleware keyed on the client address and the URL name: ``settings.RATE_LIMITS`` maps a URL
name, or a prefix ending in ``*``, to ``"<count>/<s|m|h>"``; only unsafe methods (POST, ...)
count.  Counters live in Django's cache (Redis in production), so every app server shares them.
A request over the limit gets 429 with a translated page and ``Retry-After``; nothing runs.
"""

from __future__ import annotations

import time
from collections.abc import Callable

from django.conf import settings
from django.core.cache import cache
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

PERIODS = {"s": 1, "m": 60, "h": 3600}
SAFE_METHODS = {"GET", "HEAD", "OPTIONS", "TRACE"}


def parse_rate(rate: str) -> tuple[int, int]:
    """``"20/m"`` -> (20, 60)."""
    count, _sep, period = rate.partition("/")
    return int(count), PERIODS[period.strip().lower()[:1]]


def limit_for(url_name: str) -> tuple[str, int, int] | None:
    """(pattern, count, seconds) of the first RATE_LIMITS entry matching url_name."""
    for pattern, rate in getattr(settings, "RATE_LIMITS", {}).items():
        if pattern.endswith("*"):
            matches = url_name.startswith(pattern[:-1])
        else:
            matches = url_name == pattern
        if matches:
            count, seconds = parse_rate(rate)
            return pattern, count, seconds
    return None


def client_address(request: HttpRequest) -> str:
    # Behind a proxy, REMOTE_ADDR is the proxy's unless the proxy rewrites it (gunicorn's
    # --forwarded-allow-ips); trusting X-Forwarded-For blindly would let clients pick a key.
    return request.META.get("REMOTE_ADDR", "") or "unknown"


class RateLimitMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        return self.get_response(request)

    def process_view(self, request: HttpRequest, view_func, view_args, view_kwargs
                     ) -> HttpResponse | None:
        if request.method in SAFE_METHODS:
            return None
        match = getattr(request, "resolver_match", None)
        if match is None or not match.url_name:
            return None
        found = limit_for(match.url_name)
        if found is None:
            return None
        pattern, count, seconds = found
        window = int(time.time() // seconds)
        key = f"ratelimit:{pattern}:{match.url_name}:{client_address(request)}:{window}"
        if cache.add(key, 1, seconds + 1):
            used = 1
        else:
            try:
                used = cache.incr(key)
            except ValueError:  # expired between add and incr
                cache.add(key, 1, seconds + 1)
                used = 1
        if used <= count:
            return None
        retry = max(1, (window + 1) * seconds - int(time.time()))
        response = render(request, "429.html", {"retry_after": retry}, status=429)
        response["Retry-After"] = str(retry)
        return response
