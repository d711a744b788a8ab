"""The per-game adapters against the engine: every legal move the page offers, sent back as the
page sends it, is that move; every legal move has words; every event a deal makes is narrated."""

from __future__ import annotations

import random

import pytest
from django.http import QueryDict
from django.utils import translation

from practice.forms import MoveForm
from rules.adapters import ADAPTERS, adapter
from rules.engine.games import GAME_NAMES

NAMES = ["Anna", "Bo", "Cilla", "Dag"]
# Event types with no sentence of their own: Dam med dolda kort's rows turn up with the
# "deal_over" sentence ("The stock is empty: the rows are turned up.").
SILENT = {"rows_revealed"}


def _deals(game: str, count: int):
    module = adapter(game).engine
    options = module.Options()
    for seed in range(count):
        rng = random.Random(seed)
        state = module.new_game(options, NAMES, 3, seed, None)
        while not state.over:
            yield state
            state, _events = state.apply(rng.choice(state.legal_actions()))


def _posted(fields: dict) -> QueryDict:
    q = QueryDict(mutable=True)
    for key, value in fields.items():
        for item in value if isinstance(value, list) else [value]:
            q.appendlist(key, str(item))
    return q


@pytest.mark.parametrize("game", GAME_NAMES)
def test_every_legal_move_sent_back_through_the_move_form_is_that_move(game):
    a = adapter(game)
    module = a.engine
    checked = 0
    for state in _deals(game, 6):
        seat = state.to_move
        for action in state.legal_actions():
            form = MoveForm(a, _posted(a.form_fields(action)))
            assert form.is_valid(), (action, form.errors)
            again = module.parse_action(state, seat, form.cleaned_data["words"])
            assert module.format_action(again) == module.format_action(action)
            checked += 1
    assert checked > 500


@pytest.mark.parametrize("lang", ["sv", "fi", "nb", "en"])
@pytest.mark.parametrize("game", GAME_NAMES)
def test_every_legal_move_has_words_and_every_event_a_sentence(game, lang):
    a = adapter(game)
    unnarrated = set()
    with translation.override(lang):
        for state in _deals(game, 3):
            for action in state.legal_actions():
                assert a.describe(action, NAMES).strip()
            _next, events = state.apply(state.legal_actions()[0])
            for seat in (None, *range(len(NAMES))):
                for e in a.visible(events, seat):
                    if a.narrate_event(e, NAMES, seat) is None:
                        unnarrated.add(e["type"])
    assert unnarrated <= SILENT


def test_the_registry_holds_each_game_once_under_its_engine_name():
    assert tuple(ADAPTERS) == GAME_NAMES
    assert all(a.engine.NAME == name for name, a in ADAPTERS.items())


@pytest.mark.parametrize("game", GAME_NAMES)
def test_the_player_choices_cover_every_range_the_engine_allows(game):
    module = adapter(game).engine
    choices = adapter(game).player_choices()
    lo, hi = module.player_range(module.Options())
    assert choices[0] <= lo and hi <= choices[-1]
