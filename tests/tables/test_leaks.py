"""No answer of a table with friends ever shows a card to a seat that has not been allowed to
see it: whole deals of every game played through the views by people and bots, and every
page, htmx answer and stream event checked, for every seat and for a spectator, against the
cards that seat has been shown so far (its views and the events it saw, replayed through the
engine; a spectator: what the public events showed)."""

from __future__ import annotations

import random
import threading

import pytest
from django.db import connections
from django.test import Client
from django.urls import reverse
from django.utils import translation

from games.adapters import adapter
from practice import service as P
from rules.engine import scenario as scn
from rules.engine.games import game_module
from tables import service as S
from tests.practice.helpers import CARD_KEYS, _flatten, leaked, view_cards

from .helpers import open_table, post_move, random_action, sit, state_of, url

# Transactional: a stream that ends closes its database connection, as a finished request
# does; inside a test's transaction that closed the test's own (PostgreSQL: "the connection
# is closed").
pytestmark = pytest.mark.django_db(transaction=True)

# One whole deal per game, with the rules that show the most: the other presets add no kind
# of event or view these do not have (tests/practice/test_leaks.py plays every preset through
# the practice views, which draw the same table), and six deals were a minute of the suite.
CASES = [
    ("dam", {"preset": "aldre-svensk", "players": 4}, 3),
    ("dolda", {"preset": "avancerad", "players": 3}, 2),
    ("spardame", {"preset": "standard", "players": 4}, 2),
]


class Seen:
    """The cards ``seat`` (None: a spectator) has been shown, kept up to date move by move."""

    def __init__(self, deal, seat: int | None) -> None:
        self.deal, self.seat = deal, seat
        self.sc = scn.parse({**P.export(deal), "steps": []})
        self.state = self.sc.initial_state()
        self.done = 0
        self.cards: set[int] = set()
        self._look()

    def _look(self) -> None:
        if self.seat is not None:
            self.cards |= view_cards(self.state.view(self.seat))

    def update(self) -> set[int]:
        module = game_module(self.deal.game)
        self.deal.refresh_from_db()
        for move in self.deal.actions[self.done:]:
            self.state, events = scn.apply_move(module, self.state, self.sc.players, move)
            self._look()
            for e in adapter(self.deal.game).visible(events, self.seat):
                for k, v in e.items():
                    if k in CARD_KEYS:
                        _flatten(v, self.cards)
        self.done = len(self.deal.actions)
        return self.cards


def _stream_event(client: Client, table) -> str:
    """The first state event the table's stream sends this client (then it is closed).  Read
    in a thread of its own, as a server reads it: the WSGI stream bridges to async code, which
    refuses a thread with an event loop running (the browser tests' Playwright leaves one in
    the test thread when they ran first in the same worker)."""
    out: dict[str, str] = {}

    def read() -> None:
        try:
            response = client.get(reverse("tables_stream", args=[table.code, "en"]))
            assert response.status_code == 200
            text = b""
            for chunk in response.streaming_content:
                text += chunk
                if b"event: state" in text:
                    break
            response.close()
            out["text"] = text.decode()
        finally:
            connections.close_all()

    reader = threading.Thread(target=read)
    reader.start()
    reader.join(60)
    assert "text" in out, "the stream sent no state event"
    return out["text"]


@pytest.mark.parametrize("case", range(len(CASES)))
def test_whole_deals_at_a_table_never_show_a_hidden_card(case, monkeypatch):
    game, extra, humans = CASES[case]
    rng = random.Random(f"table-{case}")
    monkeypatch.setattr(P, "new_seeds", lambda: (rng.getrandbits(128), rng.getrandbits(63)))
    clients = [Client() for _ in range(humans)]
    watcher = Client()
    with translation.override("en"):
        table = open_table(clients[0], game, **extra)
        for i, c in enumerate(clients[1:], start=2):
            assert sit(c, table, f"P{i}").status_code == 302
        assert clients[0].post(url(table, "start")).status_code == 302
        table.refresh_from_db()
        seats = {S.seat_of(table, c.session[S.PLAYER_KEY]): c for c in clients}
        trackers = {seat: Seen(table.deal, seat) for seat in seats}
        spectator = Seen(table.deal, None)

        def check(html: str, seat: int | None, where: str) -> None:
            tracker = spectator if seat is None else trackers[seat]
            bad = leaked(html, table.deal, tracker.update())
            assert not bad, f"{where}, seat {seat}: hidden cards {bad}"

        def check_all(where: str, streams: bool) -> None:
            """Every seat's partial after each move; whole pages and streams now and then
            (they draw the same partial)."""
            for seat, c in seats.items():
                check(c.get(url(table, "now"), HTTP_HX_REQUEST="true").content.decode(), seat,
                      f"{where} now")
                if streams:
                    check(c.get(url(table)).content.decode(), seat, f"{where} page")
                    check(_stream_event(c, table), seat, f"{where} stream")
            check(watcher.get(url(table, "now")).content.decode(), None, f"{where} spectator")
            if streams:
                check(watcher.get(url(table)).content.decode(), None, f"{where} spectator page")
                check(_stream_event(watcher, table), None, f"{where} spectator stream")

        check_all("start", True)
        moves = 0
        while not state_of(table).over:
            state = state_of(table)
            seat = state.to_move
            htmx = {"HTTP_HX_REQUEST": "true"} if rng.random() < 0.5 else {}
            if seat in seats and not S.is_bot(table, seat):
                mover = seats[seat]
                r = post_move(mover, table, random_action(state, rng), **htmx)
            else:
                seat, mover = rng.choice(list(seats.items()))
                r = mover.post(url(table, "step"), {"version": table.deal.version}, **htmx)
            assert r.status_code in (200, 302)
            if r.status_code == 200:
                check(r.content.decode(), seat, f"answer to move {moves}")
            moves += 1
            check_all(f"move {moves}", streams=moves % 7 == 0)
            assert moves < 2000
        check_all("end", True)


def test_the_check_finds_a_card_of_another_seat():
    c = Client()
    with translation.override("en"):
        table = open_table(c, "dam")
        c.post(url(table, "start"))
    table.refresh_from_db()
    state = state_of(table)
    other = state.view(1)["hand"][0]
    from rules.engine.cards import code

    seen = Seen(table.deal, 0).update()
    assert leaked(f'<span data-card="{code(other)}"></span>', table.deal, seen) == [code(other)]
    page = c.get(url(table)).content.decode()
    mine = state.view(0)["hand"][0]
    assert f'data-card="{code(mine)}"' in page  # the check looks where the cards are drawn
    assert leaked(page, table.deal, Seen(table.deal, None).update())  # a spectator may not
