"""Dam rules, one behaviour per test, named after the rule ids of rules-spec.md section 1."""

from __future__ import annotations

import json
import random

import pytest

from rules.engine import dam, scenario
from rules.engine.cards import code, parse
from rules.engine.errors import IllegalAction, ScenarioError
from rules.engine.options import build_options


def opts(**rules) -> dam.Options:
    return build_options(dam.Options, dam.PRESETS, dam.DEFAULT_PRESET, rules)


def make(hands: dict[str, str], stock: str = "", rules: dict | None = None, seed: int = 0,
         **deal) -> dam.State:
    """A fixed deal; cards not named go to the discard pile unless ``rest`` says otherwise."""
    names = list(hands)
    d = {"hands": {k: v.split() for k, v in hands.items()}, "stock": stock.split(), **deal}
    d.setdefault("rest", "discard")
    return dam.new_game(opts(**(rules or {})), names, len(names) - 1, seed, d)


def do(state: dam.State, *moves: str) -> dam.State:
    for move in moves:
        state, _ = scenario.apply_move(dam, state, state.names, move)
    return state


def events(state: dam.State, move: str) -> list[dict]:
    return scenario.apply_move(dam, state, state.names, move)[1]


def refused(state: dam.State, move: str) -> str:
    before = state.to_json()
    with pytest.raises(IllegalAction) as exc:
        scenario.apply_move(dam, state, state.names, move)
    assert state.to_json() == before  # a refused move changes nothing
    return exc.value.reason


def hand(state: dam.State, name: str) -> set[str]:
    return {code(c) for c in dam._bits(state.hands[state.names.index(name)])}


def count(state: dam.State, name: str) -> int:
    return state.hand_count(state.names.index(name))


def name(state: dam.State, seat: int | None) -> str | None:
    return None if seat is None or seat < 0 else state.names[seat]


# A table of three in the middle of a deal: trump diamonds already turned (7D under the stock).
def three(stock: str = "2C 3C 4C 6C 7C JC KC", **kw) -> dam.State:
    return make({"Anna": "5C 9C QC 2H 7H KS", "Bo": "8C 3D 4S 6H JH AC",
                 "Cilla": "TC 2S 9H TH 5D QS"}, stock, turned="7D", **kw)


# ---------------------------------------------------------------- setup
def test_D_S1_two_to_six_players_by_default():
    assert dam.player_range(opts()) == (2, 6)
    with pytest.raises(ScenarioError):
        dam.new_game(opts(), list("ABCDEFG"), 6, 1, None)


def test_D_S1_max_players_8_allows_eight():
    assert dam.player_range(opts(max_players_8=True)) == (2, 8)
    state = dam.new_game(opts(max_players_8=True), list("ABCDEFGH"), 7, 1, None)
    assert [state.hand_count(s) for s in range(8)] == [6] * 8 and state.stock_count == 4


@pytest.mark.parametrize("preset,size", [("svarta-maja", 6), ("musta-maija", 5),
                                         ("kolme-korttia", 3), ("aldre-svensk", 6),
                                         ("fast-trumf", 6)])
def test_D_S2_hand_size_of_each_preset(preset, size):
    state = dam.new_game(opts(preset=preset), ["A", "B", "C", "D"], 3, 5, None)
    assert [state.hand_count(s) for s in range(4)] == [size] * 4
    assert state.stock_count == 52 - 4 * size


def test_D_S3_cards_dealt_one_at_a_time_from_the_dealers_left():
    deck = list(range(52))
    dam._shuffle(deck, random.Random(42))
    state = dam.new_game(opts(), ["A", "B", "C"], 1, 42, None)  # dealer B: C gets the first card
    order = [2, 0, 1]
    for i, seat in enumerate(order):
        assert set(dam._bits(state.hands[seat])) == set(deck[i:18:3])
    assert state.to_json()["stock"] == deck[18:]  # the rest is the stock, top first


def test_D_S4_player_left_of_dealer_attacks_first():
    state = dam.new_game(opts(), ["A", "B", "C", "D"], 1, 3, None)
    assert state.to_move == 2 and state.attacker == 2 and state.defender == 3


# ---------------------------------------------------------------- trump
def test_D_T1_trump_turned_after_first_attack_and_before_the_refill():
    state = make({"A": "2C 3C 4H 5H 6H 7H", "B": "9C TC JC QC KC AC"}, "9H 2D 3D 4D 5D")
    assert state.trump == dam.NO_TRUMP
    ev = events(state, "A attack 2C")
    assert [e["type"] for e in ev] == ["attack", "trump_turned", "refill"]
    after = do(state, "A attack 2C")
    assert after.trump == parse("9H") // 13 and after.turned == parse("9H")
    assert "2D" in hand(after, "A") and "9H" not in hand(after, "A")
    assert after.to_json()["stock"][-1] == parse("9H")  # crosswise under the stock, drawn last
    assert after.stock_count == 4  # the turned card still counts


def test_D_T1_only_the_first_attack_turns_trump():
    state = make({"A": "2C 3C 4H 5H 6H 7H", "B": "9C TC JC QC KC AC", "C": "2S 3S 4S 5S 6S 7S"},
                 "9H 2D 3D 4D 5D 6D 7D")
    state = do(state, "A attack 2C", "B beat 2C 9C", "B attack TC")
    assert state.trump == parse("9H") // 13
    assert state.turned == parse("9H")


def test_D_T2_turned_spade_goes_back_and_the_next_card_is_turned():
    state = make({"A": "2C 3C 4C 5C 6C 7C", "B": "9C TC JC QC KC AC"}, "5S 9H")
    ev = events(state, "A attack 2C")
    assert [e["type"] for e in ev].count("spade_returned") >= 1
    after = do(state, "A attack 2C")
    assert after.trump == parse("9H") // 13
    assert after.to_json()["stock"] == [parse("9H")] and "5S" in hand(after, "A")


def test_D_T2_a_spade_may_come_back_on_top_and_is_turned_again():
    returns = set()
    for seed in range(60):
        state = make({"A": "2C 3C 4C 5C 6C 7C", "B": "9C TC JC QC KC AC"}, "5S 7S 9H", seed=seed)
        ev = events(state, "A attack 2C 3C 4C 5C 6C 7C")
        returns.add(sum(e["type"] == "spade_returned" for e in ev))
        assert do(state, "A attack 2C").trump == parse("9H") // 13
    assert max(returns) >= 3  # more returns than spades: some went back on top


def test_D_T2_put_back_position_comes_from_the_seed():
    def run(seed):
        state = make({"A": "2C 3C 4C 5C 6C 7C", "B": "9C TC JC QC KC AC"},
                     "5S 7S 8S 9H 2H 3H 4H", seed=seed)
        return do(state, "A attack 2C").to_json()
    assert run(7) == run(7)
    assert len({json.dumps(run(s)["stock"]) for s in range(20)}) > 1


def test_D_T2_stock_of_only_spades_means_no_trump():
    state = make({"A": "2C 3C 4C 5C 6C 7C", "B": "9C TC JC QC KC AC"}, "5S 7S 9S")
    ev = events(state, "A attack 2C")
    assert ev[1] == {"type": "trump_turned", "card": None, "suit": None}
    assert do(state, "A attack 2C").trump == dam.NO_TRUMP


def test_D_T2_spades_can_be_trump_option_keeps_a_turned_spade():
    state = make({"A": "2C 3C 4C 5C 6C 7C", "B": "9C TC JC QC KC AC"}, "5S 9H",
                 rules={"spades_can_be_trump": True})
    after = do(state, "A attack 2C")
    assert after.trump == 3 and after.turned == parse("5S")


def test_D_T3_fixed_trump_from_the_deal_on():
    state = make({"A": "2C 3C 4H 5H 6H 7H", "B": "9C TC JC QC KC AC"}, "9H 2D",
                 rules={"preset": "fast-trumf"})
    assert state.trump == 1
    ev = events(state, "A attack 2C")
    assert "trump_turned" not in [e["type"] for e in ev]
    assert make({"A": "2C", "B": "3C"}, "9H", rules={"trump": "fixed", "fixed_trump_suit": "H"}
                ).trump == 2


def test_D_T4_marriage_trump_starts_without_trump():
    state = make({"A": "KH QH 2C", "B": "3C 4C 5C"}, "6C 7C", rules={"trump": "marriage"})
    assert state.trump == dam.NO_TRUMP
    ev = events(state, "A attack 2C")
    assert "trump_turned" not in [e["type"] for e in ev]


def test_D_T4_announcing_sets_trump_and_keeps_the_turn():
    state = make({"A": "KH QH 2C", "B": "3C 4C 5C"}, "6C 7C", rules={"trump": "marriage"})
    after = do(state, "A announce H")
    assert after.trump == 2 and after.to_move == 0
    assert after.legal_actions() and all(a[0] == "attack" for a in after.legal_actions())


def test_D_T4_announcing_is_possible_while_defending():
    state = make({"A": "9C 2C", "B": "KD QD 3C"}, "6C 7C", rules={"trump": "marriage"})
    state = do(state, "A attack 9C", "B announce D")
    assert state.trump == 1 and state.to_move == 1
    assert parse("9C") not in do(state, "B beat 9C QD").table


def test_D_T4_announcing_is_not_compulsory():
    state = make({"A": "KH QH 2C", "B": "3C 4C 5C"}, "6C 7C", rules={"trump": "marriage"})
    assert do(state, "A attack 2C").trump == dam.NO_TRUMP


def test_D_T4_no_pair_no_announcement():
    state = make({"A": "KH JH 2C", "B": "3C 4C 5C"}, "6C 7C", rules={"trump": "marriage"})
    assert refused(state, "A announce H") == "no_marriage"


def test_D_T4_first_announcement_fixes_trump_by_default():
    state = make({"A": "KH QH KC QC 2C", "B": "3C 4C 5C"}, "6C 7C", rules={"trump": "marriage"})
    state = do(state, "A announce H")
    assert refused(state, "A announce C") == "trump_fixed"


def test_D_T4_marriage_can_change_lets_a_later_pair_change_trump():
    state = make({"A": "KH QH KC QC 2C", "B": "3C 4C 5C"}, "6C 7C",
                 rules={"trump": "marriage", "marriage_can_change": True})
    state = do(state, "A announce H", "A announce C")
    assert state.trump == 0
    assert refused(state, "A announce C") == "trump_fixed"  # already trump


def test_D_T4_spade_marriage_follows_spades_can_be_trump():
    deal = {"A": "KS QS 2C", "B": "3C 4C 5C"}
    assert refused(make(deal, "6C", rules={"trump": "marriage"}), "A announce S") == "no_marriage"
    state = make(deal, "6C", rules={"trump": "marriage", "spades_can_be_trump": True})
    assert do(state, "A announce S").trump == 3


def test_D_T4_initial_trump_is_replaced_by_the_first_announcement():
    state = make({"A": "KH QH 2C", "B": "3C 4C 5C"}, "6C",
                 rules={"trump": "marriage", "initial_trump": "C"})
    assert state.trump == 0
    assert do(state, "A announce H").trump == 2


def test_D_T4_announce_is_no_move_under_turned_trump():
    state = make({"A": "KH QH 2C", "B": "3C 4C 5C"}, "6C")
    assert refused(state, "A announce H") == "bad_move"


def test_D_T5_three_card_variant_is_marriage_with_diamonds():
    o = opts(preset="kolme-korttia")
    assert (o.hand_size, o.trump, o.initial_trump) == (3, "marriage", "D")
    state = dam.new_game(o, ["A", "B", "C"], 2, 4, None)
    assert state.trump == 1 and state.turned == -1
    state = make({"A": "KH QH 2C", "B": "3C 4C 5C"}, "6C", rules={"preset": "kolme-korttia"})
    assert do(state, "A announce H").trump == 2


# ---------------------------------------------------------------- attack
def test_D_A1_attack_cards_must_share_one_suit():
    assert refused(three(), "Anna attack 5C 2H") == "attack_mixed_suits"


def test_D_A1_attack_goes_to_the_left_neighbour():
    state = do(three(), "Anna attack 5C 9C QC")
    assert state.to_move == 1 and state.defender == 1 and state.table == tuple(
        parse(c) for c in "5C 9C QC".split())


def test_D_A1_defender_is_the_next_player_who_still_holds_cards():
    state = make({"A": "2C 3C", "B": "", "C": "4C 5C"})
    assert state.attacker == 0 and state.defender == 2


def test_D_A2_queen_of_spades_alone_or_with_spades():
    state = make({"A": "QS 3S 7S 2H", "B": "2C 3C 4C 5C"}, "6C 7C")
    assert do(state, "A attack QS").table == (parse("QS"),)
    assert do(state, "A attack 3S QS 7S").table == tuple(parse(c) for c in "3S QS 7S".split())
    assert refused(state, "A attack QS 2H") == "attack_mixed_suits"


def test_D_A3_attack_may_exceed_defender_hand_while_stock_lasts():
    state = make({"A": "2C 3C 4C 5C", "B": "9H"}, "6H 7H 8H")
    state = do(state, "A attack 2C 3C 4C 5C")
    assert len(state.table) == 4 and count(state, "B") == 1


def test_D_A3_attack_cap_limits_one_attack():
    state = make({"A": "2C 3C 4C 5C", "B": "9H"}, "6H 7H 8H", rules={"attack_cap": 2})
    assert refused(state, "A attack 2C 3C 4C") == "attack_over_cap"
    assert len(do(state, "A attack 2C 3C").table) == 2


def test_D_A4_endgame_attack_may_not_exceed_defender_hand():
    state = make({"A": "2C 3C 4C", "B": "9H TH"}, trump="D")
    assert refused(state, "A attack 2C 3C 4C") == "attack_exceeds_defender_hand"
    assert len(do(state, "A attack 2C 3C").table) == 2


def test_D_A4_penalty_defender_gives_all_cards_and_is_out():
    state = make({"A": "2C 3C 4C", "B": "9H TH", "C": "QS 5D"}, trump="D",
                 rules={"endgame_overplay": "penalty"})
    ev = events(state, "A attack 2C 3C 4C")
    assert "overplay_penalty" in [e["type"] for e in ev]
    state = do(state, "A attack 2C 3C 4C")
    assert hand(state, "A") == {"2C", "3C", "4C", "9H", "TH"}
    assert count(state, "B") == 0 and state.out == (1,)
    assert name(state, state.to_move) == "C" and name(state, state.defender) == "A"


def test_D_A4_penalty_hides_hand_counts_in_the_endgame():
    state = make({"A": "2C 3C 4C", "B": "9H TH"}, trump="D", rules={"endgame_overplay": "penalty"})
    assert state.view(0)["hand_counts"] == [3, None]
    live = make({"A": "2C 3C 4C", "B": "9H TH"}, "5D", trump="D",
                rules={"endgame_overplay": "penalty"})
    assert live.view(0)["hand_counts"] == [3, 2]
    assert make({"A": "2C", "B": "9H TH"}, trump="D").view(0)["hand_counts"] == [1, 2]


def extra(stock: str = "2D 3D 4D 5D 6D 7D", **rules) -> dam.State:
    return make({"A": "2C 3C 4C 5C 9H 9S", "B": "6H 7H 8H TH JH QH"}, stock, trump="H",
                rules={"extra_attack": True, **rules})


def test_D_A5_defender_slaps_and_the_attack_is_closed():
    state = do(extra(), "A attack 2C")
    assert state.to_move == 1 and [a[0] for a in state.legal_actions()] == ["slap", "wait"]
    state = do(state, "B slap")
    assert state.to_move == 1 and state.table == (parse("2C"),)
    assert refused(state, "A add 3C") == "not_your_turn"


def test_D_A5_wait_lets_the_attacker_add_then_done():
    state = do(extra(), "A attack 2C", "B wait", "A add 3C 4C")
    assert state.to_move == 0 and len(state.table) == 3
    state = do(state, "A done")
    assert state.to_move == 1 and len(state.table) == 3


def test_D_A5_added_cards_are_not_replaced_until_the_next_refill():
    state = do(extra(), "A attack 2C", "B wait", "A add 3C 4C", "A done")
    assert count(state, "A") == 4  # refilled to six after 2C, then added two
    state = do(state, "B take")
    assert count(state, "A") == 4


def test_D_A5_step_skipped_without_a_card_of_the_suit():
    state = do(extra(), "A attack 9S")
    assert [a[0] for a in state.legal_actions()][-1] == "take"


def test_D_A5_step_ends_by_itself_when_no_add_is_possible():
    state = do(extra(), "A attack 2C", "B wait", "A add 3C 4C 5C")
    assert state.to_move == 1 and state.phase == dam.DEFEND


def test_D_A5_add_must_follow_the_attack_suit():
    state = do(extra(), "A attack 2C", "B wait")
    assert refused(state, "A add 9H") == "add_wrong_suit"


def test_D_A5_add_within_the_cap():
    state = do(extra(attack_cap=2), "A attack 2C", "B wait")
    assert refused(state, "A add 3C 4C") == "add_not_allowed"


def test_D_A5_no_extra_attack_without_the_option():
    state = do(make({"A": "2C 3C", "B": "6H 7H"}, "2D 3D"), "A attack 2C")
    assert refused(state, "B slap") == "bad_move"


# ---------------------------------------------------------------- defence
def test_D_B1_higher_card_of_the_same_suit_beats():
    assert do(three(), "Anna attack 5C 9C QC", "Bo beat 5C 8C").table == (parse("9C"), parse("QC"))


def test_D_B1_any_trump_beats_a_plain_card():
    assert parse("9C") not in do(three(), "Anna attack 5C 9C QC", "Bo beat 9C 3D").table


def test_D_B1_lower_card_of_the_same_suit_is_not_higher():
    state = do(three(), "Anna attack 9C")
    assert refused(state, "Bo beat 9C 8C") == "not_higher"


def test_D_B1_other_plain_suit_is_the_wrong_suit():
    state = do(three(), "Anna attack 2H")
    assert refused(state, "Bo beat 2H 4S") == "wrong_suit"


def test_D_B1_trump_attack_card_needs_a_higher_trump():
    state = make({"A": "9D 2C", "B": "3D AS KD"}, "4C 5C", trump="D")
    state = do(state, "A attack 9D")
    assert refused(state, "B beat 9D 3D") == "not_higher"
    assert refused(state, "B beat 9D AS") == "wrong_suit"
    assert do(state, "B beat 9D KD").table == ()


def test_D_B1_one_card_beats_one_attack_card():
    state = do(three(), "Anna attack 5C 9C QC", "Bo beat 5C AC")
    assert refused(state, "Bo beat 9C AC") == "card_not_in_hand"


def test_a_card_not_held_and_named_twice_is_named_once_in_the_refusal():
    """#34 item 9: "Anna attack QS QS" without the queen said "queen of spades and queen of
    spades"."""
    state = three()
    assert "QS" not in hand(state, "Anna")
    with pytest.raises(IllegalAction) as exc:
        scenario.apply_move(dam, state, state.names, "Anna attack QS QS")
    assert exc.value.reason == "card_not_in_hand"
    assert [code(c) for c in exc.value.cards] == ["QS"]


def test_D_B2_queen_of_spades_cannot_beat_even_the_two():
    state = make({"A": "2S 3C", "B": "QS 4C"}, "5C 6C", trump="D")
    state = do(state, "A attack 2S")
    assert refused(state, "B beat 2S QS") == "queen_of_spades_cannot_beat"
    assert all(a[-1] != parse("QS") for a in state.legal_actions() if a[0] == "beat")


@pytest.mark.parametrize("card", ["KS", "AS", "2D"])
def test_D_B2_queen_of_spades_cannot_be_beaten(card):
    state = make({"A": "QS 3C", "B": "KS AS 2D"}, "5C 6C", trump="D")
    state = do(state, "A attack QS")
    assert refused(state, f"B beat QS {card}") == "queen_of_spades_cannot_be_beaten"
    assert [a[0] for a in state.legal_actions()] == ["take"]


def test_D_B3_beating_is_optional_the_defender_may_take_at_once():
    state = do(three(), "Anna attack 5C", "Bo take")
    assert "5C" in hand(state, "Bo")


def test_D_B3_defence_ends_by_itself_when_every_card_is_beaten():
    state = do(three(), "Anna attack 5C 9C", "Bo beat 5C 8C", "Bo beat 9C 3D")
    assert state.phase == dam.ATTACK and name(state, state.to_move) == "Bo"


def test_D_B3_beaten_card_cannot_be_beaten_again():
    state = do(three(), "Anna attack 5C 9C", "Bo beat 5C 8C")
    assert refused(state, "Bo beat 5C AC") == "already_beaten"


def test_D_B4_beaten_pairs_go_to_the_discard_pile():
    state = three()
    before = state.discard.bit_count()
    state = do(state, "Anna attack 5C 9C", "Bo beat 5C 8C")
    assert state.discard.bit_count() == before + 2
    assert state.discard >> parse("5C") & 1 and state.discard >> parse("8C") & 1


def test_D_B5_unbeaten_cards_go_into_the_defenders_hand():
    state = do(three(), "Anna attack 5C 9C QC", "Bo beat 5C 8C", "Bo beat 9C 3D", "Bo take")
    assert "QC" in hand(state, "Bo") and state.table == ()


# ---------------------------------------------------------------- refill
def test_D_R1_attacker_refills_right_after_the_attack():
    state = do(three(), "Anna attack 5C 9C QC")
    assert count(state, "Anna") == 6 and hand(state, "Anna") >= {"2C", "3C", "4C"}


def test_D_R1_defender_refills_after_the_defence_and_others_do_not_draw():
    state = do(three(), "Anna attack 5C 9C QC", "Bo beat 5C 8C", "Bo beat 9C 3D", "Bo take")
    assert count(state, "Bo") == 6 and "QC" in hand(state, "Bo")
    assert count(state, "Cilla") == 6 and state.stock_count == 4


def test_D_R1_player_at_or_above_hand_size_draws_nothing():
    state = make({"A": "2C 3C 4C 5C 6C 7C 8C 9C", "B": "2H"}, "2D 3D 4D", trump="D")
    state = do(state, "A attack 2C")
    assert count(state, "A") == 7 and state.stock_count == 3


def test_D_R2_refill_stops_when_the_stock_runs_out():
    state = make({"A": "2C 3C 4C 5C 6C 7C", "B": "8C 9C TC JC QC KC"}, "2D", trump="D")
    state = do(state, "A attack 2C 3C 4C")
    assert count(state, "A") == 4 and state.stock_count == 0


# ---------------------------------------------------------------- who attacks next
def test_D_N1_defender_who_beat_everything_attacks_next():
    state = do(three(), "Anna attack 5C", "Bo beat 5C 8C")
    assert name(state, state.attacker) == "Bo" and name(state, state.defender) == "Cilla"


def test_D_N1_otherwise_the_player_after_the_defender_attacks():
    state = do(three(), "Anna attack 5C", "Bo take")
    assert name(state, state.attacker) == "Cilla" and name(state, state.defender) == "Anna"


def test_D_N2_attacker_laying_the_last_card_is_out():
    state = make({"A": "2C", "B": "3H 4H", "C": "QS 5H"}, trump="D")
    state = do(state, "A attack 2C")
    assert state.out == (0,)
    state = do(state, "B take")
    assert name(state, state.attacker) == "C" and name(state, state.defender) == "B"


def test_D_N2_defender_beating_with_the_last_card_is_out_and_skipped():
    state = make({"A": "2C 2H", "B": "3C", "C": "QS 5H"}, trump="D")
    state = do(state, "A attack 2C", "B beat 2C 3C")
    assert state.out == (1,)
    assert name(state, state.attacker) == "C" and name(state, state.defender) == "A"


def test_D_N2_nobody_is_out_while_the_stock_lasts():
    state = make({"A": "2C", "B": "3C 4C", "C": "QS 5H"}, "7H", trump="D")
    state = do(state, "A attack 2C")
    assert state.out == () and count(state, "A") == 1


# ---------------------------------------------------------------- end
def test_D_E1_nobody_refills_once_the_stock_is_empty():
    state = make({"A": "2C 3C 4H", "B": "3H 4D 9S", "C": "QS 5H 6H"}, trump="D")
    state = do(state, "A attack 2C 3C", "B take")
    assert count(state, "A") == 1 and count(state, "B") == 5


def test_D_E2_last_player_with_cards_loses():
    state = make({"A": "2C", "B": "QS 3H"}, trump="D")
    state = do(state, "A attack 2C", "B take")
    assert state.over and state.to_move is None and name(state, state.loser) == "B"
    assert dam.outcome(state) == [0.0, 1.0]
    assert refused(state, "B take") == "game_over"


def test_D_E2_deal_does_not_end_while_an_attack_is_pending():
    state = make({"A": "2C", "B": "QS 3H", "C": "4C"}, trump="D")
    state = do(state, "A attack 2C")
    assert not state.over and state.to_move == 1
    state = do(state, "B take")
    assert not state.over and name(state, state.attacker) == "C"


def test_D_E3_the_session_tallies_lost_deals_and_never_ends():
    results = [{"loser": 1}, {"loser": 1}, {"loser": 0}, {"loser": None}]
    standing = dam.match_standing(3, results)
    assert standing.values == [1, 2, 0]
    assert not standing.over and standing.winners == []


def test_D_E3_a_finished_deal_counts_its_loser_and_the_next_deal_passes_left():
    state = three()
    rng = random.Random(5)
    while not state.over:
        state, _ = state.apply(rng.choice(state.legal_actions()))
    result = dam.deal_result(state)
    assert result == {"loser": None if state.loser < 0 else state.loser}
    follow = dam.following_deal(dam.Options(), list(state.names), 2, 1, result, seed=4)
    assert follow.to_move == 1  # dealer 0 now, so the seat on its left attacks (D-S4)
    with pytest.raises(ValueError):
        dam.deal_result(three())


# ---------------------------------------------------------------- protocol and text edges
def test_reason_order_of_the_common_codes():
    state = do(three(), "Anna attack 5C")
    assert refused(state, "Anna take") == "not_your_turn"
    assert refused(state, "Bo beat 5C XX") == "unknown_card"
    assert refused(state, "Bo beat 5C 9D") == "card_not_in_hand"
    assert refused(state, "Bo jump") == "bad_move"
    assert refused(state, "Bo beat 7C 8C") == "bad_move"  # not on the table
    assert refused(state, "Nobody take") == "bad_move"


def test_attack_with_no_cards_is_attack_empty():
    assert refused(three(), "Anna attack") == "attack_empty"


def test_view_hides_the_stock_and_other_hands():
    state = three()
    view = state.view(1)
    text = json.dumps(view)
    assert view["hand"] == sorted(parse(c) for c in "8C 3D 4S 6H JH AC".split())
    assert view["hand_counts"] == [6, 6, 6] and view["stock_count"] == state.stock_count
    assert view["turned"] == parse("7D") and view["trump"] == 1
    assert "stock" not in view and "hands" not in view and "seed" not in view
    for c in dam._bits(state.hands[0]):
        assert c not in view["hand"]
    assert len(text) < 2000 and "draws" not in view  # no stock order, no random position
    assert set(view) >= {"table", "discard_count", "attacker", "defender", "to_move"}


def test_check_expect_rejects_keys_of_other_games():
    with pytest.raises(ScenarioError):
        dam.check_expect(three(), "row", {})


def test_check_expect_reports_mismatches():
    state = three()
    assert dam.check_expect(state, "to_move", "Anna") is None
    assert dam.check_expect(state, "to_move", "Bo") is not None
    assert dam.check_expect(state, "hand", {"Bo": "AC JH 6H 4S 3D 8C".split()}) is None
    assert dam.check_expect(state, "trump", "d") is None
    assert dam.check_expect(state, "stock_count", 8) is None


def test_deal_rejects_a_card_named_twice():
    with pytest.raises(ScenarioError):
        make({"A": "2C 3C", "B": "2C"})


def test_deal_rejects_a_spade_turned_trump():
    with pytest.raises(ScenarioError):
        make({"A": "2C", "B": "3C"}, turned="5S")


def test_unnamed_cards_go_under_the_named_stock_above_the_turned_card():
    state = dam.new_game(opts(), ["A", "B"], 1, 3,
                         {"hands": {"A": ["2C"], "B": ["3C"]}, "stock": ["4C", "5C"],
                          "turned": "7H"})
    stock = state.to_json()["stock"]
    assert stock[:2] == [parse("4C"), parse("5C")] and stock[-1] == parse("7H")
    assert len(stock) == 50 and state.trump == 2


# ---------------------------------------------------------------- decisions around D-A5
def test_D_A5_attacker_emptied_by_adds_draws_when_play_reaches_them():
    state = make({"A": "2C 3C 4C", "B": "5H 6H 7H"}, "8C 9C TC JD QD KD",
                 rules={"extra_attack": True, "hand_size": 3}, trump="D")
    state = do(state, "A attack 2C", "B wait", "A add 3C 4C 8C")
    assert count(state, "A") == 0 and state.to_move == 1 and state.out == ()
    state = do(state, "B take")
    assert state.to_move == 0 and hand(state, "A") == {"9C", "TC", "JD"}


def test_D_A5_an_add_that_overplays_in_the_endgame_is_punished_under_penalty():
    state = make({"A": "2C 3C 4C", "B": "5H 6H", "C": "QS 9D"}, trump="D",
                 rules={"extra_attack": True, "endgame_overplay": "penalty"})
    state = do(state, "A attack 2C 3C", "B wait")
    ev = events(state, "A add 4C")
    assert [e["type"] for e in ev][:2] == ["add", "overplay_penalty"]
    state = do(state, "A add 4C")
    assert hand(state, "A") == {"2C", "3C", "4C", "5H", "6H"} and state.out == (1,)


def test_D_A5_endgame_add_may_not_exceed_the_defender_hand_when_forbidden():
    state = make({"A": "2C 3C 4C", "B": "5H 6H", "C": "QS 9D"}, trump="D",
                 rules={"extra_attack": True})
    state = do(state, "A attack 2C", "B wait")
    assert refused(state, "A add 3C 4C") == "add_not_allowed"
    assert do(state, "A add 3C").phase == dam.DEFEND  # the limit is reached: step over


# ---------------------------------------------------------------- public knowledge of Maja
def test_view_names_the_seat_that_took_the_queen_of_spades_from_the_table():
    state = do(three(), "Anna attack 5C", "Bo take")
    assert [state.view(s)["maja_known_with"] for s in range(3)] == [None] * 3  # dealt: hidden
    state = do(state, "Cilla attack QS", "Anna take")
    assert [state.view(s)["maja_known_with"] for s in range(3)] == [0, 0, 0]
    assert dam.state_from_json(state.to_json()).view(1)["maja_known_with"] == 0
    # Only where she is: the other cards Anna took and holds stay hidden from the others.
    for s in (1, 2):
        view = state.view(s)
        assert not set(view["hand"]) & set(dam._bits(state.hands[0]))
        assert set(view) == set(state.view(0))
    state = do(state, "Bo attack 4S", "Cilla take", "Anna attack QS")
    assert state.view(1)["maja_known_with"] is None  # on the table, in plain sight
    state = do(state, "Bo take")
    assert [state.view(s)["maja_known_with"] for s in range(3)] == [1, 1, 1]


def test_view_maja_known_with_clears_only_when_she_is_laid():
    state = make({"A": "QS 3S 2C 4H", "B": "2D 3D 4D 5D 8S"}, "6C 7C 8C 9C TC JC KC", trump="D")
    state = do(state, "A attack QS", "B take", "A attack 4H", "B beat 4H 2D")
    assert state.view(0)["maja_known_with"] == 1
    state = do(state, "B attack 8S", "A take")
    assert state.view(0)["maja_known_with"] == 1  # a spade attack without her changes nothing
    state = do(state, "B attack QS")
    assert state.view(0)["maja_known_with"] is None


def test_view_names_the_seat_that_drew_a_turned_queen_of_spades_last():
    state = make({"A": "2C 3C", "B": "4D 5D"}, "6C", turned="QS",
                 rules={"spades_can_be_trump": True})
    assert state.view(1)["maja_known_with"] is None
    state = do(state, "A attack 2C")  # the refill empties the stock: she is drawn last (D-T1)
    assert state.stock_count == 0 and state.view(1)["maja_known_with"] == 0


def test_maja_known_with_is_absent_from_a_state_saved_before_the_field():
    data = do(three(), "Anna attack 5C", "Bo take", "Cilla attack QS", "Anna take").to_json()
    del data["maja"]
    assert dam.state_from_json(data).view(0)["maja_known_with"] is None


def test_the_deals_random_source_resumes_after_the_draws_used():
    # State._rng skips the used draws in one call: the same as replaying them one by one.
    state = dam.new_game(dam.Options(), ["A", "B", "C"], 0, 77, None)
    for draws in (0, 1, 2, 51, 60):
        state.draws = draws
        replay = random.Random(77)
        for _ in range(draws):
            replay.random()
        assert state._rng().getstate() == replay.getstate()
