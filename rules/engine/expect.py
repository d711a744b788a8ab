"""Reading the values of a scenario's ``expect`` step, shared by every game."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from .cards import CardError, parse
from .errors import ScenarioError


def card_list(value: Any, key: str) -> list[int]:
    """The cards an ``expect`` key names; a ScenarioError when they are not cards."""
    if not isinstance(value, list):
        raise ScenarioError("expect_cards", key=key)
    for v in value:
        try:
            parse(v)
        except CardError:
            raise ScenarioError("expect_unknown_card", key=key, card=str(v)) from None
    return [parse(v) for v in value]


def by_seat(names: Sequence[str], value: Any, key: str) -> dict[int, Any]:
    """An ``expect`` object keyed by player name, re-keyed by seat."""
    if not isinstance(value, dict):
        raise ScenarioError("expect_by_player", key=key)
    out = {}
    for name, v in value.items():
        if name not in names:
            raise ScenarioError("expect_not_player", key=key, name=name)
        out[names.index(name)] = v
    return out


def shown(value: Any) -> str:
    """What the game has, in the file's own notation, for an ``expect`` that did not hold.

    Every game's ``check_expect`` returns this (or None when the expectation holds), so the
    message reads the same in every language: card codes, names, numbers, true/false/null."""
    return json.dumps(value, ensure_ascii=False)
