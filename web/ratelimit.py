"""Rate limiting of requests that create things (practice games, scenarios): a sliding window
counted in Django's cache.

``settings.RATE_LIMITS`` maps a URL name, or a prefix ending in ``*``, to a rate (``"20/m"``;
a ``<game>`` in a name stands for every game of the registry, so that the settings name no game;
also ``"5/10s"``, units s, m, h, d); only unsafe methods (POST, ...) count, per client address
and URL name.  The limits are applied here, by URL name, rather than with a decorator on each
view, so that one table in the settings says what is limited (and tests can switch it with
override_settings).

Why not django-ratelimit alone: version 4.1.0 counts in fixed windows only (its ``get_usage``
keys a counter on the current period, offset per address), so a burst across a window's edge
passes up to twice the count in a moment; it has no sliding window.  This module keeps its
idea (counters in the shared cache, per group and client) and counts the standard sliding
window approximation instead: two adjacent fixed windows, the previous one weighted by the
part of it that still lies inside the last period::

    estimate = previous_count * (1 - elapsed / period) + current_count

A request is let through while the estimate, itself included, stays within the count.  Only
requests let through are counted (a refused one takes its increment back), so
``Retry-After`` says when a request will pass again.  A burst across a window's edge is held
to the count: in the ``b`` seconds after an edge at most about ``count * b / period`` more pass
than passed just before it.  The estimate assumes the previous window's requests were spread
evenly, so requests bunched at the end of one window and spread through the next can still
come to nearly twice the count within one whole period (never within a few seconds).  The
counters live in the cache (Redis in production, so every app server shares them; local
memory in development and tests) and ``cache.incr`` is atomic in both.  A request over the
limit gets 429 with the translated page ``templates/429.html`` and ``Retry-After``; its view
never runs.

The client address is REMOTE_ADDR unless the request came through a trusted proxy
(``settings.TRUSTED_PROXIES``, from the environment in production): then X-Forwarded-For is read
from the right, skipping trusted proxies, and the first address that is not one is the client.
An X-Forwarded-For sent by anyone else is ignored, so a client cannot choose its own key.  IPv6
clients are counted per /64 (one host usually holds the whole /64).
"""

from __future__ import annotations

import hashlib
import ipaddress
import math
import re
import time
from collections.abc import Callable
from dataclasses import dataclass

from django.conf import settings
from django.core.cache import cache
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from games.registry import KEYS

SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS", "TRACE"})
PERIODS = {"s": 1, "m": 60, "h": 3600, "d": 86400}
RATE = re.compile(r"^\s*(\d+)\s*/\s*(\d*)\s*([smhd])\s*$")
KEY_PREFIX = "rl:sw:"
IPV6_PREFIX = 64

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
    """The client's address: see the module docstring."""
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


GAME = "<game>"


def _names(pattern: str) -> list[str]:
    """The URL names (or prefixes) ``pattern`` stands for: one per game for a ``<game>``."""
    if GAME not in pattern:
        return [pattern]
    return [pattern.replace(GAME, key) for key in KEYS]


def limit_for(url_name: str) -> tuple[str, str] | None:
    """(pattern, rate) of the first RATE_LIMITS entry matching url_name."""
    for pattern, rate in getattr(settings, "RATE_LIMITS", {}).items():
        if pattern.endswith("*"):
            matches = any(url_name.startswith(p[:-1]) for p in _names(pattern))
        else:
            matches = url_name in _names(pattern)
        if matches:
            return pattern, rate
    return None


def client_key(request: HttpRequest) -> str:
    """The address a client is counted under: its address, an IPv6 one cut to its /64."""
    address = ipaddress.ip_address(client_ip(request))
    if address.version == 6:
        return str(ipaddress.ip_network(f"{address}/{IPV6_PREFIX}", strict=False).network_address)
    return str(address)


def parse_rate(rate: str) -> tuple[int, int]:
    """``"20/m"`` -> (20, 60); ``"5/10s"`` -> (5, 10).  ValueError for anything else."""
    match = RATE.match(rate)
    if match is None:
        raise ValueError(f"not a rate: {rate!r}")
    count, multiple, unit = match.groups()
    seconds = PERIODS[unit] * (int(multiple) if multiple else 1)
    if seconds <= 0:
        raise ValueError(f"not a rate: {rate!r}")
    return int(count), seconds


@dataclass(frozen=True)
class Usage:
    count: float  # the sliding-window estimate, this request included
    limit: int
    should_limit: bool
    retry_after: int  # whole seconds until a request would pass (0 when this one does)


def _key(group: str, client: str, window: int, period: int) -> str:
    digest = hashlib.sha256(f"{group}\0{client}\0{period}".encode()).hexdigest()[:32]
    return f"{KEY_PREFIX}{digest}:{window}"


def _wait(limit: int, period: int, previous: int, current: int, elapsed: float) -> float:
    """Seconds from now until ``previous * (1 - t / period) + current + 1 <= limit``, with t the
    time into the current window (the previous count stops counting at the window's end)."""
    if limit <= 0:
        return period
    if current + 1 > limit:  # only the next window helps: then the current one is "previous"
        rest = period - elapsed
        need = 1 - (limit - 1) / current  # fraction of the next window to wait
        return rest + max(0.0, need) * period
    if previous <= 0:
        return 0.0
    need = 1 - (limit - current - 1) / previous
    return max(0.0, need * period - elapsed)


def sliding_usage(group: str, client: str, rate: str, increment: bool = True,
                  now: float | None = None) -> Usage:
    """Count a request of ``client`` in ``group`` against ``rate`` (a sliding window over two
    cached fixed windows; see the module docstring)."""
    limit, period = parse_rate(rate)
    now = time.time() if now is None else now
    window = int(now // period)
    elapsed = now - window * period
    weight = 1 - elapsed / period
    current_key = _key(group, client, window, period)
    previous = int(cache.get(_key(group, client, window - 1, period)) or 0)
    if increment:
        # Kept for two periods: it is read as the previous window during the next one.
        cache.add(current_key, 0, timeout=2 * period + 5)
        try:
            current = cache.incr(current_key)
        except ValueError:  # evicted between add and incr
            cache.set(current_key, 1, timeout=2 * period + 5)
            current = 1
    else:
        current = int(cache.get(current_key) or 0) + 1
    estimate = previous * weight + current
    if estimate <= limit:
        return Usage(estimate, limit, False, 0)
    if increment:
        try:
            cache.decr(current_key)  # a refused request is not counted
        except ValueError:
            pass
    wait = _wait(limit, period, previous, current - 1, elapsed)
    return Usage(estimate, limit, True, max(1, math.ceil(wait)))


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
        pattern, rate = found
        usage = sliding_usage(f"{pattern}:{match.url_name}", client_key(request), rate)
        if not usage.should_limit:
            return None
        response = render(request, "429.html", {"retry_after": usage.retry_after}, status=429)
        response["Retry-After"] = str(usage.retry_after)
        return response
