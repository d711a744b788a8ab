"""Spardame rules (rules-spec.md section 3): one test per behaviour, named after the rule id."""

from __future__ import annotations

import pytest

from rules.engine import spardame as sp
from rules.engine.bots.spardame import BOTS
from rules.engine.cards import code, parse
from rules.engine.errors import IllegalAction, ScenarioError
from rules.engine.options import build_options

NAMES = ["Anna", "Bo", "Cilla", "Dag", "Eva", "Frode"]


def opts(**overrides) -> sp.Options:
    return build_options(sp.Options, sp.PRESETS, sp.DEFAULT_PRESET, overrides)


def C(text: str) -> list[int]:
    return [parse(t) for t in text.split()]


def make_hands(n: int, fixed: dict[int, str]) -> dict[str, list[str]]:
    """Hands for ``n`` players: the seats in ``fixed`` get those cards, the rest is dealt
    round the other seats in card order so every hand has as many cards."""
    cards = sp.deal_cards(n)
    size = len(cards) // n
    hands: dict[int, list[int]] = {s: C(t) for s, t in fixed.items()}
    used = {c for h in hands.values() for c in h}
    rest = [c for c in cards if c not in used]
    for s in range(n):
        hands.setdefault(s, [])
    i = 0
    for c in rest:
        while len(hands[i % n]) >= size:
            i += 1
        hands[i % n].append(c)
        i += 1
    assert all(len(h) == size for h in hands.values()), {s: len(h) for s, h in hands.items()}
    return {NAMES[s]: [code(c) for c in h] for s, h in hands.items()}


def game(n: int = 4, fixed: dict[int, str] | None = None, deal_number: int | None = None,
         scores: dict[str, int] | None = None, **options) -> sp.State:
    """A fixed deal; by default one without passing (deal 4, or deal 3 for three players)."""
    if deal_number is None:
        deal_number = 3 if n == 3 else 4
    deal = {"hands": make_hands(n, fixed or {}), "deal_number": deal_number}
    if scores:
        deal["scores"] = scores
    return sp.new_game(opts(**options), NAMES[:n], n - 1, 0, deal)


def do(state: sp.State, move: str) -> sp.State:
    words = move.split()
    seat = NAMES.index(words[0])
    state, _events = state.apply(sp.parse_action(state, seat, words[1:]))
    return state


def refused(state: sp.State, move: str) -> str:
    words = move.split()
    before = state.to_json()
    with pytest.raises(IllegalAction) as info:
        state.apply(sp.parse_action(state, NAMES.index(words[0]), words[1:]))
    assert state.to_json() == before
    return info.value.reason


def play_out(state: sp.State) -> tuple[sp.State, list[dict]]:
    """Finish the deal with the first legal action each time; returns every event."""
    events: list[dict] = []
    while not state.over:
        state, ev = state.apply(state.legal_actions()[0])
        events += ev
    return state, events


# Four one-suit hands: Anna wins every trick with her clubs and so takes every point.
MOON = {0: "2C 3C 4C 5C 6C 7C 8C 9C TC JC QC KC AC",
        1: "2D 3D 4D 5D 6D 7D 8D 9D TD JD QD KD AD",
        2: "2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH AH",
        3: "2S 3S 4S 5S 6S 7S 8S 9S TS JS QS KS AS"}


# -- S-S1 -----------------------------------------------------------------------------------
@pytest.mark.parametrize("n,removed,size", [(3, "2C", 17), (4, "", 13), (5, "2D 2S", 10),
                                             (6, "2C 2D 2H 2S", 8)])
def test_S_S1_twos_removed_so_hands_are_equal(n, removed, size):
    state = sp.new_game(opts(), NAMES[:n], n - 1, 3, None)
    dealt = sorted(c for s in range(n) for c in state.hand(s))
    assert dealt == sorted(set(range(52)) - set(C(removed)))
    assert [state.hand_count(s) for s in range(n)] == [size] * n


def test_S_S1_three_to_six_players():
    assert sp.player_range(opts()) == (3, 6)
    with pytest.raises(ScenarioError):
        sp.new_game(opts(), NAMES[:2], 1, 0, None)


def test_S_S1_deal_naming_a_removed_card_is_refused():
    hands = make_hands(3, {})
    hands["Anna"][0] = "2C"  # the two of clubs is out of a three-player deal
    with pytest.raises(ScenarioError):
        sp.new_game(opts(), NAMES[:3], 2, 0, {"hands": hands})


def test_S_S1_deal_with_unequal_hands_is_refused():
    hands = make_hands(4, {})
    hands["Bo"].append(hands["Anna"].pop())
    with pytest.raises(ScenarioError):
        sp.new_game(opts(), NAMES[:4], 3, 0, {"hands": hands})


def test_S_S1_random_deal_depends_only_on_the_seed():
    a = sp.new_game(opts(), NAMES[:4], 3, 11, None)
    b = sp.new_game(opts(), NAMES[:4], 3, 11, None)
    c = sp.new_game(opts(), NAMES[:4], 3, 12, None)
    assert a.to_json() == b.to_json()
    assert a.to_json()["hands"] != c.to_json()["hands"]


# -- S-P1 -----------------------------------------------------------------------------------
def test_S_P1_four_players_pass_left_right_across_none_then_repeat():
    got = [game(4, deal_number=k).pass_direction for k in range(1, 9)]
    assert got == ["left", "right", "across", "none"] * 2


def test_S_P1_three_players_have_no_across():
    got = [game(3, deal_number=k).pass_direction for k in range(1, 7)]
    assert got == ["left", "right", "none"] * 2


@pytest.mark.parametrize("n,offset", [(4, 2), (5, 2), (6, 3)])
def test_S_P1_across_is_half_the_table_to_the_left(n, offset):
    state = game(n, deal_number=3)
    for _ in range(n):
        state, events = state.apply(state.legal_actions()[0])
        assert events[0]["to"] == (events[0]["seat"] + offset) % n
    assert state.received[offset] == state.chosen[0]


def test_S_P1_passing_goes_in_seat_order_from_forehand():
    state = game(4, deal_number=1)
    assert state.to_move == 0  # Dag deals, Anna is forehand
    assert refused(state, "Bo pass " + " ".join(code(c) for c in state.hand(1)[:3])) == \
        "not_your_turn"


def test_S_P1_a_pass_is_exactly_three_different_cards():
    state = game(4, {0: "2C 3C 4C 5C 6C 7C 8C 9C TC JC QC KC AC"}, deal_number=1)
    assert refused(state, "Anna pass 2C 3C") == "pass_three_cards"
    assert refused(state, "Anna pass 2C 3C 4C 5C") == "pass_three_cards"
    assert refused(state, "Anna pass 2C 2C 3C") == "pass_three_cards"


def test_S_P1_cards_move_only_once_everyone_has_chosen():
    state = game(4, {0: "2C 3C 4C 5C 6C 7C 8C 9C TC JC QC KC AC",
                     1: "2D 3D 4D 5D 6D 7D 8D 9D TD JD QD KD AD"}, deal_number=1)
    state = do(state, "Anna pass QC KC AC")
    assert C("QC KC AC")[0] not in state.hand(1)  # not yet with Bo
    # Bo cannot pass on what Anna chose for him: the cards have not arrived.
    assert refused(state, "Bo pass QC KC AC") == "card_not_in_hand"
    state = do(state, "Bo pass JD QD KD")
    state = do(state, "Cilla pass " + " ".join(code(c) for c in state.hand(2)[:3]))
    assert set(C("QC KC AC")).isdisjoint(state.hand(1))
    state = do(state, "Dag pass " + " ".join(code(c) for c in state.hand(3)[:3]))
    assert set(C("QC KC AC")) <= set(state.hand(1))
    assert set(C("JD QD KD")) <= set(state.hand(2))
    assert state.phase == sp.PLAY


def test_S_P1_right_sends_to_the_previous_seat():
    state = game(4, deal_number=2)
    given = state.legal_actions()[0]
    for _ in range(4):
        state = state.apply(state.legal_actions()[0])[0]
    assert state.received[3] == tuple(given[2:])  # Anna's cards went to Dag, on her right


def test_S_P1_deal_without_passing_starts_with_the_first_lead():
    state = game(4, {2: "2C"}, deal_number=4)
    assert state.phase == sp.PLAY and state.to_move == 2
    assert refused(state, "Cilla pass 2C 3C 4C") in ("bad_move", "card_not_in_hand")
    held = " ".join(code(c) for c in state.hand(2)[:3])
    assert refused(state, f"Cilla pass {held}") == "bad_move"


# -- S-T1 -----------------------------------------------------------------------------------
def test_S_T1_holder_of_the_two_of_clubs_leads_it():
    state = game(4, {1: "2C"})
    assert state.to_move == 1
    assert [sp.format_action(a) for a in state.legal_actions()] == ["play 2C"]


def test_S_T1_another_first_lead_is_refused():
    state = game(4, {1: "2C 9C"})
    assert refused(state, "Bo play 9C") == "must_lead_lowest_club"


@pytest.mark.parametrize("n", [3, 6])
def test_S_T1_lowest_club_leads_when_the_two_is_out(n):
    state = game(n, {1: "3C"})
    assert state.to_move == 1
    assert [sp.format_action(a) for a in state.legal_actions()] == ["play 3C"]


def test_S_T1_the_holder_after_passing_leads():
    state = game(4, {0: "2C 3C 4C 5C 6C 7C 8C 9C TC JC QC KC AC"}, deal_number=1)
    state = do(state, "Anna pass 2C 3C 4C")
    for _ in range(3):
        state = state.apply(state.legal_actions()[0])[0]
    assert state.to_move == 1  # Bo got the two of clubs from Anna


# -- S-T2 -----------------------------------------------------------------------------------
def test_S_T2_must_follow_suit():
    state = game(4, {0: "2C", 1: "3C 2D"})
    state = do(state, "Anna play 2C")
    assert refused(state, "Bo play 2D") == "must_follow_suit"
    assert all(a[2] // 13 == 0 for a in state.legal_actions())


def test_S_T2_a_void_player_may_play_any_card():
    state = game(4, {0: "2C", 1: "2D 3D 4D 5D 6D 7D 8D 9D TD JD QD KD 2S"})
    state = do(state, "Anna play 2C")
    assert {a[2] for a in state.legal_actions()} == set(state.hand(1))


# -- S-T3 -----------------------------------------------------------------------------------
# Bo leads 2C, Anna wins the first trick with AC and leads next; Bo has only diamonds left,
# Cilla and Dag have no diamonds.
BREAK = {0: "AC 2H 3H 2D", 1: "2C 3D 4D 5D 6D 7D 8D 9D TD JD QD KD AD",
         2: "3C 4H 5H 6H 7H 8H 9H TH 2S 3S 4S 5S 6S", 3: "4C"}


def _after_first_trick(**options) -> sp.State:
    state = game(4, BREAK, **options)
    for move in ("Bo play 2C", "Cilla play 3C", "Dag play 4C", "Anna play AC"):
        state = do(state, move)
    assert state.to_move == 0
    return state


def test_S_T3_hearts_cannot_be_led_before_they_are_broken():
    state = _after_first_trick()
    assert refused(state, "Anna play 2H") == "hearts_not_broken"


def test_S_T3_a_discarded_heart_breaks_hearts():
    state = _after_first_trick()
    state = do(state, "Anna play 2D")
    state = do(state, "Bo play 3D")
    assert not state.broken
    state, events = state.apply(("play", 2, parse("4H")))
    assert state.broken
    assert {"type": "hearts_broken", "seat": 2, "cards": [parse("4H")]} in events


def test_S_T3_a_player_holding_only_hearts_may_lead_one():
    # Cilla holds only hearts after the first trick and wins it (Anna, Bo, Dag play low).
    state = game(4, {2: "AC 2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH", 0: "2C", 1: "3C", 3: "4C"})
    for move in ("Anna play 2C", "Bo play 3C", "Cilla play AC", "Dag play 4C"):
        state = do(state, move)
    assert state.to_move == 2 and not state.broken
    state = do(state, "Cilla play 2H")
    assert state.broken


@pytest.mark.parametrize("flag", [False, True])
def test_S_T3_queen_of_spades_breaks_hearts_only_with_the_option(flag):
    state = game(4, {0: "AC 2H QS 2D", 1: "2C 3D 4D 5D 6D 7D 8D 9D TD JD QD KD AD",
                     2: "3C", 3: "4C"}, qs_breaks_hearts=flag)
    for move in ("Bo play 2C", "Cilla play 3C", "Dag play 4C", "Anna play AC", "Anna play QS"):
        state = do(state, move)
    assert state.broken is flag


ALL_CLUBS = "2C 3C 4C 5C 6C 7C 8C 9C TC JC QC KC AC"


# -- S-T4 -----------------------------------------------------------------------------------
def test_S_T4_no_heart_on_the_first_trick():
    state = game(4, {0: ALL_CLUBS, 1: "2H 3D"})
    state = do(state, "Anna play 2C")
    assert refused(state, "Bo play 2H") == "no_points_first_trick"


def test_S_T4_no_queen_of_spades_on_the_first_trick():
    state = game(4, {0: "2C", 1: "QS 3D 4D 5D 6D 7D 8D 9D TD JD QD KD AD"})
    state = do(state, "Anna play 2C")
    assert refused(state, "Bo play QS") == "no_points_first_trick"
    assert parse("QS") not in [a[2] for a in state.legal_actions()]


def test_S_T4_a_player_holding_only_point_cards_may_play_one():
    state = game(4, {0: "2C", 1: "QS 2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH"})
    state = do(state, "Anna play 2C")
    assert {a[2] for a in state.legal_actions()} == set(state.hand(1))
    state = do(state, "Bo play QS")
    assert state.trick == (parse("2C"), parse("QS"))


def test_S_T4_option_off_allows_points_on_the_first_trick():
    state = game(4, {0: ALL_CLUBS, 1: "2H 3D"}, no_points_first_trick=False)
    state = do(state, "Anna play 2C")
    state = do(state, "Bo play 2H")
    assert state.broken


# -- S-T5 -----------------------------------------------------------------------------------
def test_S_T5_highest_card_of_the_led_suit_wins_not_a_higher_other_suit():
    state = game(4, {0: "2C", 1: "5C", 2: "AD 3D 4D 5D 6D 7D 8D 9D TD JD QD KD AS", 3: "3C"})
    state = do(state, "Anna play 2C")
    state = do(state, "Bo play 5C")
    state = do(state, "Cilla play AS")
    state, events = state.apply(("play", 3, parse("3C")))
    won = [e for e in events if e["type"] == "trick_won"]
    assert won[0]["seat"] == 1
    assert state.tricks_won == [0, 1, 0, 0]


def test_S_T5_the_winner_leads_the_next_trick():
    state = game(4, {0: "2C", 1: "3C", 2: "AC", 3: "4C"})
    for move in ("Anna play 2C", "Bo play 3C", "Cilla play AC", "Dag play 4C"):
        state = do(state, move)
    assert state.to_move == 2 and state.trick == ()


# -- S-C1 -----------------------------------------------------------------------------------
def _won_cards(events: list[dict], n: int) -> list[list[int]]:
    won: list[list[int]] = [[] for _ in range(n)]
    for e in events:
        if e["type"] == "trick_won":
            won[e["seat"]] += e["cards"]
    return won


@pytest.mark.parametrize("high,heart,queen", [(False, 1, 13), (True, 10, 100)])
def test_S_C1_hearts_and_queen_of_spades_score(high, heart, queen):
    state = sp.new_game(opts(high_values=high, moon=False), NAMES[:4], 3, 5, None)
    state, events = play_out(state)
    won = _won_cards(events, 4)
    expected = [sum(heart for c in w if c // 13 == 2) + (queen if parse("QS") in w else 0)
                for w in won]
    assert state.taken == expected
    assert sp.outcome(state) == [float(x) for x in expected]


# -- S-C2 -----------------------------------------------------------------------------------
def test_S_C2_moon_gives_everyone_else_the_26_points():
    state, events = play_out(game(4, MOON))
    assert state.taken == [26, 0, 0, 0]
    assert sp.outcome(state) == [0.0, 26.0, 26.0, 26.0]
    assert {"type": "moon_shot", "seat": 0, "points": 26} in events


def test_S_C2_moon_with_high_values_gives_the_230_in_play():
    state, _ = play_out(game(4, MOON, high_values=True))
    assert state.taken == [230, 0, 0, 0]
    assert sp.outcome(state) == [0.0, 230.0, 230.0, 230.0]


def test_S_C2_moon_fixed_26_gives_26_whatever_the_values():
    state, _ = play_out(game(4, MOON, high_values=True, moon_fixed_26=True))
    assert sp.outcome(state) == [0.0, 26.0, 26.0, 26.0]


def test_S_C2_without_the_moon_option_the_taker_keeps_the_points():
    state, events = play_out(game(4, MOON, moon=False))
    assert sp.outcome(state) == [26.0, 0.0, 0.0, 0.0]
    assert not any(e["type"] == "moon_shot" for e in events)


def test_S_C2_six_players_have_25_points_in_play():
    # 2H is out with six players; Anna's eight top clubs win all eight tricks.
    fixed = {0: "7C 8C 9C TC JC QC KC AC", 1: "3H 4H 5H 6H 7H 8H 9H TH",
             2: "JH QH KH AH QS 3D 4D 5D"}
    state, _ = play_out(game(6, fixed))
    assert state.taken[0] == 25
    assert sp.outcome(state) == [0.0] + [25.0] * 5


# -- S-C3 -----------------------------------------------------------------------------------
def test_S_C3_match_ends_at_the_limit_and_equal_lowest_totals_share_the_win():
    start = {"Anna": 36, "Bo": 74, "Cilla": 50, "Dag": 10}
    state, events = play_out(game(4, MOON, scores=start))
    assert state.result["totals"] == [36, 100, 76, 36]
    assert state.result["winners"] == [0, 3]
    assert {"type": "match_over", "winners": [0, 3], "totals": [36, 100, 76, 36]} in events
    assert sp.check_expect(state, "winner", ["Dag", "Anna"]) is None


def test_S_C3_below_the_limit_the_match_goes_on():
    state, events = play_out(game(4, MOON, scores={"Bo": 73}))
    assert state.result["winners"] == []
    assert not any(e["type"] == "match_over" for e in events)
    result = sp.deal_result(state)
    standing = sp.match_standing(4, [result])
    assert not standing.over and standing.values == [0, 99, 26, 26]
    follow = sp.following_deal(state.d.options, list(state.d.names), state.d.dealer,
                               state.d.deal_number, result, seed=9)
    assert follow.d.deal_number == 5 and follow.d.dealer == 0
    assert follow.d.scores_before == [0, 99, 26, 26]


def test_S_C3_a_match_with_winners_has_no_following_deal():
    start = {"Anna": 36, "Bo": 74, "Cilla": 50, "Dag": 10}
    state, _ = play_out(game(4, MOON, scores=start))
    result = sp.deal_result(state)
    standing = sp.match_standing(4, [result])
    assert standing.over and standing.winners == [0, 3]
    with pytest.raises(ValueError):
        sp.following_deal(state.d.options, list(state.d.names), state.d.dealer,
                          state.d.deal_number, result, seed=9)


def test_S_C3_limit_500():
    state, _ = play_out(game(4, MOON, scores={"Bo": 473}, limit=500))
    assert state.result["winners"] == []
    state, _ = play_out(game(4, MOON, scores={"Bo": 474}, limit=500, high_values=True))
    assert state.result["totals"][1] == 704 and state.result["winners"] == [0]


# -- protocol details ---------------------------------------------------------------------
def test_refusal_order_common_codes_first():
    state = game(4, {0: "2C"})
    assert refused(state, "Bo play 3C") == "not_your_turn"
    assert refused(state, "Anna play ZZ") == "unknown_card"
    assert refused(state, "Anna play 2D") in ("card_not_in_hand", "must_lead_lowest_club")
    assert refused(state, "Anna dance") == "bad_move"
    assert refused(state, "Anna play 2C 3C") in ("bad_move", "card_not_in_hand")
    done, _ = play_out(state)
    with pytest.raises(IllegalAction) as info:
        sp.parse_action(done, 0, ["play", "2C"])
    assert info.value.reason == "game_over"


def test_apply_validates_actions_built_in_code():
    state = game(4, {0: "2C 3C 4C"})
    for action, reason in [(("play", 1, parse("3D")), "not_your_turn"),
                           (("play", 0, 99), "unknown_card"),
                           (("play", 0, parse("3C")), "must_lead_lowest_club"),
                           (("pass", 0, 0, 1, 2), "bad_move"),
                           ("play 2C", "bad_move")]:
        with pytest.raises(IllegalAction) as info:
            state.apply(action)
        assert info.value.reason == reason


def test_view_shows_only_the_seats_own_hand():
    state = sp.new_game(opts(), NAMES[:4], 3, 2, None)
    view = state.view(1)
    assert view["hand"] == state.hand(1)
    shown = {c for key in ("hand", "trick", "played") for c in view[key]}
    assert shown.isdisjoint(state.hand(0) + state.hand(2) + state.hand(3))


def test_check_expect_rejects_keys_of_other_games():
    state = game(4)
    for key in ("stock_count", "trump", "row", "table"):
        with pytest.raises(ScenarioError):
            sp.check_expect(state, key, 0)


@pytest.mark.parametrize("kind", ["random", "heuristic"])
def test_bots_are_deterministic_under_a_seed(kind):
    def run(seed):
        state = sp.new_game(opts(), NAMES[:4], 3, seed, None)
        bots = [BOTS[kind](seed * 10 + i) for i in range(4)]
        moves = []
        while not state.over:
            action = bots[state.to_move].act(state, state.to_move)
            moves.append(action)
            state = state.apply(action)[0]
        return moves, sp.outcome(state)
    assert run(4) == run(4)


def test_heuristic_bot_scores_less_than_random_bots():
    total = [0.0, 0.0]
    for seed in range(60):
        state = sp.new_game(opts(), NAMES[:4], 3, seed, {"deal_number": seed % 4 + 1})
        bots = [BOTS["heuristic"](seed)] + [BOTS["random"](seed * 10 + i) for i in range(1, 4)]
        while not state.over:
            state = state.apply(bots[state.to_move].act(state, state.to_move))[0]
        out = sp.outcome(state)
        total[0] += out[0]
        total[1] += sum(out[1:]) / 3
    assert total[0] < total[1] * 0.6


def test_events_of_a_whole_deal_in_order():
    state = game(4, MOON, deal_number=1)
    kinds: list[str] = []
    for _ in range(4):
        state, events = state.apply(state.legal_actions()[0])
        kinds += [e["type"] for e in events]
    assert kinds == ["pass"] * 4 + ["cards_exchanged"]
    state, events = play_out(state)
    kinds = [e["type"] for e in events]
    assert kinds.count("card_played") == 52 and kinds.count("trick_won") == 13
    assert kinds.count("hearts_broken") == 1
    assert kinds[-1] == "deal_scored" or kinds[-2:] == ["deal_scored", "match_over"]


def test_visible_events_hide_other_players_passed_cards():
    state = game(4, deal_number=1)
    state, events = state.apply(state.legal_actions()[0])
    assert "cards" in sp.visible_events(events, 0)[0]
    assert "cards" not in sp.visible_events(events, 1)[0]
    for _ in range(3):
        state, events = state.apply(state.legal_actions()[0])
    exchanged = sp.visible_events(events, 2)[-1]
    assert exchanged["received"][2] == list(state.received[2])
    assert all(r == [] for i, r in enumerate(exchanged["received"]) if i != 2)
