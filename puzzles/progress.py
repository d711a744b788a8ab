"""A browser's puzzle record, kept in one signed cookie (no account, no database), like the
tutorials' progress: its Glicko-2 rating, its latest attempts and its streak.

- ``rating``: rating, deviation and volatility (puzzles/glicko.py);
- ``recent``: the latest ``KEEP`` first attempts, each ``[puzzle id, solved 0/1, rating
  change, hint level]``: a puzzle's result page reads its line, so a fresh load of the page
  after an answer shows the same (only a puzzle's first attempt counts, and only without a
  hint it changes the rating);
- ``streak``: the current streak's length, the best one, the streak's random start and the
  puzzle it is at, and the last streak answer ``[puzzle id, solved, length after]``.

A cookie that is garbled, unsigned or of another shape reads as a new player's: nothing
breaks, and the next answer writes a whole new one.
"""

from __future__ import annotations

import json
import secrets
from dataclasses import dataclass, field
from typing import Any

from django.http import HttpRequest, HttpResponse

from .glicko import Rating

COOKIE = "puzzles"
SALT = "puzzles.progress"
MAX_AGE = 365 * 24 * 3600
KEEP = 60


@dataclass
class Record:
    rating: Rating = field(default_factory=Rating)
    recent: list[list[Any]] = field(default_factory=list)
    streak: int = 0
    best: int = 0
    token: str = ""
    at: str = ""
    last: list[Any] = field(default_factory=list)

    def attempt(self, puzzle_id: str) -> list[Any] | None:
        return next((a for a in self.recent if a[0] == puzzle_id), None)

    def seen(self) -> set[str]:
        return {a[0] for a in self.recent}

    def new_streak(self) -> None:
        self.streak, self.token, self.at, self.last = 0, secrets.token_hex(4), "", []


def _number(x: Any) -> bool:
    return isinstance(x, int | float) and not isinstance(x, bool)


def read(request: HttpRequest) -> Record:
    raw = request.get_signed_cookie(COOKIE, default=None, salt=SALT)
    record = Record()
    if raw is None:
        return record
    try:
        data = json.loads(raw)
        r, rd, vol = data["r"]
        if all(_number(x) for x in (r, rd, vol)) and 0 < rd <= 350 and 0 < vol < 1:
            record.rating = Rating(float(r), float(rd), float(vol))
        record.recent = [a for a in data.get("h", [])[:KEEP]
                         if isinstance(a, list) and len(a) == 4 and isinstance(a[0], str)
                         and a[1] in (0, 1) and _number(a[2]) and a[3] in (0, 1, 2)]
        n, best, token, at, last = data["s"]
        if isinstance(n, int) and isinstance(best, int) and isinstance(token, str) \
                and isinstance(at, str) and isinstance(last, list):
            record.streak, record.best, record.token, record.at = n, best, token[:16], at[:40]
            if len(last) == 3 and isinstance(last[0], str) and last[1] in (0, 1) \
                    and isinstance(last[2], int):
                record.last = last
    except (ValueError, TypeError, KeyError):
        return record
    return record


def write(request: HttpRequest, response: HttpResponse, record: Record) -> None:
    data = {"r": [round(record.rating.rating, 2), round(record.rating.rd, 2),
                  round(record.rating.vol, 6)],
            "h": record.recent[:KEEP],
            "s": [record.streak, record.best, record.token, record.at, record.last]}
    response.set_signed_cookie(COOKIE, json.dumps(data, separators=(",", ":")), salt=SALT,
                               max_age=MAX_AGE, samesite="Lax", httponly=True,
                               secure=request.is_secure())


def reset(response: HttpResponse) -> None:
    response.delete_cookie(COOKIE, samesite="Lax")
