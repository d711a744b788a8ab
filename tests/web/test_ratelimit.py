"""Rate limiting of game creation (web/ratelimit.py over django-ratelimit), per client
address and URL name, and the client address behind trusted proxies."""

import pytest
from django.core.cache import cache
from django.test import override_settings
from django.urls import reverse
from django.utils import translation

from practice.models import PracticeGame
from tests.pages import LANGUAGES
from web.ratelimit import client_ip, limit_for

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


def test_a_game_pattern_stands_for_every_game_of_the_registry(monkeypatch):
    monkeypatch.setattr("web.ratelimit.KEYS", ("dam", "toy"))
    with override_settings(RATE_LIMITS={"practice_<game>": "2/m", "x_<game>_*": "3/m"}):
        assert limit_for("practice_toy") == ("practice_<game>", "2/m")
        assert limit_for("practice_dam") == ("practice_<game>", "2/m")
        assert limit_for("practice_dolda") is None  # not in this registry
        assert limit_for("practice_toy_move") is None
        assert limit_for("x_toy_anything") == ("x_<game>_*", "3/m")


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


# --------------------------------------------------------------------------- sliding window
from web import ratelimit as R  # noqa: E402


def test_rates_are_read_like_django_ratelimit_ones():
    assert R.parse_rate("20/m") == (20, 60)
    assert R.parse_rate("5/10s") == (5, 10)
    assert R.parse_rate("100/h") == (100, 3600)
    assert R.parse_rate("0/m") == (0, 60)
    for bad in ("20", "x/m", "20/w", "20/0s", ""):
        with pytest.raises(ValueError):
            R.parse_rate(bad)


def _burst(group, n, at, rate="20/m"):
    return [R.sliding_usage(group, "198.51.100.1", rate, now=at).should_limit for _ in range(n)]


def test_a_burst_across_a_window_edge_gets_the_count_not_twice_it():
    """The probe's case: 40 creations let through in about 3 s around a minute boundary."""
    edge = 60 * 1_000_000
    passed = _burst("edge", 40, edge - 1.5).count(False) + _burst("edge", 40, edge + 1.5).count(False)
    assert passed == 20


def test_the_allowance_comes_back_as_the_previous_window_slides_out():
    start = 60 * 2_000_000
    assert _burst("slide", 20, start + 59).count(False) == 20
    # Half-way through the next window half of the previous one still counts: 10 more pass.
    assert _burst("slide", 20, start + 90).count(False) == 10
    # Another half period on, only the second burst (10, now weighted 1/2) still counts.
    later = R.sliding_usage("slide", "198.51.100.1", "20/m", now=start + 150)
    assert not later.should_limit


def test_refused_requests_are_not_counted_and_retry_after_is_when_one_passes():
    start = 60 * 3_000_000
    assert _burst("retry", 20, start + 10).count(False) == 20
    refused = R.sliding_usage("retry", "198.51.100.1", "20/m", now=start + 10)
    assert refused.should_limit and refused.retry_after >= 1
    for _ in range(100):  # hammering changes nothing
        R.sliding_usage("retry", "198.51.100.1", "20/m", now=start + 11)
    at = start + 10 + refused.retry_after
    assert not R.sliding_usage("retry", "198.51.100.1", "20/m", now=at).should_limit
    assert R.sliding_usage("retry", "198.51.100.1", "20/m", now=at).should_limit


def test_retry_after_matches_the_sliding_estimate():
    start = 60 * 4_000_000
    assert _burst("wait", 20, start + 30).count(False) == 20
    refused = R.sliding_usage("wait", "198.51.100.1", "20/m", now=start + 31)
    just_before = R.sliding_usage("wait", "198.51.100.1", "20/m", increment=False,
                                  now=start + 31 + refused.retry_after - 1)
    assert just_before.should_limit
    assert not R.sliding_usage("wait", "198.51.100.1", "20/m",
                               now=start + 31 + refused.retry_after).should_limit


def test_groups_and_clients_are_counted_apart():
    start = 60 * 5_000_000
    assert _burst("g1", 3, start, "2/m") == [False, False, True]
    assert _burst("g2", 1, start, "2/m") == [False]
    assert not R.sliding_usage("g1", "198.51.100.9", "2/m", now=start).should_limit


def test_ipv6_clients_are_counted_per_64():
    one = meta("2001:db8:1:2:aaaa::1")
    other = meta("2001:db8:1:2:bbbb::2")
    assert R.client_key(one) == R.client_key(other) == "2001:db8:1:2::"
    assert R.client_key(meta("203.0.113.7")) == "203.0.113.7"


@override_settings(RATE_LIMITS={"practice_dam": "3/m"})
def test_through_http_a_burst_across_the_minute_is_held_to_the_count(client, monkeypatch):
    clock = [60 * 6_000_000 - 1.0]
    monkeypatch.setattr(R.time, "time", lambda: clock[0])
    statuses = []
    for _ in range(3):
        statuses.append(client.post(new_game_url(), NEW_GAME).status_code)
    clock[0] += 2  # past the minute's edge
    for _ in range(3):
        statuses.append(client.post(new_game_url(), NEW_GAME).status_code)
    assert statuses == [302, 302, 302, 429, 429, 429]
