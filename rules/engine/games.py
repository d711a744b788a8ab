"""The registry of games and the shape every game module has.

A game module (``dam``, ``dolda``, ``spardame``) is a :class:`GameModule` and its states are
:class:`GameState`\\ s; the two Protocols below are the contract the site, the bots, the
scenario checker and the benchmark scripts rely on.  In words, a game module exposes:

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
- ``state_from_json(data) -> State``;
- ``outcome(state) -> list[float]``: one number per seat for a finished deal;
- ``visible_events(events, seat)``: the events as one seat may see them;
- ``deal_result``, ``match_standing``, ``following_deal``: what a series of deals adds up to
  and the deal after one (rules/engine/match.py).

A State has ``game`` (its game's name: ``game_module(state.game)`` is its module), ``names``,
``to_move`` (seat or None), ``over``, ``legal_actions()``,
``apply(action) -> (State, events)`` (never mutating the state it was called on),
``apply_in_place(action, events=None)`` (changing it; events appended when a list is given),
``clone()``, ``view(seat) -> dict`` and ``to_json() -> dict``.

Each game has its own action type, always a tuple (dam and spardame: plain tuples, dolda: the
NamedTuple ``dolda.Action``), so both Protocols take the action type as a parameter; a game's
module and state are ``GameModule[State, Action]`` and ``GameState[Action]`` of its own types.
:func:`game_module` cannot know which game a name picks, so it gives ``GameModule[Any, Any]``.
"""

from __future__ import annotations

import importlib
from collections.abc import Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, Protocol, Self, cast

from .match import Standing

# The engine's own table of games: a name -> the module that plays it.  The site's list of
# games (games/registry.py) names the same ones; a test adds a toy game to both.
MODULES: dict[str, str] = {"dam": f"{__package__}.dam", "dolda": f"{__package__}.dolda",
                           "spardame": f"{__package__}.spardame"}
GAME_NAMES = tuple(MODULES)

# What every game's action is at the least; see the module docstring.
type Action = tuple[Any, ...]
# One thing that happened, as a JSON-ready object with at least a "type" key.
type Event = dict[str, Any]


class GameState[A](Protocol):
    """One position of a deal of one game, whose actions are of type ``A``."""

    @property
    def game(self) -> str:
        """The game's name, one of GAME_NAMES (``game_module(state.game)`` is its module)."""
        ...

    @property
    def names(self) -> Sequence[str]:
        """Player names in seat order."""
        ...

    @property
    def to_move(self) -> int | None:
        """The seat to act, None once the deal is over."""
        ...

    @property
    def over(self) -> bool: ...

    def legal_actions(self) -> Sequence[A]: ...

    def apply(self, action: A) -> tuple[Self, list[Event]]:
        """The state after ``action`` and its events; ``self`` is left as it was."""
        ...

    def apply_in_place(self, action: A, events: list[Event] | None = None) -> None:
        """Play ``action`` on this state; its events are appended to ``events`` if given."""
        ...

    def clone(self) -> Self: ...

    def view(self, seat: int) -> dict[str, Any]:
        """What ``seat`` may see, JSON-ready."""
        ...

    def to_json(self) -> dict[str, Any]: ...


class GameModule[S, A](Protocol):
    """A game's module, with states of type ``S`` (a GameState[A]) and actions of type ``A``.

    ``Options`` instances are typed Any here: each game has its own dataclass.
    """

    @property
    def NAME(self) -> str: ...

    @property
    def Options(self) -> type[Any]: ...

    @property
    def PRESETS(self) -> Mapping[str, Mapping[str, Any]]: ...

    @property
    def DEFAULT_PRESET(self) -> str: ...

    def player_range(self, options: Any) -> tuple[int, int]: ...

    def new_game(self, options: Any, names: list[str], dealer: int, seed: int,
                 deal: dict[str, Any] | None) -> S: ...

    def parse_action(self, state: S, seat: int, words: list[str]) -> A: ...

    def format_action(self, action: A) -> str: ...

    def check_expect(self, state: S, key: str, value: Any) -> str | None: ...

    def state_from_json(self, data: dict[str, Any]) -> S: ...

    def outcome(self, state: S) -> list[float]: ...

    def visible_events(self, events: list[Event], seat: int | None) -> list[Event]:
        """The events as ``seat`` may see them (None: an onlooker)."""
        ...

    # A series of deals (rules/engine/match.py): D-E3, H-E3 and S-C3.
    def deal_result(self, state: S) -> dict[str, Any]: ...

    def match_standing(self, players: int, results: Iterable[Mapping[str, Any]]) -> Standing: ...

    def following_deal(self, options: Any, names: list[str], dealer: int, deal_number: int,
                       last: Mapping[str, Any], seed: int) -> S: ...


def game_module(name: str) -> GameModule[Any, Any]:
    if name not in MODULES:
        raise KeyError(name)
    return cast("GameModule[Any, Any]", importlib.import_module(MODULES[name]))


if TYPE_CHECKING:
    # Checked by mypy only: each game module really is a GameModule of its own types.
    from . import dam, dolda, spardame

    _dam: GameModule[dam.State, Action] = dam
    _dolda: GameModule[dolda.State, dolda.Action] = dolda
    _spardame: GameModule[spardame.State, Action] = spardame

    # ... and each State a GameState.  (Not a bound on GameModule's S: mypy checks a bound
    # before it has inferred attributes such as dam.State.names, made by a helper function.)
    def _states(d: dam.State, o: dolda.State, s: spardame.State
                ) -> tuple[GameState[Action], GameState[dolda.Action], GameState[Action]]:
        return d, o, s
