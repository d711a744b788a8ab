"""Driving practice games through the views, and the cards a seat has been allowed to see."""

from __future__ import annotations

import random
import re

from django.urls import reverse

from games.adapters import adapter
from practice import service as P
from practice.models import PracticeGame
from rules.engine import cards as C
from rules.engine.games import game_module

PLAYERS = {"dam": 3, "dolda": 3, "spardame": 4}
CARD_KEYS = {"card", "cards", "attack_card", "card_in", "card_out", "taken", "given", "rows",
             "secret", "jack", "received", "hand", "table", "beaten", "turned", "held",
             "discard_pile", "discard_top", "passed", "trick", "played", "shielded"}


def start(client, game: str, **extra) -> PracticeGame:
    module = game_module(game)
    data = {"preset": module.DEFAULT_PRESET, "players": PLAYERS[game], "level": "easy",
            "name": "Me", "memory_aid": "on", **extra}
    r = client.post(reverse(f"practice_{game}"), data)
    assert r.status_code == 302, r.content.decode()[:2000]
    return PracticeGame.objects.latest("created")


def url(record: PracticeGame, what: str = "play") -> str:
    return reverse(f"practice_{record.game}_{what}", args=[record.pk])


def play_on(record: PracticeGame, moves: int) -> None:
    """Bots for every seat (the player's too), through the service as the site moves, up to
    ``moves`` moves or the deal's end."""
    derived = P.load(record)
    while len(record.actions) < moves and not derived.state.over:
        seat = derived.state.to_move
        action = P.make_bot(record, seat).act(derived.state, seat)
        derived = P._append(record, record.version, derived, seat, action)


def state_of(record: PracticeGame):
    record.refresh_from_db()
    return P.replay(record).state


def post_action(client, record: PracticeGame, action, **headers):
    record.refresh_from_db()
    fields = adapter(record.game).form_fields(action)
    return client.post(url(record, "move"), {**fields, "version": record.version}, **headers)


def bots_until_human(client, record: PracticeGame, responses: list | None = None, limit=2000):
    for _ in range(limit):
        record.refresh_from_db()
        state = P.replay(record).state
        if not P.is_bot_turn(record, state):
            return state
        r = client.post(url(record, "step"), {"version": record.version})
        assert r.status_code in (200, 302), r.status_code
        if responses is not None:
            responses.append(r)
    raise AssertionError("bots never gave the turn back")


def _flatten(value, out: set[int]) -> None:
    if isinstance(value, bool) or value is None:
        return
    if isinstance(value, int):
        if 0 <= value < 52:
            out.add(value)
    elif isinstance(value, (list, tuple)):
        for v in value:
            _flatten(v, out)
    elif isinstance(value, dict):
        for k, v in value.items():
            if k in CARD_KEYS or k == "cards":
                _flatten(v, out)


def view_cards(view: dict) -> set[int]:
    out: set[int] = set()
    for k, v in view.items():
        if k in CARD_KEYS:
            if k == "last_trick":
                continue
            _flatten(v, out)
    if view.get("last_trick"):
        _flatten(view["last_trick"]["cards"], out)
    return out


def seen_cards(record: PracticeGame) -> set[int]:
    """Every card the human seat has been shown at some point of the record."""
    module = game_module(record.game)
    sc = P.scenario_of(record)
    state = sc.initial_state()
    seen = view_cards(state.view(record.human_seat))
    from rules.engine import scenario as scn
    for step in sc.steps:
        state, events = scn.apply_move(module, state, sc.players, step.move)
        seen |= view_cards(state.view(record.human_seat))
        for e in adapter(record.game).visible(events, record.human_seat):
            ev: set[int] = set()
            for k, v in e.items():
                if k in CARD_KEYS:
                    _flatten(v, ev)
            seen |= ev
    return seen


class SeenTracker:
    """seen_cards() kept up to date move by move (the record only grows in these tests)."""

    def __init__(self, record: PracticeGame) -> None:
        from rules.engine import scenario as scn

        self.record = record
        self.sc = scn.parse({**P.export(record), "steps": []})
        self.state = self.sc.initial_state()
        self.done = 0
        self.seen = view_cards(self.state.view(record.human_seat))

    def update(self) -> set[int]:
        from rules.engine import scenario as scn

        record = self.record
        module = game_module(record.game)
        for move in record.actions[self.done:]:
            self.state, events = scn.apply_move(module, self.state, self.sc.players, move)
            self.seen |= view_cards(self.state.view(record.human_seat))
            for e in adapter(record.game).visible(events, record.human_seat):
                for k, v in e.items():
                    if k in CARD_KEYS:
                        _flatten(v, self.seen)
        self.done = len(record.actions)
        return self.seen


def leaked(html: str, record: PracticeGame, seen: set[int] | None = None) -> list[str]:
    """Codes or English names of cards the human has never been shown that appear in html."""
    from games.cardnames import CARD_NAMES
    from games.reasons import REASON_TEXTS

    for sentence in REASON_TEXTS.values():  # rule sentences name cards in general terms
        html = html.replace(str(sentence), "")
    hidden = set(range(52)) - (seen_cards(record) if seen is None else seen)
    found = []
    for c in hidden:
        code = C.code(c)
        if re.search(rf'(data-card|value)="{code}"', html) or str(CARD_NAMES[c]) in html:
            found.append(code)
    return found


def random_action(state, rng: random.Random):
    acts = list(state.legal_actions())
    return acts[rng.randrange(len(acts))]
