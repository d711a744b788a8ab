"""Figures are rounded, not cut off (#34 item 5): 22.47 reads 22.5 and 1.69 reads 1.7, in the
page language's own decimal sign, wherever the site shows a figure with decimals."""

from __future__ import annotations

import pytest
from django.utils import translation

from games.adapters import adapter
from games.coach_reasons import dolda as dolda_reasons
from games.numbers import tenths
from reference.statistics import formatted, tick_text

CASES = [(22.47, "22.5"), (1.69, "1.7"), (22.45, "22.5"), (0.05, "0.1"), (2.25, "2.3"),
         (-1.69, "-1.7"), (3.0, "3.0"), (9.96, "10.0")]


@pytest.mark.parametrize(("x", "shown"), CASES)
def test_tenths_round_half_up(x, shown):
    with translation.override("en"):
        assert tenths(x) == shown


@pytest.mark.parametrize("language", ["sv", "fi", "nb"])
def test_tenths_use_the_languages_decimal_comma(language):
    with translation.override(language):
        assert tenths(22.47) == "22,5"


@pytest.mark.parametrize("game", ["dolda", "spardame"])
def test_the_cost_of_a_move_is_rounded(game):
    with translation.override("en"):
        text = adapter(game).cost_text(1.69)
    assert "1.7" in text and "1.6" not in text


def test_chart_ticks_and_figures_are_rounded():
    with translation.override("en"):
        assert tick_text(2.25, "points") == "2.3"
        assert tick_text(0.0169, "percent") == "1.7%"
        assert tick_text(3.0, "points") == "3"
        assert formatted(0.0169, "percent").startswith("1.7")


def test_the_average_of_an_unseen_card_is_rounded_half_up(monkeypatch):
    """Dam med dolda kort's hint: "a card from the stock is worth 6.3 points on average"
    (6.25 rounded half up; Python's round() gives 6.2)."""
    monkeypatch.setattr(dolda_reasons.bots.HeuristicBot, "unseen",
                        staticmethod(lambda v: [0, 1, 2, 3]))
    monkeypatch.setattr(dolda_reasons, "values", lambda v: [6, 6, 6, 7])
    assert dolda_reasons.expected({}) == 6.3
    with translation.override("en"):
        assert dolda_reasons._args({"held": 0, "next_position": 1},
                                   type("G", (), {"card": staticmethod(str)})())["e"] == "6.3"
