"""Spardame properties over random deals (hypothesis draws the deal, options and the play)."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from rules.engine import spardame as sp
from rules.engine.errors import IllegalAction
from rules.engine.options import build_options

NAMES = ["Anna", "Bo", "Cilla", "Dag", "Eva", "Frode"]

deals = st.fixed_dictionaries({
    "n": st.integers(3, 6),
    "seed": st.integers(0, 10**6),
    "deal_number": st.integers(1, 4),
    "play_seed": st.integers(0, 10**6),
    "high_values": st.booleans(),
    "qs_breaks_hearts": st.booleans(),
    "no_points_first_trick": st.booleans(),
    "moon_fixed_26": st.booleans(),
})


def start(d: dict) -> sp.State:
    options = build_options(sp.Options, sp.PRESETS, sp.DEFAULT_PRESET, {
        k: d[k] for k in ("high_values", "qs_breaks_hearts", "no_points_first_trick",
                          "moon_fixed_26")})
    return sp.new_game(options, NAMES[:d["n"]], d["n"] - 1, d["seed"],
                       {"deal_number": d["deal_number"]})


def play(d: dict) -> tuple[list[sp.State], list, list[dict]]:
    rng = random.Random(d["play_seed"])
    state = start(d)
    states, actions, events = [state], [], []
    while not state.over:
        legal = state.legal_actions()
        action = legal[rng.randrange(len(legal))]
        state, ev = state.apply(action)
        states.append(state)
        actions.append(action)
        events += ev
    return states, actions, events


@settings(max_examples=150, deadline=None)
@given(deals)
def test_points_of_a_deal_add_up_to_the_points_in_play_or_the_moon_award(d):
    states, _, events = play(d)
    end = states[-1]
    in_play = end.d.points_in_play
    assert sum(end.taken) == in_play
    scored = [e for e in events if e["type"] == "deal_scored"][0]
    moon = [e for e in events if e["type"] == "moon_shot"]
    if moon:
        award = 26 if d["moon_fixed_26"] else in_play
        assert sorted(scored["scores"]) == [0] + [award] * (d["n"] - 1)
    else:
        assert sum(scored["scores"]) == in_play
    assert sp.outcome(end) == [float(x) for x in scored["scores"]]


@settings(max_examples=150, deadline=None)
@given(deals)
def test_every_trick_is_won_by_the_highest_card_of_the_led_suit(d):
    _, _, events = play(d)
    n = d["n"]
    for e in events:
        if e["type"] == "trick_won":
            cards = e["cards"]
            led = cards[0] // 13
            best = max(c for c in cards if c // 13 == led)
            assert e["seat"] == (e["leader"] + cards.index(best)) % n


@settings(max_examples=150, deadline=None)
@given(deals)
def test_every_card_is_played_exactly_once(d):
    _, _, events = play(d)
    played = [c for e in events if e["type"] == "card_played" for c in e["cards"]]
    assert sorted(played) == sp.deal_cards(d["n"])


@settings(max_examples=100, deadline=None)
@given(deals)
def test_replay_is_deterministic_and_json_round_trips(d):
    states, actions, events = play(d)
    replayed = start(d)
    replay_events: list[dict] = []
    for state, action in zip(states, actions):
        assert replayed.to_json() == state.to_json()
        data = state.to_json()
        back = sp.state_from_json(data)
        assert back.to_json() == data
        assert list(back.legal_actions()) == list(state.legal_actions())
        replayed, ev = replayed.apply(action)
        replay_events += ev
    assert replayed.to_json() == states[-1].to_json()
    assert replay_events == events


@settings(max_examples=100, deadline=None)
@given(deals, st.integers(0, 10**6))
def test_refused_actions_change_nothing_and_legal_ones_are_accepted(d, probe_seed):
    states, _, _ = play(d)
    rng = random.Random(probe_seed)
    n = d["n"]
    for state in states[:: max(1, len(states) // 12)]:
        before = state.to_json()
        legal = set(state.legal_actions())
        for _ in range(8):
            if rng.random() < 0.5:
                action = ("play", rng.randrange(n), rng.randrange(53))
            else:
                action = ("pass", rng.randrange(n), *sorted(rng.sample(range(52), 3)))
            try:
                state.apply(action)
            except IllegalAction:
                assert action not in legal
            else:
                assert action in legal
            assert state.to_json() == before  # apply never changes the state it was asked of


@settings(max_examples=100, deadline=None)
@given(deals)
def test_a_view_never_shows_another_players_hand(d):
    states, _, _ = play(d)
    n = d["n"]
    for state in states[:: max(1, len(states) // 10)]:
        for seat in range(n):
            view = state.view(seat)
            others = {c for s in range(n) if s != seat for c in state.hand(s)}
            visible = set(view["hand"]) | set(view["trick"]) | set(view["played"])
            visible |= set(view["received"] or ())
            assert visible.isdisjoint(others - set(view["received"] or ()))
            assert view["hand"] == state.hand(seat)


@settings(max_examples=60, deadline=None)
@given(deals)
def test_the_bots_view_is_a_part_of_the_seats_view(d):
    # The heuristic bot reads bot_view (built faster, for playouts): every value it holds is
    # the one view(seat) shows, or follows from it, so the bot still sees nothing a player
    # would not.
    states, _, _ = play(d)
    for state in states:
        for seat in range(d["n"]):
            part, whole = dict(state.bot_view(seat)), state.view(seat)
            assert part.pop("queen_out") == (sp.QS in whole["played"])
            assert part.keys() <= whole.keys()
            assert part == {k: whole[k] for k in part}


@settings(max_examples=40, deadline=None)
@given(deals)
def test_a_redealt_position_is_its_json_round_trip_with_the_new_hands(d):
    # The strong bot's resample deals positions with State.redealt instead of to_json and
    # state_from_json: the two must give the same position, and the same deal from there on.
    states, _, _ = play(d)
    rng = random.Random(d["play_seed"])
    for state in states[::3]:
        if state.over:
            continue
        data = state.to_json()
        # The player to move keeps its hand, as in resample (the first lead is the lowest
        # club's holder); before the exchange, passes set aside belong to their hands.
        mover = state.to_move
        pool = [c for s, hand in enumerate(data["hands"]) if s != mover for c in hand]
        if state.phase == sp.PLAY:
            rng.shuffle(pool)
        hands, at = [], 0
        for s, hand in enumerate(data["hands"]):
            if s == mover:
                hands.append(list(hand))
            else:
                hands.append(pool[at:at + len(hand)])
                at += len(hand)
        seed = rng.getrandbits(32)
        direct = state.redealt(hands, data["chosen"], data["received"], seed)
        via_json = sp.state_from_json({**data, "hands": hands, "seed": seed})
        assert direct.to_json() == via_json.to_json()
        while not direct.over:
            assert direct.legal_actions() == via_json.legal_actions()
            legal = direct.legal_actions()
            action = legal[rng.randrange(len(legal))]
            direct.apply_in_place(action)
            via_json.apply_in_place(action)
            assert direct.to_json() == via_json.to_json()
