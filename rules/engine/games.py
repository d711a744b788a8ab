"""The registry of games and the shape every game module has.

A game module (``dam``, ``dolda``, ``spardame``) exposes:

- ``NAME``, ``Options`` (frozen dataclass, see options.py), ``PRESETS`` and
  ``DEFAULT_PRESET``;
- ``player_range(options) -> (min, max)``;
- ``new_game(options, names, dealer, seed, deal) -> State`` where ``deal`` is the scenario's
  ``deal`` object or None for a random deal from ``seed``; raises ScenarioError for a
  malformed deal;
- ``parse_action(state, seat, words) -> action``: the words after the player's name, checked
  in the reason-code order of scenario-format.md (raises IllegalAction);
- ``format_action(action) -> str``: the same words back (so records are plain text);
- ``check_expect(state, key, value) -> str | None``: a mismatch message or None; raises
  ScenarioError for a key that does not apply to the game;
- ``state_from_json(data) -> State``.

A State has ``names``, ``to_move`` (seat or None), ``over``, ``legal_actions()``,
``apply(action) -> (State, events)`` (never mutating the state it was called on),
``view(seat) -> dict`` and ``to_json() -> dict``.
"""

from __future__ import annotations

import importlib
from types import ModuleType

GAME_NAMES = ("dam", "dolda", "spardame")


def game_module(name: str) -> ModuleType:
    if name not in GAME_NAMES:
        raise KeyError(name)
    return importlib.import_module(f"{__package__}.{name}")
