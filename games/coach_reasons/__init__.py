"""The coach's reasons: why a recommended move is good, in one sentence that is true of it.

Each game lists its reasons in order (``games/coach_reasons/<game>.py``).  A reason is a
claim about a move in a position, written twice: as a predicate on what the seat can see
(its ``view``; never a hidden card) and the move, and as the sentence a learner reads.  The
sentence says exactly what the predicate checks (and may name the cards it is about), so it
is shown only when it is true: the first reason whose predicate holds for the move is the
one shown.  When none holds, the coach says plainly that no simple rule of thumb decides
the move (``NO_RULE``): the figure from simulated play is what it rests on then
(``GameAdapter.hint_figure``, shown with the hint).

tests/games/test_coach_reasons.py checks, over thousands of random positions per game, that
each reason shown is true of the move shown, with a check of its own written from the whole
position (the engine's state and legal moves), not by calling the predicate again.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from django.utils.translation import gettext as _

View = Mapping[str, Any]
# (view, action, adapter, names) -> the sentence; the adapter names cards the game's way.
Say = Callable[[View, Any, Any, Sequence[str]], str]


@dataclass(frozen=True)
class Reason:
    """One claim about a move: ``holds(view, action)`` is the claim as a predicate, ``say``
    gives the sentence that states it."""

    name: str
    holds: Callable[[View, Any], bool]
    say: Say


def choose(reasons: Sequence[Reason], view: View, action: Any) -> Reason | None:
    """The first reason true of ``action`` in ``view``, or None when no rule of thumb fits."""
    for r in reasons:
        if r.holds(view, action):
            return r
    return None


def no_rule() -> str:
    """What the coach says of a move no reason of the game's list is true of."""
    return _("No simple rule of thumb decides this one: it is the move that did best in "
             "simulated play from this position.")
