import subprocess
from pathlib import Path

import pytest
from django.utils import translation
from django.utils.translation import gettext, pgettext

from games.cardnames import card_list, card_name, text_list
from rules.engine import cards

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize("language", ["sv", "fi", "nb"])
def test_catalogue_has_no_untranslated_or_fuzzy_entries(language):
    po = ROOT / "locale" / language / "LC_MESSAGES" / "django.po"
    result = subprocess.run(["msgfmt", "--check", "--statistics", "-o", "/dev/null", str(po)],
                            capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    assert "untranslated" not in result.stderr and "fuzzy" not in result.stderr, result.stderr
    assert "translated message" in result.stderr


@pytest.mark.parametrize("language,expected", [
    ("sv", "Fyra saker som heter Dam"),
    ("fi", "Neljä asiaa nimeltä Dam"),
    ("nb", "Fire ting som heter Dam"),
    ("en", "Four things called Dam"),
])
def test_locale_smoke_home_title(language, expected):
    with translation.override(language):
        assert gettext("Four things called Dam") == expected


@pytest.mark.parametrize("language,expected", [
    ("sv", "ruter 3"), ("fi", "ruutu 3"), ("nb", "ruter 3"), ("en", "three of diamonds"),
])
def test_card_names_in_page_language(language, expected):
    with translation.override(language):
        assert card_name(cards.parse("3D")) == expected


@pytest.mark.parametrize("language,game,expected", [
    # The Finnish description calls the card patarouva: Musta Maija is the game and the loser.
    ("sv", "dam", "spader dam (Svarta Maja)"), ("fi", "dam", "patarouva"),
    ("nb", "spardame", "spar dame"), ("en", "dam", "queen of spades (Svarta Maja)"),
    ("en", "spardame", "queen of spades (the Black Maria)"),
])
def test_queen_of_spades_has_the_games_own_name(language, game, expected):
    with translation.override(language):
        assert expected in card_name(cards.QUEEN_OF_SPADES, game)


@pytest.mark.parametrize("language", ["sv", "fi", "nb"])
def test_every_card_name_is_translated_and_distinct(language):
    with translation.override(language):
        names = [card_name(c) for c in cards.DECK]
    with translation.override("en"):
        english = [card_name(c) for c in cards.DECK]
    assert len(set(names)) == 52
    assert not set(names) & set(english)


@pytest.mark.parametrize("language,expected", [("sv", "D"), ("nb", "D"), ("en", "Q")])
def test_rank_letters_follow_the_language(language, expected):
    with translation.override(language):
        assert pgettext("rank letter on a card", "Q") == expected


@pytest.mark.parametrize("language,three,two", [
    ("sv", "klöver 2, klöver 9 och klöver dam", "Kari och Per"),
    ("fi", "risti 2, risti 9 ja ristirouva", "Kari ja Per"),
    ("nb", "kløver 2, kløver 9 og kløver dame", "Kari og Per"),
    ("en", "the two of clubs, the nine of clubs and the queen of clubs", "Kari and Per"),
])
def test_a_list_of_cards_or_names_joins_its_last_two_with_the_languages_and(language, three, two):
    with translation.override(language):
        assert card_list([cards.parse(c) for c in ("2C", "9C", "QC")]) == three
        assert text_list(["Kari", "Per"]) == two
        assert text_list(["Kari"]) == "Kari"
