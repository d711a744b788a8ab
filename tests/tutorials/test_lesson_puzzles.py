""""Your move" steps are puzzles (issue #15): the narration gives the situation and the goal,
never the move; a nudge names the idea; ``better`` answers every other legal move."""

from __future__ import annotations

import re

import pytest
from django.utils import translation

from games import cardnames
from games.moves import MOVE_LABELS, canonical, lesson_cards
from rules.engine import scenario
from tutorials import lessons

YOUR_MOVES = [(t, n, s) for t in lessons.TUTORIALS.values()
              for n, s in enumerate(t.steps, start=1) if s.your_move]
IDS = [f"{t.key}:{n}" for t, n, _s in YOUR_MOVES]


def en(text) -> str:
    with translation.override(None):  # the msgid itself
        return str(text)


def position(tutorial: lessons.Tutorial, step: lessons.Step):
    """The scenario, the state the learner faces and the lesson's move (as views.replay)."""
    scn = scenario.loads(tutorial.scenario_path.read_bytes())
    states = [state for _n, state, _events in scenario.states(scn)]
    return scn, states[step.at - 1], scn.steps[step.at - 1].move


def other_legal_moves(tutorial: lessons.Tutorial, step: lessons.Step) -> list[str]:
    scn, state, move = position(tutorial, step)
    module = scn.module
    seat = scn.players.index(move.split()[0])
    lesson = canonical(module, module.parse_action(state, seat, move.split()[1:]))
    return [module.format_action(a) for a in state.legal_actions()
            if canonical(module, a) != lesson]


move_cards = lesson_cards  # the cards a lesson move names, read as the page reads them


@pytest.mark.parametrize(("tutorial", "n", "step"), YOUR_MOVES, ids=IDS)
def test_every_your_move_step_has_a_nudge(tutorial, n, step):
    assert step.nudge is not None and en(step.nudge).strip()
    assert en(step.nudge) != en(step.say)


@pytest.mark.parametrize(("tutorial", "n", "step"), YOUR_MOVES, ids=IDS)
def test_a_your_move_step_with_another_legal_move_explains_why_the_lesson_is_better(
        tutorial, n, step):
    others = other_legal_moves(tutorial, step)
    if others:
        assert step.better is not None and en(step.better).strip(), others[:5]


@pytest.mark.parametrize(("tutorial", "n", "step"), YOUR_MOVES, ids=IDS)
def test_the_lessons_move_is_legal_where_the_learner_faces_it(tutorial, n, step):
    scn, state, move = position(tutorial, step)
    seat = scn.players.index(move.split()[0])
    assert state.to_move == seat
    action = scn.module.parse_action(state, seat, move.split()[1:])
    assert canonical(scn.module, action) in {canonical(scn.module, a)
                                             for a in state.legal_actions()}


@pytest.mark.parametrize(("tutorial", "n", "step"), YOUR_MOVES, ids=IDS)
def test_a_your_move_say_does_not_name_the_move(tutorial, n, step):
    _scn, _state, move = position(tutorial, step)
    say = en(step.say).lower()
    cards = move_cards(move)
    if cards:
        with translation.override("en"):
            names = [cardnames.card_name(c, tutorial.game).lower() for c in cards]
        assert not all(name in say for name in names), (move, names)


@pytest.mark.parametrize(("tutorial", "n", "step"), YOUR_MOVES, ids=IDS)
def test_a_your_move_say_has_no_button_label(tutorial, n, step):
    say = en(step.say)
    assert "press" not in say.lower()
    with translation.override("en"):
        labels = {str(label) for label in MOVE_LABELS.values()}
    # A label is capitalised ("Beat", "Take the cards"); its first word alone, capitalised,
    # would read as an order to press it ("Beat one more card").
    words = labels | {label.split()[0] for label in labels}
    for word in words:
        assert not re.search(rf"\b{re.escape(word)}\b", say), (word, say)


@pytest.mark.parametrize(("tutorial", "n", "step"), YOUR_MOVES, ids=IDS)
def test_nudge_and_better_do_not_order_a_button_either(tutorial, n, step):
    for text in (step.nudge, step.better):
        if text is not None:
            assert "press" not in en(text).lower()


def test_nudges_are_in_the_narration_catalogue_list():
    msgids = set(lessons.narration_msgids())
    for _t, _n, step in YOUR_MOVES:
        assert en(step.nudge) in msgids
        if step.better is not None:
            assert en(step.better) in msgids


def test_every_tutorial_has_its_your_move_steps_checked():
    assert len(YOUR_MOVES) >= 20
    assert {t.game for t, _n, _s in YOUR_MOVES} == set(lessons.BY_GAME)


@pytest.mark.parametrize(("tutorial", "n", "step"), YOUR_MOVES, ids=IDS)
def test_a_your_move_step_offers_a_real_choice(tutorial, n, step):
    """Issue #38 item 9: stars for a move that was the only one possible mean nothing, so a
    step with one legal move is told (a narrated step), never asked.  The lessons are the
    same data in every language (only their words are translated), so this covers each
    lesson of each language."""
    assert other_legal_moves(tutorial, step), "only one legal move: make it a narrated step"


def test_every_lesson_of_every_language_is_checked_for_a_real_choice():
    """The property above runs over every "your move" step there is: the lessons the pages
    list in each language are exactly lessons.TUTORIALS."""
    for language in ("sv", "fi", "nb", "en"):
        with translation.override(language):
            listed = {(t.game, t.slug) for game in lessons.BY_GAME.values() for t in game}
        assert listed == set(lessons.TUTORIALS)
    assert len(YOUR_MOVES) == sum(s.your_move for t in lessons.TUTORIALS.values()
                                  for s in t.steps) > 0
