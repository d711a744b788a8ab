"""The live streams as the ASGI process serves them (async views, the shared renderings and
snapshots of live/stream.py)."""

from __future__ import annotations

import asyncio
import threading
from concurrent.futures import ThreadPoolExecutor

import pytest
from asgiref.sync import sync_to_async
from django.db import connections
from django.test import AsyncClient, Client

from live import stream
from live.models import LiveSession
from tests.hardening.test_live import control, go_live, join, url

# The stream reads the database from the thread pool: the rows must be committed.
pytestmark = pytest.mark.django_db(transaction=True)


WORKERS = 4


def in_a_loop(main):
    """Run ``main()`` in an event loop of a thread of its own (a Playwright test earlier in
    the worker may have left a running loop in this one).  Every thread that ran database
    work closes its connection at the end: PostgreSQL would keep the test database busy."""
    out: dict[str, object] = {}

    async def closing():
        loop = asyncio.get_running_loop()
        loop.set_default_executor(ThreadPoolExecutor(WORKERS))
        try:
            return await main()
        finally:
            together = threading.Barrier(WORKERS, timeout=10)

            def close() -> None:  # once in each worker: they all wait for each other
                together.wait()
                connections.close_all()

            await asyncio.gather(*(loop.run_in_executor(None, close) for _ in range(WORKERS)))
            await sync_to_async(connections.close_all)()  # the thread-sensitive calls' thread

    def run() -> None:
        try:
            out["value"] = asyncio.run(closing())
        except BaseException as exc:  # reported in the test's thread
            out["error"] = exc
        finally:
            connections.close_all()

    runner = threading.Thread(target=run)
    runner.start()
    runner.join(30)
    if "error" in out:
        raise out["error"]  # type: ignore[misc]
    return out["value"]


async def first_state(client: AsyncClient, code: str) -> str:
    response = await client.get(url("live_stream", args=[code, "en"]))
    assert response.status_code == 200
    chunks = response.streaming_content
    try:
        async for chunk in chunks:
            text = chunk.decode()
            if text.startswith("event: state"):
                return text
    finally:
        await chunks.aclose()
    raise AssertionError("the stream sent no state")


@pytest.mark.parametrize("change", [{"action": "next"}, {"action": "goto", "seat": "1"}])
def test_a_phone_connecting_just_after_a_change_gets_the_new_state(change):
    """Another phone's stream read the row a moment before the teacher's change (the
    process keeps that reading for a second, for the phones that come at once): a phone that
    connects after the change must still be shown the change, not the reading before it."""
    teacher, student = Client(), Client()
    code = go_live(teacher, step=1, seat=0)
    join(student, code)
    phone = AsyncClient()
    phone.cookies = student.cookies

    async def main() -> tuple[str, int]:
        await stream._fresh_snapshot(code)  # another phone's stream, a moment ago
        await sync_to_async(control)(teacher, code, **change)
        version = await sync_to_async(lambda: LiveSession.objects.get().version)()
        return await first_state(phone, code), version

    text, version = in_a_loop(main)
    assert f"id: {version}\n" in text
