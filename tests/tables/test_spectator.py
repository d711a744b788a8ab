"""A spectator (a visitor without a seat) sees the card table with public information only:
every hand as a count of backs, never a card nobody showed everyone."""

from __future__ import annotations

import random
import re

import pytest
from django.test import Client
from django.utils import translation

from tests.practice.helpers import leaked

from .helpers import open_table, post_move, random_action, state_of, url
from .test_leaks import Seen

pytestmark = pytest.mark.django_db
GAMES = [("dam", 3), ("dolda", 3), ("spardame", 4)]


def _watch(game: str, players: int, moves: int):
    """A table of one person and bots (who move at once under the tests' task backend),
    played ``moves`` of the person's moves on; yields the spectator's partial at each."""
    host, watcher = Client(), Client()
    rng = random.Random(game)
    with translation.override("en"):
        table = open_table(host, game, players=players)
        assert host.post(url(table, "start")).status_code == 302
        table.refresh_from_db()
        public = Seen(table.deal, None)
        for _move in range(moves):
            state = state_of(table)
            html = watcher.get(url(table, "now"), HTTP_HX_REQUEST="true").content.decode()
            yield table, state, html, public.update()
            if state.over:
                return
            post_move(host, table, random_action(state, rng))


@pytest.mark.parametrize(("game", "players"), GAMES)
def test_a_spectator_sees_the_card_table_but_no_hidden_card(game, players):
    shown = 0
    for table, _state, html, public in _watch(game, players, moves=5):
        assert 'id="card-table"' in html and 'id="watching"' in html
        assert not leaked(html, table.deal, public)
        shown += len(re.findall(r'data-card="', html))
    assert shown  # the public cards (a table, a trick, the discard pile) are drawn


@pytest.mark.parametrize("game", ["dam", "spardame"])
def test_a_spectator_sees_each_hand_as_a_count_of_backs(game):
    players = dict(GAMES)[game]
    for _table, state, html, _public in _watch(game, players, moves=2):
        hands = [len(state.view(s)["hand"]) for s in range(players)]
        backs = re.findall(r'<span class="game-backs" aria-hidden="true">(.*?)</span></span>',
                           html)
        assert [b.count('class="card card--back"') for b in backs] == hands
