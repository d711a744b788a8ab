"""The strong bot: legal moves, and determinizations that depend only on what its seat sees."""

from __future__ import annotations

import random

import pytest

from rules.engine import dam, dolda, spardame
from rules.engine.bots import strong
from rules.engine.options import build_options

MODULES = {"dam": dam, "dolda": dolda, "spardame": spardame}


def _opts(module, rules=None):
    return build_options(module.Options, module.PRESETS, module.DEFAULT_PRESET, rules or {})


def _midgame(game: str, seed: int, moves: int = 9):
    module = MODULES[game]
    state = module.new_game(_opts(module), ["A", "B", "C", "D"], 3, seed, None)
    rng = random.Random(seed)
    for _ in range(moves):
        if state.over:
            break
        acts = list(state.legal_actions())
        state, _ = state.apply(acts[rng.randrange(len(acts))])
    return state


def _swap_hidden(game: str, state):
    """The same position for seat 0 with two cards it cannot see exchanged."""
    module = MODULES[game]
    data = state.to_json()
    if game == "dam":
        a, b = data["hands"][1], data["hands"][2]
        a[0], b[0] = b[0], a[0]
    elif game == "dolda":
        view = state.view(0)
        hidden = [(o, p) for o in (1, 2) for p, c in enumerate(view["rows"][o]) if c is None]
        (o1, p1), (o2, p2) = hidden[0], hidden[-1]
        data["rows"][o1][p1], data["rows"][o2][p2] = data["rows"][o2][p2], data["rows"][o1][p1]
    else:
        a, b = data["hands"][1], data["hands"][2]
        # same suits keep the legal-play facts of the position the same
        for i, x in enumerate(a):
            j = next((j for j, y in enumerate(b) if y // 13 == x // 13), None)
            if j is not None:
                a[i], b[j] = b[j], a[i]
                break
        data["hands"] = [sorted(h) for h in data["hands"]]
    return module.state_from_json(data)


@pytest.mark.parametrize("game", ["dam", "dolda", "spardame"])
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_determinization_ignores_the_hidden_cards(game, seed):
    state = _midgame(game, seed, moves=0 if game == "spardame" else 9)
    other = _swap_hidden(game, state)
    assert other.to_json() != state.to_json()
    assert other.view(0) == state.view(0)
    det = strong.DETERMINIZE[game]
    one = det(state, 0, random.Random(5)).to_json()
    two = det(other, 0, random.Random(5)).to_json()
    assert one == two


@pytest.mark.parametrize("game", ["dam", "dolda", "spardame"])
def test_determinization_agrees_with_the_seats_view(game):
    state = _midgame(game, 4)
    world = strong.DETERMINIZE[game](state, 0, random.Random(1))
    mine, theirs = state.view(0), world.view(0)
    for key in ("hand", "hand_counts", "table", "trick", "rows", "stock_count", "to_move"):
        if key in mine:
            assert mine[key] == theirs[key], key


@pytest.mark.parametrize("game", ["dam", "dolda", "spardame"])
def test_strong_bot_plays_legal_moves_to_the_end(game):
    module = MODULES[game]
    state = module.new_game(_opts(module), ["A", "B", "C"], 2, 9, None)
    bot = strong.StrongBot(1, budget_s=0.002)
    moves = 0
    while not state.over and moves < 3000:
        action = bot.act(state, state.to_move)
        assert action in list(state.legal_actions())
        state, _ = state.apply(action)
        moves += 1
    assert state.over
