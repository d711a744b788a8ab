"""What each game gives the strong bot (rules/engine/bots/search.py): its search parameters,
and a resample that keeps what the seat knows and deals the rest consistently."""

from __future__ import annotations

import importlib
import math
import random

import pytest

from rules.engine.bots.search import Search, SearchParams, search_for, search_of, source
from rules.engine.games import GAME_NAMES, game_module
from rules.engine.options import build_options

# View keys a resampled position may show otherwise, and why:
DIFFERENT = {
    # The beaten pairs of the current attack are in the seat's view (``beaten``) and left out
    # of the resampled discard pile, which is short by them until the attack ends.
    "dam": {"discard_count"},
    # After the exchange the resampled deal keeps no record of the passes (the search plays
    # the tricks only).
    "spardame": {"passed", "passes_chosen", "received"},
}


def _positions(game: str, count: int):
    """Positions of random deals of every preset, with 3 to 5 players, and the seat to move."""
    module = game_module(game)
    for k in range(count):
        rng = random.Random(f"search-{game}-{k}")
        presets = sorted(module.PRESETS)
        options = build_options(module.Options, module.PRESETS, module.DEFAULT_PRESET,
                                {"preset": presets[k % len(presets)]})
        names = ["A", "B", "C", "D", "E"][:3 + k % 3]
        state = module.new_game(options, names, k % len(names), k, None)
        while not state.over:
            if rng.random() < 0.25:
                yield state, state.to_move
            acts = state.legal_actions()
            state.apply_in_place(acts[rng.randrange(len(acts))])


def _cards(game: str, state) -> list[int]:
    """Every card of the deal where the position has it, each as often as it is there."""
    data = state.to_json()
    if game == "dam":
        discard = set(data["discard"])
        beaten = [c for pair in data["beaten"] for c in pair if c not in discard]
        cards = [c for h in data["hands"] for c in h] + data["stock"] + data["discard"]
        return sorted(cards + data["table"] + beaten)
    if game == "dolda":
        cards = [c for row in data["rows"] for c in row] + data["stock"] + data["discard"]
        cards += data["secret"] or []
        return sorted(cards + ([data["held"]] if data["held"] >= 0 else []))
    cards = [c for h in data["hands"] for c in h] + data["trick"]
    cards += [c for trick in data["history"] for c in trick[1]]
    if data["phase"] == "pass":
        cards += [c for chosen in data["chosen"] if chosen for c in chosen]
    return sorted(cards)


@pytest.mark.parametrize("game", GAME_NAMES)
def test_every_game_declares_its_search(game):
    search = search_of(game)
    bots = importlib.import_module(f"rules.engine.bots.{game}")
    assert isinstance(search, Search) and search is bots.SEARCH
    params = search.params
    assert isinstance(params, SearchParams)
    assert params == SearchParams(playouts=bots.PLAYOUTS, clear=bots.CLEAR,
                                  overrule_z=bots.OVERRULE_Z, horizon=bots.HORIZON,
                                  cut_value=bots.CUT_VALUE)
    assert params.playouts > 0 and params.clear > 0 and params.overrule_z >= 0
    assert params.horizon is None or params.horizon > 0
    assert (params.horizon is None) == (search.value_now is None)
    assert math.isfinite(params.cut_value)


@pytest.mark.parametrize("game", GAME_NAMES)
def test_a_state_finds_its_games_search(game):
    state, _seat = next(_positions(game, 1))
    assert state.game == game
    assert search_for(state) is search_of(game)


def test_an_unknown_game_has_no_search():
    with pytest.raises(KeyError):
        search_of("bridge")


def test_a_horizon_needs_a_value_for_the_cut():
    params = SearchParams(playouts=1, clear=math.inf, overrule_z=0.0, horizon=5, cut_value=0.0)
    base = search_of("dam")
    with pytest.raises(ValueError):
        Search(params, resample=base.resample, value=base.value, heuristic=base.heuristic,
               policy=base.policy)


@pytest.mark.parametrize("game", GAME_NAMES)
def test_resample_keeps_what_the_seat_sees(game):
    search = search_of(game)
    different = DIFFERENT.get(game, set())
    tried = 0
    for state, seat in _positions(game, 30):
        before = state.to_json()
        world = search.resample(state, seat, random.Random(tried))
        assert state.to_json() == before  # the real position is left alone
        mine, theirs = state.view(seat), world.view(seat)
        assert mine.keys() == theirs.keys()
        for key in mine.keys() - different:
            assert theirs[key] == mine[key], (key, tried)
        if game == "dam":
            short = 2 * len(mine["beaten"])
            assert mine["discard_count"] - theirs["discard_count"] in (0, short)
        assert world.legal_actions() == state.legal_actions()
        tried += 1
    assert tried > 100


@pytest.mark.parametrize("game", GAME_NAMES)
def test_resample_deals_every_unknown_card_once(game):
    search = search_of(game)
    for state, seat in _positions(game, 20):
        world = search.resample(state, seat, random.Random(seat))
        assert _cards(game, world) == _cards(game, state)


@pytest.mark.parametrize("game", GAME_NAMES)
def test_resample_deals_the_unknown_cards_at_random(game):
    search = search_of(game)
    for state, seat in _positions(game, 5):
        worlds = {str(search.resample(state, seat, random.Random(k)).to_json())
                  for k in range(6)}
        if len(worlds) > 1:
            return
    raise AssertionError("every seed gave the same position")


def test_only_spardame_passes_are_compared_with_the_baseline_only():
    for game in GAME_NAMES:
        for state, _seat in _positions(game, 3):
            passing = game == "spardame" and state.view(0)["phase"] == "pass"
            assert search_of(game).baseline_only(state) == passing


@pytest.mark.parametrize("game", GAME_NAMES)
def test_value_of_a_finished_deal(game):
    search = search_of(game)
    module = game_module(game)
    for k in range(5):
        state = next(_positions(game, k + 1))[0].clone()
        rng = random.Random(k)
        while not state.over:
            acts = state.legal_actions()
            state.apply_in_place(acts[rng.randrange(len(acts))])
        values = [search.value(state, s) for s in range(len(state.names))]
        outcome = module.outcome(state)
        if game == "dam":
            # 1 for the loser; a tie-break below 0.05 among the others.
            assert all((v == 1.0) == (o == 1.0) for v, o in zip(values, outcome))
            assert all(0 <= v < 0.05 for v, o in zip(values, outcome) if o != 1.0)
        else:
            # Points less the table's mean: lower is better, and they add up to nothing.
            assert abs(sum(values)) < 1e-9
            assert sorted(range(len(values)), key=values.__getitem__) == \
                sorted(range(len(outcome)), key=outcome.__getitem__)


@pytest.mark.parametrize("game", GAME_NAMES)
def test_groups_hold_every_action_once_in_order(game):
    search = search_of(game)
    for state, seat in _positions(game, 4):
        acts = list(state.legal_actions())[:60]
        groups = search.groups(state, seat, acts)
        assert sorted(map(repr, (a for g in groups for a in g))) == sorted(map(repr, acts))
        firsts = [g[0] for g in groups]
        assert firsts == [a for a in acts if a in firsts]


def test_interchangeable_spardame_cards_lead_to_the_same_points():
    # Two cards are interchangeable when nothing in another hand or on the table lies between
    # them (and neither is the queen of spades): in any deal of the unseen cards, playing one
    # now, and afterwards the same cards but for the other of the two, is legal all along and
    # takes the same tricks and the same points.
    search = search_of("spardame")
    rng = random.Random(5)
    tried = 0
    for state, seat in _positions("spardame", 30):
        for group in search.groups(state, seat, list(state.legal_actions())):
            if len(group) < 2:
                continue
            first, other = group[0], group[-1]
            swap = {first[2]: other[2], other[2]: first[2]}
            world = search.resample(state, seat, rng)
            one, two = world.clone(), world.clone()
            one.apply_in_place(first)
            two.apply_in_place(other)
            play = random.Random(rng.getrandbits(32))
            while not one.over:
                legal = sorted(one.legal_actions())
                kind, who, card = legal[play.randrange(len(legal))]
                mirrored = (kind, who, swap.get(card, card))
                assert mirrored in two.legal_actions()
                one.apply_in_place((kind, who, card))
                two.apply_in_place(mirrored)
            assert game_module("spardame").outcome(one) == game_module("spardame").outcome(two)
            tried += 1
    assert tried >= 20


def _mirror(action, pi):
    """``action`` with every card renamed by ``pi`` (cards it does not name stay)."""
    kind, who, *rest = action
    if kind in ("attack", "add"):
        return (kind, who, tuple(sorted(pi.get(c, c) for c in rest[0])))
    if kind == "beat":
        return (kind, who, pi.get(rest[0], rest[0]), pi.get(rest[1], rest[1]))
    return action


def test_interchangeable_dam_beats_lead_to_the_same_deal():
    # Two beats of one attack card with cards of one run: after either, renaming the run's
    # cards (the card played to the other one, the cards kept in rank order onto the other's
    # kept cards) turns one deal into the other.  In any deal of the unseen cards, every move
    # of the first, renamed, is legal in the second, and the deals end alike (the same loser,
    # the same order of going out).
    from rules.engine.bots.dam import alike

    search = search_of("dam")
    rng = random.Random(8)
    tried = 0
    for state, seat in _positions("dam", 60):
        groups = search.groups(state, seat, list(state.legal_actions()))
        for group in groups:
            if len(group) < 2:
                continue
            first, other = group[0], group[-1]
            low = alike(state, seat)
            run = sorted(c for c in low if low[c] == low[first[3]])
            pi = {first[3]: other[3],
                  **dict(zip([c for c in run if c != first[3]],
                             [c for c in run if c != other[3]]))}
            world = search.resample(state, seat, rng)
            one, two = world.clone(), world.clone()
            one.apply_in_place(first)
            two.apply_in_place(other)
            play = random.Random(rng.getrandbits(32))
            moves = 0
            while not one.over and moves < 3000:
                legal = one.legal_actions()
                action = legal[play.randrange(len(legal))]
                assert sorted(map(repr, (_mirror(a, pi) for a in legal))) == \
                    sorted(map(repr, two.legal_actions()))
                one.apply_in_place(action)
                two.apply_in_place(_mirror(action, pi))
                moves += 1
            assert (one.over, one.loser, one.out) == (two.over, two.loser, two.out)
            tried += 1
    assert tried >= 20


def test_dam_attacks_are_never_grouped():
    # A card laid in an attack can be taken and come back: which card of a run stayed in
    # hand then matters (the six of hearts kept beats the seven come back; the seven kept
    # beats the six).
    search = search_of("dam")
    for state, seat in _positions("dam", 30):
        for group in search.groups(state, seat, list(state.legal_actions())):
            assert len(group) == 1 or all(a[0] == "beat" for a in group)


def test_a_bot_has_a_generator_of_its_own_from_a_seed_and_shares_one_given():
    # strong._finish hands every bot of a playout the playout's own generator.
    shared = random.Random(3)
    assert source(shared) is shared
    assert source(3) is not source(3)
    assert source(3).random() == random.Random(3).random()


def test_a_dam_bot_made_from_a_generator_draws_from_it():
    state = next(_positions("dam", 1))[0]
    shared = random.Random(3)
    before = shared.getstate()
    search_of("dam").heuristic(shared).act(state, state.to_move)
    assert shared.getstate() != before
