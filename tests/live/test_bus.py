"""The live classroom's bus: the in-process hub (make run, tests) and Redis pub/sub."""

import asyncio
import secrets
import threading

import pytest

from live import bus


def test_the_hub_delivers_to_each_subscriber_of_a_channel_only():
    hub, got = bus.Hub(), []
    a = lambda name, data: got.append(("a", data))  # noqa: E731
    b = lambda name, data: got.append(("b", data))  # noqa: E731
    assert hub.add("x", a) is True
    assert hub.add("x", b) is False
    hub.add("y", a)
    hub.dispatch("x", "1")
    assert sorted(got) == [("a", "1"), ("b", "1")]
    assert hub.remove("x", a) is False and hub.remove("x", b) is True
    assert hub.count("x") == 0


def _receive(names, publish_on, message):
    async def main():
        async with bus.AsyncSubscription(names) as sub:
            threading.Thread(target=lambda: bus.publish(publish_on, message)).start()
            return await sub.get(5)

    # A thread of its own: in a worker that ran a Playwright test first, this thread already
    # has a running event loop (the sync API's), and asyncio.run refuses to nest.
    result = {}
    runner = threading.Thread(target=lambda: result.update(value=asyncio.run(main())))
    runner.start()
    runner.join(10)
    return result.get("value")


def test_an_async_stream_gets_a_message_published_from_another_thread(settings):
    settings.LIVE_REDIS_URL = None
    name = bus.channel("ABCDEF")
    got = _receive([name], name, {"v": 2})
    assert got == (name, '{"v":2}')
    assert bus.LOCAL.count(name) == 0  # unsubscribed on leaving


def test_a_blocking_stream_gets_a_published_message(settings):
    settings.LIVE_REDIS_URL = None
    name = bus.channel("ABCDEF", "answers")
    with bus.SyncSubscription([name]) as sub:
        bus.publish(name, {"code": "ABCDEF"})
        assert sub.get(1) == (name, '{"code":"ABCDEF"}')
        assert sub.get(0.05) is None


def test_redis_carries_messages_between_subscribers(settings):
    redis = pytest.importorskip("redis")
    url = "redis://127.0.0.1:6379/0"
    try:
        redis.Redis.from_url(url, socket_timeout=1).ping()
    except redis.RedisError:
        pytest.skip("Redis is not running on 127.0.0.1:6379")
    settings.LIVE_REDIS_URL = url
    settings.LIVE_CHANNEL_PREFIX = f"test{secrets.token_hex(4)}:"
    bus._sync_client = None
    name = bus.channel("ABCDEF")
    try:
        assert _receive([name], name, {"v": 3}) == (name, '{"v":3}')
        with bus.SyncSubscription([name]) as sub:
            bus.publish(name, {"v": 4})
            got = None
            for _ in range(20):
                got = sub.get(0.2)
                if got:
                    break
            assert got == (name, '{"v":4}')
    finally:
        bus._sync_client = None
