"""``clone`` + ``apply_in_place`` against ``apply`` in Dam and Dam med dolda kort.

Simulations play in place; the site and the scenario checker use ``apply``.  Both must be the
same game: the same state, the same events (when asked for), the same refusals, and a refused
move or a move on a clone must leave the original untouched.
"""

from __future__ import annotations

import random

import pytest

from rules.engine import dam, dolda
from rules.engine.bots import dam as dam_bots
from rules.engine.bots import dolda as dolda_bots
from rules.engine.errors import IllegalAction
from rules.engine.options import build_options

NAMES = ["A", "B", "C", "D", "E", "F"]


def _wrong_moves(mod, state) -> list:
    seat = state.to_move
    if mod is dam:
        return [("attack", seat, (0, 13)), ("beat", seat, 0, 1), ("take", seat), ("done", seat),
                ("attack", (seat + 1) % len(state.names), (0,)), ("slap",), None]
    A = dolda.Action
    return [A(seat, "draw", "discard"), A(seat, "swap"), A(seat, "discard"),
            A(seat, "shield", positions=(0,)), A((seat + 1) % len(state.names), "draw", "stock"),
            ("draw", seat, "stock")]


@pytest.mark.parametrize("mod, bots", [(dam, dam_bots), (dolda, dolda_bots)])
@pytest.mark.parametrize("preset", ["first", "last"])
def test_in_place_is_apply(mod, bots, preset) -> None:
    name = list(mod.PRESETS)[0 if preset == "first" else -1]
    options = build_options(mod.Options, mod.PRESETS, mod.DEFAULT_PRESET, {"preset": name})
    rng = random.Random(7)
    for game in range(6):
        n = 2 + game % 4
        state = mod.new_game(options, NAMES[:n], 0, game, None)
        seats = [bots.BOTS["random" if s % 2 else "heuristic"](game * 10 + s) for s in range(n)]
        steps = 0
        while not state.over and steps < 2000:
            steps += 1
            before = state.to_json()
            for wrong in _wrong_moves(mod, state):
                try:
                    _new, want = state.apply(wrong)
                except IllegalAction as exc:
                    copy = state.clone()
                    with pytest.raises(IllegalAction) as got:
                        copy.apply_in_place(wrong)
                    assert (got.value.reason, got.value.cards) == (exc.reason, exc.cards)
                    assert copy.to_json() == before
            action = seats[state.to_move].act(state, state.to_move)
            new, events = state.apply(action)
            assert state.to_json() == before
            quiet = state.clone()
            quiet.apply_in_place(action)
            loud = state.clone()
            got: list = []
            loud.apply_in_place(action, got)
            assert state.to_json() == before  # the clones share nothing that changes
            assert quiet.to_json() == loud.to_json() == new.to_json()
            assert got == events
            assert quiet.legal_actions() == new.legal_actions()
            state = quiet if rng.random() < 0.5 else new
