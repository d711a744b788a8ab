"""Dam bots: deterministic under a seed, and seeing only what a seat may see."""

from __future__ import annotations

from rules.engine import dam
from rules.engine.bots.dam import BOTS, HeuristicBot, RandomBot, maja_threat
from rules.engine.cards import parse

from .test_dam import do, make


class SeatOnly:
    """Exposes only what a bot may use; anything else raises AttributeError."""

    def __init__(self, state: dam.State) -> None:
        self._state = state

    def view(self, seat: int) -> dict:
        return self._state.view(seat)

    def bot_view(self, seat: int) -> dict:
        # The part of the view the heuristic bot reads, built faster: only what view() shows.
        part = self._state.bot_view(seat)
        whole = self._state.view(seat)
        assert part == {k: whole[k] for k in part}
        return part

    def legal_actions(self) -> list[tuple]:
        return self._state.legal_actions()


class LegalOnly:
    def __init__(self, state: dam.State) -> None:
        self._state = state

    def legal_actions(self) -> list[tuple]:
        return self._state.legal_actions()


def play(kinds: list[str], seed: int, wrap=None) -> tuple[list[tuple], dam.State]:
    n = len(kinds)
    state = dam.new_game(dam.Options(), [f"P{i}" for i in range(n)], n - 1, seed, None)
    bots = [BOTS[k](seed * 10 + i) for i, k in enumerate(kinds)]
    actions = []
    while not state.over:
        seat = state.to_move
        seen = wrap(state) if wrap else state
        action = bots[seat].act(seen, seat)
        actions.append(action)
        state, _ = state.apply(action)
    return actions, state


def test_bots_registry():
    assert BOTS == {"random": RandomBot, "heuristic": HeuristicBot}


def test_random_bot_is_deterministic_and_uses_only_legal_actions():
    a, _ = play(["random"] * 4, 11, wrap=LegalOnly)
    b, _ = play(["random"] * 4, 11, wrap=LegalOnly)
    assert a == b
    assert a != play(["random"] * 4, 12)[0]


def test_heuristic_bot_is_deterministic_and_uses_only_view_and_legal_actions():
    a, _ = play(["heuristic"] * 4, 5, wrap=SeatOnly)
    b, _ = play(["heuristic"] * 4, 5, wrap=SeatOnly)
    assert a == b


def test_heuristic_bot_loses_less_than_random_bots():
    losses = {"heuristic": 0, "random": 0}
    for seed in range(120):
        kinds = ["heuristic", "random", "random", "random"]
        kinds = kinds[seed % 4:] + kinds[: seed % 4]
        _, state = play(kinds, seed)
        losses[kinds[state.loser]] += 1
    assert losses["heuristic"] * 3 < losses["random"] / 3  # per seat: far below a quarter


def test_heuristic_gets_rid_of_the_queen_inside_a_spade_attack():
    state = make({"A": "QS 3S 7S 2C 9H KD", "B": "2D 3D 4D 5D 6D 7D"}, "8C 9C TC", turned="8H")
    action = HeuristicBot(1).act(state, 0)
    assert action[0] == "attack" and set(action[2]) == {parse("QS"), parse("3S"), parse("7S")}


def test_heuristic_beats_cheaply_with_the_same_suit_rather_than_trump():
    state = do(make({"A": "5C 2H", "B": "8C AC 3D"}, "4S 5S 6S", trump="D"), "A attack 5C")
    assert HeuristicBot(1).act(state, 1) == ("beat", 1, parse("5C"), parse("8C"))


def test_heuristic_saves_high_trumps_while_the_stock_lasts():
    state = do(make({"A": "5C 2H 3H 4H 5H 6H", "B": "AD KD 9H"}, "4S 5S 6S", trump="D"),
               "A attack 5C")
    assert state.stock_count == 2
    assert HeuristicBot(1).act(state, 1) == ("take", 1)
    endgame = do(make({"A": "5C 2H", "B": "AD KD 9H"}, trump="D"), "A attack 5C")
    assert HeuristicBot(1).act(endgame, 1)[0] == "beat"


def _defence_after_the_queen_holder(known: bool) -> dam.State:
    """B defends against A near the end of the stock; B's only beat is a high trump."""
    state = make({"A": "9C QS 2H 3H 4H 5H", "B": "KD 8S 6H 2S 3S 4S",
                  "C": "AD TC JC QC KC AC"}, "5C 6C 7C 8C", turned="7D")
    data = do(state, "A attack 9C").to_json()
    data["maja"] = 0 if known else None  # as if everyone had seen A take her from the table
    return dam.state_from_json(data)


def test_heuristic_sheds_cards_when_the_queen_holder_attacks_it_next():
    # Without the knowledge: the king of trumps is kept while the stock lasts.
    blind = _defence_after_the_queen_holder(known=False)
    assert HeuristicBot(1).act(blind, 1) == ("take", 1)
    # B sits right after A, who is known to hold her: beat, and have fewer cards when the
    # stock runs out (dam-svarta-maja-sv.txt, Taktik).
    known = _defence_after_the_queen_holder(known=True)
    assert known.view(1)["maja_known_with"] == 0
    assert HeuristicBot(1).act(known, 1) == ("beat", 1, parse("9C"), parse("KD"))
    # C, not next after A, plays as before.
    assert maja_threat(known.view(2)) is False and maja_threat(known.view(1)) is True
