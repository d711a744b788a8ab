"""Throwaway PostgreSQL databases, gunicorn and uvicorn servers and cookie-keeping HTTP clients for the
multi-process tests (concurrency, several app servers, restart) and bench/load.py.

Everything listens on 127.0.0.1 only.  gunicorn runs ``dam_site.settings.e2e`` (prod with
plain-HTTP cookies) against a PostgreSQL database created for the run and the Redis cache.
"""

from __future__ import annotations

import asyncio
import http.cookiejar
import os
import re
import secrets
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx

ROOT = Path(__file__).resolve().parent.parent.parent
BIN = ROOT / ".venv" / "bin"
PG_ADMIN = "postgresql://postgres@127.0.0.1:5432/postgres"
REDIS_URL = "redis://127.0.0.1:6379/0"


class Unavailable(Exception):
    """PostgreSQL, Redis or gunicorn is not there."""


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def check_services() -> None:
    import psycopg
    import redis

    try:
        psycopg.connect(PG_ADMIN, connect_timeout=3).close()
    except Exception as exc:  # noqa: BLE001
        raise Unavailable(
            f"PostgreSQL is not reachable at 127.0.0.1:5432 as postgres: {exc}") from exc
    try:
        redis.Redis.from_url(REDIS_URL, socket_timeout=3).ping()
    except Exception as exc:  # noqa: BLE001
        raise Unavailable(f"Redis is not reachable at 127.0.0.1:6379: {exc}") from exc
    if not (BIN / "gunicorn").exists():
        raise Unavailable(f"gunicorn is not installed in {BIN}")


@dataclass
class Database:
    """A PostgreSQL database made for one run, migrated with the site's content."""

    name: str = field(default_factory=lambda: f"dam_hardening_{os.getpid()}_{secrets.token_hex(3)}")

    @property
    def url(self) -> str:
        return f"postgresql://postgres@127.0.0.1:5432/{self.name}"

    def create(self) -> None:
        import psycopg

        with psycopg.connect(PG_ADMIN, autocommit=True) as conn:
            conn.execute(f'CREATE DATABASE "{self.name}"')
        env = server_env(self.url, "migrate")
        subprocess.run([str(BIN / "python"), "manage.py", "migrate", "--noinput", "-v", "0"],
                       cwd=ROOT, env=env, check=True, timeout=120)

    def drop(self) -> None:
        import psycopg

        with psycopg.connect(PG_ADMIN, autocommit=True) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{self.name}" WITH (FORCE)')

    def connect(self):
        import psycopg
        from psycopg.rows import dict_row

        return psycopg.connect(self.url, autocommit=True, row_factory=dict_row)


def server_env(database_url: str, cache_prefix: str) -> dict[str, str]:
    return {**os.environ, "DJANGO_SETTINGS_MODULE": "dam_site.settings.e2e",
            "SECRET_KEY": "e2e-" + "k" * 60, "ALLOWED_HOSTS": "127.0.0.1,localhost",
            "DATABASE_URL": database_url, "REDIS_URL": REDIS_URL,
            "E2E_CACHE_PREFIX": cache_prefix, "PYTHONPATH": str(ROOT)}


def _wait_until_healthy(process: subprocess.Popen, base: str, name: str,
                        stop: Callable[[], None]) -> None:
    """Wait up to 30 s for /healthz/ to answer; stop and raise if the server dies or never
    answers."""
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"{name} exited with {process.returncode}")
        try:
            with urllib.request.urlopen(base + "/healthz/", timeout=1) as r:
                if r.status == 200:
                    return
        except (OSError, urllib.error.URLError):
            time.sleep(0.1)
    stop()
    raise RuntimeError(f"{name} did not answer /healthz/ within 30 s")


def _terminate(process: subprocess.Popen | None, seconds: float) -> None:
    """Ask a server to stop, and kill it if it has not within ``seconds``."""
    if process is not None and process.poll() is None:
        process.terminate()
        try:
            process.wait(timeout=seconds)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


class Server:
    """One gunicorn instance (sync workers) on a free loopback port."""

    def __init__(self, database_url: str, cache_prefix: str, workers: int = 2,
                 port: int | None = None) -> None:
        self.database_url = database_url
        self.cache_prefix = cache_prefix
        self.workers = workers
        self.port = port or free_port()
        self.process: subprocess.Popen | None = None

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self) -> Server:
        self.process = subprocess.Popen(
            [str(BIN / "gunicorn"), "dam_site.wsgi", "--workers", str(self.workers),
             "--bind", f"127.0.0.1:{self.port}", "--log-level", "warning",
             "--timeout", "60", "--graceful-timeout", "5"],
            cwd=ROOT, env=server_env(self.database_url, self.cache_prefix),
            stdout=subprocess.DEVNULL, stderr=sys.stderr)
        _wait_until_healthy(self.process, self.base, "gunicorn", self.stop)
        return self

    def stop(self) -> None:
        _terminate(self.process, 15)
        self.process = None


class AsgiServer:
    """One uvicorn process running ``dam_site.asgi`` (the live classroom's streams) on a free
    loopback port, with the same settings as the gunicorn servers."""

    def __init__(self, database_url: str, cache_prefix: str, port: int | None = None,
                 extra_env: dict[str, str] | None = None) -> None:
        self.env = {**server_env(database_url, cache_prefix), **(extra_env or {})}
        self.port = port or free_port()
        self.process: subprocess.Popen | None = None

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self) -> AsgiServer:
        self.process = subprocess.Popen(
            [str(BIN / "uvicorn"), "dam_site.asgi:application", "--host", "127.0.0.1",
             "--port", str(self.port), "--log-level", "warning", "--no-access-log",
             "--timeout-graceful-shutdown", "2"],
            cwd=ROOT, env=self.env, stdout=subprocess.DEVNULL, stderr=sys.stderr)
        _wait_until_healthy(self.process, self.base, "uvicorn", self.stop)
        return self

    def stop(self) -> None:
        _terminate(self.process, 10)
        self.process = None


@contextmanager
def production(count: int, database_url: str, cache_prefix: str, workers: int
               ) -> Iterator[tuple[list[Server], list[AsgiServer]]]:
    """``count`` app servers arranged as production runs them (README, "Production"): each a
    gunicorn for the pages and a uvicorn for the ``/live/`` streams, all sharing the database
    and Redis; every one is stopped on leaving, whatever happens."""
    pages: list[Server] = []
    streams: list[AsgiServer] = []
    try:
        for _ in range(count):
            pages.append(Server(database_url, cache_prefix, workers=workers).start())
            streams.append(AsgiServer(database_url, cache_prefix).start())
        yield pages, streams
    finally:
        for stream in streams:
            stream.stop()
        for page in pages:
            page.stop()

class NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args, **kwargs):  # keep 302s visible to the caller
        return None


@dataclass
class Response:
    status: int
    text: str
    headers: dict[str, str]


class Browser:
    """A cookie jar and plain-HTML requests, as a browser without JavaScript sends them."""

    def __init__(self) -> None:
        self.jar = http.cookiejar.CookieJar()
        self.opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(self.jar),
                                                  NoRedirect())

    def csrf(self) -> str:
        return next((c.value for c in self.jar if c.name == "csrftoken"), "")

    def request(self, url: str, data: dict | None = None, headers: dict | None = None
                ) -> Response:
        body = None
        headers = dict(headers or {})
        if data is not None:
            body = urllib.parse.urlencode({**data, "csrfmiddlewaretoken": self.csrf()},
                                          doseq=True).encode()
        req = urllib.request.Request(url, data=body, headers=headers)
        try:
            with self.opener.open(req, timeout=60) as r:
                return Response(r.status, r.read().decode(), dict(r.headers))
        except urllib.error.HTTPError as e:
            return Response(e.code, e.read().decode(), dict(e.headers))


GAME_ID = re.compile(r"/([0-9a-f-]{36})/")


async def follow_events(client: Any, url: str, stop: Any, on_event: Callable[[str], None],
                        on_error: Callable[[], None]) -> None:
    """Read the Server-Sent Events at ``url`` with ``client`` (an ``httpx.AsyncClient``) until
    ``stop`` (an ``asyncio.Event``) is set: ``on_event`` gets each event's data, ``on_error``
    is called for a refused or broken stream, which is opened again after a pause (as
    EventSource does).  The benchmarks' phones read their streams so."""
    while not stop.is_set():
        try:
            async with client.stream("GET", url) as r:
                if r.status_code != 200:
                    on_error()
                    await asyncio.sleep(1)
                    continue
                data: list[str] = []
                async for line in r.aiter_lines():
                    if line.startswith("data: "):
                        data.append(line[6:])
                    elif line == "" and data:
                        on_event("\n".join(data))
                        data = []
                    if stop.is_set():
                        return
        except (httpx.HTTPError, asyncio.CancelledError) as exc:
            if isinstance(exc, asyncio.CancelledError) or stop.is_set():
                return
            on_error()
            await asyncio.sleep(0.5)
