"""The generic checker in rules/engine/scenario.py, independent of any one game."""

import json

from rules.engine import scenario
from rules.engine.errors import IllegalAction

ANNA_BO = {"format": "dam-scenario/1", "game": "dam", "players": ["Anna", "Bo"], "seed": 3,
           "steps": [{"illegal": "Anna dance", "reason": "bad_move"}]}


def test_a_refused_move_that_changes_the_state_is_reported(monkeypatch):
    scn = scenario.parse(json.loads(json.dumps(ANNA_BO)))

    class FakeState:
        changed = False

        def to_json(self):
            return {"changed": self.changed}

    state = FakeState()

    class Sloppy:
        """An engine that changes its state and then refuses: what the checker must catch."""

        @staticmethod
        def parse_action(state, seat, words):
            state.changed = True
            raise IllegalAction("bad_move")

    monkeypatch.setattr(scenario.Scenario, "module", property(lambda self: Sloppy))
    monkeypatch.setattr(scenario.Scenario, "initial_state", lambda self: state)
    problems = scenario.check(scn)
    assert [p.message for p in problems] == ["'Anna dance' was refused but changed the game"]


def test_a_clean_refusal_is_not_reported():
    assert scenario.check(scenario.parse(json.loads(json.dumps(ANNA_BO)))) == []


def test_unknown_player_in_a_move_is_bad_move():
    data = dict(ANNA_BO, steps=[{"illegal": "Cilla take", "reason": "bad_move"}])
    assert scenario.check(scenario.parse(data)) == []
