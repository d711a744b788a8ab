"""Which puzzle comes next: the set's, the day's, the streak's.  Pure functions of the
shipped puzzles and what the browser's record says, so the same request gives the same
puzzle."""

from __future__ import annotations

import datetime
import hashlib
from collections import Counter
from collections.abc import Iterable

from .store import Puzzle, all_puzzles

# A streak's k-th puzzle is drawn from the puzzles rated nearest STREAK_START + k *
# STREAK_STEP: the streak gets harder as it grows.
STREAK_START = 900
STREAK_STEP = 50
STREAK_POOL = 24


def _number(*parts: object) -> int:
    text = ":".join(str(p) for p in parts)
    return int.from_bytes(hashlib.sha256(text.encode()).digest()[:8], "big")


def today() -> datetime.date:
    return datetime.datetime.now(datetime.UTC).date()


def daily(day: datetime.date) -> Puzzle | None:
    """The puzzle of ``day`` (UTC): the same for everyone, from the date alone."""
    puzzles = sorted(all_puzzles(), key=lambda p: p.id)
    return puzzles[_number("daily", day.isoformat()) % len(puzzles)] if puzzles else None


def in_set(set_code: str) -> list[Puzzle]:
    game, _sep, theme = set_code.partition(":")
    return [p for p in all_puzzles() if (game == "all" or p.game == game)
            and (not theme or p.theme == theme)]


def next_in_set(set_code: str, rating: float, seen: Iterable[str]) -> Puzzle | None:
    """An unseen puzzle of the set rated nearest the player (all seen: nearest of all)."""
    pool = in_set(set_code)
    if not pool:
        return None
    done = set(seen)
    fresh = [p for p in pool if p.id not in done] or pool
    return min(fresh, key=lambda p: (abs(p.rating - rating), p.id))


def streak(token: str, k: int, seen: Iterable[str]) -> Puzzle | None:
    """The ``k``-th puzzle (from 0) of the streak started as ``token``."""
    done = set(seen)
    pool = [p for p in all_puzzles() if p.id not in done] or list(all_puzzles())
    if not pool:
        return None
    aim = STREAK_START + k * STREAK_STEP
    near = sorted(pool, key=lambda p: (abs(p.rating - aim), p.id))[:STREAK_POOL]
    return near[_number("streak", token, k) % len(near)]


def theme_counts(puzzles: Iterable[Puzzle]) -> list[tuple[str, int]]:
    """The themes of ``puzzles`` with their counts, most puzzles first."""
    counts = Counter(p.theme for p in puzzles)
    return sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))
