"""Rate limiting of requests that create things (practice games, scenarios), with django-ratelimit.

``settings.RATE_LIMITS`` maps a URL name, or a prefix ending in ``*``, to a django-ratelimit
rate (``"20/m"``); only unsafe methods (POST, ...) count, per client address and URL name.  The
limits are applied here, by URL name, rather than with ``@ratelimit`` on each view so that one
table in the settings says what is limited (and tests can switch it with override_settings).

django-ratelimit counts in Django's cache (Redis in production, so every app server shares the
counters; local memory in development and tests).  Its window is fixed, not sliding: a client
gets ``count`` requests per period, and the period's edge is offset per client address, so a
burst across an edge can see up to twice the count in a short time.  A request over the limit
gets 429 with the translated page ``templates/429.html`` and ``Retry-After``; its view never runs.

The client address is REMOTE_ADDR unless the request came through a trusted proxy
(``settings.TRUSTED_PROXIES``, from the environment in production): then X-Forwarded-For is read
from the right, skipping trusted proxies, and the first address that is not one is the client.
An X-Forwarded-For sent by anyone else is ignored, so a client cannot choose its own key.
"""

from __future__ import annotations

import ipaddress
from collections.abc import Callable

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django_ratelimit import UNSAFE
from django_ratelimit.core import get_usage

# Every client whose address cannot be read (a Unix socket without a proxy header) shares one
# counter, as with any single address.
UNKNOWN = "0.0.0.0"


def _address(text: str) -> ipaddress.IPv4Address | ipaddress.IPv6Address | None:
    try:
        return ipaddress.ip_address(text.strip())
    except ValueError:
        return None


def _trusted(address: ipaddress.IPv4Address | ipaddress.IPv6Address) -> bool:
    return any(address in ipaddress.ip_network(net, strict=False)
               for net in getattr(settings, "TRUSTED_PROXIES", ()))


def client_ip(request: HttpRequest) -> str:
    """The client's address (``RATELIMIT_IP_META_KEY``): see the module docstring."""
    peer = _address(request.META.get("REMOTE_ADDR", ""))
    if peer is None:
        return UNKNOWN
    client = peer
    if _trusted(peer):
        forwarded = request.META.get("HTTP_X_FORWARDED_FOR", "").split(",")
        for text in reversed(forwarded):
            hop = _address(text)
            if hop is None:  # garbage can only come from the client's side of the header
                break
            client = hop
            if not _trusted(hop):
                break
    return str(client)


def limit_for(url_name: str) -> tuple[str, str] | None:
    """(pattern, rate) of the first RATE_LIMITS entry matching url_name."""
    for pattern, rate in getattr(settings, "RATE_LIMITS", {}).items():
        if pattern.endswith("*"):
            matches = url_name.startswith(pattern[:-1])
        else:
            matches = url_name == pattern
        if matches:
            return pattern, rate
    return None


class RateLimitMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        return self.get_response(request)

    def process_view(self, request: HttpRequest, view_func, view_args, view_kwargs
                     ) -> HttpResponse | None:
        match = getattr(request, "resolver_match", None)
        if match is None or not match.url_name:
            return None
        found = limit_for(match.url_name)
        if found is None:
            return None
        pattern, rate = found
        usage = get_usage(request, group=f"{pattern}:{match.url_name}", key="ip", rate=rate,
                          method=UNSAFE, increment=True)
        if usage is None or not usage["should_limit"]:
            return None
        retry = max(1, usage["time_left"])
        response = render(request, "429.html", {"retry_after": retry}, status=429)
        response["Retry-After"] = str(retry)
        return response
