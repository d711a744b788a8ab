"""Playing a practice game over HTTP, choosing moves from the record in the database."""

from __future__ import annotations

from django.urls import reverse
from django.utils import translation

from games.adapters import adapter
from practice import service as P
from practice.models import PracticeGame
from rules.engine.bots import dam as dam_bots

from .servers import GAME_ID, Browser, Database

NEW_DAM = {"preset": "svarta-maja", "players": 2, "level": "easy", "name": "Me"}


def path(name: str, *args) -> str:
    with translation.override("en"):
        return reverse(name, args=args)


def new_game(browser: Browser, base: str, data: dict = NEW_DAM) -> str:
    """POST the new-game form (after a GET for the CSRF cookie); the new game's id."""
    url = base + path("practice_dam")
    assert browser.request(url).status == 200
    r = browser.request(url, data)
    assert r.status == 302, (r.status, r.text[:500])
    return GAME_ID.search(r.headers["Location"]).group(1)


def record(db: Database, game_id: str) -> PracticeGame:
    with db.connect() as conn:
        row = conn.execute("SELECT * FROM practice_practicegame WHERE id = %s",
                           [game_id]).fetchone()
    return PracticeGame(**row)


def next_request(rec: PracticeGame) -> tuple[str, dict] | None:
    """The endpoint and form a player without JavaScript sends next; None when the deal is
    over.  The player's own choices come from a seeded heuristic bot."""
    state = P.replay(rec).state
    if state.over:
        return None
    if P.is_bot_turn(rec, state):
        return path(f"practice_{rec.game}_step", rec.pk), {"version": rec.version}
    action = dam_bots.HeuristicBot(len(rec.actions)).act(state, rec.human_seat)
    return (path(f"practice_{rec.game}_move", rec.pk),
            {**adapter(rec.game).form_fields(action), "version": rec.version})


def play(browser: Browser, bases: list[str], db: Database, game_id: str,
         limit: int | None = None) -> int:
    """Play until the deal is over (or ``limit`` requests), request i going to
    bases[i % len(bases)].  Every request must be accepted (302).  Returns the count sent."""
    sent = 0
    while limit is None or sent < limit:
        rec = record(db, game_id)
        nxt = next_request(rec)
        if nxt is None:
            break
        url, data = nxt
        r = browser.request(bases[sent % len(bases)] + url, data)
        assert r.status == 302, (sent, r.status, r.text[:800])
        sent += 1
        assert sent < 3000, "the deal never ended"
    return sent
