"""Fixtures for the multi-process tests: a throwaway PostgreSQL database and gunicorn servers.

In CI (CI=true) a missing PostgreSQL, Redis or gunicorn fails the tests; elsewhere they are
skipped with the reason.
"""

import os
import secrets

import pytest

from .servers import AsgiServer, Database, Server, Unavailable, check_services


@pytest.fixture(scope="session")
def e2e_database():
    try:
        check_services()
    except Unavailable as exc:
        if os.environ.get("CI"):
            pytest.fail(str(exc))
        pytest.skip(str(exc))
    db = Database()
    db.create()
    yield db
    db.drop()


@pytest.fixture
def start_server(e2e_database):
    """start_server(workers=2, port=None, prefix=None) -> a running gunicorn; all are stopped
    when the test ends.  Servers of one test share the cache prefix unless told otherwise."""
    started: list[Server] = []
    prefix = f"e2e{secrets.token_hex(4)}"

    def start(workers: int = 2, port: int | None = None, cache_prefix: str | None = None):
        server = Server(e2e_database.url, cache_prefix or prefix, workers, port)
        started.append(server)
        return server.start()

    yield start
    for server in started:
        server.stop()


@pytest.fixture
def start_asgi(e2e_database):
    """start_asgi(prefix) -> a running uvicorn (dam_site.asgi); stopped when the test ends."""
    started: list[AsgiServer] = []

    def start(cache_prefix: str):
        server = AsgiServer(e2e_database.url, cache_prefix)
        started.append(server)
        return server.start()

    yield start
    for server in started:
        server.stop()
