"""The selection criterion and the check command (puzzles/selection.py, ``puzzles check``)."""

import dataclasses
import io
import json

import pytest
from django.core.management import call_command

from games import registry
from puzzles import generate, store
from puzzles.selection import Gap, clearly_best, measure


def test_clearly_best_needs_an_interval_above_zero_and_the_floor_against_every_move():
    floor = 0.5
    assert clearly_best([Gap("a", 2.0, 0.5, 32), Gap("b", 1.2, 0.1, 32)], floor)
    # One move within the uncertainty: not clear.
    assert not clearly_best([Gap("a", 2.0, 0.5, 32), Gap("b", 1.0, 0.6, 32)], floor)
    # Significant, but not above the game's floor.
    assert not clearly_best([Gap("a", 0.4, 0.01, 32)], floor)
    # A wider margin asked for at generation.
    assert not clearly_best([Gap("a", 1.2, 0.1, 32)], floor, z=5.0, floor_factor=3.0)
    assert not clearly_best([], floor)


def one_per_game():
    found = {}
    for p in store.all_puzzles():
        if not p.choices:  # every legal move measured (multiple choices: test_themes.py)
            found.setdefault(p.game, p)
    return list(found.values())


@pytest.mark.parametrize("puzzle", one_per_game(), ids=lambda p: p.id)
def test_a_shipped_solution_is_clearly_best_in_new_determinizations(puzzle):
    state = puzzle.state()
    before = json.dumps(state.to_json(), sort_keys=True)
    gaps = measure(state, puzzle.seat, puzzle.solution_action(state), 987654321, 16)
    assert len(gaps) == puzzle.legal - 1 >= 1
    assert clearly_best(gaps, registry.get(puzzle.game).mistake_floor)
    assert json.dumps(state.to_json(), sort_keys=True) == before  # measured on copies


@pytest.fixture
def few_puzzles(tmp_path, monkeypatch):
    """Two real puzzles of each game and one with a wrong solution (another legal move)."""
    picked = []
    for game in registry.KEYS:
        picked += [p for p in store.all_puzzles() if p.game == game][:2]
    wrong = picked[0]
    state = wrong.state()
    other = next(a for a in state.legal_actions() if a != wrong.solution_action(state))
    from rules.engine.games import game_module
    bad = dataclasses.replace(wrong, id="dam-bad-0001",
                              solution=game_module(wrong.game).format_action(other))
    rows = [dataclasses.asdict(p) for p in [*picked, bad]]
    for game in registry.KEYS:
        store.write(tmp_path / f"{game}.json", game,
                    [{**r, "moves": list(r["moves"])} for r in rows if r["game"] == game])
    monkeypatch.setattr(store, "CONTENT", tmp_path)
    store.all_puzzles.cache_clear()
    store.by_id.cache_clear()
    yield len(rows)
    store.all_puzzles.cache_clear()
    store.by_id.cache_clear()


def test_the_check_prints_a_line_per_game_and_the_totals_last(few_puzzles, monkeypatch):
    # Fewer determinizations than the shipped check's, to keep the test quick: the shipped
    # puzzles' margins hold at this size too.
    monkeypatch.setattr(generate, "DEALS", 16)
    out = io.StringIO()
    call_command("puzzles", "check", "--seed", "7", stdout=out, stderr=io.StringIO())
    lines = out.getvalue().strip().splitlines()
    assert [line.split(":")[0] for line in lines[:-1]] == list(registry.KEYS)
    # The wrong solution is found out; every real one is verified.
    assert lines[-1] == f"puzzles={few_puzzles} verified={few_puzzles - 1}"
