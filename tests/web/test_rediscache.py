"""web.rediscache: Django's Redis cache with one client per connection pool."""

from __future__ import annotations

import os
import secrets
import threading

import pytest

from web.rediscache import Cache

URL = "redis://127.0.0.1:6379/0"


@pytest.fixture
def cache():
    redis = pytest.importorskip("redis")
    try:
        redis.Redis.from_url(URL, socket_timeout=2).ping()
    except redis.exceptions.ConnectionError:
        # As the multi-server tests (tests/hardening/conftest.py): CI starts Redis, so there
        # its absence is a failure; a developer's machine without it skips.
        if os.environ.get("CI"):
            pytest.fail("Redis is not running on 127.0.0.1:6379")
        pytest.skip("Redis is not running on 127.0.0.1:6379")
    kept = Cache(URL, {"KEY_PREFIX": f"test-rediscache-{secrets.token_hex(4)}"})
    yield kept
    kept.delete_many([f"k{i}" for i in range(40)] + ["page"])


def test_one_client_serves_every_operation(cache):
    first = cache._cache.get_client()
    assert cache._cache.get_client() is first
    assert cache._cache.get_client(write=True) is first  # one server: one pool


def test_it_keeps_and_gives_back_as_djangos_does(cache):
    cache.set("page", "<p>" * 5000, 30)
    assert cache.get("page") == "<p>" * 5000
    assert cache.get("missing", "default") == "default"
    assert cache.add("page", "other") is False


def test_threads_share_the_client(cache):
    errors: list[BaseException] = []

    def work(i: int) -> None:
        try:
            for n in range(50):
                cache.set(f"k{i}", n)
                assert cache.get(f"k{i}") == n
        except BaseException as exc:  # noqa: BLE001  (reported below)
            errors.append(exc)

    threads = [threading.Thread(target=work, args=(i,)) for i in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []
