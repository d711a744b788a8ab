"""games/moves.py: what a seat can do now, as the game page offers it, from legal_actions()."""

from __future__ import annotations

import random

import pytest
from django.utils import translation

from games.adapters import adapter
from games.moves import form_pairs, move_choices
from rules.engine.games import GAME_NAMES

NAMES = ["Anna", "Bo", "Cilla", "Dag"]


def _positions(game: str, count: int):
    module = adapter(game).engine
    for seed in range(count):
        rng = random.Random(seed)
        state = module.new_game(module.Options(), NAMES, 3, seed, None)
        while not state.over:
            yield state
            state, _events = state.apply(rng.choice(state.legal_actions()))


def test_form_pairs_give_one_hidden_input_per_list_item():
    assert form_pairs({"action": "beat", "card": ["QS", "3H"], "target": "2H"}) == [
        ("action", "beat"), ("card", "QS"), ("card", "3H"), ("target", "2H")]


@pytest.mark.parametrize("game", GAME_NAMES)
def test_a_seat_not_to_move_is_offered_nothing(game):
    state = next(_positions(game, 1))
    other = (state.to_move + 1) % len(NAMES)
    assert move_choices(game, state, state.view(other), other, NAMES) == {"mine": False}


@pytest.mark.parametrize("game", GAME_NAMES)
def test_every_legal_move_is_offered_and_every_dimmed_card_takes_part_in_none(game):
    a = adapter(game)
    checked = dimmed = 0
    with translation.override("en"):
        for state in _positions(game, 3):
            seat = state.to_move
            view = state.view(seat)
            ctx = move_choices(game, state, view, seat, NAMES)
            legal = state.legal_actions()
            assert ctx["mine"]
            # A move needing a choice has its kind's button (or is the one-tap kind); every
            # other legal move is a button of its own, in words.
            kinds = {a.kind(x) for x in legal if a.kind(x) in a.choice_kinds}
            offered = {b["kind"] for b in ctx["buttons"]} | ({ctx["one_tap"]} - {""})
            assert kinds == offered
            labels = {e["label"] for e in ctx["simple"]}
            assert labels == {a.describe(x, NAMES) for x in legal
                              if a.kind(x) not in a.choice_kinds}
            if ctx["selectable"]:
                usable = {c for x in legal for c in a.hand_cards(x)}
                assert set(ctx["unplayable"]) == set(view.get("hand", ())) - usable
                assert all(ctx["unplayable"].values()), "a dimmed card without a reason"
                dimmed += len(ctx["unplayable"])
            checked += 1
    assert checked > 100
    if game != "dolda":  # Dolda's choices are positions, not cards of a hand
        assert dimmed > 0
