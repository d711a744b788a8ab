"""The one replay path for stored games (games/replay.py): frames from Django's cache equal a
fresh replay, a changed record is a new key, and a broken one is remembered as broken."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from django.core.cache import cache

from games import replay as stored
from rules.engine import scenario

DAM_FILE = Path(__file__).resolve().parent.parent / "teacher" / "data" / "dam-three-diamonds.json"


@pytest.fixture(autouse=True)
def empty_cache():
    cache.clear()
    yield
    cache.clear()


def data():
    return json.loads(DAM_FILE.read_text(encoding="utf-8"))


def as_json(frames):
    return [(f.number, f.state.to_json(), f.events, f.refused,
             f.step.move if f.step else None) for f in frames]


def test_a_cached_replay_equals_a_fresh_one():
    d = data()
    fresh = stored.frames(scenario.parse(d))
    first = stored.replay(d).frames  # miss: replayed and stored
    second = stored.replay(d).frames  # hit: rebuilt from the cache
    assert as_json(first) == as_json(fresh) == as_json(second)
    assert [f.state.legal_actions() for f in second] == [f.state.legal_actions() for f in fresh]


def test_a_changed_record_is_replayed_again():
    d = data()
    frames = stored.replay(d).frames
    shorter = {**d, "steps": d["steps"][:1]}
    again = stored.replay(shorter).frames
    assert len(again) == 2 < len(frames)


def test_a_record_that_does_not_replay_is_none_and_stays_none():
    d = data()
    broken = {**d, "steps": [{"do": "Nobody attack 5C"}]}
    assert stored.replay(broken) is None
    assert stored.replay(broken) is None
    assert stored.replay({"format": "nonsense"}) is None
