"""Dam med dolda kort: properties over whole random deals under every variant."""

from __future__ import annotations

import json
import random

from hypothesis import given, settings
from hypothesis import strategies as st

from rules.engine import cards as C
from rules.engine import dolda
from rules.engine.errors import IllegalAction

OPTIONS = st.builds(
    dolda.Options,
    row_size=st.sampled_from([6, 7]),
    secret_card=st.booleans(),
    special_cards=st.booleans(),
    thieves_and_shields=st.booleans(),
    cap_special_at_5=st.booleans(),
)
DEALS = st.tuples(OPTIONS, st.integers(2, 6), st.integers(0, 2**32), st.integers(0, 2**32))
SETTINGS = settings(max_examples=40, deadline=None)


def play(options, players, seed, choices):
    """A whole deal with random legal actions: the states, actions and events in order."""
    names = [f"P{i}" for i in range(players)]
    rng = random.Random(choices)
    state = dolda.new_game(options, names, seed % players, seed, None)
    states, actions, events = [state], [], []
    while not state.over:
        action = rng.choice(state.legal_actions())
        state, ev = state.apply(action)
        states.append(state)
        actions.append(action)
        events.append(ev)
    return states, actions, events


def card_value(card, options, secret):
    """Scoring written out again from rules-spec.md, independent of the engine's tables."""
    rank, suit = C.rank_of(card), C.suit_of(card)
    value = {C.QUEEN: 0, C.ACE: 1, C.KING: 13, C.JACK: 11}.get(rank, rank)
    special = False
    if options.special_cards and suit == C.HEARTS and rank in (10, C.KING):
        value, special = (-1 if rank == 10 else -2), True
    if options.thieves_and_shields and rank == C.JACK:
        special = True
    if options.cap_special_at_5 and (special or secret):
        value = min(value, 5)
    return value


@SETTINGS
@given(DEALS)
def test_H_S3_every_card_is_always_somewhere_once(deal):
    for s in play(*deal)[0]:
        where = sum(s.rows, []) + s.stock + s.discard + (s.secret or [])
        where += [s.held] if s.held >= 0 else []
        assert sorted(where) == list(range(52))


@SETTINGS
@given(DEALS)
def test_H_S2_rows_keep_their_size(deal):
    options = deal[0]
    size = 4 if options.secret_card else options.row_size
    for s in play(*deal)[0]:
        assert [len(r) for r in s.rows] == [size] * len(s.names)


@SETTINGS
@given(DEALS)
def test_H_E1_the_deal_ends_exactly_when_the_stock_is_empty_after_a_turn(deal):
    states, actions, _ = play(*deal)
    for before, action, after in zip(states, actions, states[1:]):
        if before.phase in ("draw", "chain"):
            ended = after.phase not in ("draw", "chain")
            assert ended == (action.kind == "discard" and not after.stock)
    assert states[-1].over and states[-1].stock == []


@SETTINGS
@given(DEALS)
def test_H_E2_scores_are_the_sum_of_card_values_under_the_variant(deal):
    options = deal[0]
    last = play(*deal)[0][-1]
    for seat, row in enumerate(last.rows):
        want = sum(card_value(c, options, False) for c in row)
        if last.secret is not None:
            want += card_value(last.secret[seat], options, True)
        assert last.scores[seat] == want
    assert dolda.outcome(last) == [float(x) for x in last.scores]


@SETTINGS
@given(DEALS)
def test_replay_of_the_same_actions_gives_the_same_states(deal):
    options, players, seed, _ = deal
    states, actions, events = play(*deal)
    state = dolda.new_game(options, states[0].names, seed % players, seed, None)
    for action, want, want_events in zip(actions, states[1:], events):
        words = dolda.format_action(action).split()
        again = dolda.parse_action(state, action.seat, words)
        assert again == action
        state, ev = state.apply(again)
        assert ev == want_events
        assert state.to_json() == want.to_json()
    for s in states:
        data = json.loads(json.dumps(s.to_json()))
        assert dolda.state_from_json(data).to_json() == s.to_json()


MOVES = ["draw stock", "draw discard", "swap", "discard", "shield 1", "shield 2 3",
         "shield 1 1", "steal 1 P1 1", "steal 2 P0 3", "steal 3 P2 9", "fly", "draw"]


@SETTINGS
@given(DEALS, st.integers(0, 2**16))
def test_refused_actions_change_nothing(deal, pick):
    rng = random.Random(pick)
    for s in play(*deal)[0][::7]:
        before = json.dumps(s.to_json(), sort_keys=True)
        for _ in range(6):
            seat = rng.randrange(len(s.names))
            words = rng.choice(MOVES).split()
            try:
                action = dolda.parse_action(s, seat, words)
            except IllegalAction:
                pass
            else:
                assert action in s.legal_actions()
            assert json.dumps(s.to_json(), sort_keys=True) == before


@SETTINGS
@given(DEALS)
def test_H_T5_view_never_shows_a_face_down_card_the_seat_has_not_seen(deal):
    states, actions, events = play(*deal)
    n = len(states[0].names)
    secret = states[0].secret
    # What each seat has seen, from the events alone: what it drew or swapped, what lay
    # face up, the others' secret cards.
    seen = [set() if secret is None else {c for o, c in enumerate(secret) if o != s}
            for s in range(n)]
    for state, evs in zip(states, [[]] + events):
        for e in evs:
            if e["type"] == "draw":
                for s in range(n):
                    if s == e["seat"] or not e["private"]:
                        seen[s].add(e["card"])
            elif e["type"] == "swap":
                seen[e["seat"]] |= {e["card_in"], e["card_out"]}
                # ...and the memory aid shows the swapper what went where.
                assert state.view(e["seat"])["rows"][e["seat"]][e["position"] - 1] == e["card_in"]
            elif e["type"] == "discard":
                for s in range(n):
                    seen[s].add(e["card"])
            elif e["type"] == "rows_revealed":
                for s in range(n):
                    seen[s] |= set(sum(e["rows"], []))
        for seat in range(n):
            v = state.view(seat)
            json.dumps(v)  # a view is plain JSON
            for owner, row in enumerate(v["rows"]):
                for p, c in enumerate(row):
                    if c is not None:
                        assert c in seen[seat]
                        assert c == state.rows[owner][p]  # knowledge is never stale
            if v["held"] is not None:
                assert v["held"] == state.held and v["held"] in seen[seat]
            if secret is not None and not state.over:
                assert v["secret"][seat] is None
            for ev in evs:
                public = dolda.public_event(ev, seat)
                for key in ("card", "card_in", "card_out"):
                    if key in public and ev["type"] in ("draw", "swap"):
                        assert public[key] in seen[seat]


@SETTINGS
@given(DEALS)
def test_H_T3_legal_actions_are_all_accepted_and_deterministic(deal):
    for s in play(*deal)[0][::5]:
        acts = s.legal_actions()
        assert acts == s.legal_actions()
        for a in acts:
            s.apply(a)
        assert bool(acts) == (not s.over)


@SETTINGS
@given(DEALS)
def test_the_bots_view_is_a_part_of_the_seats_view(deal):
    # The bots read bot_view (built faster, for playouts): every value it holds is the one
    # view(seat) shows, or follows from it, so a bot still sees nothing a player would not.
    from rules.engine.bots.dolda import HeuristicBot, row_values

    states, _, _ = play(*deal)
    for state in states:
        for seat in range(len(state.names)):
            part, whole = dict(state.bot_view(seat)), state.view(seat)
            assert part.pop("row_values") == row_values(whole["options"])
            assert part.pop("unseen") == HeuristicBot.unseen(whole)
            assert part.keys() <= whole.keys()
            assert part == {k: whole[k] for k in part}
