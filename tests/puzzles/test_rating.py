"""Glicko-2 (puzzles/glicko.py) against the worked example of Glickman's paper, and the daily
and streak choices (puzzles/choose.py)."""

import datetime

import pytest

from puzzles import choose, store
from puzzles.glicko import Rating, after_puzzle, update


def test_the_papers_example():
    new = update(Rating(1500, 200, 0.06), [(1400, 30, 1), (1550, 100, 0), (1700, 300, 0)])
    assert new.rating == pytest.approx(1464.06, abs=0.01)
    assert new.rd == pytest.approx(151.52, abs=0.01)
    assert new.vol == pytest.approx(0.05999, abs=0.00001)


def test_a_solved_puzzle_raises_the_rating_a_missed_one_lowers_it_and_both_narrow_it():
    start = Rating()
    won, lost = after_puzzle(start, 1500, True), after_puzzle(start, 1500, False)
    assert lost.rating < start.rating < won.rating
    assert won.rd < start.rd and lost.rd < start.rd
    # Beating a harder puzzle gains more.
    assert after_puzzle(start, 1900, True).rating > won.rating


def test_the_daily_puzzle_is_a_function_of_the_date():
    day = datetime.date(2026, 12, 3)
    assert choose.daily(day) == choose.daily(day)
    days = [choose.daily(day + datetime.timedelta(days=i)).id for i in range(30)]
    assert len(set(days)) > 20


def test_a_streak_gets_harder_and_never_repeats_a_seen_puzzle():
    seen: list[str] = []
    ratings = []
    for k in range(12):
        p = choose.streak("abcd", k, seen)
        assert p.id not in seen
        seen.append(p.id)
        ratings.append(p.rating)
    assert sum(ratings[6:]) >= sum(ratings[:6])


def test_the_next_puzzle_of_a_set_is_unseen_and_of_the_set():
    first = choose.next_in_set("spardame", 1500, [])
    assert first.game == "spardame"
    second = choose.next_in_set("spardame", 1500, [first.id])
    assert second.id != first.id
    theme = first.theme
    assert choose.next_in_set(f"spardame:{theme}", 1500, []).theme == theme
    assert len(store.of_game("spardame")) == len(choose.in_set("spardame"))
