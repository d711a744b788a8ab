import pytest
from django.template import Context, Template
from django.utils import translation


def render(source: str, **context) -> str:
    return Template("{% load cards %}" + source).render(Context(context))


@pytest.mark.parametrize("language,label", [
    ("sv", "ruter 3"), ("fi", "ruutu 3"), ("nb", "ruter 3"), ("en", "three of diamonds"),
])
def test_card_has_screen_reader_label_in_page_language(language, label):
    with translation.override(language):
        html = render('{% card "3D" %}')
    assert f'role="img" aria-label="{label}"' in html
    assert 'data-card="3D"' in html


def test_red_and_black_suits_are_marked():
    assert "card--red" in render('{% card "KH" %}')
    assert "card--red" not in render('{% card "KS" %}')


def test_suit_classes_allow_a_four_colour_deck():
    assert "card--c" in render('{% card "2C" %}') and "card--d" in render('{% card "2D" %}')


def test_symbols_are_drawn_by_css_not_read_by_screen_readers():
    """The corner and the pip come from data-r (the rank as decks in the page language print
    it) and the suit class; the markup holds no symbol, the name is the aria-label."""
    with translation.override("sv"):
        html = render('{% card "AH" %}').strip()
    assert html == ('<span class="card card--h card--red" role="img" aria-label="hjärter ess" '
                    'data-card="AH" data-r="E"></span>')


def test_face_down_card_names_no_card():
    with translation.override("en"):
        html = render("{% card_back %}")
    assert 'aria-label="face-down card"' in html and "data-card" not in html


def test_hand_lists_cards_and_backs():
    with translation.override("en"):
        html = render('{% hand cards face_down=2 label="Bo" %}', cards=["5C", "QS"])
    assert html.count("<li>") == 4
    assert 'aria-label="Bo"' in html


def test_highlighted_cards_are_marked():
    html = render("{% hand cards highlight=marked %}", cards=[0, 1], marked=[1])
    assert html.count("card--highlight") == 1


def test_table_shows_piles_as_one_back_with_a_count():
    with translation.override("en"):
        html = render("{% card_table seats centre %}",
                      seats=[{"name": "Anna", "cards": ["5C"]}, {"name": "Bo", "count": 3}],
                      centre=[{"label": "Stock", "count": 30}])
    assert "30 cards" in html
    assert html.count("card--back") == 4
