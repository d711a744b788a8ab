"""One adapter per game: everything the site needs to know about a game that is not a rule.

Views, templates and the teacher tools ask ``adapter(game)`` and never compare a game's name.
The rules themselves (legal moves, player ranges, what a deal adds up to over a series) stay in
the engine; an adapter turns them into page text, forms and buttons.
"""

from __future__ import annotations

from games.registry import KEYS

from .base import MOVE_LABELS, GameAdapter, Slot
from .dam import DamAdapter
from .dolda import DoldaAdapter
from .spardame import SpardameAdapter

ADAPTERS: dict[str, GameAdapter] = {a.name: a for a in (DamAdapter(), DoldaAdapter(),
                                                           SpardameAdapter())}
assert tuple(ADAPTERS) == KEYS


def adapter(game: str) -> GameAdapter:
    """The adapter of ``game``; KeyError for a name that is not a game."""
    return ADAPTERS[game]


__all__ = ["ADAPTERS", "MOVE_LABELS", "GameAdapter", "Slot", "adapter"]
