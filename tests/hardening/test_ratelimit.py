"""Rate limiting of game creation (dam_site/ratelimit.py), per client address and URL name."""

import pytest
from django.core.cache import cache
from django.test import override_settings
from django.urls import reverse
from django.utils import translation

from dam_site.ratelimit import limit_for, parse_rate
from tests.pages import LANGUAGES
from tutorials.models import PracticeGame

pytestmark = pytest.mark.django_db

NEW_GAME = {"preset": "svarta-maja", "players": 3, "level": "easy", "name": "Me"}


@pytest.fixture(autouse=True)
def empty_cache():
    cache.clear()
    yield
    cache.clear()


def new_game_url(language="en"):
    with translation.override(language):
        return reverse("practice_dam")


def test_rate_parsing():
    assert parse_rate("20/m") == (20, 60)
    assert parse_rate("5/s") == (5, 1)
    assert parse_rate("100/h") == (100, 3600)


@override_settings(RATE_LIMITS={"teacher*": "1/m", "practice_dam": "2/m"})
def test_patterns_match_exact_names_and_prefixes():
    assert limit_for("practice_dam")[1] == 2
    assert limit_for("practice_dam_move") is None
    assert limit_for("teacher_new")[1] == 1


def test_base_settings_limit_game_creation():
    from dam_site.settings import base

    for game in ("dam", "dolda", "spardame"):
        with override_settings(RATE_LIMITS=base.RATE_LIMITS):
            assert limit_for(f"practice_{game}") is not None
            assert limit_for(f"practice_{game}_move") is None
    with override_settings(RATE_LIMITS=base.RATE_LIMITS):
        for name in ("scenarios_create", "scenarios_import", "scenarios_from_practice"):
            assert limit_for(name) is not None
        for name in ("scenario_move", "scenario_deal", "scenario_present", "tutorial_move_dam"):
            assert limit_for(name) is None


@override_settings(RATE_LIMITS={"practice_dam": "3/m"})
def test_creating_games_beyond_the_limit_is_refused_with_429(client):
    for _ in range(3):
        assert client.post(new_game_url(), NEW_GAME).status_code == 302
    before = PracticeGame.objects.count()
    with translation.override("en"):
        r = client.post(new_game_url(), NEW_GAME)
    assert r.status_code == 429
    assert PracticeGame.objects.count() == before
    assert int(r["Retry-After"]) >= 1
    assert "Too many requests" in r.content.decode()


@pytest.mark.parametrize("language", LANGUAGES)
@override_settings(RATE_LIMITS={"practice_dam": "0/m"})
def test_the_429_page_is_in_the_page_language(client, language):
    r = client.post(new_game_url(language), NEW_GAME)
    assert r.status_code == 429
    html = r.content.decode()
    assert f'<html lang="{language}"' in html
    assert html.count("<h1") == 1


@override_settings(RATE_LIMITS={"practice_dam": "1/m"})
def test_get_requests_are_not_counted(client):
    for _ in range(5):
        assert client.get(new_game_url()).status_code == 200
    assert client.post(new_game_url(), NEW_GAME).status_code == 302


@override_settings(RATE_LIMITS={"practice_dam": "1/m"})
def test_clients_are_counted_apart(client):
    assert client.post(new_game_url(), NEW_GAME, REMOTE_ADDR="10.0.0.1").status_code == 302
    assert client.post(new_game_url(), NEW_GAME, REMOTE_ADDR="10.0.0.1").status_code == 429
    assert client.post(new_game_url(), NEW_GAME, REMOTE_ADDR="10.0.0.2").status_code == 302


@override_settings(RATE_LIMITS={"practice_dam": "1/m"})
def test_moves_in_a_game_are_not_limited(client):
    assert client.post(new_game_url(), NEW_GAME).status_code == 302
    record = PracticeGame.objects.latest("created")
    with translation.override("en"):
        url = reverse("practice_dam_step", args=[record.pk])
    for _ in range(3):
        assert client.post(url, {"version": "x"}).status_code == 400
