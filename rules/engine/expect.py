"""Reading the values of a scenario's ``expect`` step, shared by every game."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from .cards import CardError, parse
from .errors import ScenarioError


def card_list(value: Any, key: str) -> list[int]:
    """The cards an ``expect`` key names; a ScenarioError when they are not cards."""
    if not isinstance(value, list):
        raise ScenarioError(f"expect {key!r} needs a list of cards")
    try:
        return [parse(v) for v in value]
    except CardError as exc:
        raise ScenarioError(f"expect {key!r}: unknown card {exc}") from None


def by_seat(names: Sequence[str], value: Any, key: str) -> dict[int, Any]:
    """An ``expect`` object keyed by player name, re-keyed by seat."""
    if not isinstance(value, dict):
        raise ScenarioError(f"expect {key!r} needs an object keyed by player name")
    out = {}
    for name, v in value.items():
        if name not in names:
            raise ScenarioError(f"expect {key!r}: {name!r} is not a player")
        out[names.index(name)] = v
    return out
