"""HTTP fuzzing: hypothesis-made requests to every endpoint of the URL configuration (found by
walking the resolver, so new endpoints are fuzzed without touching this file) with random and
malformed moves, ids, versions, languages, query strings, uploads and scenario JSON.

For every request: never a 5xx; a refused request (4xx) changes nothing; and nothing the
fuzzing browser sends ever changes a game or scenario that belongs to another browser.
"""

from __future__ import annotations

import copy
import json
import os
import random
import uuid
from pathlib import Path

import pytest
from django.apps import apps
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.urls import NoReverseMatch, reverse
from django.utils import translation
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rules.engine import cards as C
from tests.pages import LANGUAGES
from tutorials import practice as P
from tutorials.models import PracticeGame

from .endpoints import endpoints

pytestmark = pytest.mark.django_db

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = int(os.environ.get("FUZZ_EXAMPLES", "12"))
APPS = ("tutorials", "teacher", "rules")
GAMES = ("dam", "dolda", "spardame")
NEW = {"dam": {"preset": "svarta-maja", "players": 3},
       "dolda": {"preset": None, "players": 3, "memory_aid": "on"},
       "spardame": {"preset": None, "players": 4}}
FIELDS = ["move", "card", "target", "version", "suit", "source", "position", "preset",
          "players", "level", "name", "memory_aid", "action", "typed", "title", "text", "rules",
          "game_id", "step", "seat", "hint", "next", "four_colour", "ok", "opt_trump",
          "narration", "lang", "language", "csrfmiddlewaretoken"]
CARD_CODES = [C.code(c) for c in range(52)]
ODD = ["", " ", "0", "-1", "99999999999999999999", "1e9", "null", "None", "true", "\x00",
       "<script>", "../..", "%00", "ä" * 300, "x" * 5000, "QS QS", "10H", "1H", "ZZ",
       "Me", "Anna", "attack", "beat", "add", "take", "pass", "play", "draw", "shield",
       "steal", "knock", "announce", "stock", "discard", "assign", "clear", "dam:svarta-maja",
       "Anna:1", "Bo:9", "dam", "dolda", "spardame", "sv", "fi", "nb", "en", "xx"]


def scenario_files() -> list[dict]:
    out = []
    for path in sorted(ROOT.glob("tutorials/scenarios/*/*.json"))[:6]:
        out.append(json.loads(path.read_text()))
    return out


json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-10**6, 10**12) | st.text(max_size=20),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner,
                                                                 max_size=4),
    max_leaves=12)


@st.composite
def scenario_json(draw) -> str:
    """A real scenario file with some parts replaced by random JSON, or random text."""
    kind = draw(st.integers(0, 5))
    if kind == 0:
        return draw(st.text(max_size=200))
    if kind == 1:
        return json.dumps(draw(json_values))
    data = json.loads(json.dumps(draw(st.sampled_from(SCENARIOS))))
    for _ in range(draw(st.integers(1, 3))):
        key = draw(st.sampled_from(sorted(data) + ["format", "steps", "deal", "players"]))
        if draw(st.booleans()):
            data.pop(key, None)
        else:
            data[key] = draw(json_values)
    if kind == 5 and isinstance(data.get("steps"), list):
        data["steps"] = data["steps"] + [{"do": draw(st.sampled_from(ODD))}]
    return json.dumps(data)


SCENARIOS = scenario_files()

values = st.one_of(st.sampled_from(ODD), st.sampled_from(CARD_CODES), st.text(max_size=30),
                   st.integers(-5, 200).map(str))


def form_data(world: dict) -> st.SearchStrategy:
    field_names = st.one_of(st.sampled_from(FIELDS), st.text(min_size=1, max_size=10))
    random_form = st.dictionaries(field_names, st.lists(values, min_size=1, max_size=4),
                                  max_size=8)
    return st.one_of(random_form, st.builds(lambda d, j: {**d, "text": [j]}, random_form,
                                            scenario_json()),
                     st.sampled_from(["@legal", "@legal", "@legal", "@version", "@upload"]))


def game_of(endpoint_name: str) -> str | None:
    return next((g for g in GAMES if f"_{g}" in endpoint_name), None)


def arg_strategy(converter: str, endpoint_name: str, world: dict) -> st.SearchStrategy:
    game = game_of(endpoint_name)
    if converter == "UUIDConverter":
        mine = [world["game_by_type"][game]] if game else world["game_ids"]
        known = mine * 6 + world["share_tokens"] * 2 + world["foreign_ids"]
        return st.one_of(st.sampled_from(known), st.uuids().map(str))
    if converter == "IntConverter":
        return st.one_of(st.integers(0, 8), st.integers(0, 10**15))
    if converter == "SlugConverter":
        slugs = world["slugs_by_game"].get(game, world["slugs"]) if game else world["slugs"]
        known = slugs * 2 + world["codes"] * 6 + world["foreign_codes"]
        return st.one_of(st.sampled_from(known or ["x"]),
                         st.from_regex(r"\A[-a-zA-Z0-9_]{1,30}\Z"))
    if converter == "StringConverter":
        return st.one_of(st.sampled_from(list(GAMES) * 4),
                         st.text(st.characters(blacklist_characters="/\x00"), min_size=1,
                                 max_size=15))
    return st.text(min_size=1, max_size=15).filter(lambda s: "/" not in s)


def snapshot() -> dict:
    state = {}
    for model in (m for a in APPS if apps.is_installed(a)
                  for m in apps.get_app_config(a).get_models()):
        rows = model.objects.all()
        state[model._meta.label] = sorted(
            (json.dumps(r, sort_keys=True, default=str) for r in rows.values()))
    return state


def foreign_state(world: dict) -> list:
    games = list(PracticeGame.objects.filter(pk__in=world["foreign_ids"]).values()
                 .order_by("pk"))
    out = [json.dumps(g, sort_keys=True, default=str) for g in games]
    if apps.is_installed("teacher"):
        model = apps.get_model("teacher", "TeacherScenario")
        out += [json.dumps(s, sort_keys=True, default=str)
                for s in model.objects.filter(code__in=world["foreign_codes"]).values()
                .order_by("pk")]
    return out


def start_games(client: Client) -> list[str]:
    from rules.engine.games import game_module

    ids = []
    with translation.override("en"):
        for game in GAMES:
            data = {**NEW[game], "level": "easy", "name": "Me"}
            data["preset"] = data["preset"] or game_module(game).DEFAULT_PRESET
            r = client.post(reverse(f"practice_{game}"), data)
            assert r.status_code == 302, r.content.decode()[:300]
            ids.append(r["Location"].rstrip("/").rsplit("/", 1)[-1])
    return ids


def start_scenario(client: Client) -> list[str]:
    try:
        with translation.override("en"):
            url = reverse("scenarios_create")
    except NoReverseMatch:
        return []
    client.post(url, {"rules": "dam:svarta-maja", "players": "Anna Bo Cilla"})
    model = apps.get_model("teacher", "TeacherScenario")
    return list(model.objects.values_list("code", flat=True))


@pytest.fixture(scope="module")
def world(django_db_setup, django_db_blocker):
    with django_db_blocker.unblock():
        other = Client()
        foreign_ids = start_games(other)
        foreign_codes = start_scenario(other)
        share = PracticeGame.objects.get(pk=foreign_ids[0])
        token = P.share(share)
        mine = Client(raise_request_exception=False)
        game_ids = start_games(mine)
        codes = [c for c in start_scenario(mine) if c not in foreign_codes]
        from tutorials import lessons

        slugs = sorted({t.slug for t in lessons.TUTORIALS.values()})
        by_game = {g: sorted(t.slug for t in lessons.TUTORIALS.values() if t.game == g)
                   for g in GAMES}
        yield {"client": mine, "cookies": copy.deepcopy(mine.cookies), "game_ids": game_ids,
               "foreign_ids": foreign_ids,
               "game_by_type": dict(zip(GAMES, game_ids)), "slugs_by_game": by_game,
               "share_tokens": [str(token)], "codes": codes, "foreign_codes": foreign_codes,
               "slugs": slugs}
        PracticeGame.objects.all().delete()
        if apps.is_installed("teacher"):
            apps.get_model("teacher", "TeacherScenario").objects.all().delete()


def resolve_data(data, kwargs: dict, rng: random.Random):
    """Special forms: a legal move of the game in the URL (under the right or a wrong version),
    the current version alone, or a scenario file upload."""
    if not isinstance(data, str):
        return data
    record = PracticeGame.objects.filter(pk=kwargs.get("game_id")).first()
    if data == "@upload":
        text = json.dumps(rng.choice(SCENARIOS)) if rng.random() < 0.5 else "{" * 50
        return {"file": SimpleUploadedFile("s.json", text.encode(), "application/json"),
                "title": "x"}
    if record is None:
        return {"version": "0", "move": "pass"}
    version = record.version + rng.choice([0, 0, 0, -1, 1])
    if data == "@version":
        return {"version": str(version)}
    state = P.replay(record).state
    legal = list(state.legal_actions()) if not state.over else []
    if not legal:
        return {"version": str(version), "move": "pass"}
    fields = P.form_fields(record.game, rng.choice(legal), record.names)
    return {**fields, "version": str(version)}


ENDPOINTS = endpoints()


@pytest.mark.parametrize("endpoint", ENDPOINTS, ids=[e.name for e in ENDPOINTS])
def test_fuzzed_requests_never_fail_and_refusals_change_nothing(world, endpoint):
    client = world["client"]
    # A request of an earlier test may have cycled the session key inside that test's rolled
    # back transaction: start from the session that owns the games.
    client.cookies = copy.deepcopy(world["cookies"])
    args = {name: arg_strategy(conv, endpoint.name, world) for name, conv in endpoint.converters}

    @settings(max_examples=EXAMPLES, deadline=None, database=None,
              suppress_health_check=list(HealthCheck))
    @given(kwargs=st.fixed_dictionaries(args), language=st.sampled_from(LANGUAGES * 3 + ["xx"]),
           method=st.sampled_from(list(endpoint.methods) * 4 + ["GET", "POST"]),
           data=form_data(world),
           query=st.dictionaries(st.sampled_from(["hint", "ok", "step", "seat", "preset",
                                                  "next", "page", "lang"]), values, max_size=3),
           htmx=st.booleans(), accept=st.sampled_from(["", "fi", "nb-NO,nb;q=0.9", "*", "ä"]),
           seed=st.integers(0, 2**16))
    def run(kwargs, language, method, data, query, htmx, accept, seed):  # noqa: PLR0913
        with translation.override(language if language in LANGUAGES else "en"):
            try:
                url = reverse(endpoint.name, kwargs=kwargs)
            except NoReverseMatch:
                return
        if language == "xx" and endpoint.localized:
            url = "/xx/" + url.split("/", 2)[2]
        headers = {"HTTP_ACCEPT_LANGUAGE": accept} if accept else {}
        if htmx:
            headers["HTTP_HX_REQUEST"] = "true"
        before, foreign = snapshot(), foreign_state(world)
        game = PracticeGame.objects.filter(pk=kwargs.get("game_id")).first()
        body = None
        if method == "GET":
            response = client.get(url, query, **headers)
        else:
            body = resolve_data(data, kwargs, random.Random(seed))
            response = client.post(url, body, **headers)
        described = f"{method} {url} {data!r} -> {response.status_code}"
        if os.environ.get("FUZZ_TRACE"):
            print("FUZZ", endpoint.name, method, response.status_code, url)
        assert response.status_code < 500, described
        if response.status_code >= 400:
            assert snapshot() == before, "refused but changed: " + described
        sent = body.get("version") if method == "POST" and isinstance(body, dict) else None
        if game is not None and sent is not None and str(sent) != str(game.version) \
                and endpoint.name.endswith(("_move", "_step", "_undo", "_next")):
            after = PracticeGame.objects.get(pk=game.pk)
            assert (after.version, after.actions) == (game.version, game.actions), \
                "a stale or malformed version changed the game: " + described
        assert foreign_state(world) == foreign, "another browser's record changed: " + described

    run()


def test_every_endpoint_is_fuzzed():
    names = {e.name for e in ENDPOINTS}
    assert {"practice_dam_move", "tutorial_move_dam", "home"} <= names
    assert len(names) >= 40


@pytest.mark.parametrize("path", ["/xx/", "/sv/%00/", "/en/dam/practice/not-a-uuid/move/",
                                  "/fi/" + "a" * 3000 + "/", "/en/dam/tutorials/x/999999999999/"])
def test_odd_paths_are_answered_without_a_server_error(client, path):
    client.raise_request_exception = False
    assert client.get(path).status_code < 500
    assert client.post(path, {"version": "1"}).status_code < 500


def test_a_foreign_game_id_is_not_found_and_unchanged(client, world):
    foreign = PracticeGame.objects.get(pk=world["foreign_ids"][0])
    with translation.override("en"):
        url = reverse("practice_dam_step", args=[foreign.pk])
    r = client.post(url, {"version": foreign.version})
    assert r.status_code == 404
    foreign_after = PracticeGame.objects.get(pk=foreign.pk)
    assert (foreign_after.version, foreign_after.actions) == (foreign.version, foreign.actions)


def test_a_uuid_of_no_game_is_not_found(client):
    with translation.override("en"):
        url = reverse("practice_dam_play", args=[uuid.uuid4()])
    assert client.get(url).status_code == 404


@pytest.mark.parametrize("htmx", [False, True])
def test_a_double_submit_applies_once_with_a_clear_answer(client, htmx):
    from tests.practice.helpers import start

    record = start(client, "dam", players=2)
    record.refresh_from_db()
    state = P.replay(record).state
    headers = {"HTTP_HX_REQUEST": "true"} if htmx else {}
    if P.is_bot_turn(record, state):
        form, endpoint = {"version": record.version}, "practice_dam_step"
    else:
        action = list(state.legal_actions())[0]
        form = {**P.form_fields("dam", action, record.names), "version": record.version}
        endpoint = "practice_dam_move"
    with translation.override("en"):
        url = reverse(endpoint, args=[record.pk])
        first = client.post(url, form, **headers)
        second = client.post(url, form, **headers)
    assert first.status_code in (200, 302)
    assert second.status_code == (200 if htmx else 409)
    with translation.override("en"):
        assert str(P.STALE) in second.content.decode()
    record.refresh_from_db()
    assert record.version == 1 and len(record.actions) == 1
