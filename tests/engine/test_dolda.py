"""Dam med dolda kort: one behaviour per test, named after the rule ids of rules-spec.md §2."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from rules.engine import cards as C
from rules.engine import dolda, scenario
from rules.engine.errors import IllegalAction, ScenarioError

NAMES = ["Anna", "Bo", "Cilla"]
SCENARIOS = Path(__file__).resolve().parents[2] / "rules" / "scenarios" / "dolda"

# Rows used by most tests: nothing special unless a test says so.
ROWS = {
    "Anna": "9C AD 3H 2D QC 4S",
    "Bo": "KC 8D AH 5D TC 4D",
    "Cilla": "7C 7S QD 3C KS 6H",
}


def game(rows=None, stock="", rules=None, names=NAMES, dealer=None, **deal):
    """A fixed deal; rows and stock as space-separated codes, the rest under the stock."""
    rows = rows or ROWS
    d = {"rows": {n: r.split() for n, r in rows.items()}, **deal}
    if stock:
        d["stock"] = stock.split()
    if isinstance(d.get("discard"), str):
        d["discard"] = d["discard"].split()
    options = dolda.options_from_rules(rules)
    return dolda.new_game(options, list(names), len(names) - 1 if dealer is None else dealer,
                          0, d)


def do(state, *moves):
    events = []
    for move in moves:
        state, ev = scenario.apply_move(dolda, state, state.names, move)
        events += ev
    return state, events


def refused(state, move):
    before = json.dumps(state.to_json(), sort_keys=True)
    with pytest.raises(IllegalAction) as info:
        scenario.apply_move(dolda, state, state.names, move)
    assert json.dumps(state.to_json(), sort_keys=True) == before
    return info.value.reason


def row(state, name):
    return C.codes(state.rows[state.names.index(name)])


def held(state):
    return None if state.held < 0 else C.code(state.held)


def cs(text):
    return C.parse_many(text.split())


# -- H-S: setup -----------------------------------------------------------------------------

def test_H_S1_two_to_six_players():
    options = dolda.Options()
    assert dolda.player_range(options) == (2, 6)
    dolda.new_game(options, ["A", "B"], 1, 0, None)
    dolda.new_game(options, list("ABCDEF"), 5, 0, None)
    for names in (["A"], list("ABCDEFG")):
        with pytest.raises(ScenarioError):
            dolda.new_game(options, names, 0, 0, None)


def test_H_S1_scenario_with_seven_players_is_refused():
    data = {"format": "dam-scenario/1", "game": "dolda", "players": list("ABCDEFG")}
    with pytest.raises(ScenarioError):
        scenario.parse(data)


def test_H_S2_random_deal_gives_every_player_a_row_of_six():
    s = dolda.new_game(dolda.Options(), ["A", "B", "C", "D"], 3, 11, None)
    assert [len(r) for r in s.rows] == [6, 6, 6, 6]
    assert len(set(sum(s.rows, []))) == 24


def test_H_S2_nobody_sees_any_row_card_at_the_start():
    s = dolda.new_game(dolda.Options(), ["A", "B", "C"], 2, 5, None)
    for seat in range(3):
        assert all(c is None for r in s.view(seat)["rows"] for c in r)


def test_H_S2_the_crosswise_last_card_is_never_swapped():
    s, _ = do(game(stock="QH"), "Anna draw stock", *["Anna swap"] * 5)
    assert refused(s, "Anna swap") == "cannot_swap_crosswise"
    s, _ = do(s, "Anna discard")
    assert row(s, "Anna")[5] == "4S"


def test_H_S3_the_rest_is_the_stock_and_the_discard_pile_starts_empty():
    s = dolda.new_game(dolda.Options(), ["A", "B", "C", "D"], 3, 2, None)
    assert len(s.stock) == 52 - 24
    assert s.discard == []
    assert s.view(0)["discard_top"] is None


def test_H_S3_discarded_cards_lie_face_up_for_everyone():
    s, _ = do(game(stock="2H"), "Anna draw stock", "Anna discard")
    for seat in range(3):
        v = s.view(seat)
        assert v["discard_top"] == C.parse("2H")
        assert v["discard_count"] == 1


# -- H-T: turns -----------------------------------------------------------------------------

def test_H_T1_forehand_begins():
    s = dolda.new_game(dolda.Options(), ["A", "B", "C"], 1, 0, None)
    assert s.to_move == 2


def test_H_T1_turns_go_clockwise():
    s = game(stock="2H 5H 8H")
    seen = []
    for _ in range(3):
        seen.append(s.names[s.to_move])
        s, _ = do(s, f"{seen[-1]} draw stock", f"{seen[-1]} discard")
    assert seen == ["Anna", "Bo", "Cilla"]
    assert s.names[s.to_move] == "Anna"


def test_H_T2_drawing_from_the_stock_takes_its_top_card():
    s, events = do(game(stock="2H 5H"), "Anna draw stock")
    assert held(s) == "2H"
    assert len(s.stock) == 52 - 18 - 1
    assert events == [{"type": "draw", "seat": 0, "source": "stock", "card": C.parse("2H"),
                       "private": True}]


def test_H_T2_drawing_from_the_discard_pile_takes_its_top_card():
    s = game(stock="2H", discard="5S 6S")
    s, events = do(s, "Anna draw discard")
    assert held(s) == "5S"
    assert C.codes(s.discard) == ["6S"]
    assert events[0]["source"] == "discard" and events[0]["private"] is False


def test_H_T2_only_the_drawer_sees_a_card_drawn_from_the_stock():
    s, _ = do(game(stock="2H"), "Anna draw stock")
    assert s.view(0)["held"] == C.parse("2H")
    assert s.view(1)["held"] is None
    assert dolda.public_event({"type": "draw", "seat": 0, "card": 5, "private": True}, 1) == \
        {"type": "draw", "seat": 0, "private": True}


def test_H_T2_only_one_card_is_drawn_per_turn():
    s, _ = do(game(stock="2H"), "Anna draw stock")
    assert refused(s, "Anna draw stock") == "already_drew"
    assert refused(s, "Anna draw discard") == "already_drew"


def test_H_T2_the_discard_pile_must_hold_a_card_to_draw_from_it():
    assert refused(game(stock="2H"), "Anna draw discard") == "discard_pile_empty"


def test_H_T3_a_swap_takes_the_leftmost_card_first():
    s, events = do(game(stock="QH"), "Anna draw stock", "Anna swap")
    assert row(s, "Anna") == ["QH", "AD", "3H", "2D", "QC", "4S"]
    assert held(s) == "9C"
    assert events[-1]["position"] == 1 and events[-1]["card_out"] == C.parse("9C")


def test_H_T3_the_chain_goes_strictly_left_to_right():
    s, _ = do(game(stock="QH"), "Anna draw stock", "Anna swap", "Anna swap", "Anna swap")
    assert row(s, "Anna") == ["QH", "9C", "AD", "2D", "QC", "4S"]
    assert held(s) == "3H"


def test_H_T3_a_discard_ends_the_turn():
    s, events = do(game(stock="QH"), "Anna draw stock", "Anna swap", "Anna discard")
    assert s.names[s.to_move] == "Bo"
    assert C.codes(s.discard) == ["9C"]
    assert events[-1] == {"type": "discard", "seat": 0, "card": C.parse("9C"), "forced": False}


def test_H_T3_swaps_start_again_at_the_leftmost_card_every_turn():
    s, _ = do(game(stock="QH 2S 3S 5S"), "Anna draw stock", "Anna swap", "Anna discard",
              "Bo draw stock", "Bo discard", "Cilla draw stock", "Cilla discard",
              "Anna draw stock", "Anna swap")
    assert row(s, "Anna")[0] == "5S"
    assert held(s) == "QH"


def test_H_T3_swap_and_discard_need_a_drawn_card():
    s = game(stock="QH")
    assert refused(s, "Anna swap") == "no_card_held"
    assert refused(s, "Anna discard") == "no_card_held"


def test_H_T4_swap_with_a_word_after_it_at_the_crosswise_card_is_cannot_swap_crosswise():
    """The game's own reasons come before bad_move (scenario-format.md, "Reason codes")."""
    s, _ = do(game(stock="QH"), "Anna draw stock", *["Anna swap"] * 5)
    assert refused(s, "Anna swap 1") == "cannot_swap_crosswise"
    assert refused(s, "Anna swap") == "cannot_swap_crosswise"
    s, _ = do(game(stock="QH"), "Anna draw stock")
    assert refused(s, "Anna swap 1") == "bad_move"  # a swap takes no position
    assert refused(game(stock="QH"), "Anna swap 1") == "no_card_held"


def test_H_T4_a_card_from_the_last_swappable_position_must_be_discarded():
    s, _ = do(game(stock="QH"), "Anna draw stock", *["Anna swap"] * 5)
    assert held(s) == "QC"  # a good card, but there is no going back
    assert [a.kind for a in s.legal_actions()] == ["discard"]
    s, events = do(s, "Anna discard")
    assert events[-1]["forced"] is True and C.code(events[-1]["card"]) == "QC"


def test_H_T5_row_cards_stay_face_down_but_the_player_remembers_what_they_saw():
    s, _ = do(game(stock="QH"), "Anna draw stock", "Anna swap", "Anna discard")
    assert s.view(0)["rows"][0] == [C.parse("QH"), None, None, None, None, None]
    assert s.view(1)["rows"][0] == [None] * 6


def test_H_T5_a_card_from_the_discard_pile_is_known_to_everyone_where_it_goes():
    s, _ = do(game(stock="2H", discard="5S"), "Anna draw discard", "Anna swap")
    for seat in range(3):
        assert s.view(seat)["rows"][0][0] == C.parse("5S")
    assert s.view(0)["held"] == C.parse("9C")
    assert s.view(1)["held"] is None


def test_H_T5_knowledge_moves_with_the_card_along_the_row():
    s, _ = do(game(stock="2H 3S 8S", discard="5S"), "Anna draw discard", "Anna swap",
              "Anna discard", "Bo draw stock", "Bo discard", "Cilla draw stock", "Cilla discard",
              "Anna draw stock", "Anna swap", "Anna swap")
    # 5S moved from position 1 to 2: Bo still knows where it is, Anna knows both.
    assert s.view(1)["rows"][0][:2] == [None, C.parse("5S")]
    assert s.view(0)["rows"][0][:2] == [C.parse("8S"), C.parse("5S")]


# -- H-E: end -------------------------------------------------------------------------------

def test_H_E1_the_deal_ends_when_the_turn_that_drew_the_last_card_is_over():
    s, _ = do(game(stock="2H 5H", rest="discard"), "Anna draw stock", "Anna discard",
              "Bo draw stock")
    assert not s.over and s.stock == [] and s.names[s.to_move] == "Bo"
    s, events = do(s, "Bo swap", "Bo discard")
    assert s.over and s.to_move is None
    assert [e["type"] for e in events[-4:]] == ["discard", "deal_over", "rows_revealed", "scored"]


def test_H_E1_drawing_from_the_discard_pile_leaves_the_stock_and_the_deal_goes_on():
    s, _ = do(game(stock="2H", discard="5S", rest="discard"), "Anna draw discard",
              "Anna discard")
    assert not s.over and len(s.stock) == 1


def test_H_E1_moves_after_the_end_are_refused_with_game_over():
    s, _ = do(game(stock="2H", rest="discard"), "Anna draw stock", "Anna discard")
    assert refused(s, "Bo draw stock") == "game_over"
    assert refused(s, "Anna draw stock") == "game_over"
    assert s.legal_actions() == []


@pytest.mark.parametrize("code,points", [("QS", 0), ("AH", 1), ("2C", 2), ("7D", 7),
                                         ("TS", 10), ("JC", 11), ("KD", 13)])
def test_H_E2_card_values(code, points):
    assert dolda.value_tables(dolda.Options())[0][C.parse(code)] == points


def test_H_E2_rows_are_turned_up_and_the_lowest_total_wins():
    s, events = do(game(stock="2H", rest="discard"), "Anna draw stock", "Anna discard")
    assert s.scores == [9 + 1 + 3 + 2 + 0 + 4, 13 + 8 + 1 + 5 + 10 + 4, 7 + 7 + 0 + 3 + 13 + 6]
    assert dolda.winners(s) == [0]
    assert dolda.outcome(s) == [19.0, 41.0, 36.0]
    assert all(c is not None for r in s.view(1)["rows"] for c in r)


def test_H_E2_equal_lowest_totals_share_the_win():
    rows = {"Anna": "QC 2C 3C 4C 5C 6C", "Bo": "QD 2D 3D 4D 5D 6D", "Cilla": "KS KH KD KC JS JH"}
    s, _ = do(game(rows, stock="2H", rest="discard"), "Anna draw stock", "Anna discard")
    assert dolda.winners(s) == [0, 1]
    assert dolda.check_expect(s, "winner", ["Bo", "Anna"]) is None


def _finish(state):
    while not state.over:
        state, _ = state.apply(state.legal_actions()[0])
    return state


def _match(names, first_dealer, seed):
    """A whole match played as the site plays it: deal, finish, record, following deal."""
    options = dolda.Options()
    state = dolda.new_game(options, names, first_dealer, seed, None)
    dealers, results = [], []
    while True:
        dealers.append(state.dealer)
        results.append(dolda.deal_result(_finish(state)))
        if dolda.match_standing(len(names), results).over:
            return dealers, results
        state = dolda.following_deal(options, names, state.dealer, len(results), results[-1],
                                     seed + len(results))


def test_H_E3_a_match_is_one_deal_per_player_with_the_deal_passing_left():
    dealers, results = _match(["A", "B", "C"], first_dealer=2, seed=9)
    assert dealers == [2, 0, 1]
    with pytest.raises(ValueError):
        dolda.following_deal(dolda.Options(), ["A", "B", "C"], 1, 3, results[-1], 0)


def test_H_E3_the_lowest_match_total_wins():
    dealers, results = _match(["A", "B"], first_dealer=1, seed=3)
    assert not dolda.match_standing(2, results[:1]).over
    assert dolda.match_standing(2, results[:1]).winners == []
    standing = dolda.match_standing(2, results)
    totals = [sum(r["scores"][i] for r in results) for i in range(2)]
    assert standing.values == totals and standing.deals_in_match == 2
    assert standing.winners == [i for i in range(2) if totals[i] == min(totals)]


def test_H_E3_an_unfinished_deal_has_no_result():
    with pytest.raises(ValueError):
        dolda.deal_result(dolda.new_game(dolda.Options(), ["A", "B"], 0, 0, None))


# -- H-V: variants --------------------------------------------------------------------------

ROWS7 = {"Anna": "KC JD 9H 8S 7C 6D 2S", "Bo": "5C 8D AH 5D TC 4D QS"}


def test_H_V1_seven_card_rows_with_six_swappable_cards():
    s = game(ROWS7, stock="QH", rules={"row_size": 7}, names=["Anna", "Bo"])
    s, _ = do(s, "Anna draw stock", *["Anna swap"] * 6)
    assert held(s) == "6D"
    assert refused(s, "Anna swap") == "cannot_swap_crosswise"
    assert dolda.new_game(s.options, ["A", "B"], 1, 0, None).rows[0].__len__() == 7


def test_H_V1_a_seven_card_deal_needs_seven_card_rows():
    with pytest.raises(ScenarioError):
        game(stock="QH", rules={"row_size": 7})


SECRET_ROWS = {"Anna": "KC 7D 9H 8S", "Bo": "5C 8D AH 5D", "Cilla": "2C QD 3H 4D"}
SECRETS = {"Anna": "QS", "Bo": "KH", "Cilla": "6S"}


def secret_game(stock="AS", rules=None, **deal):
    return game(SECRET_ROWS, stock=stock, rules={"secret_card": True, **(rules or {})},
                secret=SECRETS, **deal)


def test_H_V2_four_swappable_cards_and_no_crosswise_card():
    s, _ = do(secret_game(), "Anna draw stock", *["Anna swap"] * 4)
    assert held(s) == "8S"
    assert refused(s, "Anna swap") == "cannot_swap_crosswise"
    assert len(dolda.new_game(s.options, NAMES, 2, 4, None).rows[1]) == 4


def test_H_V2_everyone_but_its_owner_sees_the_secret_card():
    s = secret_game()
    assert s.view(0)["secret"] == [None, C.parse("KH"), C.parse("6S")]
    assert s.view(1)["secret"] == [C.parse("QS"), None, C.parse("6S")]


def test_H_V2_the_secret_card_is_revealed_last_and_scores():
    s = game({**SECRET_ROWS, "Anna": "JH 7D 9H 8S"}, stock="AS",
             rules={"secret_card": True, "thieves_and_shields": True}, secret=SECRETS,
             rest="discard")
    s, _ = do(s, "Anna draw stock", "Anna discard")
    assert not s.over and s.view(0)["secret"][0] is None  # rows are up, secrets not yet
    assert s.view(0)["rows"][1] == cs("5C 8D AH 5D")
    s, events = do(s, "Anna shield 2")
    assert s.over and s.view(0)["secret"][0] == C.parse("QS")
    assert events[-1]["type"] == "scored" and events[-1]["secret"] == cs("QS KH 6S")
    assert s.scores == [11 + 7 + 9 + 8 + 0, 19 + 13, 9 + 6]


def test_H_V2_the_deal_must_name_the_secret_cards_of_the_variant_only():
    with pytest.raises(ScenarioError):
        game(SECRET_ROWS, stock="AS", rules={"secret_card": True})
    with pytest.raises(ScenarioError):
        game(stock="AS", secret=SECRETS)


SPECIAL_ROWS = {"Anna": "KH TH QC AS 2S 3S", "Bo": "KC TC QD AD 2D 3D"}


def test_H_V3_hearts_ten_and_king_score_minus_one_and_minus_two():
    s = game(SPECIAL_ROWS, stock="9C", rules={"special_cards": True}, names=["Anna", "Bo"],
             rest="discard")
    s, _ = do(s, "Anna draw stock", "Anna discard")
    assert s.scores == [-2 - 1 + 0 + 1 + 2 + 3, 13 + 10 + 0 + 1 + 2 + 3]


def test_H_V3_without_the_variant_hearts_ten_and_king_score_their_face():
    s = game(SPECIAL_ROWS, stock="9C", names=["Anna", "Bo"], rest="discard")
    s, _ = do(s, "Anna draw stock", "Anna discard")
    assert s.scores[0] == 13 + 10 + 0 + 1 + 2 + 3


TS = {"thieves_and_shields": True}


def ts_game(rows, stock="9S", **kw):
    return game(rows, stock=stock, rules=TS, rest="discard", **kw)


def end(state):
    """Play the last turn: draw the stock's last card and discard it."""
    name = state.names[state.to_move]
    return do(state, f"{name} draw stock", f"{name} discard")


def test_H_V4_shields_act_first_in_turn_order_from_forehand():
    rows = {"Anna": "2C 3C 4C 5C 6C JD", "Bo": "JC 3D 4D 5D 6D 7D", "Cilla": "JH 3H 4H 5H 6H 7H"}
    s, _ = end(ts_game(rows, dealer=0))  # Anna deals: the order is Bo, Cilla, Anna
    assert s.phase == "shields" and s.names[s.to_move] == "Cilla"
    s, _ = do(s, "Cilla shield 2")
    assert s.phase == "shields" and s.names[s.to_move] == "Anna"
    s, _ = do(s, "Anna shield 1")
    assert s.phase == "thieves" and s.names[s.to_move] == "Bo"


def test_H_V4_shield_is_laid_on_one_or_two_other_cards_of_its_owner():
    rows = {"Anna": "JD 3C 4C 5C 6C 7C", "Bo": "2D 3D 4D 5D 6D 7D", "Cilla": "2H 3H 4H 5H 6H 7H"}
    s, _ = end(ts_game(rows))
    assert refused(s, "Anna shield 1") == "bad_move"  # not on itself
    assert refused(s, "Anna shield 2 3 4") == "bad_move"
    assert refused(s, "Anna shield 2 2") == "bad_move"
    assert refused(s, "Anna shield 7") == "bad_move"
    s, events = do(s, "Anna shield 2 6")
    assert events[0] == {"type": "shield", "seat": 0, "jack": C.parse("JD"), "positions": [2, 6],
                         "cards": cs("3C 7C")}
    assert s.over


def test_H_V4_the_thief_got_first_acts_first():
    # Cilla's thief was dealt; Bo gets his on the last turn, so Cilla acts first.
    rows = {"Anna": "2C 3C 4C 5C 6C 7C", "Bo": "KC 3D 4D 5D 6D 7D", "Cilla": "JC 3H 4H 5H 6H 7H"}
    s = ts_game(rows, stock="8C JS")
    s, _ = do(s, "Anna draw stock", "Anna discard", "Bo draw stock", "Bo swap", "Bo discard")
    assert s.phase == "thieves" and s.names[s.to_move] == "Cilla"
    s, _ = do(s, "Cilla steal 2 Anna 1")
    assert s.names[s.to_move] == "Bo"


def test_H_V4_dealt_thieves_tie_in_turn_order_from_forehand():
    rows = {"Anna": "2C 3C 4C 5C 6C 7C", "Bo": "JS 3D 4D 5D 6D 7D", "Cilla": "JC 3H 4H 5H 6H 7H"}
    s, _ = end(ts_game(rows, dealer=1))  # forehand Cilla
    assert s.names[s.to_move] == "Cilla"
    s, _ = end(ts_game(rows, dealer=2))  # forehand Anna, then Bo
    assert s.names[s.to_move] == "Bo"


def test_H_V4_a_jack_keeps_its_time_when_a_swap_moves_it_along_its_own_row():
    # Bo got JS on turn 2; Cilla got JC on turn 3.  On turn 5 Bo's chain moves JS from
    # position 1 to 2: it still counts as got on turn 2, so Bo's thief acts first.
    rows = {"Anna": "2C 3C 4C 5C 6C 7C", "Bo": "KC 3D 4D 5D 6D 7D", "Cilla": "KH 3H 4H 5H 6H 7H"}
    s = ts_game(rows, stock="8C JS JC 9C AH")
    s, _ = do(s, "Anna draw stock", "Anna discard", "Bo draw stock", "Bo swap", "Bo discard",
              "Cilla draw stock", "Cilla swap", "Cilla discard", "Anna draw stock",
              "Anna discard", "Bo draw stock", "Bo swap", "Bo swap", "Bo discard")
    assert row(s, "Bo")[:2] == ["AH", "JS"]
    assert s.phase == "thieves" and s.names[s.to_move] == "Bo"


def test_H_V4_a_jack_drawn_anew_gets_a_new_time():
    # Bo discards his dealt thief and takes it back later from the pile: it is got anew.
    rows = {"Anna": "2C 3C 4C 5C 6C 7C", "Bo": "JS 3D 4D 5D 6D 7D", "Cilla": "JC 3H 4H 5H 6H 7H"}
    s = ts_game(rows, stock="QD 8C 9C")
    s, _ = do(s, "Anna draw stock", "Anna discard", "Bo draw stock", "Bo swap", "Bo discard",
              "Cilla draw discard", "Cilla discard", "Anna draw discard", "Anna discard",
              "Bo draw discard", "Bo swap", "Bo discard", "Cilla draw stock", "Cilla discard")
    assert row(s, "Bo")[0] == "JS"
    # Dealt, Bo's thief would tie with Cilla's and go first (forehand order Anna, Bo, Cilla).
    assert s.phase == "thieves" and s.names[s.to_move] == "Cilla"


def test_H_V4_a_theft_is_an_exchange_with_the_card_under_the_thief():
    rows = {"Anna": "JS 3C KC 5C 6C 7C", "Bo": "2D QD 4D 5D 6D 7D", "Cilla": "2H 3H 4H 5H 6H 7H"}
    s, _ = end(ts_game(rows))
    s, events = do(s, "Anna steal 3 Bo 2")
    assert row(s, "Anna") == ["JS", "3C", "QD", "5C", "6C", "7C"]
    assert row(s, "Bo") == ["2D", "KC", "4D", "5D", "6D", "7D"]
    assert events[0] == {"type": "steal", "seat": 0, "jack": C.parse("JS"), "position": 3,
                         "victim": 1, "victim_position": 2, "taken": C.parse("QD"),
                         "given": C.parse("KC")}


def test_H_V4_the_thief_must_steal_from_another_players_row():
    rows = {"Anna": "JS 3C KC 5C 6C 7C", "Bo": "2D QD 4D 5D 6D 7D", "Cilla": "2H 3H 4H 5H 6H 7H"}
    s, _ = end(ts_game(rows))
    assert refused(s, "Anna steal 3 Anna 2") == "own_row"
    assert refused(s, "Anna steal 1 Bo 2") == "bad_move"  # not laid on itself
    assert refused(s, "Anna steal 3 Dora 2") == "bad_move"
    assert refused(s, "Anna shield 3") == "not_a_shield"
    assert {a.kind for a in s.legal_actions()} == {"steal"}  # stealing is compulsory


def test_H_V4_a_shielded_card_cannot_be_stolen():
    rows = {"Anna": "JS 3C KC 5C 6C 7C", "Bo": "JH QD 4D 5D 6D 7D", "Cilla": "2H 3H 4H 5H 6H 7H"}
    s, _ = end(ts_game(rows))
    assert refused(s, "Anna steal 3 Bo 2") == "not_your_turn"
    assert refused(s, "Bo steal 3 Anna 2") == "not_a_thief"
    s, _ = do(s, "Bo shield 2")
    assert refused(s, "Anna steal 3 Bo 2") == "target_shielded"
    assert all(not (a.victim == 1 and a.positions[1] == 1) for a in s.legal_actions())


def test_H_V4_two_thieves_may_not_rob_the_same_player():
    rows = {"Anna": "JS 3C KC 5C 6C 7C", "Bo": "JC QD 4D 5D 6D 7D", "Cilla": "2H 3H 4H 5H 6H 7H"}
    s, _ = end(ts_game(rows))
    s, _ = do(s, "Anna steal 3 Cilla 1")
    assert refused(s, "Bo steal 2 Cilla 2") == "victim_already_robbed"
    assert {a.victim for a in s.legal_actions()} == {0}


def test_H_V4_a_thief_stolen_before_its_turn_does_not_act():
    rows = {"Anna": "JS 3C KC 5C 6C 7C", "Bo": "JC QD 4D 5D 6D 7D", "Cilla": "2H 3H 4H 5H 6H 7H"}
    s, _ = end(ts_game(rows))
    s, events = do(s, "Anna steal 3 Bo 1")
    assert s.over
    assert events[0]["taken"] == C.parse("JC")
    assert events[1] == {"type": "steal", "seat": 1, "jack": C.parse("JC"), "victim": None,
                         "skipped": "stolen"}


def test_H_V4_a_thief_with_no_possible_victim_does_nothing():
    rows = {"Anna": "JS 3C KC 5C", "Bo": "JH JD 4D 5D"}
    s = game(rows, stock="9S", rules={"secret_card": True, **TS}, names=["Anna", "Bo"],
             secret={"Anna": "2S", "Bo": "3S"}, rest="discard")
    s, _ = end(s)
    s, _ = do(s, "Bo shield 2 3")
    s, events = do(s, "Bo shield 1 4")  # every card of Bo's row under a shield
    assert s.over
    assert events[-2]["skipped"] == "no_victim"


def test_H_V4_a_secret_card_jack_never_acts():
    s = game(SECRET_ROWS, stock="AS", rules={"secret_card": True, **TS},
             secret={**SECRETS, "Bo": "JS"}, rest="discard")
    s, _ = end(s)
    assert s.over


def test_H_V4_used_jacks_still_score_as_cards():
    rows = {"Anna": "JS 3C KC 5C 6C 7C", "Bo": "JH QD 4D 5D 6D 7D", "Cilla": "2H 3H 4H 5H 6H 7H"}
    s, _ = end(ts_game(rows))
    s, _ = do(s, "Bo shield 2", "Anna steal 3 Cilla 1")
    assert s.scores[:2] == [11 + 3 + 2 + 5 + 6 + 7, 11 + 0 + 4 + 5 + 6 + 7]


def test_H_V4_without_the_variant_jacks_do_nothing():
    rows = {"Anna": "JS 3C KC 5C 6C 7C", "Bo": "JH QD 4D 5D 6D 7D", "Cilla": "2H 3H 4H 5H 6H 7H"}
    s, _ = end(game(rows, stock="9S", rest="discard"))
    assert s.over
    assert refused(s, "Anna shield 2") == "game_over"
    s = game(rows, stock="9S")
    assert refused(s, "Anna shield 2") == "bad_move"
    assert refused(s, "Anna steal 2 Bo 1") == "bad_move"


CAP = {"secret_card": True, "special_cards": True, "thieves_and_shields": True,
       "cap_special_at_5": True}


def test_H_V5_the_secret_card_scores_at_most_five():
    s = game(SECRET_ROWS, stock="AS", rules={"secret_card": True, "cap_special_at_5": True},
             secret={"Anna": "KS", "Bo": "QS", "Cilla": "3S"}, rest="discard")
    s, _ = end(s)
    assert s.scores == [13 + 7 + 9 + 8 + 5, 19, 9 + 3]


def test_H_V5_special_cards_and_jacks_score_at_most_five():
    row_v, secret_v = dolda.value_tables(dolda.options_from_rules(CAP))
    assert [row_v[c] for c in cs("TH KH JS JC JH JD")] == [-1, -2, 5, 5, 5, 5]
    assert secret_v[C.parse("KC")] == 5 and secret_v[C.parse("KH")] == -2


def test_H_V5_ordinary_cards_keep_their_value_under_the_cap():
    row_v, _ = dolda.value_tables(dolda.options_from_rules(CAP))
    assert [row_v[c] for c in cs("KC KS TC 9D QH")] == [13, 13, 10, 9, 0]
    alone, _ = dolda.value_tables(dolda.options_from_rules({"cap_special_at_5": True}))
    assert alone[C.parse("JS")] == 11 and alone[C.parse("KH")] == 13


# -- reason order, protocol and the scenario format ------------------------------------------

def test_reason_order_game_over_first_then_not_your_turn_then_bad_move():
    s = game(stock="QH")
    assert refused(s, "Bo fly away") == "not_your_turn"
    assert refused(s, "Anna fly") == "bad_move"
    assert refused(s, "Anna draw") == "bad_move"
    assert refused(s, "Anna draw hat") == "bad_move"
    assert refused(s, "Dora draw stock") == "bad_move"


def test_apply_validates_actions_that_do_not_come_from_text():
    s = game(stock="QH")
    for action, reason in [(dolda.Action(1, "draw", "stock"), "not_your_turn"),
                           (dolda.Action(0, "swap"), "no_card_held"),
                           (dolda.Action(0, "draw", "pile"), "bad_move"),
                           (dolda.Action(0, "steal", positions=(1, 1), victim=1,
                                         victim_name="Bo"), "bad_move")]:
        with pytest.raises(IllegalAction) as info:
            s.apply(action)
        assert info.value.reason == reason


def test_format_action_gives_words_parse_action_reads_back():
    rows = {"Anna": "JS 3C KC 5C 6C 7C", "Bo": "JH QD 4D 5D 6D 7D", "Cilla": "2H 3H 4H 5H 6H 7H"}
    s, _ = end(ts_game(rows))
    for a in s.legal_actions():
        assert dolda.parse_action(s, a.seat, dolda.format_action(a).split()) == a
    a = dolda.parse_action(s, 1, "shield 2 3".split())
    assert dolda.format_action(a) == "shield 2 3"


@pytest.mark.parametrize("path", sorted(SCENARIOS.glob("*.json")), ids=lambda p: p.stem)
def test_shipped_scenarios_hold(path):
    problems = scenario.check(scenario.loads(path.read_text(encoding="utf-8")))
    assert [str(p) for p in problems] == []


def test_shipped_scenarios_narrate_in_all_four_languages():
    for path in SCENARIOS.glob("*.json"):
        for step in json.loads(path.read_text(encoding="utf-8"))["steps"]:
            if "say" in step:
                assert set(step["say"]) == {"sv", "fi", "nb", "en"}, path.name


def _scenario(steps, **extra):
    data = {"format": "dam-scenario/1", "game": "dolda", "players": NAMES,
            "deal": {"rows": {n: r.split() for n, r in ROWS.items()}, "stock": ["QH"]},
            "steps": steps, **extra}
    return scenario.parse(data)


def test_checker_catches_a_wrong_expect():
    problems = scenario.check(_scenario([{"do": "Anna draw stock"},
                                         {"expect": {"hand": {"Anna": ["KH"]}}}]))
    assert [p.step for p in problems] == [2]
    assert scenario.check(_scenario([{"do": "Anna draw stock"},
                                     {"expect": {"hand": {"Anna": ["QH"]}}}])) == []


def test_checker_catches_a_wrong_illegal_reason():
    problems = scenario.check(_scenario([{"illegal": "Anna swap", "reason": "already_drew"}]))
    assert [p.step for p in problems] == [1] and "no_card_held" in problems[0].message
    assert scenario.check(_scenario([{"illegal": "Anna swap", "reason": "no_card_held"}])) == []


def test_expect_keys_of_other_games_are_a_scenario_error():
    problems = scenario.check(_scenario([{"expect": {"trump": "D"}}]))
    assert len(problems) == 1 and "does not apply" in problems[0].message


def test_scores_and_winner_are_only_met_once_the_deal_is_over():
    s = game(stock="QH")
    assert dolda.check_expect(s, "scores", {"Anna": 19}) is not None
    assert dolda.check_expect(s, "winner", []) is not None


@pytest.mark.parametrize("deal", [
    {"rows": {"Anna": ["2C"] * 6}},
    {"rows": {n: r.split() for n, r in ROWS.items()}, "stock": ["9C"]},  # 9C twice
    {"rows": {n: r.split() for n, r in ROWS.items()}, "hands": {}},
    {"rows": {n: r.split() for n, r in ROWS.items()}, "stock": ["ZZ"]},
    {"rows": {n: r.split() for n, r in ROWS.items()}, "to_move": "Dora"},
    {"rows": {n: r.split() for n, r in ROWS.items()}, "rest": "table"},
])
def test_malformed_deals_are_scenario_errors(deal):
    scn = _scenario([])
    scn.deal = deal
    assert [p.step for p in scenario.check(scn)] == [0]


def test_rest_discard_puts_unnamed_cards_under_the_named_discard_cards():
    s = game(stock="QH", discard="5S", rest="discard")
    assert C.codes(s.stock) == ["QH"] and len(s.discard) == 52 - 18 - 1
    assert s.discard[-1] == C.parse("5S")


def test_deal_to_move_starts_a_position_later_in_the_deal():
    s = game(stock="QH", to_move="Cilla")
    assert s.to_move == 2


def test_an_omitted_deal_is_random_from_the_seed():
    a = dolda.new_game(dolda.Options(), NAMES, 2, 17, None)
    b = dolda.new_game(dolda.Options(), NAMES, 2, 17, None)
    c = dolda.new_game(dolda.Options(), NAMES, 2, 18, None)
    assert a.to_json() == b.to_json() != c.to_json()


def test_H_E1_a_deal_with_an_empty_stock_is_over_at_once():
    s = game(stock="", rest="discard")
    assert s.over and s.scores is not None


def test_apply_refuses_something_that_is_not_a_dolda_action():
    with pytest.raises(IllegalAction) as info:
        game(stock="QH").apply(("draw", "stock"))
    assert info.value.reason == "bad_move"


def test_H_V4_a_thief_may_be_laid_on_its_owners_shielded_card():
    rows = {"Anna": "JS JH KC 5C 6C 7C", "Bo": "2D QD 4D 5D 6D 7D", "Cilla": "2H 3H 4H 5H 6H 7H"}
    s, _ = end(ts_game(rows))
    s, _ = do(s, "Anna shield 3")
    s, _ = do(s, "Anna steal 3 Bo 2")
    assert row(s, "Bo")[1] == "KC"
    assert C.parse("KC") in s.shielded  # the shield stays with the card
