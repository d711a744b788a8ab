"""The ``dam-scenario/1`` format: loading, validating and replaying scenario files.

One validator serves the tutorials, teacher scenarios, exported practice games and the test
suite.  Every fault is reported as ``(step, message)`` and never as a traceback: step 0 is
the file or the deal, steps count from 1.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from .errors import IllegalAction, ScenarioError, scenario_message
from .expect import shown
from .games import MODULES, Event, GameModule, GameState, game_module
from .options import build_options

FORMAT = "dam-scenario/1"
TOP_LEVEL = {"format", "game", "title", "rules", "players", "dealer", "seed", "deal", "steps"}
MAX_TITLE = 120  # characters of the optional title
STEP_KINDS = ("do", "illegal", "expect")
LANGUAGES = ("sv", "fi", "nb", "en")
# A real scenario nests five levels (file, steps, step, expect, hand); this leaves ample room
# while keeping every later walk over the data (JSON encoders, the database) far from recursion
# limits.
MAX_DEPTH = 32
# C0 and C1 controls, DEL and lone surrogates (which JSON's \u escapes can make): none is text a
# person types, NUL cannot be stored by PostgreSQL and a surrogate cannot be encoded as UTF-8.
# Tab and line breaks are allowed (narration); names refuse every white space anyway.
CONTROL = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\ud800-\udfff]")


@dataclass
class Step:
    kind: str  # "do", "illegal" or "expect"
    move: str = ""  # for do/illegal
    reason: str = ""  # for illegal
    expect: dict[str, Any] = field(default_factory=dict)
    say: dict[str, str] = field(default_factory=dict)


@dataclass
class Scenario:
    game: str
    rules: dict[str, Any]
    options: Any
    players: list[str]
    dealer: int
    seed: int
    deal: dict[str, Any] | None
    steps: list[Step]
    title: str = ""

    @property
    def module(self) -> GameModule[Any, Any]:
        return game_module(self.game)

    def initial_state(self) -> GameState[Any]:
        try:
            state: GameState[Any] = self.module.new_game(self.options, list(self.players),
                                                         self.dealer, self.seed, self.deal)
            return state
        except ScenarioError:
            raise
        except (ValueError, TypeError, KeyError) as exc:  # a deal the game could not read
            raise ScenarioError("bad_deal", detail=str(exc)) from exc

    def to_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {"format": FORMAT, "game": self.game}
        if self.title:
            data["title"] = self.title
        data |= {"rules": self.rules, "players": self.players,
                 "dealer": self.players[self.dealer], "seed": self.seed}
        if self.deal is not None:
            data["deal"] = self.deal
        steps = []
        for s in self.steps:
            d: dict[str, Any]
            if s.kind == "do":
                d = {"do": s.move}
            elif s.kind == "illegal":
                d = {"illegal": s.move, "reason": s.reason}
            else:
                d = {"expect": s.expect}
            if s.say:
                d["say"] = s.say
            steps.append(d)
        data["steps"] = steps
        return data


def _require(cond: bool, code: str, step: int = 0, **params: object) -> None:
    if not cond:
        raise ScenarioError(code, step, **params)


def _fields(names: list[str]) -> str:
    return ", ".join(f"'{n}'" for n in names)


def control_character(text: str) -> str:
    """The first control character of ``text`` as ``U+0000``-style text, or "" when it has none."""
    found = CONTROL.search(text)
    return f"U+{ord(found.group()):04X}" if found else ""


def _check_values(data: dict[str, Any]) -> None:
    """Every string (object keys too) free of control characters and no deeper nesting than
    MAX_DEPTH; a fault inside ``steps`` is reported at its step."""
    pending: list[tuple[Any, int, int]] = []
    for key, value in data.items():
        pending.append((key, 0, 1))
        if key == "steps" and isinstance(value, list):
            pending.extend((raw, n, 3) for n, raw in enumerate(value, start=1))
        else:
            pending.append((value, 0, 2))
    while pending:
        value, step, depth = pending.pop()
        if isinstance(value, str):
            char = control_character(value)
            _require(not char, "control_character", step, char=char)
            continue
        if not isinstance(value, (list, dict)):
            continue
        _require(depth <= MAX_DEPTH, "too_deep", step)
        if isinstance(value, dict):
            pending.extend((k, step, depth) for k in value)
            value = value.values()
        pending.extend((v, step, depth + 1) for v in value)


def parse(data: Any) -> Scenario:
    """Validate a decoded JSON object; raises ScenarioError."""
    _require(isinstance(data, dict), "not_object")
    _check_values(data)
    unknown = sorted(set(data) - TOP_LEVEL)
    _require(not unknown, "unknown_field", fields=_fields(unknown))
    _require(data.get("format") == FORMAT, "bad_format", format=FORMAT)
    game = data.get("game")
    _require(isinstance(game, str) and game in MODULES, "bad_game", games=", ".join(MODULES))
    title = data.get("title", "")
    _require(isinstance(title, str) and len(title) <= MAX_TITLE, "bad_title", limit=MAX_TITLE)
    module = game_module(game)
    rules = data.get("rules", {})
    _require(isinstance(rules, dict), "rules_not_object")
    options = build_options(module.Options, module.PRESETS, module.DEFAULT_PRESET, rules)

    players = data.get("players")
    _require(isinstance(players, list) and all(isinstance(p, str) for p in players),
             "players_not_list")
    # One word each: a move is split at white space, so a tab or a no-break space inside a
    # name would make it another player's move.
    _require(all(p.split() == [p] for p in players), "bad_player_name")
    _require(len(set(players)) == len(players), "duplicate_player")
    lo, hi = module.player_range(options)
    _require(lo <= len(players) <= hi, "player_count", game=game, lo=lo, hi=hi, n=len(players))
    dealer_name = data.get("dealer", players[-1])
    _require(isinstance(dealer_name, str) and dealer_name in players, "dealer_not_player",
             name=dealer_name)
    seed = data.get("seed", 0)
    _require(isinstance(seed, int) and not isinstance(seed, bool), "bad_seed")
    deal = data.get("deal")
    _require(deal is None or isinstance(deal, dict), "deal_not_object")

    raw_steps = data.get("steps", [])
    _require(isinstance(raw_steps, list), "steps_not_list")
    steps = [_parse_step(raw, n) for n, raw in enumerate(raw_steps, start=1)]
    return Scenario(game=game, rules=rules, options=options, players=list(players),
                    dealer=players.index(dealer_name), seed=seed, deal=deal, steps=steps,
                    title=title.strip())


def _parse_step(raw: Any, n: int) -> Step:
    _require(isinstance(raw, dict), "step_not_object", n)
    kinds = [k for k in STEP_KINDS if k in raw]
    _require(len(kinds) == 1, "step_kind", n)
    allowed = {kinds[0], "say"} | ({"reason"} if kinds[0] == "illegal" else set())
    unknown = sorted(set(raw) - allowed)
    _require(not unknown, "unknown_field", n, fields=_fields(unknown))
    say = raw.get("say", {})
    _require(isinstance(say, dict) and all(k in LANGUAGES and isinstance(v, str)
                                           for k, v in say.items()),
             "bad_say", n)
    kind = kinds[0]
    if kind == "expect":
        _require(isinstance(raw["expect"], dict), "expect_not_object", n)
        return Step(kind, expect=raw["expect"], say=say)
    move = raw[kind]
    _require(isinstance(move, str) and move.strip() != "", "step_not_move", n, kind=kind)
    reason = ""
    if kind == "illegal":
        reason = raw.get("reason")
        _require(isinstance(reason, str) and reason != "", "missing_reason", n)
    return Step(kind, move=move, reason=reason, say=say)


class _BadNumber(ValueError):
    pass


def _constant(name: str) -> float:
    raise _BadNumber(name)  # NaN and Infinity: Python reads them, JSON has no such numbers


def _float(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):  # 1e999
        raise _BadNumber(text)
    return value


def decode(text: str | bytes) -> Any:
    """The JSON value of a scenario file; every fault of reading it is a ScenarioError."""
    try:
        return json.loads(text, parse_constant=_constant, parse_float=_float)
    except json.JSONDecodeError as exc:
        raise ScenarioError("not_json", line=exc.lineno, column=exc.colno) from exc
    except UnicodeDecodeError as exc:
        raise ScenarioError("not_text") from exc
    except ValueError as exc:  # _BadNumber, or an integer beyond Python's digit limit
        raise ScenarioError("bad_number") from exc
    except RecursionError:
        raise ScenarioError("too_deep") from None


def loads(text: str | bytes) -> Scenario:
    return parse(decode(text))


def apply_move(module: GameModule[Any, Any], state: GameState[Any], names: list[str],
               move: str) -> tuple[GameState[Any], list[Event]]:
    """Apply one move in scenario notation (``"Anna attack 5C 9C"``)."""
    if getattr(state, "over", False):  # first of all reasons (scenario-format.md)
        raise IllegalAction("game_over")
    words = move.split()
    if not words or words[0] not in names:
        raise IllegalAction("bad_move", detail=f"unknown player in {move!r}",
                            why="unknown_player")
    seat = names.index(words[0])
    action = module.parse_action(state, seat, words[1:])
    return state.apply(action)


@dataclass
class Problem:
    """One fault: ``code`` and ``params`` as in errors.SCENARIO_MESSAGES."""

    step: int
    code: str
    params: dict[str, Any] = field(default_factory=dict)

    @classmethod
    def of(cls, exc: ScenarioError, step: int | None = None) -> Problem:
        return cls(exc.step if step is None else step, exc.code, exc.params)

    @property
    def message(self) -> str:
        return scenario_message(self.code, self.params)

    def __str__(self) -> str:
        return f"step {self.step}: {self.message}"


def check(scn: Scenario) -> list[Problem]:
    """Replay every step; returns the problems found (empty when every step holds)."""
    module = scn.module
    try:
        state = scn.initial_state()
    except ScenarioError as exc:
        return [Problem.of(exc, 0)]
    problems: list[Problem] = []
    for n, step in enumerate(scn.steps, start=1):
        if step.kind == "do":
            try:
                state, _events = apply_move(module, state, scn.players, step.move)
            except IllegalAction as exc:
                problems.append(Problem(n, "refused", {"move": step.move, "reason": exc.reason}))
                return problems  # later steps would be checked against the wrong position
        elif step.kind == "illegal":
            before = state.to_json()
            try:
                apply_move(module, state, scn.players, step.move)
            except IllegalAction as exc:
                if state.to_json() != before:
                    problems.append(Problem(n, "refused_changed", {"move": step.move}))
                if exc.reason != step.reason:
                    problems.append(Problem(n, "wrong_reason", {
                        "move": step.move, "got": exc.reason, "reason": step.reason}))
            else:
                problems.append(Problem(n, "accepted", {"move": step.move,
                                                        "reason": step.reason}))
        else:
            for key, value in step.expect.items():
                try:
                    mismatch = module.check_expect(state, key, value)
                except ScenarioError as exc:
                    problems.append(Problem.of(exc, n))
                    continue
                if mismatch is not None:
                    problems.append(Problem(n, "expect_mismatch", {
                        "key": key, "want": shown(value), "got": mismatch}))
    return problems


def check_text(text: str | bytes) -> list[Problem]:
    try:
        scn = loads(text)
    except ScenarioError as exc:
        return [Problem.of(exc)]
    return check(scn)


def states(scn: Scenario) -> Iterator[tuple[int, GameState[Any], list[Event]]]:
    """The state before the first step and after each step, with the events that led there.

    Yields ``(step_number, state, events)``; stops at the first refused ``do`` step.
    """
    module = scn.module
    state = scn.initial_state()
    yield 0, state, []
    for n, step in enumerate(scn.steps, start=1):
        events: list[Event] = []
        if step.kind == "do":
            state, events = apply_move(module, state, scn.players, step.move)
        yield n, state, events
