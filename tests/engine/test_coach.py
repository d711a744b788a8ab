"""The coach's analysis (rules/engine/bots/coach.py): racing stops where nothing is left to
decide, never spends more than its cap, and gives the same ranking from the same seed."""

from __future__ import annotations

import random

import pytest

from rules.engine.bots import coach
from rules.engine.bots.search import search_of
from rules.engine.games import game_module
from rules.engine.options import build_options


def _decisions(game: str, players: int, count: int, least: int = 3):
    module = game_module(game)
    options = build_options(module.Options, module.PRESETS, module.DEFAULT_PRESET, {})
    found = []
    deal = 0
    while len(found) < count:
        state = module.new_game(options, ["A", "B", "C", "D"][:players], 0, 500 + deal, None)
        bots = [search_of(game).heuristic(s) for s in range(players)]
        while not state.over and len(found) < count:
            who = state.to_move
            if who == 0 and len(state.legal_actions()) >= least:
                found.append(state.clone())
            state.apply_in_place(bots[who].act(state, who))
        deal += 1
    return found


def test_the_race_stops_early_when_a_move_is_clearly_behind_and_keeps_to_its_cap():
    cap = 400
    spent = []
    for state in _decisions("spardame", 4, 6):
        ranked = coach.analyse(state, 0, 7, cap)
        raced = _raced(state, ranked)
        # Every candidate but the survivors dropped out with fewer playouts than the leader.
        total = sum(e.playouts for e in raced)
        assert total <= cap
        spent.append(total)
        assert ranked[0].behind == 0.0
        assert all(e.behind >= 0.0 or e.playouts < ranked[0].playouts for e in ranked[1:])
    assert min(spent) < cap  # somewhere one move was clearly ahead before the cap


def _raced(state, ranked):
    """The estimates of the moves the race played: the first of each group in the ranking
    (the others of a group follow with its estimate)."""
    groups = search_of(state.game).groups(state, 0, list(state.legal_actions()))
    seen: set[int] = set()
    raced = []
    for e in ranked:
        g = next(i for i, group in enumerate(groups) if e.action in group)
        if g not in seen:
            seen.add(g)
            raced.append(e)
    return raced


@pytest.mark.parametrize(("game", "players", "decisions"), [("spardame", 4, 40), ("dam", 3, 120)])
def test_interchangeable_cards_are_raced_once_and_share_the_estimate(game, players, decisions):
    found = 0
    for state in _decisions(game, players, decisions, least=2):
        groups = search_of(game).groups(state, 0, list(state.legal_actions()))
        if all(len(g) == 1 for g in groups):
            continue
        ranked = coach.analyse(state, 0, 5, 160)
        raced = _raced(state, ranked)
        assert ranked[:len(raced)] == raced  # the raced moves first, best first
        assert sum(e.playouts for e in raced) <= 160
        for e in ranked[len(raced):]:
            group = next(g for g in groups if e.action in g)
            lead = next(r for r in raced if r.action in group)
            assert e._replace(action=lead.action) == lead
        found += 1
    assert found >= 5


def test_the_same_seed_gives_the_same_analysis():
    state = _decisions("dam", 3, 1)[0]
    assert coach.analyse(state, 0, 11, 96) == coach.analyse(state, 0, 11, 96)


def test_a_clear_choice_of_the_policy_is_not_searched():
    clear = searched = 0
    for state in _decisions("dolda", 3, 12, least=2):
        policy = search_of("dolda").policy(random.Random(3).getrandbits(32))
        _first, margin = policy.decide(state, 0)
        ranked = coach.analyse(state, 0, 3, 48)
        if margin > search_of("dolda").params.clear:
            clear += 1
            assert len(ranked) == 1 and ranked[0].playouts == 0
        else:
            searched += 1
            assert len(ranked) >= 2 and ranked[0].playouts > 0
    assert clear and searched


def test_the_analysis_settles_once_every_move_is_well_within_the_floor():
    # A floor far above any gap: after the first shared determinizations every move left is
    # within SETTLE of it, so the race ends there; with no floor it runs to its cap or until
    # one move is clearly ahead.
    for state in _decisions("dolda", 3, 20, least=2):
        ranked = coach.analyse(state, 0, 9, 400, floor=1000.0)
        if len(ranked) < 2:
            continue  # a clear choice of the policy
        assert {e.playouts for e in ranked} == {coach.MIN_SHARED}
        unsettled = coach.analyse(state, 0, 9, 400, floor=0.0)
        assert sum(e.playouts for e in unsettled) > 2 * coach.MIN_SHARED
        return
    raise AssertionError("no searched decision found")


class _Clock:
    """A thread CPU clock that moves one millisecond each time it is read."""

    def __init__(self) -> None:
        self.now = 0.0
        self.reads = 0

    def __call__(self) -> float:
        self.now += 0.001
        self.reads += 1
        return self.now


def test_a_budget_stops_the_race_with_every_candidate_on_the_same_deals(monkeypatch):
    state = _decisions("dam", 3, 1)[0]
    unbounded = coach.analyse(state, 0, 11, 480)
    clock = _Clock()
    monkeypatch.setattr("time.thread_time", clock)
    ranked = coach.analyse(state, 0, 11, 480, budget=0.010)
    raced = _raced(state, ranked)
    # The budget ran out after a few determinizations, long before the cap.
    assert 0 < sum(e.playouts for e in raced) < sum(e.playouts for e in _raced(state, unbounded))
    assert len({e.playouts for e in raced}) == 1  # none ran ahead of another
    assert clock.reads <= 12


def test_a_budget_that_does_not_run_out_changes_nothing(monkeypatch):
    for state in _decisions("spardame", 4, 3):
        assert coach.analyse(state, 0, 5, 160, 0.5, budget=1e9) == coach.analyse(state, 0, 5, 160,
                                                                                  0.5)


def test_no_time_left_gives_the_policys_move_unplayed(monkeypatch):
    state = _decisions("dam", 3, 1)[0]
    monkeypatch.setattr("time.thread_time", _Clock())
    ranked = coach.analyse(state, 0, 11, 480, budget=0.0)
    policy = search_of("dam").policy(random.Random(11).getrandbits(32))
    assert ranked[0].action == policy.act(state, 0)
    assert all(e.playouts == 0 for e in ranked)
