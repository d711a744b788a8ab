"""The PostgreSQL backend's health check (dam_site/postgresql/base.py): no round trip for a
sound connection, and a connection the server ended, or one left in a failed transaction, is
replaced before a request uses it."""

import time

import dj_database_url
import psycopg
import pytest

from dam_site.postgresql.base import DatabaseWrapper

from .play import new_game, path
from .servers import Browser
from .test_servers import main_html


@pytest.fixture
def wrapper(e2e_database, django_db_blocker):
    # What Django's settings would fill in around the parsed URL.
    settings = {"OPTIONS": {}, "TIME_ZONE": None, "TEST": {},
                **dj_database_url.parse(e2e_database.url, conn_max_age=60,
                                        conn_health_checks=True),
                "ENGINE": "dam_site.postgresql", "AUTOCOMMIT": True, "ATOMIC_REQUESTS": False}
    db = DatabaseWrapper(settings)
    with django_db_blocker.unblock():  # a connection of its own, to the throwaway database
        db.ensure_connection()
        yield db
        db.close()


def backend_pid(db: DatabaseWrapper) -> int:
    db.ensure_connection()
    with db.connection.cursor() as cursor:
        return cursor.execute("SELECT pg_backend_pid()").fetchone()[0]


def terminate(e2e_database, *, pid: int | None = None) -> None:
    """End the server side of one connection (or of every other one to the database)."""
    with e2e_database.connect() as conn:
        if pid is not None:
            conn.execute("SELECT pg_terminate_backend(%s)", [pid])
        else:
            conn.execute("SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                         "WHERE datname = %s AND pid <> pg_backend_pid()", [e2e_database.name])


def test_a_sound_connection_is_usable_without_a_statement(wrapper, monkeypatch):
    backend_pid(wrapper)

    def refuse(*args, **kwargs):
        raise AssertionError("the health check sent a statement")

    monkeypatch.setattr(wrapper.connection, "cursor", refuse)
    monkeypatch.setattr(wrapper.connection, "execute", refuse)
    assert wrapper.is_usable()


def test_a_connection_the_server_ended_is_not_usable(wrapper, e2e_database):
    pid = backend_pid(wrapper)
    assert wrapper.is_usable()
    terminate(e2e_database, pid=pid)
    for _ in range(50):  # the server's goodbye reaches the socket within moments
        if not wrapper.is_usable():
            break
        time.sleep(0.02)
    assert not wrapper.is_usable()
    wrapper.health_check_done = False  # as at the end of a request
    wrapper.close_if_health_check_failed()
    assert wrapper.connection is None  # closed: the next use opens a new one
    assert backend_pid(wrapper) != pid


def test_a_connection_left_in_a_failed_transaction_is_not_usable(wrapper):
    wrapper.connection.autocommit = False
    with wrapper.connection.cursor() as cursor, pytest.raises(psycopg.errors.DivisionByZero):
        cursor.execute("SELECT 1 / 0")
    assert not wrapper.is_usable()


def test_a_server_whose_database_connections_were_ended_answers_the_next_request(
        start_server, e2e_database):
    server = start_server(workers=1)
    browser = Browser()
    game_id = new_game(browser, server.base)
    page = server.base + path("practice_dam_play", game_id)
    shown = browser.request(page)
    assert shown.status == 200
    terminate(e2e_database)
    time.sleep(0.2)
    again = browser.request(page)
    assert again.status == 200, again.text[:500]
    assert main_html(again.text) == main_html(shown.text)
