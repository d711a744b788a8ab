"""The per-game adapters against the engine: every legal move the page offers, sent back as the
page sends it, is that move; every legal move has words; every event a deal makes is narrated."""

from __future__ import annotations

import random

import pytest
from django.http import QueryDict
from django.utils import translation

from games.adapters import ADAPTERS, adapter
from practice.forms import MoveForm
from rules.engine import cards as C
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


# --------------------------------------------------------------------------- the reader as "you"
# Lists of every player with a number (the scores of a deal) name the reader like anyone else.
LISTS = {"scored", "deal_scored"}


@pytest.mark.parametrize("lang", ["sv", "fi", "nb", "en"])
@pytest.mark.parametrize("game", GAME_NAMES)
def test_the_reader_is_never_named_in_a_sentence_about_them(game, lang):
    """Seat 0 reads the page as "you": no sentence of a whole deal puts the reader's name where
    a second-person sentence belongs ("You takes", "Sinä nostaa", "Dus rad")."""
    a = adapter(game)
    names = ["Xenia", *NAMES[1:]]  # a name no word of the four languages contains
    named = []
    with translation.override(lang):
        for state in _deals(game, 3):
            _next, events = state.apply(state.legal_actions()[0])
            for e in a.visible(events, 0):
                text = a.narrate_event(e, names, 0, you=0)
                if text and e["type"] not in LISTS and "Xenia" in text:
                    named.append(text)
    assert not named


def _narrated(game: str, lang: str, event: dict, you: int | None = 0) -> str:
    with translation.override(lang):
        return adapter(game).narrate_event(event, NAMES, 0, you=you)


@pytest.mark.parametrize(("lang", "start"), [
    ("en", "You take "), ("fi", "Nostat käteesi: "), ("sv", "Du tar upp ")])
def test_dam_the_reader_takes_in_the_second_person(lang, start):
    text = _narrated("dam", lang, {"type": "take", "seat": 0, "cards": [C.parse("7h")]})
    assert text.startswith(start)


def test_dam_the_reader_gets_svarta_maja_in_the_second_person():
    event = {"type": "deal_over", "seat": None, "loser": 0}
    assert _narrated("dam", "en", event) == "The deal is over: you get Svarta Maja."
    assert _narrated("dam", "fi", event) == "Jako on päättynyt: jäät Mustaksi Maijaksi."
    assert _narrated("dam", "en", event, you=None) == "The deal is over: Anna gets Svarta Maja."


def test_dam_an_attack_on_the_reader_says_you():
    event = {"type": "attack", "seat": 1, "defender": 0, "cards": [C.parse("7h")]}
    assert _narrated("dam", "en", event).startswith("Bo attacks you with ")
    assert _narrated("dam", "nb", event).startswith("Bo angriper deg med ")


def test_dolda_the_readers_thief_and_a_theft_from_the_reader():
    assert _narrated("dolda", "en", {"type": "steal", "seat": 0, "victim": None}) == \
        "Your thief finds nothing to steal."
    theft = {"type": "steal", "seat": 1, "victim": 0, "taken": C.parse("Kh")}
    assert _narrated("dolda", "en", theft).endswith(" from you.")
    assert _narrated("dolda", "sv", theft).endswith(" från dig.")


def test_dolda_the_reader_discards_in_the_second_person():
    event = {"type": "discard", "seat": 0, "card": C.parse("Kh")}
    assert _narrated("dolda", "en", event).startswith("You discard ")
    assert _narrated("dolda", "fi", event).startswith("Heität poistopinoon ")


def test_spardame_the_reader_passes_and_takes_tricks_in_the_second_person():
    passing = {"type": "pass", "seat": 0, "cards": [C.parse("Qs")]}
    assert _narrated("spardame", "en", passing).startswith("You pass ")
    assert _narrated("spardame", "fi", passing).startswith("Annat eteenpäin: ")
    trick = {"type": "trick_won", "seat": 0, "points": 2}
    assert _narrated("spardame", "en", trick) == "You take the trick (2 points)."
    assert _narrated("spardame", "nb", trick) == "Du tar stikket (2 poeng)."


def test_spardame_cards_received_are_the_viewers_and_you_only_for_the_reader():
    event = {"type": "cards_exchanged", "received": [[C.parse("2h")], [], [], []]}
    assert _narrated("spardame", "en", event).startswith("The cards change hands. You get ")
    assert _narrated("spardame", "en", event, you=None).startswith(
        "The cards change hands. Anna gets ")


def test_dam_a_card_list_in_the_log_reads_as_a_sentence_in_every_language():
    attack = {"type": "attack", "seat": 1, "defender": 2,
              "cards": [C.parse("2C"), C.parse("9C"), C.parse("QC")]}
    assert _narrated("dam", "en", attack) == \
        "Bo attacks Cilla with the two of clubs, the nine of clubs and the queen of clubs."
    assert _narrated("dam", "sv", attack) == "Bo anfaller Cilla med klöver 2, klöver 9 och klöver dam."
    assert _narrated("dam", "nb", attack).endswith("kløver 2, kløver 9 og kløver dame.")
    assert _narrated("dam", "fi", attack).endswith("risti 2, risti 9 ja ristirouva.")


def test_dam_a_sentence_that_opens_with_a_card_starts_with_a_capital():
    turned = {"type": "trump_turned", "card": C.parse("9D"), "suit": 1}
    assert _narrated("dam", "en", turned) == "The nine of diamonds is turned up: diamonds are trump."
    with translation.override("en"):
        assert adapter("dam").describe(("beat", 0, C.parse("5C"), C.parse("8C")), NAMES) == \
            "Beat the five of clubs with the eight of clubs."


def test_spardame_a_match_won_by_the_reader():
    won = {"type": "match_over", "winners": [0]}
    assert _narrated("spardame", "en", won) == "The match is over. You win."
    assert _narrated("spardame", "fi", won) == "Ottelu on päättynyt. Voitit."
    tie = {"type": "match_over", "winners": [1, 2]}
    assert _narrated("spardame", "en", tie) == "The match is over. Winners: Bo and Cilla."
    shared = {"type": "match_over", "winners": [0, 1, 2]}
    assert _narrated("spardame", "en", shared) == \
        "The match is over. You share the win with Bo and Cilla."
    assert _narrated("spardame", "nb", shared).endswith("Bo og Cilla.")


@pytest.mark.parametrize(("lang", "gap"), [("sv", "5,4"), ("fi", "5,4"), ("nb", "5,4"),
                                           ("en", "5.4")])
def test_a_hints_point_gap_is_written_in_the_languages_decimal_format(lang, gap):
    with translation.override(lang):
        cost = adapter("spardame").cost_text(5.4)
    assert f" {gap} " in f" {cost} "


def _dolda_swap_holding(points: int):
    """A Dam med dolda kort position where the mover may swap a held card worth ``points``."""
    module = adapter("dolda").engine
    values = module.value_tables(module.Options())[0]
    for seed in range(20):
        rng = random.Random(seed)
        state = module.new_game(module.Options(), NAMES, 3, seed, None)
        while not state.over:
            view = state.view(state.to_move)
            for action in state.legal_actions():
                if action.kind == "swap" and view["held"] is not None \
                        and values[view["held"]] == points:
                    return view, action
            state, _events = state.apply(rng.choice(state.legal_actions()))
    raise AssertionError(f"no swap of a {points}-point card in 20 deals")


@pytest.mark.parametrize(("lang", "one", "two"), [
    ("sv", "(1 poäng)", "(2 poäng)"), ("fi", "(1 piste)", "(2 pistettä)"),
    ("nb", "(1 poeng)", "(2 poeng)"), ("en", "(1 point)", "(2 points)"),
])
def test_a_hints_points_take_the_plural_form_of_their_number(lang, one, two):
    a = adapter("dolda")
    with translation.override(lang):
        assert one in a.reason(*_dolda_swap_holding(1), NAMES)
        assert two in a.reason(*_dolda_swap_holding(2), NAMES)


@pytest.mark.parametrize(("lang", "one", "two"), [
    ("sv", "1 procentenhet ", "2 procentenheter "), ("fi", "1 prosenttiyksikkö ",
                                                     "2 prosenttiyksikköä "),
    ("nb", "1 prosentpoeng ", "2 prosentpoeng "),
    ("en", "1 percentage point ", "2 percentage points "),
])
def test_dams_cost_in_percentage_points_takes_the_plural_form_of_its_number(lang, one, two):
    with translation.override(lang):
        assert one in adapter("dam").cost_text(0.01)
        assert two in adapter("dam").cost_text(0.02)
