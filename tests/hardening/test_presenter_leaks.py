"""One seat's presenter view shows only what that seat may see (issue #21, item 1).

Every step of every shipped tutorial, and of teacher scenarios made from the shipped scenario
files (with the teacher's narration naming every card of every hand, and refused moves
inserted that name cards of other hands), is shown by ``games.presentation`` (the one place
that decides what a seat sees) in each seat's view in every language.  A card is *hidden* from
a seat at a step when the seat has not seen it so far: not in any of its views of the positions
up to that step (own hand, table, tricks, face-up rows, ...) and not in any event it was shown
(the engines' own visibility: ``adapter(game).visible``).  No hidden card may appear in what is
shown, neither by its name in the page language (``games.cardnames.card_name``) nor by its code
(``QS``, ``data-card="QS"``).  Then one pass per game over HTTP, through the presenter's
pages and their htmx partials, checks that the templates add nothing the presentation did not.
"""

from __future__ import annotations

import html as htmllib
import json
import re
import secrets
from pathlib import Path

import pytest
from django.urls import reverse
from django.utils import translation

from games.adapters import adapter
from games.cardnames import card_name
from games.presentation import scenario_show, tutorial_show
from games.reasons import reason_text
from games.replay import replay
from rules.engine import cards as C
from rules.engine import scenario
from rules.engine.errors import IllegalAction
from teacher import service as S
from teacher.models import TeacherScenario
from tests.games.helpers import replayed
from tests.pages import LANGUAGES
from tutorials import lessons

pytestmark = pytest.mark.django_db

SCENARIOS = sorted((Path(__file__).resolve().parents[2] / "tutorials" / "scenarios").glob("*/*.json"))
CARD_KEYS = ("card", "cards", "attack_card", "card_in", "card_out", "taken", "given")


# --------------------------------------------------------------------------- what a seat saw
def _ints(value) -> set[int]:
    if isinstance(value, bool) or value is None:
        return set()
    if isinstance(value, int):
        return {value}
    if isinstance(value, (list, tuple)):
        out: set[int] = set()
        for v in value:
            out |= _ints(v)
        return out
    return set()


def view_cards(view: dict) -> set[int]:
    """Every card face up to the viewer in ``view`` (its own hand included)."""
    out: set[int] = set()
    for key in ("hand", "table", "beaten", "turned", "trick", "played", "passed", "received",
                "rows", "secret", "held", "discard_top", "discard_pile", "jack"):
        out |= _ints(view.get(key))
    if view.get("last_trick"):
        out |= _ints(view["last_trick"].get("cards"))
    return out


def event_cards(game: str, events: list, seat: int) -> set[int]:
    out: set[int] = set()
    for e in adapter(game).visible(list(events or ()), seat):
        if e.get("private") and e.get("seat") != seat:
            continue
        for key in CARD_KEYS:
            out |= _ints(e.get(key))
        if e.get("type") == "cards_exchanged":
            out |= _ints(e.get("received"))
    return out


def hidden_per_position(game: str, states: list, events: list, seat: int) -> list[set[int]]:
    """For each position index, the cards ``seat`` has not seen up to it."""
    seen: set[int] = set()
    out = []
    for state, evs in zip(states, events, strict=True):
        seen |= view_cards(state.view(seat)) | event_cards(game, evs, seat)
        out.append(set(range(52)) - seen)
    return out


CODE = re.compile(r"(?<![A-Za-z0-9])(10|[2-9TJQKA])([CDHS])(?![A-Za-z0-9])")
# Random tokens (CSP nonces, CSRF tokens) may hold "6D" by chance: they are left out.
TOKEN = re.compile(r"[A-Za-z0-9+/=_-]{20,}")
_NAMES: dict[tuple[str, str], tuple[re.Pattern[str], dict[str, int]]] = {}


def _names(game: str) -> tuple[re.Pattern[str], dict[str, int]]:
    key = (translation.get_language(), game)
    if key not in _NAMES:
        # Norwegian names the queen of spades "spardame", the game's own name: that one
        # name is looked for by its code only.
        titles = {str(t).lower() for t in lessons.GAME_TITLES.values()}
        by_name = {card_name(c, game).lower(): c for c in range(52)
                   if card_name(c, game).lower() not in titles}
        alternatives = "|".join(re.escape(n) for n in sorted(by_name, key=len, reverse=True))
        _NAMES[key] = (re.compile(rf"(?<!\w)(?:{alternatives})(?!\w)", re.IGNORECASE), by_name)
    return _NAMES[key]


def leaks(page: str, game: str, hidden: set[int], reason: str = "",
          title: str = "") -> list[str]:
    """Names (page language) and codes of ``hidden`` cards found in ``page``.  The sentence of
    a refused step's reason states a rule ("not even the two of spades") and a tutorial's
    title may name a card as its subject ("Musta Maija eli patarouva"): both are left out."""
    text = TOKEN.sub(" ", htmllib.unescape(page))
    if reason:
        text = text.replace(reason_text(reason, (), game), " ")
    if title:
        text = text.replace(title, " ")
    pattern, by_name = _names(game)
    found = {by_name[m.group(0).lower()] for m in pattern.finditer(text)} & hidden
    out = [card_name(c, game) for c in sorted(found)]
    for rank, suit in set(CODE.findall(text)):
        card = C.parse(rank + suit)
        if card in hidden:
            out.append(rank + suit)
    return out


# --------------------------------------------------------------------------- tutorials
def _tutorial_positions(game: str, slug: str):
    from tutorials.lessons import replay

    rp = replay(game, slug)
    tutorial = lessons.get(game, slug)
    out = []
    for n, lesson in enumerate(tutorial.steps, start=1):
        out.append((n, lesson.at - 1 if lesson.your_move else lesson.at))
    return rp, out


def shown_text(shown) -> str:
    """Every piece of text in what a presentation shows (``scenario_show``/``tutorial_show``):
    the narration, the note and the table, whose face-up cards carry their codes."""
    if isinstance(shown, dict):
        return " ".join(shown_text(v) for v in shown.values())
    if isinstance(shown, (list, tuple, set, frozenset)):
        return " ".join(shown_text(v) for v in shown)
    if isinstance(shown, (bool, int, float)) or shown is None:
        return ""
    return str(shown)


@pytest.mark.parametrize("game,slug", sorted(lessons.TUTORIALS))
def test_tutorial_seat_views_show_no_hidden_card(game, slug):
    rp, positions = _tutorial_positions(game, slug)
    tutorial = lessons.get(game, slug)
    problems = []
    for seat in range(len(rp.scn.players)):
        hidden = hidden_per_position(game, rp.states, rp.events, seat)
        for language in LANGUAGES:
            with translation.override(language):
                for n, index in positions:
                    shown = tutorial_show(tutorial, rp, n, seat)
                    assert shown["table"], (n, seat)
                    found = leaks(shown_text(shown), game, hidden[index],
                                  title=str(tutorial.title))
                    if found:
                        problems.append((language, n, seat, found))
    assert not problems, problems[:10]


def _longest_tutorial(game: str) -> str:
    return max((s for g, s in lessons.TUTORIALS if g == game),
               key=lambda s: len(lessons.get(game, s).steps))


@pytest.mark.parametrize("game", sorted({g for g, _s in lessons.TUTORIALS}))
def test_tutorial_presenter_pages_show_no_hidden_card(client, game):
    """Over HTTP, the game's longest tutorial: every step of every seat's view, full page and
    htmx partial, each step in one language, the languages taking turns."""
    slug = _longest_tutorial(game)
    rp, positions = _tutorial_positions(game, slug)
    problems = []
    for seat in range(len(rp.scn.players)):
        hidden = hidden_per_position(game, rp.states, rp.events, seat)
        for k, (n, index) in enumerate(positions):
            language = LANGUAGES[(k + seat) % len(LANGUAGES)]
            with translation.override(language):
                url = reverse("tutorial_present", kwargs={"game": game, "slug": slug, "step": n})
                for headers in ({}, {"HTTP_HX_REQUEST": "true"}):
                    r = client.get(url + f"?seat={seat}", **headers)
                    assert r.status_code == 200, url
                    found = leaks(r.content.decode(), game, hidden[index],
                                  title=str(lessons.get(game, slug).title))
                    if found:
                        problems.append((language, n, seat, bool(headers), found))
    assert not problems, problems[:10]


# --------------------------------------------------------------------------- teacher scenarios
def _hands_said(scn: scenario.Scenario, state) -> dict[str, str]:
    """A teacher's narration that names every card of every hand (codes and names)."""
    cards = sorted(set().union(*(view_cards(state.view(s)) for s in range(len(scn.players)))))
    out = {}
    for language in LANGUAGES:
        with translation.override(language):
            out[language] = "; ".join(f"{C.code(c)} {card_name(c, scn.game)}" for c in cards)
    return out


def _refusal(scn: scenario.Scenario, state, move: str) -> str:
    try:
        scenario.apply_move(scn.module, state, scn.players, move)
    except IllegalAction as exc:
        return exc.reason
    return ""


def _refused_moves(scn: scenario.Scenario, state) -> list[str]:
    """Moves naming cards of other hands or of the mover's own, which the engine refuses."""
    if state.over or state.to_move is None:
        return []
    n = len(scn.players)
    mover = state.to_move
    name = scn.players[mover]
    other = (mover + 1) % n
    word = {"dam": "attack", "spardame": "play"}.get(scn.game)
    moves = []
    if word:
        theirs = sorted(state.view(other).get("hand") or ())[:1]
        mine = sorted(state.view(mover).get("hand") or ())[:1]
        moves += [f"{name} {word} {C.code(c)}" for c in theirs]
        moves += [f"{scn.players[other]} {word} {C.code(c)}" for c in theirs]
        moves += [f"{name} {'beat' if scn.game == 'dam' else 'pass'} {C.code(c)}" for c in mine]
    else:
        moves += [f"{scn.players[other]} draw stock", f"{name} steal 1 {scn.players[other]} 2"]
    return [m for m in moves if _refusal(scn, state, m)]


def generated(path: Path) -> dict:
    """The shipped scenario with narration naming every card, and refused moves inserted."""
    data = json.loads(path.read_text(encoding="utf-8"))
    scn = scenario.parse(data)
    _scn, frames = replayed(data)
    steps = []
    for frame in frames[1:]:
        before = frames[frame.number - 1].state
        if frame.step.kind == "do" and frame.number % 3 == 1:
            for move in _refused_moves(scn, before)[:2]:
                steps.append({"illegal": move, "reason": _refusal(scn, before, move)})
        raw = dict(data["steps"][frame.number - 1])
        raw["say"] = _hands_said(scn, before)
        steps.append(raw)
    return {**data, "steps": steps[:S.MAX_STEPS]}


@pytest.mark.parametrize("path", SCENARIOS, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_teacher_scenario_seat_views_show_no_hidden_card(path):
    data = generated(path)
    scn, frames = replayed(data)  # the generated scenario replays
    assert any(f.step and f.step.kind == "illegal" for f in frames) or scn.game == "dolda"
    rp = replay(data)
    assert rp is not None
    states = [f.state for f in frames]
    events = [f.events for f in frames]
    problems = []
    for seat in range(len(scn.players)):
        hidden = hidden_per_position(scn.game, states, events, seat)
        for language in LANGUAGES:
            with translation.override(language):
                for k in range(len(frames)):
                    shown = scenario_show("A title", rp, k, seat)
                    found = leaks(shown_text(shown), scn.game, hidden[k], frames[k].refused)
                    if found:
                        problems.append((language, k, seat, found))
    assert not problems, problems[:10]


FIRST_SCENARIO = {}
for _path in SCENARIOS:
    FIRST_SCENARIO.setdefault(_path.parent.name, _path)


@pytest.mark.parametrize("path", sorted(FIRST_SCENARIO.values()),
                         ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_teacher_scenario_presenter_pages_show_no_hidden_card(client, path):
    """Over HTTP, one scenario per game: every step of every seat's view, each in one
    language, the languages taking turns (step k of seat s in language k + s)."""
    data = generated(path)
    scn, frames = replayed(data)
    obj = TeacherScenario.objects.create(code=secrets.token_hex(6), edit_token="x", data=data)
    states = [f.state for f in frames]
    events = [f.events for f in frames]
    problems = []
    for seat in range(len(scn.players)):
        hidden = hidden_per_position(scn.game, states, events, seat)
        for k in range(len(frames)):
            language = LANGUAGES[(k + seat) % len(LANGUAGES)]
            with translation.override(language):
                url = reverse("scenario_present", args=[obj.code, k]) + f"?seat={seat}"
                r = client.get(url)
                assert r.status_code == 200, url
                found = leaks(r.content.decode(), scn.game, hidden[k], frames[k].refused)
                if found:
                    problems.append((language, k, seat, found))
    assert not problems, problems[:10]


def test_the_all_hands_view_still_shows_the_teachers_narration_and_refusals(client):
    data = generated(SCENARIOS[0])
    scn, frames = replayed(data)
    obj = TeacherScenario.objects.create(code=secrets.token_hex(6), edit_token="x", data=data)
    refused = next(f.number for f in frames if f.step and f.step.kind == "illegal")
    with translation.override("en"):
        page = client.get(reverse("scenario_present", args=[obj.code, refused])).content.decode()
        said = data["steps"][refused - 1]
        assert "Refused:" in page and said["illegal"] not in page  # in words, not notation
        do = next(f.number for f in frames if f.step and f.step.kind == "do"
                  and data["steps"][f.number - 1].get("say"))
        page = client.get(reverse("scenario_present", args=[obj.code, do])).content.decode()
        assert htmllib.escape(data["steps"][do - 1]["say"]["en"]) in page


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_refused_move_is_described_in_the_page_language(client, language):
    data = generated(SCENARIOS[0])
    scn, frames = replayed(data)
    obj = TeacherScenario.objects.create(code=secrets.token_hex(6), edit_token="x", data=data)
    frame = next(f for f in frames if f.step and f.step.kind == "illegal")
    with translation.override(language):
        page = client.get(reverse("scenario_present", args=[obj.code, frame.number])
                          + "?seat=0").content.decode()
    note = re.search(r'<p class="present-note">(.*?)</p>', page, re.S)
    assert note and frame.step.move not in htmllib.unescape(note.group(1))


def test_seat_narration_comes_from_the_engine_events(client):
    """Dolda: a draw from the stock is narrated to the drawer with its card, to the others
    without it; the lesson's own text (which speaks of every hand) is not in a seat view."""
    rp, positions = _tutorial_positions("dolda", "scoring")
    tutorial = lessons.get("dolda", "scoring")
    for n, index in positions:
        draws = [e for e in rp.events[index] if e.get("type") == "draw"
                 and e.get("source") == "stock"]
        if draws and not tutorial.steps[n - 1].your_move:
            break
    else:
        pytest.fail("no draw from the stock in the tutorial")
    drawer, card = draws[0]["seat"], draws[0]["card"]
    other = (drawer + 1) % len(rp.scn.players)
    with translation.override("en"):
        url = reverse("tutorial_present", kwargs={"game": "dolda", "slug": "scoring",
                                                  "step": n})
        mine = htmllib.unescape(client.get(url + f"?seat={drawer}").content.decode())
        theirs = htmllib.unescape(client.get(url + f"?seat={other}").content.decode())
        lesson = str(tutorial.steps[n - 1].say)
        name = card_name(card, "dolda")
    who = rp.scn.players[drawer]
    assert f"{who} draws the {name} from the stock." in mine
    assert f"{who} draws from the stock." in theirs and name not in theirs
    assert lesson not in mine and lesson not in theirs


def test_the_next_move_note_names_the_cards_to_the_mover_only(client):
    """The probe's URL: Bo's view of Anna's pass named the cards she passes in secret."""
    from tutorials.lessons import replay

    rp = replay("spardame", "passing")
    lesson = lessons.get("spardame", "passing").steps[1]
    assert lesson.your_move
    move = rp.scn.steps[lesson.at - 1].move.split()
    mover = rp.scn.players.index(move[0])
    passed = [C.parse(w) for w in move[2:]]
    with translation.override("en"):
        url = reverse("tutorial_present", kwargs={"game": "spardame", "slug": "passing",
                                                  "step": 2})
        names = [card_name(c, "spardame") for c in passed]
        pages = {s: htmllib.unescape(client.get(url + f"?seat={s}").content.decode())
                 for s in range(len(rp.scn.players))}
    notes = {s: re.search(r'<p class="present-note">(.*?)</p>', p, re.S).group(1)
             for s, p in pages.items()}
    assert all(n in notes[mover] for n in names)
    for s, note in notes.items():
        if s != mover:
            assert note == f"Next move: {move[0]} passes three cards."
