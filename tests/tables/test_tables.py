"""Tables with friends through the views: opening, sitting down, dealing, moves for one's own
seat only, one move per version, bots in the empty seats, leaving and coming back, the next
deal with the match carried over, idle tables ending, rate limits, for every game."""

from __future__ import annotations

import html
import random
import re
import time
from datetime import timedelta

import pytest
from django.test import Client, override_settings
from django.utils import timezone, translation
from django.utils.html import escape

from games.adapters import adapter
from practice import service as P
from practice.models import PracticeGame
from tables import service as S
from tables.models import Table

from .helpers import open_table, post_move, random_action, sit, state_of, url

pytestmark = pytest.mark.django_db
GAMES = ["dam", "dolda", "spardame"]


def _seated(game: str, humans: int = 2):
    """A table of ``game`` with ``humans`` people (clients), dealt; the other seats bots."""
    clients = [Client() for _ in range(humans)]
    with translation.override("en"):
        table = open_table(clients[0], game)
        for i, c in enumerate(clients[1:], start=2):
            r = sit(c, table, f"P{i}")
            assert r.status_code == 302
        r = clients[0].post(url(table, "start"))
        assert r.status_code == 302
    table.refresh_from_db()
    return table, clients


def _client_for(table: Table, clients: list[Client], seat: int) -> Client | None:
    for c in clients:
        if S.seat_of(table, c.session.get(S.PLAYER_KEY)) == seat:
            return c
    return None


def play_deal(table: Table, clients: list[Client], rng: random.Random, check=None) -> None:
    """Play the current deal to its end: people move at random, anyone asks for bot moves."""
    for _turn in range(3000):
        state = state_of(table)
        if state.over:
            return
        seat = state.to_move
        mover = _client_for(table, clients, seat)
        if mover is None or S.is_bot(table, seat):
            r = clients[rng.randrange(len(clients))].post(
                url(table, "step"), {"version": table.deal.version})
        else:
            r = post_move(mover, table, random_action(state, rng))
        assert r.status_code == 302, r.content.decode()[:1500]
        if check is not None:
            check()
    raise AssertionError("the deal never ended")


@pytest.mark.parametrize("game", GAMES)
def test_a_whole_match_deal_with_people_and_bots(game):
    table, clients = _seated(game, humans=2)
    assert [bool(s["player"]) for s in table.seats][:2] == [True, True]
    assert table.deal.names[:2] == ["Host", "P2"]
    rng = random.Random(game)
    play_deal(table, clients, rng)
    first = table.deal
    assert first.result is not None
    # Only the host starts the next deal; the match goes on (same series, scores carried).
    r = clients[1].post(url(table, "next"), {"version": first.version})
    assert r.status_code == 403
    r = clients[0].post(url(table, "next"), {"version": first.version})
    assert r.status_code == 302
    table.refresh_from_db()
    assert table.deal.deal_number == 2 and table.deal.series == first.series
    # A second press (the same page) finds the deal made, never a third.
    clients[0].post(url(table, "next"), {"version": first.version})
    assert PracticeGame.objects.filter(series=first.series).count() == 2
    play_deal(table, clients, rng)
    standing = P.standing(table.deal)
    assert len(P.series_games(table.deal)) == 2
    with translation.override("en"):
        page = clients[1].get(url(table)).content.decode()
    for row in P.series_summary(table.deal)["rows"]:
        assert f"<th scope=\"row\">{row['name']}</th><td>{row['value']}</td>" in page
    assert standing.values  # the adapter's standing over both deals


@pytest.mark.parametrize("game", GAMES)
def test_only_the_seat_to_move_moves(game):
    table, clients = _seated(game, humans=2)
    state, mover = _human_to_move(table, clients)
    version = table.deal.version
    other = next(c for c in clients if c is not mover)
    action = random_action(state, random.Random(1))
    # The other player cannot move (for this seat or their own).
    r = post_move(other, table, action)
    assert r.status_code == 409
    # A visitor without a seat cannot either.
    r = post_move(Client(), table, action)
    assert r.status_code == 403
    table.deal.refresh_from_db()
    assert table.deal.version == version


@pytest.mark.parametrize("game", GAMES)
def test_the_seat_to_move_is_told_why_a_tap_makes_no_move_and_the_others_wait(game):
    """The table says what the practice table says of a tap on a card in no legal move."""
    table, clients = _seated(game, humans=2)
    state, mover = _human_to_move(table, clients)
    other = next(c for c in clients if c is not mover)
    with translation.override("en"):
        mine = _why(mover.get(url(table)).content.decode())
        theirs = _why(other.get(url(table)).content.decode())
        visitor = _why(Client().get(url(table)).content.decode())
    assert set(mine) == {"own", "other", "table", "key"}
    assert "Your moves now: " in mine["own"] or "not dimmed" in mine["own"]
    assert "%(name)s" in mine["other"] and "%(key)s" in mine["key"]
    name = table.deal.names[state.to_move]
    assert theirs["own"] == f"{name} is to move now: wait for that move."
    assert visitor == {}  # a spectator has no hand to tap


def _why(page: str) -> dict[str, str]:
    game = re.search(r'<div id="game"[^>]*>', page).group(0)
    return {k: html.unescape(v) for k, v in re.findall(r'data-why-(\w+)="([^"]*)"', game)}


def _human_to_move(table: Table, clients: list[Client]):
    """Let the bots play until one of the people is to move: (state, that person's client)."""
    for _ in range(500):
        state = state_of(table)
        if not S.is_bot(table, state.to_move):
            return state, _client_for(table, clients, state.to_move)
        clients[0].post(url(table, "step"), {"version": table.deal.version})
    raise AssertionError("the bots never gave the turn to a person")


@pytest.mark.parametrize("language", ["sv", "fi", "nb"])
def test_a_stale_double_tap_is_refused_in_the_pages_language(language):
    table, clients = _seated("dam", humans=2)
    state, mover = _human_to_move(table, clients)
    action = random_action(state, random.Random(1))
    version = table.deal.version
    with translation.override(language):
        address = url(table, "move")
        expected = escape(str(P.STALE))
    fields = {**adapter(table.game).form_fields(action), "version": version}
    # Another language is active when the taps arrive: the page's own (its address) counts.
    with translation.override("en"):
        first = mover.post(address, fields, HTTP_HX_REQUEST="true")
        again = mover.post(address, fields, HTTP_HX_REQUEST="true")
        plain = mover.post(address, fields)
    assert first.status_code == 200 and 'id="move-error"' not in first.content.decode()
    assert re.findall(r'id="move-error">([^<]*)<', again.content.decode()) == [expected]
    assert plain.status_code == 409
    assert re.findall(r'id="move-error">([^<]*)<', plain.content.decode()) == [expected]
    table.deal.refresh_from_db()
    assert table.deal.version == version + 1 and len(table.deal.actions) == version + 1


def test_an_illegal_move_gets_a_translated_refusal():
    table, clients = _seated("spardame", humans=2)
    for _ in range(200):
        state = state_of(table)
        if not S.is_bot(table, state.to_move):
            break
        clients[0].post(url(table, "step"), {"version": table.deal.version})
    mover = _client_for(table, clients, state.to_move)
    version = table.deal.version
    hand = set(state.view(state.to_move)["hand"])
    from rules.engine import cards as C

    not_mine = next(c for c in range(52) if c not in hand and C.code(c) != "2C")
    with translation.override("sv"):
        r = mover.post(url(table, "move"), {"move": "play", "card": C.code(not_mine),
                                            "version": version}, HTTP_HX_REQUEST="true")
    html = r.content.decode()
    assert r.status_code == 200 and 'id="move-error"' in html
    error = html.split('id="move-error">')[1].split("</p>")[0]
    assert error and error.isascii() is False or "kort" in error  # said in Swedish
    table.deal.refresh_from_db()
    assert table.deal.version == version


def test_an_attack_with_no_cards_is_refused_not_a_server_error():
    """Parsing lets an attack with no cards through and applying refuses it: that refusal is
    the player's too (it was a 500)."""
    table, clients = _seated("dam", humans=3)  # every seat a person: the first attacks
    state = state_of(table)
    mover = _client_for(table, clients, state.to_move)
    version = table.deal.version
    with translation.override("en"):
        r = mover.post(url(table, "move"), {"move": "attack", "version": version},
                       HTTP_HX_REQUEST="true")
    assert r.status_code == 200 and 'id="move-error"' in r.content.decode()
    table.deal.refresh_from_db()
    assert table.deal.version == version


def test_a_bot_step_is_refused_when_a_person_is_to_move():
    table, clients = _seated("dam", humans=3)  # every seat a person: no bot ever moves
    version = table.deal.version
    r = clients[1].post(url(table, "step"), {"version": version}, HTTP_HX_REQUEST="true")
    assert r.status_code == 200
    table.deal.refresh_from_db()
    assert table.deal.version == version


def test_joining_is_kept_in_the_session_and_the_table_fills_up():
    table, clients = _seated("dam", humans=3)
    # Sitting down again (a reload of the join form) keeps the same seat.
    seat = S.seat_of(table, clients[2].session[S.PLAYER_KEY])
    sit(clients[2], table, "Other")
    table.refresh_from_db()
    assert S.seat_of(table, clients[2].session[S.PLAYER_KEY]) == seat
    # A fourth person finds every seat taken: they may watch.
    with translation.override("en"):
        r = sit(Client(), table, "Late")
    assert r.status_code == 409 and "Every seat at this table is taken" in r.content.decode()


def test_names_must_differ_and_be_one_word():
    c = Client()
    table = open_table(c, "dam")
    with translation.override("en"):
        r = sit(Client(), table, "Host")
        assert r.status_code == 400 and "already has that name" in r.content.decode()
        r = sit(Client(), table, "two words")
        assert r.status_code == 400
    table.refresh_from_db()
    assert sum(bool(s["player"]) for s in table.seats) == 1


def test_only_the_host_deals_and_a_newcomer_after_the_deal_takes_a_bot_seat():
    host, friend, late = Client(), Client(), Client()
    table = open_table(host, "spardame")
    sit(friend, table, "Friend")
    assert friend.post(url(table, "start")).status_code == 403
    assert host.post(url(table, "start")).status_code == 302
    host.post(url(table, "start"))  # a second press deals nothing more
    table.refresh_from_db()
    assert PracticeGame.objects.filter(series=table.series).count() == 1
    names = list(table.deal.names)
    assert sit(late, table, "Late").status_code == 302
    table.refresh_from_db()
    seat = S.seat_of(table, late.session[S.PLAYER_KEY])
    assert seat == 2 and table.seats[2]["name"] == names[2]  # the bot's seat, with its name


@override_settings(TABLE_GRACE_SECONDS=60)
def test_a_player_who_leaves_is_replaced_after_the_grace_period_and_can_come_back(monkeypatch):
    table, clients = _seated("dam", humans=3)
    state = state_of(table)
    seat = state.to_move
    mover = _client_for(table, clients, seat)
    others = [c for c in clients if c is not mover]
    assert mover.post(url(table, "leave")).status_code == 302
    table.refresh_from_db()
    version = table.deal.version
    # Within the grace period nobody can make the bot move for them.
    others[0].post(url(table, "step"), {"version": version})
    table.deal.refresh_from_db()
    assert table.deal.version == version
    with translation.override("en"):
        page = others[0].get(url(table)).content.decode()
    assert "has left the table" in page
    # After it, a bot plays their seat.
    later = time.time() + 61
    monkeypatch.setattr(S.time, "time", lambda: later)
    assert others[0].post(url(table, "step"), {"version": version}).status_code == 302
    table.deal.refresh_from_db()
    assert table.deal.version == version + 1
    assert table.deal.actions[-1].startswith(table.deal.names[seat] + " ")
    # They come back: the seat is theirs again and no bot plays it.
    assert mover.post(url(table, "back")).status_code == 302
    table.refresh_from_db()
    assert not S.is_bot(table, seat)


def test_a_closed_page_counts_as_leaving_and_an_opened_one_as_back(monkeypatch):
    table, clients = _seated("dam", humans=2)
    S.set_away(table, 1, True)
    table.refresh_from_db()
    assert table.seats[1]["left"] is not None and not S.is_bot(table, 1)
    later = time.time() + S.grace_seconds() + 1
    monkeypatch.setattr(S.time, "time", lambda: later)
    assert S.is_bot(table, 1)
    S.set_away(table, 1, False)
    table.refresh_from_db()
    assert table.seats[1]["left"] is None and not S.is_bot(table, 1)


def test_an_idle_table_ends_and_refuses_moves():
    table, clients = _seated("dam", humans=2)
    Table.objects.filter(pk=table.pk).update(
        active=timezone.now() - timedelta(minutes=S.idle_minutes() + 1))
    table.refresh_from_db()
    version = table.deal.version
    with translation.override("en"):
        r = clients[0].post(url(table, "step"), {"version": version})
        page = clients[0].get(url(table)).content.decode()
        r = post_move(clients[0], table, random_action(state_of(table), random.Random(0)))
    assert r.status_code == 410
    assert "This table has ended" in page and "data-sse-connect" not in page
    table.deal.refresh_from_db()
    assert table.deal.version == version


def test_creating_and_joining_are_rate_limited():
    from django.urls import reverse

    with override_settings(RATE_LIMITS={"tables_<game>_new": "2/m", "tables_sit": "2/m",
                                        "tables_join": "2/m"}):
        c = Client()
        open_table(c, "dam")
        table = open_table(c, "dam")
        r = c.post(reverse("tables_dam_new"), {"players": 3, "name": "A", "level": "easy",
                                               "preset": "svarta-maja"})
        assert r.status_code == 429 and r["Retry-After"]
        assert Table.objects.count() == 2
        statuses = [Client(REMOTE_ADDR="10.0.0.9").post(url(table, "sit"), {"name": f"N{i}"})
                    .status_code for i in range(3)]
        assert statuses[-1] == 429
        joins = [c.post(reverse("tables_join"), {"code": table.code, "name": f"J{i}"})
                 .status_code for i in range(3)]
        assert joins[-1] == 429


@override_settings(TABLE_JOIN_FAILURES="3/m")
def test_wrong_codes_are_limited():
    from django.urls import reverse

    c = Client()
    statuses = [c.post(reverse("tables_join"), {"code": "ZZZ ZZZ", "name": "A"}).status_code
                for _ in range(4)]
    assert statuses == [404, 404, 404, 429]


def test_the_join_page_seats_the_visitor_by_code():
    from django.urls import reverse

    table = open_table(Client(), "dolda")
    c = Client()
    r = c.post(reverse("tables_join"), {"code": table.code.lower()[:3] + " " + table.code[3:],
                                        "name": "Friend"})
    assert r.status_code == 302 and r["Location"] == url(table)
    table.refresh_from_db()
    assert S.seat_of(table, c.session[S.PLAYER_KEY]) == 1


def test_the_short_address_and_the_qr_code():
    table = open_table(Client(), "dam")
    with translation.override("en"):
        page = Client().get(url(table)).content.decode()
    assert "<svg" in page and f"/t/{table.code}/" in page
    # The idle time after which the table ends is stated.
    assert f"The table closes after {S.idle_minutes()} minutes without a move." in page
    r = Client().get(f"/t/{table.code}/", HTTP_ACCEPT_LANGUAGE="fi")
    assert r.status_code == 302 and r["Location"].startswith("/fi/")


def test_the_practice_page_offers_play_with_friends():
    from django.urls import reverse

    for game in GAMES:
        with translation.override("en"):
            page = Client().get(reverse(f"practice_{game}")).content.decode()
            assert f'href="{reverse(f"tables_{game}_new")}"' in page
