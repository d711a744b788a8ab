"""Driving a table with friends through the views: a client per seat, deals played to the end."""

from __future__ import annotations

import random

from django.test import Client
from django.urls import reverse

from games.adapters import adapter
from practice import service as P
from rules.engine.games import game_module
from tables import service as S
from tables.models import Table

PLAYERS = {"dam": 3, "dolda": 3, "spardame": 4}


def open_table(client: Client, game: str, players: int | None = None, name: str = "Host",
               **extra) -> Table:
    data = {"preset": game_module(game).DEFAULT_PRESET, "players": players or PLAYERS[game],
            "level": "easy", "name": name, "memory_aid": "on", **extra}
    r = client.post(reverse(f"tables_{game}_new"), data)
    assert r.status_code == 302, r.content.decode()[:2000]
    return Table.objects.latest("created")


def url(table: Table, what: str = "table") -> str:
    return reverse(f"tables_{what}", args=[table.code])


def sit(client: Client, table: Table, name: str):
    return client.post(url(table, "sit"), {"name": name})


def state_of(table: Table):
    table.refresh_from_db()
    deal = table.deal
    assert deal is not None
    deal.refresh_from_db()
    return P.load(deal).state


def seat_token(client: Client) -> str | None:
    return client.session.get(S.PLAYER_KEY)


def post_move(client: Client, table: Table, action, version: int | None = None, **headers):
    table.refresh_from_db()
    deal = table.deal
    assert deal is not None
    fields = adapter(table.game).form_fields(action)
    return client.post(url(table, "move"),
                       {**fields, "version": deal.version if version is None else version},
                       **headers)


def random_action(state, rng: random.Random):
    acts = list(state.legal_actions())
    return acts[rng.randrange(len(acts))]
