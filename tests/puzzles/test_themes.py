"""Reaching the themes plain runs miss: multiple choices (a Spardame pass, a thief), runs that
ask for themes, the deals of thieves and shields, and the themes the adapters give."""

import dataclasses
import io
import json
import random

import pytest
from django.core.management import call_command

from games import registry
from games.adapters import adapter
from games.adapters.dolda import KeepJacks
from puzzles import generate, store
from puzzles.selection import clearly_best, measure
from rules.engine.bots.search import search_of
from rules.engine.games import game_module


def a_pass():
    """The first decision of a Spardame deal: a pass (286 legal moves)."""
    state = generate.new_deal("spardame", "standard", 5)
    assert state.legal_actions()[0][0] == "pass"
    return state, state.to_move


def test_a_pass_is_a_multiple_choice_around_the_coachs_pass():
    state, seat = a_pass()
    moves, choices, first = generate.candidates(state, seat, random.Random(1), "spardame")
    assert choices is not None and moves == choices
    assert len(choices) == adapter("spardame").PUZZLE_CHOICES == len(set(choices))
    assert first in choices and all(c in state.legal_actions() for c in choices)


def test_a_decision_with_few_moves_offers_them_all():
    state, seat = a_pass()
    state.apply_in_place(search_of("spardame").policy(1).act(state, seat))
    while len(state.legal_actions()) > generate.MAX_MOVES or len(state.legal_actions()) < 2:
        state.apply_in_place(search_of("spardame").policy(1).act(state, state.to_move))
    moves, choices, first = generate.candidates(state, state.to_move, random.Random(1), "spardame")
    assert choices is None and first is None and moves == list(state.legal_actions())


def test_a_play_is_no_multiple_choice():
    adapter_ = adapter("spardame")
    state, seat = a_pass()
    play = ("play", seat, 0)
    assert adapter_.puzzle_choices(state.view(seat), state.legal_actions(), play,
                                   random.Random(1)) is None


def test_measure_among_the_choices_compares_only_them():
    state, seat = a_pass()
    _moves, choices, first = generate.candidates(state, seat, random.Random(1), "spardame")
    gaps = measure(state, seat, first, 3, 8, choices)
    assert sorted(map(str, (g.action for g in gaps))) == sorted(
        str(c) for c in choices if c != first)


def test_a_pass_has_the_theme_of_passes_unless_the_queen_explains_it():
    adapter_ = adapter("spardame")
    state, seat = a_pass()
    view = state.view(seat)
    themes = {adapter_.puzzle_theme(view, a) for a in state.legal_actions()}
    assert "pass" in themes and "shed" not in themes and themes <= {"pass", "queen", "moon"}


def test_playing_svarta_maja_out_is_the_maja_theme_even_after_the_stock():
    maja = [p for p in store.all_puzzles()
            if p.reason in ("maja_alone", "maja_with_spades")]
    assert maja
    for p in maja:
        state = p.state()
        view = state.view(p.seat)
        assert adapter("dam").puzzle_theme(view, p.solution_action(state)) == "maja"


def test_the_bots_keep_no_jack_but_keep_jacks_players_reach_thieves_and_shields():
    search = search_of("dolda")

    def jack_decisions(wrap):
        seen = 0
        for deal in range(8):
            state = generate.new_deal("dolda", "avancerad", deal)
            players = [wrap(search.policy(deal + s)) for s in range(len(state.names))]
            while not state.over:
                legal = state.legal_actions()
                seen += legal[0].kind in ("shield", "steal")
                state.apply_in_place(players[state.to_move].act(state, state.to_move))
        return seen

    assert jack_decisions(lambda p: p) == 0
    assert jack_decisions(KeepJacks) > 0


def test_a_run_for_a_theme_keeps_only_that_theme_and_multiple_choices_hold_their_moves():
    found = generate.generate("dolda", 3, 5, themes=frozenset({"thief_shield"}),
                              presets=["avancerad"])
    assert len(found) == 3 and {p["theme"] for p in found} == {"thief_shield"}
    steals = [p for p in found if p["solution"].startswith("steal")]
    for p in steals:
        assert p["solution"] in p["choices"] and p["legal"] == len(p["choices"])


def shipped_choice_puzzle():
    return next(p for p in store.all_puzzles() if p.choices)


def test_a_shipped_multiple_choice_is_clearly_best_among_its_choices():
    puzzle = shipped_choice_puzzle()
    state = puzzle.state()
    offered = puzzle.choice_actions(state)
    gaps = measure(state, puzzle.seat, puzzle.solution_action(state), 24680,
                   generate.deals_for(puzzle.choices), offered)
    assert len(gaps) == len(offered) - 1
    assert clearly_best(gaps, registry.get(puzzle.game).mistake_floor)


@pytest.fixture
def content(tmp_path, monkeypatch):
    monkeypatch.setattr(store, "CONTENT", tmp_path)
    store.all_puzzles.cache_clear()
    store.by_id.cache_clear()
    yield tmp_path
    store.all_puzzles.cache_clear()
    store.by_id.cache_clear()


SHIPPED = store.CONTENT


def test_retheme_sets_the_themes_the_adapter_gives_now(content):
    maja = next(p for path in sorted(SHIPPED.glob("dam*.json")) for p in store.read(path)
                if p.reason == "maja_alone")
    stale = {**dataclasses.asdict(maja), "theme": "endgame_limit", "moves": list(maja.moves)}
    stale.pop("choices")
    store.write(content / "dam.json", "dam", [stale])
    out = io.StringIO()
    call_command("puzzles", "retheme", stdout=out)
    assert out.getvalue().strip() == "dam.json: 1 of 1 changed"
    assert json.loads((content / "dam.json").read_text())["puzzles"][0]["theme"] == "maja"


def test_the_check_of_a_file_checks_its_puzzles_and_names_the_failures(tmp_path):
    puzzle = shipped_choice_puzzle()
    state = puzzle.state()
    module = game_module(puzzle.game)
    wrong = next(c for c in puzzle.choices if c != puzzle.solution)
    rows = [{**dataclasses.asdict(p), "moves": list(p.moves), "choices": list(p.choices)}
            for p in (puzzle, dataclasses.replace(puzzle, id="dolda-bad-0001", solution=wrong))]
    path = tmp_path / "new.json"
    store.write(path, puzzle.game, rows)
    out = io.StringIO()
    call_command("puzzles", "-v", "2", "check", "--seed", "3", "--file", str(path),
                 stdout=out, stderr=io.StringIO())
    assert out.getvalue().strip().splitlines() == [
        "failed: dolda-bad-0001", "dolda: puzzles=2 verified=1", "puzzles=2 verified=1"]
    assert module.parse_action(state, puzzle.seat, wrong.split()) in state.legal_actions()


def test_a_plain_run_still_gives_the_shipped_file():
    # The options for themes and choices must not change how a plain run draws its random
    # numbers: the README's commands of the first set still give its files.
    shipped = next(p for p in store.read(SHIPPED / "spardame.json"))
    found = generate.generate("spardame", 1, 31)[0]
    assert (found["deal"], found["moves"], found["solution"], found["theme"]) == (
        shipped.deal, list(shipped.moves), shipped.solution, shipped.theme)
