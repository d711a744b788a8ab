"""The bots of a table move on the server (a task per bot move), with no page open: exactly
one move per version, scheduled once per position, after the grace period for a seat whose
player left."""

from __future__ import annotations

import random
import time
from datetime import timedelta

import pytest
from django.core.management import call_command
from django.test import Client, override_settings
from django.utils import timezone, translation

from tables import service as S

from .helpers import open_table, post_move, random_action, state_of, url

pytestmark = pytest.mark.django_db
DUMMY = {"default": {"BACKEND": "django.tasks.backends.dummy.DummyBackend"}}


def _dealt(game: str = "spardame", players: int = 4):
    """A table dealt by its host, the one person at it; the other seats bots."""
    host = Client()
    with translation.override("en"):
        table = open_table(host, game, players=players)
        assert host.post(url(table, "start")).status_code == 302
    table.refresh_from_db()
    return table, host


def _bot_tasks():
    return [r for r in S.bot_move.get_backend().results if r.task.name == "bot_move"]


def test_the_bots_play_up_to_the_persons_turn_with_no_page_asking():
    """Under the tests' immediate backend each task runs as it is enqueued: dealing and each
    move of the person leave the deal at the person's turn, nobody having asked for a step."""
    table, host = _dealt()
    seat = S.seat_of(table, host.session[S.PLAYER_KEY])
    for _move in range(3):
        state = state_of(table)
        assert state.over or state.to_move == seat
        if state.over:
            break
        version = table.deal.version
        assert post_move(host, table, random_action(state, random.Random(_move))
                         ).status_code == 302
        table.deal.refresh_from_db()
        assert table.deal.version > version
    names = table.deal.names
    assert any(not a.startswith(names[seat] + " ") for a in table.deal.actions)


@override_settings(TASKS=DUMMY)
def test_a_bot_move_task_moves_once_per_version():
    table, host = _dealt(players=4)
    seat = S.seat_of(table, host.session[S.PLAYER_KEY])
    rng = random.Random(3)
    while state_of(table).to_move == seat:  # the person moves until a bot is to
        post_move(host, table, random_action(state_of(table), rng))
    version = table.deal.version
    args = (str(table.pk), str(table.deal.pk), version)
    assert S.bot_move.call(*args) is True
    assert S.bot_move.call(*args) is False  # the same task again: nothing more
    table.deal.refresh_from_db()
    assert table.deal.version == version + 1 and len(table.deal.actions) == version + 1
    assert S.bot_move.call(str(table.pk), str(table.deal.pk), version - 1) is False


@override_settings(TASKS=DUMMY, PRACTICE_BOT_DELAY_MS=700)
def test_the_next_bot_move_is_enqueued_once_per_position_after_the_pause():
    table, host = _dealt()
    seat = S.seat_of(table, host.session[S.PLAYER_KEY])
    rng = random.Random(5)
    S.bot_move.get_backend().clear()
    while state_of(table).to_move == seat:
        before = timezone.now()
        post_move(host, table, random_action(state_of(table), rng))
    S.publish(table)
    S.publish(table)  # told again about the same position: still one task
    queued = _bot_tasks()
    assert [r.args for r in queued] == [[str(table.pk), str(table.deal.pk), table.deal.version]]
    assert before + timedelta(seconds=0.5) < queued[0].task.run_after < (
        timezone.now() + timedelta(seconds=0.8))


@override_settings(TASKS=DUMMY, TABLE_GRACE_SECONDS=60)
def test_a_seat_whose_player_left_is_played_at_the_end_of_the_grace_period():
    table, host = _dealt()
    seat = S.seat_of(table, host.session[S.PLAYER_KEY])
    while state_of(table).to_move != seat:  # the queued bot moves, run here
        assert S.bot_move.call(str(table.pk), str(table.deal.pk), table.deal.version)
    S.bot_move.get_backend().clear()
    assert host.post(url(table, "leave")).status_code == 302
    table.refresh_from_db()
    queued = _bot_tasks()
    assert len(queued) == 1
    left = table.seats[seat]["left"]
    due = queued[0].task.run_after.timestamp()
    assert left + 60 <= due <= left + 61
    # Run early (a worker's clock ahead), the task leaves the seat to its player.
    assert S.bot_move.call(*queued[0].args) is False
    # Run when due, a bot plays the seat.
    later = time.time() + 61
    with pytest.MonkeyPatch.context() as m:
        m.setattr(S.time, "time", lambda: later)
        assert S.bot_move.call(*queued[0].args) is True
    table.deal.refresh_from_db()
    assert table.deal.actions[-1].startswith(table.deal.names[seat] + " ")


@override_settings(TASKS={"default": {"BACKEND": "django_tasks_db.DatabaseBackend"}},
                   PRACTICE_BOT_DELAY_MS=0)
def test_a_worker_plays_the_bots_through_the_database_queue(worker_in_test):
    """The production path: the tasks are rows; a worker (run once here) plays every bot move
    up to the person's turn, one task per move."""
    from django_tasks_db.models import DBTaskResult

    table, host = _dealt(game="dam", players=3)
    seat = S.seat_of(table, host.session[S.PLAYER_KEY])
    rng = random.Random(7)
    while state_of(table).to_move == seat:
        post_move(host, table, random_action(state_of(table), rng))
    version = table.deal.version
    assert DBTaskResult.objects.filter(status="READY").count() == 1
    call_command("db_worker", batch=True, interval=0, startup_delay=False, verbosity=0)
    state = state_of(table)
    assert state.over or state.to_move == seat
    moved = table.deal.version - version
    assert moved >= 1
    assert DBTaskResult.objects.filter(status="SUCCESSFUL").count() == moved
