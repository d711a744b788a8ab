import functools

import pytest
from django.core.management import call_command

from rules.engine.games import GAME_NAMES, game_module
from rules.models import SimulationResult
from rules.simulation import PLAYERS, play_chunk


@functools.cache
def small_simulation() -> dict[tuple[str, str], dict]:
    return {(g, p): play_chunk(g, p, 1, 3) for g in GAME_NAMES for p in game_module(g).PRESETS}


@pytest.fixture(autouse=True)
def site_content(transactional_db):
    """Browser tests see the pages as a visitor would: with content and statistics."""
    call_command("load_content")
    SimulationResult.objects.bulk_create(
        SimulationResult(game=g, preset=p, players=PLAYERS[g], games=s["games"], sums=s)
        for (g, p), s in small_simulation().items())
