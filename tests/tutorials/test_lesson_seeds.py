"""The tutorials that replay the seed texts' own examples (issue #15): anna-bo-cilla is
"Exempel på ett anfall" of dam-svarta-maja-sv.txt, aino-eero-maija "Esimerkki lyönnistä" of
musta-maija-fi.txt.  Each fact the seed states is checked on the replayed deal."""

from __future__ import annotations

import pytest

from rules.engine import cards as C
from rules.engine import scenario
from tutorials import lessons


class Replay:
    def __init__(self, slug: str) -> None:
        self.tutorial = lessons.get("dam", slug)
        self.scn = scenario.loads(self.tutorial.scenario_path.read_bytes())
        self.states = [state for _n, state, _events in scenario.states(self.scn)]
        self.moves = [(n, s.move) for n, s in enumerate(self.scn.steps, start=1)
                      if s.kind == "do"]

    def holds(self, n: int, **expect) -> None:
        """Every expect key holds in the position after scenario step n."""
        for key, value in expect.items():
            got = self.scn.module.check_expect(self.states[n], key, value)
            assert got is None, (n, key, value, got)

    def step_of(self, move: str) -> int:
        return next(n for n, m in self.moves if m == move)

    def legal(self, n: int, move: str) -> bool:
        """Whether ``move`` was legal in the position before scenario step n."""
        state = self.states[n - 1]
        words = move.split()
        seat = self.scn.players.index(words[0])
        try:
            action = self.scn.module.parse_action(state, seat, words[1:])
        except Exception:  # noqa: BLE001 - a move the engine cannot even read is not legal
            return False
        return action in state.legal_actions()

    def learner_moves(self) -> list[str]:
        return [self.scn.steps[s.at - 1].move for s in self.tutorial.steps if s.your_move]


@pytest.fixture(scope="module")
def abc() -> Replay:
    return Replay("anna-bo-cilla")


@pytest.fixture(scope="module")
def aem() -> Replay:
    return Replay("aino-eero-maija")


# ----------------------------------------------------------------- Exempel på ett anfall
def test_anna_bo_cilla_trump_is_diamonds_throughout(abc):
    for n in range(len(abc.states)):
        abc.holds(n, trump="D")


def test_anna_bo_cilla_anna_attacks_bo_with_three_clubs(abc):
    assert abc.scn.options.hand_size == 6
    abc.holds(0, attacker="Anna", defender="Bo")
    assert abc.moves[0][1] == "Anna attack 5C 9C QC"
    abc.holds(abc.moves[0][0], table=["5C", "9C", "QC"], hand_count={"Anna": 6})


def test_anna_bo_cilla_bo_beats_two_and_takes_the_queen(abc):
    assert [m for _n, m in abc.moves[1:4]] == ["Bo beat 5C 8C", "Bo beat 9C 3D", "Bo take"]
    take = abc.step_of("Bo take")
    abc.holds(take - 1, table=["QC"])
    # He could have trumped the queen with a higher trump: taking it is the lesson's choice.
    assert abc.legal(take, "Bo beat QC 9D")
    # "Klöver 9 kan han inte ta med klöver": no club of Bo's beats the nine.
    nine = abc.step_of("Bo beat 9C 3D")
    assert not any(abc.legal(nine, f"Bo beat 9C {r}C") for r in "TJQKA")


def test_anna_bo_cilla_four_cards_to_the_discard_pile_and_both_refill_to_six(abc):
    take = abc.step_of("Bo take")
    abc.holds(0, discard_count=0)
    abc.holds(take, discard_count=4, table=[], hand_count={"Anna": 6, "Bo": 6, "Cilla": 6})
    before = abc.states[0].view(1)["hand"]
    after = abc.states[take].view(1)["hand"]
    kept = set(before) - {C.parse("8C"), C.parse("3D")}
    assert len(kept) == 4 and kept | {C.parse("QC")} <= set(after)  # four plus the queen
    assert len(set(after) - kept - {C.parse("QC")}) == 1  # and one card drawn


def test_anna_bo_cilla_cilla_attacks_anna_next(abc):
    abc.holds(abc.step_of("Bo take"), attacker="Cilla", defender="Anna", to_move="Cilla")


def test_anna_bo_cilla_the_learner_makes_bos_decisions(abc):
    assert abc.learner_moves() == ["Bo beat 5C 8C", "Bo beat 9C 3D", "Bo take"]


# ----------------------------------------------------------------- Esimerkki lyönnistä
def test_aino_eero_maija_is_the_finnish_basic_game(aem):
    opts = aem.scn.options
    assert opts.hand_size == 5 and opts.trump == "turned" and not opts.spades_can_be_trump
    aem.holds(0, hand_count={"Aino": 5, "Eero": 5, "Maija": 5}, trump=None,
              attacker="Aino", defender="Eero")


def test_aino_eero_maija_aino_attacks_with_hearts_seven_and_nine(aem):
    n, move = aem.moves[0]
    assert move == "Aino attack 7H 9H"
    aem.holds(n, table=["7H", "9H"], trump="C", hand_count={"Aino": 5})  # not spades


def test_aino_eero_maija_eero_beats_both_with_the_ace_and_a_trump_four(aem):
    beats = [m for _n, m in aem.moves[1:3]]
    assert sorted(beats) == ["Eero beat 7H 4C", "Eero beat 9H AH"]
    last = aem.step_of(aem.moves[2][1])
    aem.holds(last, discard_count=4, table=[], attacker="Eero", defender="Maija",
              to_move="Eero", hand_count={"Aino": 5, "Eero": 5, "Maija": 5})


def test_aino_eero_maija_maija_holds_the_queen_of_spades_that_neither_beats_nor_is_beaten(aem):
    for n in range(aem.step_of("Maija attack QS 2S")):
        assert "QS" in _hand(aem, n, "Maija"), n
    refusals = {s.move: s.reason for s in aem.scn.steps if s.kind == "illegal"}
    assert refusals == {"Maija beat 5S QS": "queen_of_spades_cannot_beat",
                        "Aino beat QS 3C": "queen_of_spades_cannot_be_beaten"}


def _hand(rp: Replay, n: int, name: str) -> list[str]:
    return [C.code(c) for c in rp.states[n].view(rp.scn.players.index(name))["hand"]]


def test_aino_eero_maija_the_learner_makes_eeros_decisions(aem):
    assert aem.learner_moves() == ["Eero beat 9H AH", "Eero beat 7H 4C"]


@pytest.mark.parametrize("slug", ["anna-bo-cilla", "aino-eero-maija"])
def test_seed_example_narration_names_the_seeds_people(slug):
    names = scenario.loads(lessons.get("dam", slug).scenario_path.read_bytes()).players
    first = str(lessons.get("dam", slug).steps[0].say)
    assert all(name in first for name in names)
