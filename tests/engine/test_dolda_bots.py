"""Dam med dolda kort bots: legal, deterministic, and the heuristic one plays sensibly."""

from __future__ import annotations

from rules.engine import cards as C
from rules.engine import dolda, scenario
from rules.engine.bots.dolda import BOTS, HeuristicBot, RandomBot, row_values

NAMES = ["Anna", "Bo", "Cilla"]


class SeatOnly:
    """What a fair bot may use: the seat's view and the legal actions, nothing else."""

    def __init__(self, state):
        self._state = state

    def view(self, seat):
        return self._state.view(seat)

    def bot_view(self, seat):
        # The part of the view the bots read, built faster: the view's values, and the card
        # values and unseen cards that follow from it.
        part = dict(self._state.bot_view(seat))
        whole = self._state.view(seat)
        assert part.pop("row_values") == row_values(whole["options"])
        assert part.pop("unseen") == HeuristicBot.unseen(whole)
        assert part == {k: whole[k] for k in part}
        return self._state.bot_view(seat)

    def legal_actions(self):
        return self._state.legal_actions()


def deal(options, kinds, seed):
    names = [f"P{i}" for i in range(len(kinds))]
    bots = [BOTS[k](seed * 10 + i) for i, k in enumerate(kinds)]
    state = dolda.new_game(options, names, len(names) - 1, seed, None)
    moves = []
    while not state.over:
        action = bots[state.to_move].act(SeatOnly(state) if kinds[state.to_move] == "heuristic"
                                         else state, state.to_move)
        assert action in state.legal_actions()
        moves.append(action)
        state, _ = state.apply(action)
    return state, moves


def fixed(rows, stock, rules=None, **extra):
    d = {"rows": {n: r.split() for n, r in rows.items()}, "stock": stock.split(), **extra}
    return dolda.new_game(dolda.options_from_rules(rules), NAMES, 2, 0, d)


ROWS = {"Anna": "9C AD 3H 2D QC 4S", "Bo": "KC 8D AH 5D TC 4D", "Cilla": "7C 7S QD 3C KS 6H"}


def test_bots_are_deterministic_under_a_seed():
    options = dolda.options_from_rules({"preset": "avancerad"})
    for kinds in (["random"] * 3, ["heuristic"] * 3, ["heuristic", "random", "random", "random"]):
        a, moves_a = deal(options, kinds, 5)
        b, moves_b = deal(options, kinds, 5)
        assert moves_a == moves_b and a.scores == b.scores


def test_random_bot_uses_only_legal_actions():
    class LegalOnly:
        def __init__(self, state):
            self.legal_actions = state.legal_actions
    s = fixed(ROWS, "QH")
    assert RandomBot(1).act(LegalOnly(s), 0) in s.legal_actions()


def test_heuristic_bot_beats_random_bots_on_average():
    for rules in ({}, {"preset": "avancerad"}):
        options = dolda.options_from_rules(rules)
        heuristic = random_ = 0.0
        for seed in range(20):
            state, _ = deal(options, ["heuristic", "random", "random"], seed)
            heuristic += state.scores[0]
            random_ += (state.scores[1] + state.scores[2]) / 2
        assert heuristic < random_ * 0.6


def test_heuristic_bot_keeps_a_drawn_queen():
    s, _ = scenario.apply_move(dolda, fixed(ROWS, "QH"), NAMES, "Anna draw stock")
    assert HeuristicBot(0).act(SeatOnly(s), 0).kind == "swap"


def test_heuristic_bot_discards_a_drawn_king():
    s, _ = scenario.apply_move(dolda, fixed(ROWS, "KH"), NAMES, "Anna draw stock")
    assert HeuristicBot(0).act(SeatOnly(s), 0).kind == "discard"


def test_heuristic_bot_takes_a_queen_from_the_discard_pile():
    s = fixed(ROWS, "KH", discard=["QH"])
    assert dolda.format_action(HeuristicBot(0).act(SeatOnly(s), 0)) == "draw discard"
    s = fixed(ROWS, "QH", discard=["KD"])
    assert dolda.format_action(HeuristicBot(0).act(SeatOnly(s), 0)) == "draw stock"


def remembering(rows, stock):
    """Anna's turn with her whole row remembered (as after earlier swaps)."""
    data = fixed(rows, stock).to_json()
    data["known"][0][0] = 0b11111
    return dolda.state_from_json(data)


def test_heuristic_bot_stops_the_chain_before_pushing_a_good_card_out():
    rows = {**ROWS, "Anna": "KH AD QC 3D 8C 4S"}
    s, _ = scenario.apply_move(dolda, remembering(rows, "QH"), NAMES, "Anna draw stock")
    bot = HeuristicBot(0)
    s, _ = s.apply(bot.act(SeatOnly(s), 0))
    assert C.codes(s.rows[0][:2]) == ["QH", "AD"] and C.code(s.held) == "KH"
    assert bot.act(SeatOnly(s), 0).kind == "discard"  # pushing on would cost the ace


def test_heuristic_bot_does_not_push_a_good_row_towards_the_forced_discard():
    # Swapping the two in would push every card right and drop one of these low cards.
    rows = {**ROWS, "Anna": "QC AD AC 2D QS 4S"}
    s, _ = scenario.apply_move(dolda, remembering(rows, "2H"), NAMES, "Anna draw stock")
    assert HeuristicBot(0).act(SeatOnly(s), 0).kind == "discard"


def test_heuristic_bot_swaps_a_low_card_into_an_unknown_row():
    s, _ = scenario.apply_move(dolda, fixed(ROWS, "2H"), NAMES,
                               "Anna draw stock")
    assert HeuristicBot(0).act(SeatOnly(s), 0).kind == "swap"


def test_heuristic_bot_shields_its_lowest_cards_and_steals_the_best_one():
    rows = {"Anna": "JS KC 3C 9C 6C 7C", "Bo": "JH QD AD 5D KD 7D", "Cilla": "2H 3H 4H QH 6H 7H"}
    s = fixed(rows, "9S", {"thieves_and_shields": True}, rest="discard")
    s, _ = scenario.apply_move(dolda, s, NAMES, "Anna draw stock")
    s, _ = scenario.apply_move(dolda, s, NAMES, "Anna discard")
    shield = HeuristicBot(0).act(SeatOnly(s), 1)
    assert dolda.format_action(shield) == "shield 2 3"  # the queen and the ace
    s, _ = s.apply(shield)
    steal = HeuristicBot(0).act(SeatOnly(s), 0)
    assert dolda.format_action(steal) == "steal 2 Cilla 4"  # king out, queen in


def test_sharper_bot_rates_unseen_cards_worse_than_their_average():
    # The strong bot's own policy: where it differs from the heuristic, it takes the known
    # discard card rather than a blind draw, and swaps a held card in rather than let it go.
    from rules.engine.bots.dolda import SharperBot

    options = dolda.options_from_rules({})
    kinds: dict[tuple[str, str], int] = {}
    for seed in range(12):
        state = dolda.new_game(options, NAMES, seed % 3, seed, None)
        plain, sharper = HeuristicBot(1), SharperBot(1)
        while not state.over:
            seat = state.to_move
            a, b = plain.act(SeatOnly(state), seat), sharper.act(SeatOnly(state), seat)
            if a != b:
                kinds[(a.kind + a.source, b.kind + b.source)] = kinds.get(
                    (a.kind + a.source, b.kind + b.source), 0) + 1
            state, _ = state.apply(a)
    assert kinds and set(kinds) <= {("drawstock", "drawdiscard"), ("discard", "swap")}
