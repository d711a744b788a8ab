"""Helpers the tests share for the games layer."""

from typing import Any

from games.replay import Frame, frames
from rules.engine import scenario


def replayed(data: dict[str, Any]) -> tuple[scenario.Scenario, list[Frame]]:
    """A scenario record and all its frames, replayed afresh (raising when it does not
    replay, so a test fails on a bad record)."""
    scn = scenario.parse(data)
    return scn, frames(scn)
