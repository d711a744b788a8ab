"""tests/conftest.py's guard for tests that run after a browser test in the same worker."""

from __future__ import annotations

import asyncio

import pytest
from asgiref.sync import async_to_sync

from tests.conftest import loop_set_aside


async def _answer() -> int:
    return 42


def test_async_to_sync_runs_with_a_foreign_loop_set_aside():
    loop = asyncio.new_event_loop()
    asyncio._set_running_loop(loop)  # as Playwright's sync API leaves it
    try:
        with pytest.raises(RuntimeError, match="same thread as an async event loop"):
            async_to_sync(_answer)()
        with loop_set_aside():
            assert async_to_sync(_answer)() == 42
        assert asyncio._get_running_loop() is loop
    finally:
        asyncio._set_running_loop(None)
        loop.close()


def test_nothing_changes_without_a_loop():
    with loop_set_aside():
        assert asyncio._get_running_loop() is None
    assert asyncio._get_running_loop() is None
