"""HTTP fuzzing: hypothesis-made requests to every endpoint of the URL configuration (found by
walking the resolver, so new endpoints are fuzzed without touching this file) with random and
malformed moves, ids, versions, languages, query strings, uploads and scenario JSON.

Hostile values go everywhere too: NUL and other control characters, integers beyond every
database range (and beyond Python's digit limit), huge and deeply nested JSON and non-ASCII
tokens.  The teacher endpoints get them in each field they read, one field at a time, on
top of an otherwise valid form, so the value reaches the code behind the field.

For every request: never a 5xx; a refused request (4xx) changes nothing; nothing with a NUL
(or, in a teacher scenario, any control character) is stored; and nothing the fuzzing
browser sends ever changes a game or scenario that belongs to another browser.
"""

from __future__ import annotations

import copy
import json
import os
import random
import re
import uuid
from pathlib import Path

import pytest
from django.apps import apps
from django.core.files.uploadedfile import SimpleUploadedFile
from django.db import transaction
from django.test import Client
from django.urls import NoReverseMatch, reverse
from django.utils import translation
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.adapters import adapter
from practice import service as P
from practice.models import PracticeGame
from rules.engine import cards as C
from tests.pages import LANGUAGES

from .endpoints import endpoints

pytestmark = pytest.mark.django_db

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = int(os.environ.get("FUZZ_EXAMPLES", "12"))
APPS = ("tutorials", "teacher", "rules", "live")
GAMES = ("dam", "dolda", "spardame")
NEW = {"dam": {"preset": "svarta-maja", "players": 3},
       "dolda": {"preset": None, "players": 3, "memory_aid": "on"},
       "spardame": {"preset": None, "players": 4}}
FIELDS = ["move", "card", "target", "version", "suit", "source", "position", "preset",
          "players", "level", "name", "memory_aid", "action", "typed", "title", "text", "rules",
          "game_id", "step", "seat", "hint", "next", "four_colour", "ok", "opt_trump",
          "narration", "lang", "language", "csrfmiddlewaretoken", "key", "say-1-en", "say-1-sv",
          "steps", "opt_hand_size", "file"]
CARD_CODES = [C.code(c) for c in range(52)]
ODD = ["", " ", "0", "-1", "99999999999999999999", "1e9", "null", "None", "true", "\x00",
       "<script>", "../..", "%00", "ä" * 300, "x" * 5000, "QS QS", "10H", "1H", "ZZ",
       "Me", "Anna", "attack", "beat", "add", "take", "pass", "play", "draw", "shield",
       "steal", "knock", "announce", "stock", "discard", "assign", "clear", "dam:svarta-maja",
       "Anna:1", "Bo:9", "dam", "dolda", "spardame", "sv", "fi", "nb", "en", "xx"]
# Characters no one types: NUL (PostgreSQL cannot store it in text), other C0/C1 controls, DEL,
# and white space or format characters that are not the space.
CONTROLS = ["\x00", "a\x00b", "\x00 \x01 \x02", "Anna Bo C\x00", "\x01", "\x07", "\x1b[31m",
            "\x1f", "\x7f", "\x85", "\x9b", "Anna\tBo", "A\u00a0B", "\u2028", "\ufeff", "\u200b",
            "\r\n", "Anna attack 4D\x00", "Bo take\x00"]
# Integers beyond every database range (32 and 64 bits, signed or not) and Python's digit
# limit for int(), as text.
BIG_NUMBERS = [str(2**31), str(-(2**31) - 1), str(2**32), str(2**63), str(-(2**63) - 1),
               str(2**64), str(10**30), "9" * 5000, "-" + "1" * 5000, "1e999", "NaN", "0x10",
               "\u0663", "\uff11"]
# Non-ASCII tokens where an ASCII code, key or card is expected.
NON_ASCII = ["ä", "Å", "€" * 64, "🂡", "ǅ", "ﬀ", "İ", "ß", "Ⅻ", "١٢", "５Ｃ", "ℌ", "\u0301"]
HOSTILE = CONTROLS + BIG_NUMBERS + NON_ASCII
# What must never be stored in a teacher scenario: C0/C1 controls but tab and line breaks, DEL,
# lone surrogates.
CONTROL = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\ud800-\udfff]")
# JSON for the scenario import: raw fragments that Python's json reads badly or not at all,
# put in place of one value of a real scenario (see hostile_json).
RAW_FRAGMENTS = ["9" * 5000, "-" + "1" * 5000, str(2**63), str(-(2**63) - 1), str(10**40),
                 "1e999", "-1e999", "NaN", "Infinity", "[]", "{}", '{"a": []}', '[["x"]]',
                 '"\\u0000"', '"a\\u0000b"', '"\\ud800"', '"\\u001f"', '"\\u009b"', '"ä"', '"€"',
                 '["Anna", "\\u0000"]', '{"en": "\\u0000"}', '{"preset": []}', '{"preset": {}}',
                 '{"trump": []}', "[" * 40 + "]" * 40, "[" * 2000 + "]" * 2000, "[" * 100_000,
                 '{"a":' * 100_000, "true", "null", '""']
HUGE_JSON = ["[" * 100_000, "{" * 100_000, '{"a":' * 50_000 + "1" + "}" * 50_000,
             "[" * 100_000 + "]" * 100_000, json.dumps([0] * 70_000), "9" * 5000,
             '{"seed": ' + "9" * 5000 + "}"]


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

# Any text a form can carry (lone surrogates cannot be encoded as UTF-8 by the client).
form_text = st.text(st.characters(blacklist_categories=("Cs",)), max_size=30)
values = st.one_of(st.sampled_from(ODD), st.sampled_from(CARD_CODES), form_text,
                   st.integers(-5, 200).map(str), st.sampled_from(HOSTILE),
                   st.integers(-(2**70), 2**70).map(str))


@st.composite
def hostile_json(draw) -> str:
    """A real scenario with one value (a top-level field, a rule, a name, a move or a narration)
    replaced by a raw fragment from RAW_FRAGMENTS, or JSON too big or deep to read."""
    if draw(st.integers(0, 4)) == 0:
        return draw(st.sampled_from(HUGE_JSON))
    data = json.loads(json.dumps(draw(st.sampled_from(SCENARIOS))))
    hole = "@@hole@@"
    where = draw(st.sampled_from(["seed", "rules", "players", "dealer", "deal", "steps", "preset",
                                  "option", "name", "move", "say", "title"]))
    if where in ("seed", "rules", "players", "dealer", "deal", "steps"):
        data[where] = hole
    elif where in ("preset", "option"):
        data.setdefault("rules", {})["preset" if where == "preset" else "trump"] = hole
    elif where == "name":
        data["players"][draw(st.integers(0, len(data["players"]) - 1))] = hole
    elif data.get("steps"):
        step = data["steps"][draw(st.integers(0, len(data["steps"]) - 1))]
        if where == "move" and ("do" in step or "illegal" in step):
            step["do" if "do" in step else "illegal"] = hole
        else:
            step["say"] = {"en": hole} if draw(st.booleans()) else hole
    return json.dumps(data).replace(f'"{hole}"', draw(st.sampled_from(RAW_FRAGMENTS)))


def form_data(world: dict) -> st.SearchStrategy:
    field_names = st.one_of(st.sampled_from(FIELDS), st.text(min_size=1, max_size=10))
    random_form = st.dictionaries(field_names, st.lists(values, min_size=1, max_size=4),
                                  max_size=8)
    return st.one_of(random_form, st.builds(lambda d, j: {**d, "text": [j]}, random_form,
                                            scenario_json()),
                     st.builds(lambda d, j: {**d, "text": [j]}, random_form, hostile_json()),
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
        return st.one_of(st.integers(0, 8), st.integers(0, 10**15),
                         st.sampled_from([2**31, 2**32, 2**63, 2**64, 10**30, 10**200]))
    if converter == "SlugConverter":
        slugs = world["slugs_by_game"].get(game, world["slugs"]) if game else world["slugs"]
        known = (slugs * 2 + world["codes"] * 6 + world["foreign_codes"]
                 + world["live_codes"] * 4 + world["live_foreign"] * 2)
        return st.one_of(st.sampled_from(known or ["x"]),
                         st.from_regex(r"\A[-a-zA-Z0-9_]{1,30}\Z"))
    if converter == "StringConverter":
        # No lone surrogate: it has no UTF-8 form, so no request can carry it in its address
        # (reverse() itself refuses to build one).
        return st.one_of(st.sampled_from(list(GAMES) * 4),
                         st.text(st.characters(blacklist_characters="/\x00",
                                               blacklist_categories=("Cs",)), min_size=1,
                                 max_size=15))
    return st.text(min_size=1, max_size=15).filter(lambda s: "/" not in s)


def snapshot() -> dict:
    state = {}
    for model in (m for a in APPS if apps.is_installed(a)
                  for m in apps.get_app_config(a).get_models()):
        rows = model.objects.all()
        state[model._meta.label] = sorted(
            json.dumps(r, sort_keys=True, default=str) for r in rows.values())
    return state


def _strings(value):
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for k, v in value.items():
            yield from _strings(k)
            yield from _strings(v)
    elif isinstance(value, (list, tuple)):
        for v in value:
            yield from _strings(v)


def stored_controls() -> list[str]:
    """Stored text with a NUL (any model) or any control character (a teacher scenario)."""
    found = []
    for model in (m for a in APPS if apps.is_installed(a)
                  for m in apps.get_app_config(a).get_models()):
        strict = model._meta.label == "teacher.TeacherScenario"
        for row in model.objects.values():
            for text in _strings(list(row.values())):
                if "\x00" in text or (strict and CONTROL.search(text)):
                    found.append(f"{model._meta.label}: {text[:40]!r}")
    return found


def foreign_state(world: dict) -> list:
    games = list(PracticeGame.objects.filter(pk__in=world["foreign_ids"]).values()
                 .order_by("pk"))
    out = [json.dumps(g, sort_keys=True, default=str) for g in games]
    if apps.is_installed("teacher"):
        model = apps.get_model("teacher", "TeacherScenario")
        out += [json.dumps(s, sort_keys=True, default=str)
                for s in model.objects.filter(code__in=world["foreign_codes"]).values()
                .order_by("pk")]
    if apps.is_installed("live"):
        from live.models import LiveAnswer, LiveSession

        out += [json.dumps(s, sort_keys=True, default=str) for s in LiveSession.objects.filter(
            code__in=world["live_foreign"]).values().order_by("pk")]
        out += [json.dumps(s, sort_keys=True, default=str) for s in LiveAnswer.objects.filter(
            session__code__in=world["live_foreign"]).values().order_by("pk")]
    return out


def start_live(client: Client, student: Client | None = None) -> list[str]:
    """A live session of ``client`` at a decision with its question open, ``student`` (or the
    teacher) joined and answered."""
    if not apps.is_installed("live"):
        return []
    from live.models import LiveSession

    with translation.override("en"):
        r = client.post(reverse("live_start"), {"kind": "tutorial", "ref": "dam/anna-bo-cilla",
                                                "step": 3})
        code = r["Location"].rstrip("/").split("/")[-2]
        client.post(reverse("live_control", args=[code]), {"action": "open"})
        joiner = student or client
        joiner.post(reverse("live_join"), {"code": code, "name": "Pupil"})
        number = LiveSession.objects.get(code=code).question
        joiner.post(reverse("live_answer", args=[code]), {"question": number, "choice": "take"})
    return [code]


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
        live_foreign = start_live(other, Client())
        live_codes = start_live(mine)
        from tutorials import lessons

        slugs = sorted({t.slug for t in lessons.TUTORIALS.values()})
        by_game = {g: sorted(t.slug for t in lessons.TUTORIALS.values() if t.game == g)
                   for g in GAMES}
        yield {"client": mine, "cookies": copy.deepcopy(mine.cookies), "game_ids": game_ids,
               "foreign_ids": foreign_ids,
               "game_by_type": dict(zip(GAMES, game_ids)), "slugs_by_game": by_game,
               "share_tokens": [str(token)], "codes": codes, "foreign_codes": foreign_codes,
               "slugs": slugs, "live_codes": live_codes, "live_foreign": live_foreign}
        PracticeGame.objects.all().delete()
        if apps.is_installed("teacher"):
            apps.get_model("teacher", "TeacherScenario").objects.all().delete()
        if apps.is_installed("live"):
            apps.get_model("live", "LiveSession").objects.all().delete()


def resolve_data(data, kwargs: dict, rng: random.Random):
    """Special forms: a legal move of the game in the URL (under the right or a wrong version),
    the current version alone, or a scenario file upload."""
    if not isinstance(data, str):
        return data
    record = PracticeGame.objects.filter(pk=kwargs.get("game_id")).first()
    if data == "@upload":
        text = rng.choice([json.dumps(rng.choice(SCENARIOS)), "{" * 50, *HUGE_JSON[:4]])
        return {"file": SimpleUploadedFile("s.json", text.encode(), "application/json"),
                "title": rng.choice(["x", "x\x00", "ä" * 200])}
    if record is None:
        return {"version": "0", "move": "pass"}
    version = record.version + rng.choice([0, 0, 0, -1, 1])
    if data == "@version":
        return {"version": str(version)}
    state = P.replay(record).state
    legal = list(state.legal_actions()) if not state.over else []
    if not legal:
        return {"version": str(version), "move": "pass"}
    fields = adapter(record.game).form_fields(rng.choice(legal))
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
        assert not stored_controls(), described
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
        form = {**adapter("dam").form_fields(action), "version": record.version}
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


# --------------------------------------------------------------------------- teacher fields
def _teacher_forms() -> dict[str, dict[str, str]]:
    """Each teacher endpoint that takes a form, with a valid form of every field it reads."""
    return {
        "scenarios_create": {"rules": "dam:svarta-maja", "players": "Anna Bo Cilla"},
        "scenarios_import": {"text": json.dumps(SCENARIOS[0]), "title": "Lesson"},
        "scenarios_from_practice": {"game_id": str(uuid.uuid4())},
        "scenario_deal": {"action": "assign", "target": "hand:0", "typed": "4D", "card": "5D"},
        "scenario_rules": {"preset": "svarta-maja", "opt_trump": "turned",
                           "opt_hand_size": "6"},
        "scenario_move": {"action": "play", "move": "Bo take", "steps": "1"},
        "scenario_undo": {"steps": "1"},
        "scenario_save": {"title": "Lesson", "say-1-en": "Look.", "say-1-sv": "Titta.",
                          "steps": "1"},
    }


TEACHER_QUERIES = {"scenario_edit": {"key": "x"}, "scenario_present": {"seat": "0"},
                   "tutorial_present": {"seat": "1"}}
TEACHER_FORMS = _teacher_forms()


@pytest.fixture(scope="module")
def teacher_world(django_db_setup, django_db_blocker):
    """A complete dam scenario with one recorded move, owned by the fuzzing browser, and one of
    another browser."""
    with django_db_blocker.unblock():
        model = apps.get_model("teacher", "TeacherScenario")
        codes = []
        for owner in (Client(), Client(raise_request_exception=False)):
            with translation.override("en"):
                owner.post(reverse("scenarios_create"),
                           {"rules": "dam:svarta-maja", "players": "Anna Bo Cilla"})
                code = model.objects.latest("created").code
                for target, typed in (("hand:0", "4D 6D 9D KC 3S 8H"),
                                      ("hand:1", "7D 2D JS 5C TH AS"),
                                      ("hand:2", "3C 8C QD 2H 6S KS"), ("turned", "9H")):
                    owner.post(reverse("scenario_deal", args=[code]),
                               {"action": "assign", "target": target, "typed": typed})
                owner.post(reverse("scenario_move", args=[code]), {"move": "Anna attack 4D"})
            assert len(model.objects.get(code=code).data["steps"]) == 1
            codes.append(code)
        yield {"client": owner, "cookies": copy.deepcopy(owner.cookies), "code": codes[1],
               "foreign": codes[0]}
        model.objects.all().delete()


TEACHER_ENDPOINTS = [e for e in ENDPOINTS if e.name in TEACHER_FORMS or e.name in TEACHER_QUERIES]


@pytest.mark.parametrize("endpoint", TEACHER_ENDPOINTS, ids=[e.name for e in TEACHER_ENDPOINTS])
def test_hostile_values_in_every_teacher_field(teacher_world, endpoint):
    """One field of a valid form (or query) replaced by a hostile value, or by hostile JSON for
    the import text: never a 5xx, a refusal changes nothing, no control character is stored,
    and another browser's scenario stays as it was."""
    client = teacher_world["client"]
    model = apps.get_model("teacher", "TeacherScenario")
    form = TEACHER_FORMS.get(endpoint.name) or TEACHER_QUERIES[endpoint.name]
    hostile = st.one_of(st.sampled_from(HOSTILE), form_text,
                        st.integers(-(2**80), 2**80).map(str))
    if endpoint.name == "scenarios_import":
        hostile = st.one_of(hostile, hostile_json())
    kwargs = {"code": teacher_world["code"], "step": 1, "game": "dam", "slug": "x"}
    if endpoint.name == "tutorial_present":
        from tutorials import lessons

        kwargs["slug"] = next(t.slug for t in lessons.TUTORIALS.values() if t.game == "dam")

    @settings(max_examples=max(EXAMPLES, len(form) * 4), deadline=None, database=None,
              suppress_health_check=list(HealthCheck))
    @given(field=st.sampled_from(sorted(form)), value=hostile, htmx=st.booleans(),
           upload=st.booleans())
    def run(field, value, htmx, upload):
        # Each example starts from the same scenario: its changes are rolled back after it.
        client.cookies = copy.deepcopy(teacher_world["cookies"])
        with transaction.atomic():
            check(field, value, htmx, upload)
            transaction.set_rollback(True)

    def check(field, value, htmx, upload):
        names = dict(endpoint.converters)
        with translation.override("en"):
            url = reverse(endpoint.name, kwargs={k: v for k, v in kwargs.items() if k in names})
        headers = {"HTTP_HX_REQUEST": "true"} if htmx else {}
        before = snapshot()
        foreign = list(model.objects.filter(code=teacher_world["foreign"]).values())
        data = {**form, field: value}
        if endpoint.name in TEACHER_QUERIES:
            response = client.get(url, data, **headers)
        else:
            if endpoint.name == "scenarios_import" and field == "text" and upload:
                data.pop("text")
                data["file"] = SimpleUploadedFile("s.json", value.encode("utf-8", "replace"))
            response = client.post(url, data, **headers)
        described = f"{endpoint.name} {field}={value[:60]!r} -> {response.status_code}"
        if os.environ.get("FUZZ_TRACE"):
            print("FUZZ", described)
        assert response.status_code < 500, described
        if response.status_code >= 400:
            assert snapshot() == before, "refused but changed: " + described
        assert not stored_controls(), described
        assert list(model.objects.filter(code=teacher_world["foreign"]).values()) == foreign, \
            described

    run()

