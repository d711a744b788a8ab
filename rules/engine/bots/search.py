"""What the strong bot (bots/strong.py) asks of a game, and where it finds it.

The strong bot is one search for every game.  What differs from game to game is declared by
the game's bot module (bots/dam.py, bots/dolda.py, bots/spardame.py) as ``SEARCH``, a
:class:`Search`; ``search_for(state)`` finds it from ``state.game`` (games.GameState).  The
design follows OpenSpiel, where the game resamples a hidden state for its information-set
searches (``ResampleFromInfostate``) and says what the end of a game is worth (``Returns``).

A Search holds:

- ``params``: the numbers of the search (:class:`SearchParams`), each a named constant of the
  bot module with the reason for its value;
- ``resample(state, seat, rng)``: a complete position that agrees with everything ``seat``
  can see (its view and the public facts of the deal) with every card it cannot see dealt at
  random from ``rng``; it never reads a hidden card, and it leaves ``state`` as it was;
- ``value(state, seat)``: what a finished deal is worth to ``seat``, lower is better;
- ``heuristic`` and ``policy``: bot classes (made from a seed, or from a generator to share:
  ``Seed``) that play the other seats and the searching seat in a playout; the policy's move
  is also the search's first candidate;
- ``spread(actions, rng, k)``: the actions to pick candidates from, most wanted first, when
  there are too many to try them all (at least ``k`` of them when there are as many);
- ``baseline_only(state)``: whether the position has so many choices that the search only
  compares the policy's choice with the move under review (Spardame's passes);
- ``value_now(state, seat)``: with a horizon, what a playout cut there is worth to ``seat``;
- ``groups(state, seat, actions)``: the actions in groups of moves that are the same move in
  effect (two Spardame cards with no card between them left in another hand or on the
  table; two Dam beats of one attack card with cards of one run in hand), in order; the
  coach plays one of each group (bots/coach.py).  By default every action alone.
"""

from __future__ import annotations

import importlib
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol, cast

from ..games import GAME_NAMES, GameState

# What a bot is made from: a seed, or a generator it shares (the bots of one playout all draw
# from the playout's: seeding a Mersenne Twister was a tenth of a playout's time).
type Seed = int | random.Random


def source(seed: Seed) -> random.Random:
    """The bot's random source: ``seed``'s own generator, or the shared one it is."""
    return seed if isinstance(seed, random.Random) else random.Random(seed)


class Policy[S, A](Protocol):
    """A bot: ``Bot(seed).act(state, seat)`` is its move for ``seat``.  A policy may also
    have ``decide(state, seat) -> (action, margin)``, saying how clear its choice is (the
    search is skipped above ``SearchParams.clear``)."""

    def act(self, state: S, seat: int) -> A: ...


@dataclass(frozen=True)
class SearchParams:
    """The numbers of a game's search; see the constants of each bot module."""

    playouts: int  # playouts per decision (a fixed amount of work: a seed reproduces a move)
    clear: float  # a policy's choice clearer than this margin is played without a search
    overrule_z: float  # standard errors by which a move must beat the policy's to replace it
    horizon: int | None  # moves after which a playout stops and is valued as it stands
    cut_value: float  # the value of a playout cut at the move cap (strong.ROLLOUT_MOVE_CAP)


def shuffled[A](actions: Sequence[A], rng: random.Random, k: int) -> list[A]:
    """The default ``spread``: every action, in random order."""
    pool = list(actions)
    rng.shuffle(pool)
    return pool


def never(state: Any) -> bool:
    """The default ``baseline_only``: every position is searched."""
    return False


def alone[A](state: Any, seat: int, actions: Sequence[A]) -> list[list[A]]:
    """The default ``groups``: no two actions are the same move."""
    return [[a] for a in actions]


@dataclass(frozen=True)
class Search[S, A]:
    """What the strong bot needs of one game: see the module docstring."""

    params: SearchParams
    resample: Callable[[S, int, random.Random], S]
    value: Callable[[S, int], float]
    heuristic: Callable[[Seed], Policy[S, A]]
    policy: Callable[[Seed], Policy[S, A]]
    spread: Callable[[Sequence[A], random.Random, int], list[A]] = shuffled
    baseline_only: Callable[[S], bool] = never
    value_now: Callable[[S, int], float] | None = None
    groups: Callable[[S, int, Sequence[A]], list[list[A]]] = alone

    def __post_init__(self) -> None:
        if (self.params.horizon is None) != (self.value_now is None):
            raise ValueError("a horizon needs value_now, and value_now a horizon")


def below_table(scores: Sequence[float], seat: int) -> float:
    """``seat``'s score less the table's mean score: the value of a deal scored in points."""
    return scores[seat] - sum(scores) / len(scores)


def search_of(game: str) -> Search[Any, Any]:
    """The Search of the game named ``game``: ``SEARCH`` of its bot module."""
    if game not in GAME_NAMES:
        raise KeyError(game)
    return cast("Search[Any, Any]", importlib.import_module(f"{__package__}.{game}").SEARCH)


def search_for(state: GameState[Any]) -> Search[Any, Any]:
    """The Search of ``state``'s game."""
    return search_of(state.game)
