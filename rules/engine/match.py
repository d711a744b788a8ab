"""What a series of deals adds up to, the same shape for every game.

Each game module answers three questions with its own rule (D-E3, H-E3, S-C3):
``deal_result(state)`` (what a finished deal leaves for the series, JSON-safe),
``match_standing(players, results)`` (the series so far, from those results) and
``following_deal(options, names, dealer, deal_number, last, seed)`` (the following deal).
The site stores the results, so a series is never replayed to be summed up.
"""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True)
class Standing:
    # Per seat: lost deals (Dam) or points (lower is better in the other two games).
    values: list[int]
    # True once the series has a result and no further deal belongs to it.
    over: bool
    winners: list[int] = field(default_factory=list)
    # Deals a whole match has (Dam med dolda kort), or None when it has no fixed length.
    deals_in_match: int | None = None
