"""Rate limiting of game creation (dam_site/ratelimit.py over django-ratelimit), per client
address and URL name, and the client address behind trusted proxies."""

import pytest
from django.core.cache import cache
from django.test import override_settings
from django.urls import reverse
from django.utils import translation

from dam_site.ratelimit import client_ip, limit_for
from practice.models import PracticeGame
from tests.pages import LANGUAGES

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


@override_settings(RATE_LIMITS={"teacher*": "1/m", "practice_dam": "2/m"})
def test_patterns_match_exact_names_and_prefixes():
    assert limit_for("practice_dam") == ("practice_dam", "2/m")
    assert limit_for("practice_dam_move") is None
    assert limit_for("teacher_new") == ("teacher*", "1/m")


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


PROXY = "10.9.0.1"


def meta(remote, forwarded=None):
    request = type("R", (), {})()
    request.META = {"REMOTE_ADDR": remote}
    if forwarded is not None:
        request.META["HTTP_X_FORWARDED_FOR"] = forwarded
    return request


@override_settings(TRUSTED_PROXIES=[])
def test_without_a_trusted_proxy_the_client_is_remote_addr():
    assert client_ip(meta("203.0.113.7", "198.51.100.1")) == "203.0.113.7"
    assert client_ip(meta("")) == "0.0.0.0"


@override_settings(TRUSTED_PROXIES=[PROXY, "10.8.0.0/16"])
def test_behind_trusted_proxies_the_client_is_the_first_untrusted_hop_from_the_right():
    assert client_ip(meta(PROXY, "203.0.113.7")) == "203.0.113.7"
    # The client wrote its own X-Forwarded-For; the proxy appended the real address.
    assert client_ip(meta(PROXY, "1.1.1.1, 203.0.113.7")) == "203.0.113.7"
    assert client_ip(meta(PROXY, "garbage, 203.0.113.7, 10.8.4.4")) == "203.0.113.7"
    assert client_ip(meta(PROXY, "nonsense")) == PROXY
    assert client_ip(meta(PROXY)) == PROXY


@override_settings(RATE_LIMITS={"practice_dam": "1/m"}, TRUSTED_PROXIES=[PROXY])
def test_two_clients_behind_the_same_trusted_proxy_have_separate_limits(client):
    def post(forwarded):
        return client.post(new_game_url(), NEW_GAME, REMOTE_ADDR=PROXY,
                           HTTP_X_FORWARDED_FOR=forwarded).status_code

    assert post("203.0.113.1") == 302
    assert post("203.0.113.1") == 429
    assert post("203.0.113.2") == 302
    assert post("203.0.113.2") == 429


@override_settings(RATE_LIMITS={"practice_dam": "1/m"}, TRUSTED_PROXIES=[PROXY])
def test_a_spoofed_forwarded_for_from_an_untrusted_client_is_ignored(client):
    def post(forwarded):
        return client.post(new_game_url(), NEW_GAME, REMOTE_ADDR="203.0.113.9",
                           HTTP_X_FORWARDED_FOR=forwarded).status_code

    assert post("198.51.100.1") == 302
    assert post("198.51.100.2") == 429  # still 203.0.113.9, whatever it claims
