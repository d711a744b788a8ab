"""The live streams: Server-Sent Events that htmx's SSE extension swaps into the pages.

``/live/<code>/<lang>/`` is a student's stream (event ``state``: the ``follow`` partial of
``live/follow.html`` in that language) and ``/live/<code>/<lang>/teacher/`` the projector's
(event ``panel``: who joined and answered, the chart).  Both are async views: under the ASGI
process (``uvicorn dam_site.asgi:application``, where production's load balancer sends
``/live/``) an open stream is a coroutine waiting on the bus, not a worker or thread; under
``runserver`` (development, WSGI) Django cannot serve an endless async iterator, so the same
stream is a blocking generator there (one of runserver's threads per open page).

On connecting, a stream sends the current state at once: a phone that slept or lost the
network (EventSource reconnects by itself; ``static/js/catchup.js`` also asks again when the page
becomes visible) catches up with no help.  After that it sends each new version published on
the bus, and re-reads the session when the bus has been quiet for ``QUIET`` seconds, so a lost
message costs at most that long.  A comment line every ``QUIET`` seconds keeps proxies from
closing an idle connection.  A stream ends when the session ends or expires.

Rendering is shared: one rendering per (session version, language, the student's answer) per
process, however many phones follow; each stream then sends that text.
"""

from __future__ import annotations

import asyncio
import functools
import json
import time
from collections import OrderedDict
from collections.abc import AsyncIterator, Callable, Iterator
from typing import Any

from asgiref.sync import sync_to_async
from django.conf import settings
from django.core.handlers.asgi import ASGIRequest
from django.http import HttpRequest, HttpResponse, StreamingHttpResponse
from django.urls import reverse
from django.utils import translation
from django.utils.translation import gettext as _
from django.views.decorators.http import require_safe

from . import bus
from . import service as S
from .models import LiveSession
from .render import render_follow, render_panel

QUIET = 15.0  # seconds without a message before the row is read again
RETRY_MS = 1000  # EventSource's reconnection delay
LANGUAGES = {code for code, _name in settings.LANGUAGES}
# Database work of the streams runs on the shared thread pool, not in a thread of each request
# (Django's default for async views), so the open streams of a process hold a few database
# connections between them rather than one each.
# Under a WSGI server (runserver, the test client) the view's own thread does it, as any view.
def db(fn: Callable[..., Any], request: HttpRequest | None = None) -> Callable[..., Any]:
    pooled = request is None or isinstance(request, ASGIRequest)
    return sync_to_async(fn, thread_sensitive=not pooled)


_memo: OrderedDict[tuple, str] = OrderedDict()
_MEMO_SIZE = 512
_inflight: dict[tuple, asyncio.Future] = {}


def _remember(key: tuple, html: str) -> str:
    _memo[key] = html
    _memo.move_to_end(key)
    while len(_memo) > _MEMO_SIZE:
        _memo.popitem(last=False)
    return html


def event(name: str, data: str, ident: str = "") -> bytes:
    lines = [f"event: {name}"]
    if ident:
        lines.append(f"id: {ident}")
    lines += [f"data: {line}" for line in data.splitlines() or [""]]
    return ("\n".join(lines) + "\n\n").encode()


# --------------------------------------------------------------------------- rendering
def _render_follow(snap: dict[str, Any], lang: str, choice: str | None) -> str:
    with translation.override(lang):
        ctx = S.follow_context(snap, choice)
        return render_follow(ctx, reverse("live_answer", args=[snap["code"]]))


def _render_panel(code: str, lang: str) -> tuple[str, bool]:
    """The projector's panel and whether the session still runs."""
    obj = LiveSession.objects.filter(code=code).first()
    if obj is None:
        return "", False
    with translation.override(lang):
        return render_panel(obj), S.is_running(obj)


def _follow_key(snap: dict[str, Any], lang: str, choice: str | None) -> tuple:
    return ("follow", snap["code"], snap["v"], snap["running"], lang, choice)


class Follower:
    """What one stream has shown; ``chunks`` says what to send for a snapshot."""

    def __init__(self, code: str, lang: str, student: int | None) -> None:
        self.code, self.lang, self.student = code, lang, student
        self.shown: tuple | None = None

    def choice(self, snap: dict[str, Any]) -> str | None:
        return snap.get("answers", {}).get(str(self.student)) if snap.get("qs") else None

    def wants(self, snap: dict[str, Any] | None) -> tuple | None:
        """The rendering to send for ``snap``, or None when it is already shown (or older)."""
        if snap is None:
            return None
        key = _follow_key(snap, self.lang, self.choice(snap))
        if self.shown is not None and (key[2] < self.shown[2] or key == self.shown):
            return None
        return key


# --------------------------------------------------------------------------- views
def sse_response(request: HttpRequest, agen: Callable[[], AsyncIterator[bytes]],
            gen: Callable[[], Iterator[bytes]]) -> StreamingHttpResponse:
    body = agen() if isinstance(request, ASGIRequest) else gen()
    response = StreamingHttpResponse(body, content_type="text/event-stream; charset=utf-8")
    response["Cache-Control"] = "no-store"
    response["X-Accel-Buffering"] = "no"  # nginx: send each event at once
    return response


def gone(lang: str) -> HttpResponse:
    with translation.override(lang if lang in LANGUAGES else settings.LANGUAGE_CODE):
        text = str(S.NO_SESSION)
    return HttpResponse(text, status=404, content_type="text/plain; charset=utf-8")


async def session_value(request: HttpRequest, key: str, code: str) -> Any:
    value = await db(request.session.get, request)(key) or {}
    return value.get(code) if isinstance(value, dict) else None


@require_safe
async def follow_stream(request: HttpRequest, code: str, lang: str) -> HttpResponse | StreamingHttpResponse:
    code = S.normalise_code(code)
    student = await session_value(request, S.SESSION_STUDENT, code) if code else None
    if lang not in LANGUAGES or not isinstance(student, int):
        return gone(lang)
    snap = await db(_current, request)(code, student)
    if snap is None:
        if await db(S.ended_for, request)(code, student):
            return sse_response(request, lambda: _ended_async(lang), lambda: iter([_ended_event(lang)]))
        return gone(lang)
    follower = Follower(code, lang, student)
    names = [bus.channel(code)]
    return sse_response(request, lambda: _follow_async(follower, names, snap),
                   lambda: _follow_sync(follower, names, snap))


def _current(code: str, student: int | None) -> dict[str, Any] | None:
    """The session's snapshot if it runs and ``student`` (when given) joined it."""
    obj = S.active(code)
    if obj is None:
        return None
    if student is not None and not obj.students.filter(pk=student).exists():
        return None
    return S.snapshot(obj)


_snapshots: dict[str, tuple[float, asyncio.Future]] = {}


async def _fresh_snapshot(code: str, since: float | None = None) -> dict[str, Any] | None:
    """The row again, read once per process per second however many streams ask; with
    ``since`` (a ``time.monotonic()``), only a reading begun after that moment will do."""
    now = time.monotonic()
    held = _snapshots.get(code)
    if held is None or now - held[0] > 1.0 or (since is not None and held[0] <= since):
        future = asyncio.get_running_loop().create_task(
            db(S.load_snapshot)(code))
        held = _snapshots[code] = (now, future)
        if len(_snapshots) > 1000:
            for key in [k for k, (t, _f) in _snapshots.items() if now - t > 5]:
                _snapshots.pop(key, None)
    return await asyncio.shield(held[1])


async def _render_async(key: tuple, make: Callable[[], str]) -> str:
    if key in _memo:
        return _memo[key]
    future = _inflight.get(key)
    if future is None:
        future = asyncio.get_running_loop().create_future()
        _inflight[key] = future
        try:
            html = await db(make)()
            future.set_result(_remember(key, html))
        except BaseException as exc:
            future.set_exception(exc)
            raise
        finally:
            _inflight.pop(key, None)
    return await asyncio.shield(future)


def _ended(lang: str) -> str:
    with translation.override(lang):
        return str(_("This live session has ended. Thank you for following!"))


# A phone still open on an ended session would reconnect every RETRY_MS: the last event asks
# EventSource to wait an hour instead.
ENDED_RETRY_MS = 3_600_000
# The last event of a stream that ends with its session: the pages' sse-close names it, so the
# SSE extension closes the source itself.  Otherwise EventSource reports the closed connection
# as an error, which the extension logs to the console on every phone and the projector.
CLOSE = event("end", "")


def _ended_event(lang: str) -> bytes:
    return (f"retry: {ENDED_RETRY_MS}\n\n".encode()
            + event("state", f'<p class="live-ended">{_ended(lang)}</p>') + CLOSE)


async def _ended_async(lang: str) -> AsyncIterator[bytes]:
    yield _ended_event(lang)


async def _follow_async(follower: Follower, names: list[str],
                        snap: dict[str, Any] | None) -> AsyncIterator[bytes]:
    yield f"retry: {RETRY_MS}\n\n".encode()
    async with bus.AsyncSubscription(names) as sub:
        # Subscribed before the first state is drawn: nothing published meanwhile is lost,
        # provided the row is read after subscribing.  An older reading another stream shares
        # may predate a change whose message came before this subscription, and no message
        # would repair it for QUIET seconds.
        snap = await _fresh_snapshot(follower.code, since=time.monotonic()) or snap
        while True:
            key = follower.wants(snap)
            if snap is None:
                yield _ended_event(follower.lang)
                return
            if key is not None:
                choice = follower.choice(snap)
                html = await _render_async(
                    key, functools.partial(_render_follow, snap, follower.lang, choice))
                follower.shown = key
                yield event("state", html, str(snap["v"]))
            if not snap["running"]:
                yield f"retry: {ENDED_RETRY_MS}\n\n".encode() + CLOSE
                return
            message = await sub.get(QUIET)
            if message is None:
                snap = await _fresh_snapshot(follower.code)
                yield b": ping\n\n"
            else:
                snap = _checked(json.loads(message[1]))


def _checked(snap: dict[str, Any]) -> dict[str, Any]:
    if snap.get("running") and snap.get("expires", 0) < time.time():
        snap = {**snap, "running": False}
    return snap


def _follow_sync(follower: Follower, names: list[str],
                 snap: dict[str, Any] | None) -> Iterator[bytes]:
    yield f"retry: {RETRY_MS}\n\n".encode()
    with bus.SyncSubscription(names) as sub:
        snap = S.load_snapshot(follower.code) or snap
        while True:
            key = follower.wants(snap)
            if snap is None:
                yield _ended_event(follower.lang)
                return
            if key is not None:
                html = _memo.get(key) or _remember(
                    key, _render_follow(snap, follower.lang, follower.choice(snap)))
                follower.shown = key
                yield event("state", html, str(snap["v"]))
            if not snap["running"]:
                yield f"retry: {ENDED_RETRY_MS}\n\n".encode() + CLOSE
                return
            message = sub.get(QUIET)
            if message is None:
                snap = S.load_snapshot(follower.code)
                yield b": ping\n\n"
            else:
                snap = _checked(json.loads(message[1]))


# --------------------------------------------------------------------------- projector
@require_safe
async def teacher_stream(request: HttpRequest, code: str, lang: str) -> HttpResponse | StreamingHttpResponse:
    code = S.normalise_code(code)
    key = await session_value(request, S.SESSION_TEACHER, code) if code else None
    if lang not in LANGUAGES or not key:
        return gone(lang)
    obj = await db(LiveSession.objects.filter(code=code).first, request)()
    if obj is None or not S.is_teacher({S.SESSION_TEACHER: {code: key}}, obj):
        return gone(lang)
    names = [bus.channel(code), bus.channel(code, "answers")]
    # Answers come in bursts: the chart is drawn once for all that arrive within 0.2 s.
    return sse_response(request, *redrawn(lambda: _render_panel(code, lang), "panel", names,
                                     quiet=QUIET, burst=0.2))


def redrawn(render: Callable[[], tuple[str, bool]], name: str, channels: list[str], *,
            quiet: float, burst: float
            ) -> tuple[Callable[[], AsyncIterator[bytes]], Callable[[], Iterator[bytes]]]:
    """A stream that sends ``render()``'s HTML as event ``name`` now and after every message
    on ``channels`` (messages that come within ``burst`` seconds of one another are drawn
    once), and every ``quiet`` seconds without one, until ``render`` says it no longer runs:
    the async body (ASGI) and the blocking one (runserver, the test client), for ``_stream``."""
    async def agen() -> AsyncIterator[bytes]:
        yield f"retry: {RETRY_MS}\n\n".encode()
        async with bus.AsyncSubscription(channels) as sub:
            while True:
                html, running = await db(render)()
                if html:
                    yield event(name, html)
                if not running:
                    yield CLOSE
                    return
                if await sub.get(quiet) is None:
                    yield b": ping\n\n"
                    continue
                deadline = time.monotonic() + burst
                while (left := deadline - time.monotonic()) > 0 and await sub.get(left):
                    pass

    def gen() -> Iterator[bytes]:
        yield f"retry: {RETRY_MS}\n\n".encode()
        with bus.SyncSubscription(channels) as sub:
            while True:
                html, running = render()
                if html:
                    yield event(name, html)
                if not running:
                    yield CLOSE
                    return
                if sub.get(quiet) is None:
                    yield b": ping\n\n"

    return agen, gen
