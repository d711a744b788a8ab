import pytest

from rules.engine import cards


def test_every_card_round_trips_through_its_code():
    assert [cards.parse(cards.code(c)) for c in cards.DECK] == list(cards.DECK)


@pytest.mark.parametrize("text,expected", [("10h", "TH"), ("th", "TH"), (" qs ", "QS"), ("2C", "2C"), ("aD", "AD")])
def test_parse_accepts_any_case_and_ten_spelt_out(text, expected):
    assert cards.code(cards.parse(text)) == expected


@pytest.mark.parametrize("text", ["", "1H", "11H", "QX", "Q", "QSS", "JOKER"])
def test_parse_rejects_codes_that_name_no_card(text):
    with pytest.raises(cards.CardError):
        cards.parse(text)


def test_suit_and_rank_of_queen_of_spades():
    assert cards.suit_of(cards.QUEEN_OF_SPADES) == cards.SPADES
    assert cards.rank_of(cards.QUEEN_OF_SPADES) == cards.QUEEN
