"""Dealing the cards a seat cannot see, for the games' ``resample`` (bots/search.py)."""

from __future__ import annotations

import random


def deal_unknown(rng: random.Random, unknown: list[int], sizes: list[int]) -> list[list[int]]:
    """Shuffle ``unknown`` in place and cut it into parts of ``sizes``, in order.  The cards
    past the parts stay at the end of ``unknown`` (a caller may deal them somewhere else)."""
    rng.shuffle(unknown)
    out, pos = [], 0
    for k in sizes:
        out.append(unknown[pos:pos + k])
        pos += k
    return out
