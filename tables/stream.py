"""The table's stream: Server-Sent Events of the ``game`` partial, drawn for the seat of the
browser that opened it (its session), on every message of the table's channel on the live bus.

As ``live.stream``: an async view under the ASGI process (``/live/`` goes there in production),
a blocking generator under runserver.  On connecting it sends the current state (a phone that
reconnects picks up where it was), then one event per change; with no message for ``QUIET``
seconds it reads the table again and sends a comment line.  While a seat's stream is open its
player counts as present: when the last one closes the seat counts as left, and after the
grace period a bot plays it until the page is opened again.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Iterator
from typing import Any

from django.conf import settings
from django.core.cache import cache
from django.http import HttpRequest, HttpResponse, StreamingHttpResponse
from django.utils import translation
from django.views.decorators.http import require_safe

from live import bus
from live.stream import CLOSE, ENDED_RETRY_MS, RETRY_MS, db, event, sse_response

from . import service as S
from . import views as V

QUIET = 10.0
LANGUAGES = {code for code, _name in settings.LANGUAGES}


def _render(request: HttpRequest, code: str, lang: str) -> tuple[str, bool, int | None]:
    """The partial for this browser's seat, whether the table still runs, and the seat."""
    table = S.find(code)
    if table is None:
        return "", False, None
    with translation.override(lang):
        html = V.partial(request, V.context(request, table))
    seat = S.seat_of(table, S.player_token(request.session))
    return html, not S.ended(table), seat


def _present(code: str, seat: int | None, here: bool) -> None:
    table = S.find(code)
    if table is not None and seat is not None and seat < len(table.seats):
        S.set_away(table, seat, not here)


def _opened(code: str, seat: int | None) -> None:
    """One more page open at ``seat`` (counted in the cache, shared by the app servers)."""
    if seat is not None:
        key = f"table-pages:{code}:{seat}"
        cache.add(key, 0, 24 * 3600)
        cache.incr(key)
        _present(code, seat, True)


def _closed(code: str, seat: int | None) -> None:
    """A page at ``seat`` closed: when it was the last, the seat counts as left."""
    if seat is not None:
        key = f"table-pages:{code}:{seat}"
        try:
            left = cache.decr(key)
        except ValueError:
            left = 0
        if left <= 0:
            _present(code, seat, False)


@require_safe
async def table_stream(request: HttpRequest, code: str, lang: str
                       ) -> HttpResponse | StreamingHttpResponse:
    code = S.normalise_code(code)
    if not code or lang not in LANGUAGES or await db(S.find, request)(code) is None:
        return HttpResponse(status=404)
    names = [bus.channel(code, "table")]

    async def agen() -> AsyncIterator[bytes]:
        yield f"retry: {RETRY_MS}\n\n".encode()
        seat = None
        try:
            async with bus.AsyncSubscription(names) as sub:
                shown = ""
                while True:
                    html, running, now = await db(_render)(request, code, lang)
                    if now != seat:  # sat down (or the first reading)
                        await db(_closed)(code, seat)
                        seat = now
                        await db(_opened)(code, seat)
                    if html and html != shown:
                        shown = html
                        yield event("state", html)
                    if not running:  # and EventSource is not to come back for an hour
                        yield f"retry: {ENDED_RETRY_MS}\n\n".encode() + CLOSE
                        return
                    if await sub.get(QUIET) is None:
                        await db(_present)(code, seat, True)
                        yield b": ping\n\n"
        finally:
            await asyncio.shield(db(_closed)(code, seat))

    def gen() -> Iterator[bytes]:
        yield f"retry: {RETRY_MS}\n\n".encode()
        seat: Any = None
        try:
            with bus.SyncSubscription(names) as sub:
                shown = ""
                while True:
                    html, running, now = _render(request, code, lang)
                    if now != seat:
                        _closed(code, seat)
                        seat = now
                        _opened(code, seat)
                    if html and html != shown:
                        shown = html
                        yield event("state", html)
                    if not running:  # and EventSource is not to come back for an hour
                        yield f"retry: {ENDED_RETRY_MS}\n\n".encode() + CLOSE
                        return
                    if sub.get(QUIET) is None:
                        _present(code, seat, True)
                        yield b": ping\n\n"
        finally:
            _closed(code, seat)

    return sse_response(request, agen, gen)
