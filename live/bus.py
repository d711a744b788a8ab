"""The message bus of the live classroom: Redis pub/sub, or an in-process hub without Redis.

The teacher's requests (any WSGI worker) ``publish`` a small JSON message on the session's
channel after changing its row; every open stream subscribed to that channel, in whichever
process, gets it and sends its page the new state.  With ``settings.LIVE_REDIS_URL`` (the
``REDIS_URL`` of production) the bus is Redis pub/sub, so publishers and streams may be on any
number of machines; without it (``make run``, the tests) it is a hub inside the process, which
is all one ``runserver`` needs.

Streams come in two kinds:

- ``AsyncSubscription`` for the ASGI process (uvicorn running ``dam_site.asgi``): one Redis
  connection per event loop (redis-py's asyncio client), subscribed to the channels some
  stream of that process follows, fanning each message out to the streams' queues.  Thousands
  of followers cost one Redis connection per process, not one each.
- ``SyncSubscription`` for a stream served by a WSGI server (``runserver`` in development; in
  production the load balancer sends ``/live/`` to the ASGI process instead): a blocking read,
  which holds its thread while the page is open.

A message lost on the way (Redis restarting) is not fatal: streams read the row again whenever
their channel has been quiet for a while (``live.stream``).
"""

from __future__ import annotations

import asyncio
import json
import logging
import queue
import threading
import weakref
from collections.abc import Callable, Iterable
from typing import Any

import redis
import redis.asyncio as aioredis
from django.conf import settings

log = logging.getLogger(__name__)
Deliver = Callable[[str, str], None]


def redis_url() -> str | None:
    return getattr(settings, "LIVE_REDIS_URL", None) or None


def channel(code: str, topic: str = "state") -> str:
    """The channel of one session's ``state`` (what followers show) or ``answers``."""
    return f"{getattr(settings, 'LIVE_CHANNEL_PREFIX', '')}live:{code}:{topic}"


class Hub:
    """Channel -> the deliver callables of this process's subscribers (thread-safe)."""

    def __init__(self) -> None:
        self._subscribers: dict[str, set[Deliver]] = {}
        self._lock = threading.Lock()

    def add(self, name: str, deliver: Deliver) -> bool:
        """Add a subscriber; True when it is the channel's first."""
        with self._lock:
            subs = self._subscribers.setdefault(name, set())
            subs.add(deliver)
            return len(subs) == 1

    def remove(self, name: str, deliver: Deliver) -> bool:
        """Remove a subscriber; True when the channel has none left."""
        with self._lock:
            subs = self._subscribers.get(name)
            if not subs:
                return False
            subs.discard(deliver)
            if subs:
                return False
            del self._subscribers[name]
            return True

    def dispatch(self, name: str, data: str) -> None:
        with self._lock:
            subs = list(self._subscribers.get(name, ()))
        for deliver in subs:
            deliver(name, data)

    def count(self, name: str) -> int:
        with self._lock:
            return len(self._subscribers.get(name, ()))


LOCAL = Hub()
_client_lock = threading.Lock()
_sync_client: Any = None


def _client() -> Any:
    global _sync_client
    with _client_lock:
        if _sync_client is None:
            _sync_client = redis.Redis.from_url(redis_url() or "", socket_timeout=5,
                                                 health_check_interval=30)
        return _sync_client


def publish(name: str, message: dict[str, Any]) -> None:
    """Send ``message`` to every subscriber of ``name`` in every process."""
    data = json.dumps(message, separators=(",", ":"))
    if redis_url():
        try:
            _client().publish(name, data)
        except Exception:  # noqa: BLE001 - the row is changed; streams re-read it
            log.exception("live: publishing on %s failed", name)
    else:
        LOCAL.dispatch(name, data)


# --------------------------------------------------------------------------- asyncio side
class _RedisListener:
    """One Redis pub/sub connection for one event loop, shared by its streams."""

    def __init__(self, url: str) -> None:
        self.hub = Hub()
        self.client = aioredis.Redis.from_url(url, health_check_interval=30)
        self.pubsub = self.client.pubsub(ignore_subscribe_messages=True)
        self.task: asyncio.Task | None = None
        self.lock = asyncio.Lock()

    async def add(self, name: str, deliver: Deliver) -> None:
        async with self.lock:
            if self.hub.add(name, deliver):
                await self.pubsub.subscribe(name)
            if self.task is None or self.task.done():
                self.task = asyncio.get_running_loop().create_task(self._run())

    async def remove(self, name: str, deliver: Deliver) -> None:
        async with self.lock:
            if self.hub.remove(name, deliver):
                try:
                    await self.pubsub.unsubscribe(name)
                except Exception:  # noqa: BLE001 - a broken connection drops it anyway
                    log.warning("live: unsubscribing from %s failed", name)

    async def _run(self) -> None:
        while True:
            try:
                message = await self.pubsub.get_message(timeout=5.0)
            except asyncio.CancelledError:
                raise
            except Exception:  # noqa: BLE001 - Redis gone: redis-py reconnects, resubscribes
                log.warning("live: Redis pub/sub read failed; retrying", exc_info=True)
                await asyncio.sleep(0.5)
                continue
            if message is None or message.get("type") != "message":
                if not self.pubsub.subscribed:
                    await asyncio.sleep(0.2)
                continue
            name = message["channel"]
            name = name.decode() if isinstance(name, bytes) else name
            data = message["data"]
            self.hub.dispatch(name, data.decode() if isinstance(data, bytes) else data)


_listeners: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, _RedisListener] = \
    weakref.WeakKeyDictionary()


class AsyncSubscription:
    """``async with AsyncSubscription([...]) as sub: data = await sub.get(timeout)``."""

    def __init__(self, names: Iterable[str]) -> None:
        self.names = list(names)
        self.queue: asyncio.Queue[tuple[str, str]] = asyncio.Queue()
        self.loop = asyncio.get_running_loop()
        self.listener: _RedisListener | None = None

    def _deliver(self, name: str, data: str) -> None:
        # Called on the loop's own thread (Redis) or any thread (the local hub).
        self.loop.call_soon_threadsafe(self.queue.put_nowait, (name, data))

    async def __aenter__(self) -> AsyncSubscription:
        url = redis_url()
        if url:
            self.listener = _listeners.get(self.loop)
            if self.listener is None:
                self.listener = _listeners[self.loop] = _RedisListener(url)
            for name in self.names:
                await self.listener.add(name, self._deliver)
        else:
            for name in self.names:
                LOCAL.add(name, self._deliver)
        return self

    async def __aexit__(self, *exc: object) -> None:
        for name in self.names:
            if self.listener is not None:
                await self.listener.remove(name, self._deliver)
            else:
                LOCAL.remove(name, self._deliver)

    async def get(self, timeout: float) -> tuple[str, str] | None:
        try:
            return await asyncio.wait_for(self.queue.get(), timeout)
        except TimeoutError:
            return None


# --------------------------------------------------------------------------- blocking side
class SyncSubscription:
    """The blocking counterpart, for a stream served by a WSGI server (development)."""

    def __init__(self, names: Iterable[str]) -> None:
        self.names = list(names)
        self.queue: queue.Queue[tuple[str, str]] = queue.Queue()
        self.pubsub: Any = None

    def _deliver(self, name: str, data: str) -> None:
        self.queue.put((name, data))

    def __enter__(self) -> SyncSubscription:
        if redis_url():
            self.pubsub = _client().pubsub(ignore_subscribe_messages=True)
            self.pubsub.subscribe(*self.names)
        else:
            for name in self.names:
                LOCAL.add(name, self._deliver)
        return self

    def __exit__(self, *exc: object) -> None:
        if self.pubsub is not None:
            self.pubsub.close()
        else:
            for name in self.names:
                LOCAL.remove(name, self._deliver)

    def get(self, timeout: float) -> tuple[str, str] | None:
        if self.pubsub is None:
            try:
                return self.queue.get(timeout=timeout)
            except queue.Empty:
                return None
        message = self.pubsub.get_message(timeout=timeout)
        if message is None or message.get("type") != "message":
            return None
        name, data = message["channel"], message["data"]
        return (name.decode() if isinstance(name, bytes) else name,
                data.decode() if isinstance(data, bytes) else data)
