"""Replaying stored games: the one path for teacher scenarios and practice records.

Both are ``dam-scenario/1`` objects kept in the database; every position shown is the record
replayed through the engine.  ``frames`` replays one; ``replay`` keeps the result in
Django's cache (Redis in production, so every app server shares it; local memory in
development and tests) under a hash of the record itself, so an edited record is a new key
and nothing needs invalidating.  States are cached as ``to_json()`` (the engine's own
round-trip, which practice games already rely on), never pickled, so a deploy that changes a
state class cannot read stale objects.

The tutorials' shipped files are replayed by ``replay_file``, kept per process for as long as
it runs: they are pure functions of files in the repository.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field
from functools import cache as per_process
from functools import cached_property
from pathlib import Path
from typing import Any

from django.core.cache import cache

from rules.engine import scenario
from rules.engine.errors import IllegalAction, ScenarioError

CACHE_SECONDS = 60 * 60


@dataclass
class Frame:
    number: int
    state: Any
    events: list[dict[str, Any]] = field(default_factory=list)
    step: scenario.Step | None = None
    refused: str = ""  # reason code of an "illegal" step


@dataclass
class Replay:
    """A scenario and every position of it: ``frames[0]`` the deal, ``frames[n]`` after step n."""

    scn: scenario.Scenario
    frames: list[Frame]

    @cached_property
    def states(self) -> list[Any]:
        return [f.state for f in self.frames]

    @cached_property
    def events(self) -> list[list[Any]]:
        return [f.events for f in self.frames]


def frames(scn: scenario.Scenario) -> list[Frame]:
    """Every position: frame 0 the deal, frame n after step n.  Raises ScenarioError or
    IllegalAction for a record that does not replay."""
    module = scn.module
    state = scn.initial_state()
    out = [Frame(0, state)]
    for n, step in enumerate(scn.steps, start=1):
        events: list[dict[str, Any]] = []
        refused = ""
        if step.kind == "do":
            state, events = scenario.apply_move(module, state, scn.players, step.move)
        elif step.kind == "illegal":
            try:
                scenario.apply_move(module, state, scn.players, step.move)
            except IllegalAction as exc:
                refused = exc.reason
        out.append(Frame(n, state, events, step, refused))
    return out


def _key(data: dict[str, Any]) -> str:
    text = json.dumps(data, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    return "replay:" + hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()


def replay(data: dict[str, Any]) -> Replay | None:
    """A stored record replayed, or None when it does not replay."""
    key = _key(data)
    hit = cache.get(key)
    if hit is not None and hit.get("broken"):
        return None
    try:
        scn = scenario.parse(data)
    except ScenarioError:
        cache.set(key, {"broken": True}, CACHE_SECONDS)
        return None
    if hit is not None:
        module = scn.module
        steps = [None, *scn.steps]
        return Replay(scn, [Frame(n, module.state_from_json(f["state"]), f["events"], steps[n],
                                  f["refused"]) for n, f in enumerate(hit["frames"])])
    try:
        result = frames(scn)
    except (ScenarioError, IllegalAction):
        cache.set(key, {"broken": True}, CACHE_SECONDS)
        return None
    cache.set(key, {"frames": [{"state": f.state.to_json(), "events": f.events,
                                "refused": f.refused} for f in result]}, CACHE_SECONDS)
    return Replay(scn, result)


@per_process
def replay_file(path: Path) -> Replay:
    """A shipped scenario file replayed (a tutorial's); it must replay, as the suite checks."""
    scn = scenario.loads(path.read_text(encoding="utf-8"))
    return Replay(scn, frames(scn))
