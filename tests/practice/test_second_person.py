"""The practice player reads the page as "you": the log, the news, the table's labels and the
match result speak to them in the second person in every language, whatever their name."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse
from django.utils import translation

from .helpers import bots_until_human, post_action, start, url

pytestmark = pytest.mark.django_db


def _page(client, record) -> str:
    return client.get(url(record)).content.decode()


@pytest.mark.parametrize(("lang", "row", "drew"), [
    ("en", "Your row", "You draw"), ("fi", "Rivisi", "Nostat nostopakasta"),
    ("sv", "Din rad", "Du drar"), ("nb", "Raden din", "Du trekker")])
def test_dolda_the_players_row_and_draw_are_in_the_second_person(client, lang, row, drew):
    with translation.override(lang):
        record = start(client, "dolda", name="Xenia")
        state = bots_until_human(client, record)
        draw = next(a for a in state.legal_actions() if a.kind == "draw" and a.source == "stock")
        post_action(client, record, draw)
        html = _page(client, record)
    assert f'aria-label="{row}"' in html
    assert drew in html
    assert not re.search(r"Xenia(s|'s)? (row|rad|rivi)|Xenia draws|Xenia drar|Xenia nostaa", html)


@pytest.mark.parametrize(("lang", "turn"), [("en", "your turn"), ("fi", "sinun vuorosi")])
def test_the_deal_line_says_your_turn_to_the_player(client, lang, turn):
    with translation.override(lang):
        record = start(client, "spardame", name="Xenia")
        bots_until_human(client, record)
        html = _page(client, record)
    assert turn in html
    assert "Xenia to move" not in html and "Vuorossa: Xenia" not in html


@pytest.mark.parametrize(("lang", "passed"), [("en", "You pass "), ("nb", "Du sender ")])
def test_spardame_the_players_pass_is_in_the_second_person_in_the_log(client, lang, passed):
    with translation.override(lang):
        record = start(client, "spardame", name="Xenia")
        state = bots_until_human(client, record)
        post_action(client, record, state.legal_actions()[0])
        bots_until_human(client, record)
        html = _page(client, record)
    assert passed in html
    assert "Xenia passes" not in html


def test_replay_of_the_players_game_speaks_to_the_player(client):
    with translation.override("en"):
        record = start(client, "dam", name="Xenia")
        state = bots_until_human(client, record)
        post_action(client, record, state.legal_actions()[0])
        client.post(url(record, "share"))
        record.refresh_from_db()
        html = client.get(reverse("practice_dam_replay", args=[record.share_token])
                          ).content.decode()
    assert "You attack" in html or "You take" in html or "You beat" in html
    assert "as Xenia saw" not in html


@pytest.mark.parametrize(("lang", "hand"), [("en", "Your hand"), ("sv", "Din hand"),
                                            ("fi", "Kätesi")])
def test_the_players_hand_is_labelled_as_theirs(client, lang, hand):
    with translation.override(lang):
        record = start(client, "dam", name="Xenia")
        html = _page(client, record)
    assert f'aria-label="{hand}"' in html
    assert 'aria-label="Xenia"' not in html


def test_spardame_table_says_the_reader_took_the_last_trick():
    from games.table import table_context
    from tests.games.test_table import random_positions

    for state in random_positions("spardame", 4, 3):
        view = state.view(0)
        if view["last_trick"] and not view["trick"]:
            winner = view["last_trick"]["winner"]
            with translation.override("en"):
                mine = table_context(view, you=winner)["last_trick"]["taken_by"]
                theirs = table_context(view, you=None)["last_trick"]["taken_by"]
            assert mine == "You took the last trick"
            assert theirs == f"Last trick taken by P{winner}"
            return
    raise AssertionError("no finished trick in the deal")
