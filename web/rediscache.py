"""Django's Redis cache, with one client per connection pool instead of one per operation.

Django builds a new ``redis.Redis`` for every cache operation; building one (it fills a table
of a few hundred reply callbacks) took longer than the round trip to Redis on loopback, and a
kept page makes two operations (the session, the page).  A ``redis.Redis`` is safe to share
between threads (each command takes a connection from the pool), so one per pool is kept.
"""

from __future__ import annotations

from typing import Any

from django.core.cache.backends.redis import RedisCache, RedisCacheClient


class SharedClient(RedisCacheClient):
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._clients: dict[int, Any] = {}

    def get_client(self, key: Any = None, *, write: bool = False) -> Any:
        django: Any = self  # the stubs leave out Django's own private names
        pool = django._get_connection_pool(write)
        client = self._clients.get(id(pool))
        if client is None:
            client = self._clients.setdefault(id(pool), django._client(connection_pool=pool))
        return client


class Cache(RedisCache):
    def __init__(self, server: Any, params: dict[str, Any]) -> None:
        super().__init__(server, params)
        self._class = SharedClient
