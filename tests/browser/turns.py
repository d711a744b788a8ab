"""The live server's threads take turns with the test database.

The test database is SQLite in memory, one connection that the live server's threads share;
SQLite's connection cannot be used by two threads at once.  In production every request and
stream has its own connection (PostgreSQL); here requests, the streams' readings and the
test's own queries take turns.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterable
from types import ModuleType
from typing import Any

DB = threading.RLock()


def locked(fn: Callable[..., Any]) -> Callable[..., Any]:
    def inner(*args: Any, **kwargs: Any) -> Any:
        with DB:
            return fn(*args, **kwargs)
    return inner


def take_turns(monkeypatch: Any, readers: Iterable[tuple[ModuleType, Iterable[str]]]) -> None:
    """Every request, and each of ``readers`` (a module and the names of its functions that
    read the database outside a request: the streams), one at a time."""
    from django.core.handlers.wsgi import WSGIHandler

    monkeypatch.setattr(WSGIHandler, "__call__", locked(WSGIHandler.__call__))
    for module, names in readers:
        for name in names:
            monkeypatch.setattr(module, name, locked(getattr(module, name)))
