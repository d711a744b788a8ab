"""Adding a game touches only its engine module, its adapter, one registry entry and its table
template (docs/adding-a-game.md): a toy fourth game (tests/games/toy) registered in those
places alone is listed by the site, gets its table drawn and is played to the end in
practice through the same pages as the real games."""

from __future__ import annotations

import importlib
from pathlib import Path

import pytest
from django.urls import clear_url_caches, reverse
from django.utils.functional import lazy

from games import registry
from games.adapters import ADAPTERS, adapter
from practice import service as P
from practice.models import PracticeGame
from rules.engine import games as engine_games
from tests.games.toy.adapter import ToyAdapter
from tutorials import lessons  # noqa: F401  built before the toy joins the registry (no lessons)

TOY = registry.Game("toy", lazy(lambda: "High card", str)(), "high-card/",
                    lazy(lambda: "High card", str)(), analysis_playouts=8)
URLCONFS = ("reference.urls", "tutorials.urls", "practice.urls", "dam_site.urls")


def _reload_urls() -> None:
    for name in URLCONFS:  # the app URL modules first: the root one includes them
        importlib.reload(importlib.import_module(name))
    clear_url_caches()


@pytest.fixture
def toy_game(settings):
    settings.TEMPLATES = [{**settings.TEMPLATES[0], "DIRS": [
        *settings.TEMPLATES[0]["DIRS"], Path(__file__).parent / "toy" / "templates"]}]
    with pytest.MonkeyPatch.context() as mp:
        mp.setitem(engine_games.MODULES, "toy", "tests.games.toy.engine")
        mp.setattr(registry, "GAMES", (*registry.GAMES, TOY))
        mp.setattr(registry, "KEYS", (*registry.KEYS, "toy"))
        mp.setitem(registry.BY_KEY, "toy", TOY)
        mp.setitem(registry.GAME_TITLES, "toy", TOY.title)
        mp.setitem(ADAPTERS, "toy", ToyAdapter())
        _reload_urls()
        yield
    _reload_urls()


@pytest.mark.django_db
def test_the_site_lists_draws_and_plays_a_game_added_in_the_four_places(client, toy_game):
    overview = client.get(reverse("practice")).content.decode()
    assert "High card" in overview and reverse("practice_toy") in overview
    assert f'href="{reverse("rules_toy")}"' in client.get(reverse("home")).content.decode()

    r = client.post(reverse("practice_toy"), {"preset": "standard", "players": 2,
                                              "level": "easy", "name": "Me"})
    assert r.status_code == 302, r.content.decode()[:2000]
    record = PracticeGame.objects.latest("created")
    assert record.game == "toy"
    page = client.get(r["Location"]).content.decode()
    assert 'data-game="toy"' in page and 'class="game-seats"' in page

    for _ in range(20):
        record.refresh_from_db()
        state = P.replay(record).state
        if state.over:
            break
        if P.is_bot_turn(record, state):
            r = client.post(reverse("practice_toy_step", args=[record.pk]),
                            {"version": record.version})
        else:
            fields = adapter("toy").form_fields(state.legal_actions()[-1])
            r = client.post(reverse("practice_toy_move", args=[record.pk]),
                            {**fields, "version": record.version})
        assert r.status_code in (200, 302), r.content.decode()[:2000]
    record.refresh_from_db()
    assert record.result is not None and sum(record.result["tricks"]) == 3
    finished = client.get(reverse("practice_toy_play", args=[record.pk])).content.decode()
    assert "takes the trick." in finished and finished.count("data-tricks=") == 2
