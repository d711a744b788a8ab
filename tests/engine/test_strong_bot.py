"""The strong bot: legal moves, and determinizations that depend only on what its seat sees."""

from __future__ import annotations

import random

import pytest

from rules.engine import dam, dolda, spardame
from rules.engine.bots import spardame as spardame_bots
from rules.engine.bots import strong
from rules.engine.bots.search import search_of
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
    det = search_of(game).resample
    one = det(state, 0, random.Random(5)).to_json()
    two = det(other, 0, random.Random(5)).to_json()
    assert one == two


@pytest.mark.parametrize("game", ["dam", "dolda", "spardame"])
def test_determinization_agrees_with_the_seats_view(game):
    state = _midgame(game, 4)
    world = search_of(game).resample(state, 0, random.Random(1))
    mine, theirs = state.view(0), world.view(0)
    for key in ("hand", "hand_counts", "table", "trick", "rows", "stock_count", "to_move"):
        if key in mine:
            assert mine[key] == theirs[key], key


@pytest.mark.parametrize("game", ["dam", "dolda", "spardame"])
def test_strong_bot_plays_legal_moves_to_the_end(game):
    module = MODULES[game]
    state = module.new_game(_opts(module), ["A", "B", "C"], 2, 9, None)
    bot = strong.StrongBot(1, playouts=8)
    moves = 0
    while not state.over and moves < 3000:
        action = bot.act(state, state.to_move)
        assert action in list(state.legal_actions())
        state, _ = state.apply(action)
        moves += 1
    assert state.over


def _moves_of(game: str, seed: int, bot_seed: int) -> list:
    module = MODULES[game]
    players = ["A", "B", "C", "D"] if game == "spardame" else ["A", "B", "C"]
    state = module.new_game(_opts(module), players, 0, seed, None)
    bot = strong.StrongBot(bot_seed, playouts=12)
    others = search_of(game).heuristic(bot_seed + 1)
    moves = []
    while not state.over and len(moves) < 400:
        seat = state.to_move
        action = bot.act(state, seat) if seat == 0 else others.act(state, seat)
        moves.append(action)
        state, _ = state.apply(action)
    return moves


@pytest.mark.parametrize("game", ["dam", "dolda", "spardame"])
def test_strong_bot_replays_the_same_moves_from_the_same_seed(game):
    assert _moves_of(game, 11, 5) == _moves_of(game, 11, 5)


@pytest.mark.parametrize("game", ["dam", "dolda", "spardame"])
def test_strong_bot_never_reads_a_clock(game, monkeypatch):
    import time

    def no_clock():
        raise AssertionError("the strong bot read the clock")

    monkeypatch.setattr(time, "perf_counter", no_clock)
    monkeypatch.setattr(time, "time", no_clock)
    monkeypatch.setattr(time, "monotonic", no_clock)
    assert _moves_of(game, 3, 1)


@pytest.mark.parametrize("game", ["dam", "dolda", "spardame"])
def test_evaluate_spends_the_playouts_it_is_given(game):
    state = _midgame(game, 6, moves=0 if game == "spardame" else 5)
    while len(state.legal_actions()) < 2 or (game == "spardame" and state.phase == spardame.PASS):
        state, _ = state.apply(state.legal_actions()[0])
    ranked = strong.evaluate(state, state.to_move, random.Random(1), 64)
    assert 0 < sum(e.playouts for e in ranked) <= 64
    assert ranked[0].behind == 0.0
    assert all(e.action in list(state.legal_actions()) for e in ranked)


def test_evaluate_keeps_the_move_under_review_to_the_end():
    state = _midgame("dam", 2, moves=0)
    acts = list(state.legal_actions())
    worst = acts[-1]
    ranked = strong.evaluate(state, state.to_move, random.Random(2), 80, keep=worst)
    best = ranked[0]
    mine = next(e for e in ranked if e.action == worst)
    assert mine.playouts == best.playouts


def _spardame_after_a_void():
    """A Spardame position where seat 1 has shown it has no clubs (it did not follow)."""
    module = spardame
    for seed in range(200):
        state = module.new_game(_opts(module), ["A", "B", "C", "D"], 3, seed, None)
        bots = [spardame_bots.HeuristicBot(seed + s) for s in range(4)]
        while not state.over:
            view = state.view(0)
            voids = spardame_bots.voids(view)
            if voids[1] and state.to_move == 0:
                return state, voids
            seat = state.to_move
            state, _ = state.apply(bots[seat].act(state, seat))
    raise AssertionError("no void found")


def test_spardame_voids_are_read_from_the_played_tricks():
    state, voids = _spardame_after_a_void()
    view = state.view(1)
    for suit in voids[1]:
        assert all(c // 13 != suit for c in view["hand"])  # the real hand agrees


def test_spardame_determinization_gives_no_card_of_a_suit_a_seat_lacks():
    state, voids = _spardame_after_a_void()
    for seed in range(20):
        world = spardame_bots.resample(state, 0, random.Random(seed))
        for s in range(4):
            assert all(c // 13 not in voids[s] for c in world.view(s)["hand"])


def test_dam_determinization_puts_the_queen_where_everyone_saw_her_go():
    from tests.engine.test_dam import do, three

    state = do(three(), "Anna attack 5C", "Bo take", "Cilla attack QS", "Anna take")
    assert state.view(1)["maja_known_with"] == 0
    for seed in range(20):
        world = search_of("dam").resample(state, 1, random.Random(seed))
        assert world.hands[0] >> dam.QS & 1
        assert world.view(1) == state.view(1)
        assert [world.hand_count(s) for s in range(3)] == [state.hand_count(s) for s in range(3)]
