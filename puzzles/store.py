"""The shipped puzzles (``puzzles/content/*.json``, written by ``manage.py puzzles generate``)
and the positions they stand for.

A puzzle file is a JSON object ``{"format": "dam-puzzles/1", "game": ..., "puzzles": [...]}``;
each puzzle names its deal (rule set, the seed of the engine's deal) and the moves the strong
bots made up to the decision, so the engine replays the position exactly; the solution is a
move in the engine's words, the goal, theme and reason are codes (texts in puzzles/texts.py and
the game's coach reasons), so the file holds no language.  The files are read once per
process: like the statistics, a fresh clone serves them without running anything.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from rules.engine.games import game_module

from .generate import names_for, new_deal

CONTENT = Path(__file__).resolve().parent / "content"
FORMAT = "dam-puzzles/1"


@dataclass(frozen=True)
class Puzzle:
    id: str
    game: str
    preset: str
    deal: str
    moves: tuple[str, ...]
    seat: int
    solution: str
    theme: str
    goal: str
    reason: str
    rating: int
    legal: int
    gap: float
    gap_se: float
    # The moves a multiple-choice puzzle offers (the engine's words), the solution among
    # them; empty: every legal move is offered.
    choices: tuple[str, ...] = ()

    def state(self, names: list[str] | None = None) -> Any:
        """The position of the puzzle, replayed by the engine (a new object each time), with
        ``names`` at the seats (the players' names change nothing of the deal)."""
        module = game_module(self.game)
        state = new_deal(self.game, self.preset, int(self.deal), names)
        for words in self.moves:
            state.apply_in_place(module.parse_action(state, state.to_move, words.split()))
        return state

    def parse(self, state: Any, words: str) -> Any:
        """A move of the file (its players are named as at generation, P1, P2, ...: a thief
        names its victim) as an action in ``state``, whatever names sit at its seats."""
        rename = dict(zip(names_for(self.game), state.names, strict=True))
        return game_module(self.game).parse_action(
            state, self.seat, [rename.get(w, w) for w in words.split()])

    def words(self, state: Any, action: Any) -> str:
        """``action`` of ``state`` in the file's words (the inverse of ``parse``)."""
        rename = dict(zip(state.names, names_for(self.game), strict=True))
        return " ".join(rename.get(w, w)
                        for w in game_module(self.game).format_action(action).split())

    def solution_action(self, state: Any) -> Any:
        return self.parse(state, self.solution)

    def choice_actions(self, state: Any) -> list[Any] | None:
        """The offered moves as the engine's actions, or None when every legal move is."""
        if not self.choices:
            return None
        return [self.parse(state, words) for words in self.choices]


def write(path: Path, game: str, puzzles: list[dict[str, Any]]) -> None:
    data = {"format": FORMAT, "game": game, "puzzles": puzzles}
    path.write_text(json.dumps(data, ensure_ascii=False, indent=1, sort_keys=True) + "\n")


def read(path: Path) -> list[Puzzle]:
    data = json.loads(path.read_text())
    if data.get("format") != FORMAT:
        raise ValueError(f"{path}: not a {FORMAT} file")
    return [Puzzle(**{**p, "moves": tuple(p["moves"]), "choices": tuple(p.get("choices", ()))})
            for p in data["puzzles"]]


@cache
def all_puzzles() -> tuple[Puzzle, ...]:
    """Every shipped puzzle, in file and then id order."""
    out: list[Puzzle] = []
    for path in sorted(CONTENT.glob("*.json")):
        out.extend(read(path))
    return tuple(out)


@cache
def by_id() -> dict[str, Puzzle]:
    return {p.id: p for p in all_puzzles()}


def of_game(game: str | None) -> list[Puzzle]:
    return [p for p in all_puzzles() if game is None or p.game == game]
