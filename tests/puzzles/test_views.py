"""The puzzle trainer's pages: answers judged by the engine, the result at an address of its
own, refused input with a translated reason and no change, no hidden card, four languages."""

import json
import re
from urllib.parse import parse_qs, urlparse

import pytest
from django.test import Client, RequestFactory
from django.urls import reverse
from django.utils import translation

from games.adapters import adapter
from games.registry import KEYS
from puzzles import choose, progress, store, views
from rules.engine import cards as C
from tests.pages import LANGUAGES
from tutorials import lessons

# What differs between two loads of any page: the masked CSRF token and the scripts' nonce.
TOKEN = re.compile(r'name="csrfmiddlewaretoken" value="[^"]+"|nonce="[^"]+"')


def record_of(client):
    """The browser's puzzle record, as the next request would read it."""
    request = RequestFactory().get("/")
    request.COOKIES = {k: v.value for k, v in client.cookies.items()}
    return progress.read(request)


def url(name, language="en", **kwargs):
    with translation.override(language):
        return reverse(name, kwargs=kwargs)


def first(game):
    """The game's first puzzle that offers every legal move (not a multiple choice)."""
    return next(p for p in store.all_puzzles() if p.game == game and not p.choices)


def fields_for(puzzle, action):
    return {"set": puzzle.game, "hint": "0", **adapter(puzzle.game).form_fields(action)}


def same_page(client, address):
    a, b = client.get(address), client.get(address)
    assert a.status_code == b.status_code == 200
    return TOKEN.sub("", a.content.decode()) == TOKEN.sub("", b.content.decode())


@pytest.mark.parametrize("game", KEYS)
def test_the_solution_is_right_and_its_address_shows_the_same_on_a_fresh_load(client, game):
    puzzle = first(game)
    state = puzzle.state()
    response = client.post(url("puzzle_answer", pid=puzzle.id),
                           fields_for(puzzle, puzzle.solution_action(state)))
    assert response.status_code == 303
    address = response["Location"]
    assert parse_qs(urlparse(address).query)["res"] == ["ok"]
    html = client.get(address).content.decode()
    assert 'id="puzzle-result"' in html and "Right: that is the best move." in html
    assert adapter(game).reason(state.view(puzzle.seat), puzzle.solution_action(state),
                                state.names)[:20].split(" ")[0] in html
    assert "Your first try counted" in html and 'id="move-form"' in html
    assert same_page(client, address)
    # A second answer changes no rating: only the first try counts.
    record = record_of(client)
    client.post(url("puzzle_answer", pid=puzzle.id), fields_for(puzzle, puzzle.solution_action(state)))
    assert record_of(client).rating == record.rating


def test_a_wrong_move_is_a_miss_that_shows_the_solution_and_lowers_the_rating(client):
    puzzle = first("spardame")
    state = puzzle.state()
    wrong = next(a for a in state.legal_actions() if a != puzzle.solution_action(state))
    response = client.post(url("puzzle_answer", pid=puzzle.id), fields_for(puzzle, wrong))
    address = response["Location"]
    assert parse_qs(urlparse(address).query)["res"] == ["miss"]
    html = client.get(address).content.decode()
    assert "Not the best move." in html and 'id="puzzle-solution"' in html
    assert record_of(client).rating.rating < 1500
    assert same_page(client, address)
    # An address claiming a result its move does not have shows the plain puzzle.
    forged = address.replace("res=miss", "res=ok")
    assert 'id="puzzle-result"' not in client.get(forged).content.decode()


@pytest.mark.parametrize("language", LANGUAGES)
def test_an_illegal_move_gets_the_engines_reason_translated_and_changes_nothing(client, language):
    puzzle = first("dam")
    state = puzzle.state()
    hand = set(state.view(puzzle.seat)["hand"])
    missing = next(c for c in range(52) if c not in hand)
    response = client.post(url("puzzle_answer", language, pid=puzzle.id),
                           {"set": "dam", "move": "attack", "card": [C.code(missing)]})
    assert response.status_code == 303 and "puzzles" not in response.cookies
    html = client.get(response["Location"]).content.decode()
    with translation.override(language):
        from games.reasons import reason_text
        assert reason_text("card_not_in_hand", (), "dam") in html
    # The card it named is not in the page: it is not the player's to see.
    assert f'data-card="{C.code(missing)}"' not in html


def test_a_garbled_form_is_refused_with_a_message_and_nothing_changes(client):
    puzzle = first("dolda")
    response = client.post(url("puzzle_answer", pid=puzzle.id), {"move": "<script>"})
    assert response.status_code == 400
    assert 'id="move-error"' in response.content.decode()
    assert "puzzles" not in response.cookies
    tampered = client.post(url("puzzle_answer", pid=puzzle.id), {"move": "draw", "set": "x"})
    assert "puzzles" not in tampered.cookies


@pytest.mark.parametrize("game", KEYS)
def test_no_hidden_card_is_in_the_page(client, game):
    for puzzle in [p for p in store.all_puzzles() if p.game == game][:5]:
        state = puzzle.state()
        seen = set(re.findall(r"\b\d+\b", json.dumps(state.view(puzzle.seat))))
        hidden = {C.code(c) for c in range(52) if str(c) not in seen}
        for address in (url("puzzle", pid=puzzle.id), url("puzzle", pid=puzzle.id) + "?hint=2"):
            html = client.get(address).content.decode()
            shown = set(re.findall(r'data-card="([^"]+)"', html))
            assert not shown & hidden, (puzzle.id, shown & hidden)


def test_the_two_hints_the_idea_then_the_move(client):
    puzzle = first("spardame")
    page = url("puzzle", pid=puzzle.id)
    plain = client.get(page).content.decode()
    nudge = client.get(page + "?hint=1").content.decode()
    move = client.get(page + "?hint=2").content.decode()
    assert 'id="puzzle-nudge"' not in plain and 'href="' in plain and "hint=1" in plain
    assert 'id="puzzle-nudge"' in nudge and 'id="puzzle-hint-move"' not in nudge
    assert 'id="puzzle-hint-move"' in move
    # A solution after the hint is not rated.
    state = puzzle.state()
    client.post(url("puzzle_answer", pid=puzzle.id),
                {**fields_for(puzzle, puzzle.solution_action(state)), "hint": "2"})
    assert record_of(client).rating.rating == 1500


def test_the_daily_puzzle_is_the_same_for_every_browser(client):
    a = client.get(url("puzzles_next", set_code="daily"))["Location"]
    b = Client().get(url("puzzles_next", set_code="daily"))["Location"]
    assert a == b and choose.daily(choose.today()).id in a


def test_a_streak_counts_until_the_first_miss(client):
    address = client.get(url("puzzles_next", set_code="streak"))["Location"]
    pid = urlparse(address).path.rstrip("/").split("/")[-1]
    puzzle = store.by_id()[pid]
    state = puzzle.state()
    done = client.post(url("puzzle_answer", pid=pid),
                       {**fields_for(puzzle, puzzle.solution_action(state)), "set": "streak"})
    assert "Streak: 1 in a row." in client.get(done["Location"]).content.decode()
    address = client.get(url("puzzles_next", set_code="streak"))["Location"]
    pid = urlparse(address).path.rstrip("/").split("/")[-1]
    puzzle = store.by_id()[pid]
    state = puzzle.state()
    wrong = next(a for a in state.legal_actions() if a != puzzle.solution_action(state))
    missed = client.post(url("puzzle_answer", pid=pid),
                         {**fields_for(puzzle, wrong), "set": "streak"})
    html = client.get(missed["Location"]).content.decode()
    assert "The streak is over: 1 in a row (best 1)." in html


@pytest.mark.parametrize("language", [lang for lang in LANGUAGES if lang != "en"])
def test_the_pages_are_translated(client, language):
    puzzle = first("dam")
    english = [client.get(url(n, "en", **kw)).content.decode()
               for n, kw in (("puzzles", {}), ("puzzle", {"pid": puzzle.id}))]
    for (name, kw), en_html in zip((("puzzles", {}), ("puzzle", {"pid": puzzle.id})), english,
                                   strict=True):
        html = client.get(url(name, language, **kw)).content.decode()
        h1 = re.search(r"<h1[^>]*>(.*?)</h1>", html, re.S).group(1)
        assert h1 != re.search(r"<h1[^>]*>(.*?)</h1>", en_html, re.S).group(1)
        for sentence in ("Find the move", "Give me a hint", "Puzzle of the day"):
            assert sentence not in html


def test_a_lessons_end_leads_to_puzzles_on_its_theme(client):
    tutorial = lessons.get("dam", "svarta-maja")
    last = len(tutorial.steps)
    html = client.get(url("tutorial_step_dam", slug="svarta-maja", step=last)).content.decode()
    link = re.search(r'id="tutorial-puzzles"[^>]*href="([^"]+)"|href="([^"]+)"[^>]*id="tutorial-puzzles"', html)
    href = (link.group(1) or link.group(2)).replace("&amp;", "&")
    target = client.get(href)["Location"]
    pid = urlparse(target).path.rstrip("/").split("/")[-1]
    # The lesson's theme; the game's puzzles when the theme has none.
    wanted = "maja" if choose.in_set("dam:maja") else store.by_id()[pid].theme
    assert store.by_id()[pid].theme == wanted and store.by_id()[pid].game == "dam"


def a_multiple_choice():
    return next(p for p in store.all_puzzles() if p.choices)


def test_a_multiple_choice_offers_its_moves_only_and_says_so(client):
    puzzle = a_multiple_choice()
    state = puzzle.state()
    html = client.get(url("puzzle", pid=puzzle.id)).content.decode()
    assert 'id="puzzle-offered"' in html
    labels = re.findall(r'<button type="submit" class="button"[^>]*>([^<]+)</button>', html)
    names = [f"P{i + 1}" for i in range(len(state.names))]
    assert len(labels) == len(puzzle.choices)
    game = adapter(puzzle.game)
    with translation.override("en"):
        wanted = {game.describe(a, names) for a in puzzle.choice_actions(state)}
    assert len(wanted) == len(labels)


def test_a_legal_move_a_multiple_choice_does_not_offer_is_refused_and_changes_nothing(client):
    puzzle = a_multiple_choice()
    with translation.override("en"):
        state = puzzle.state(views._names(puzzle))  # a thief names its victim as the page does
    offered = puzzle.choice_actions(state)
    other = next(a for a in state.legal_actions() if a not in offered)
    response = client.post(url("puzzle_answer", pid=puzzle.id), fields_for(puzzle, other))
    assert response.status_code == 400
    assert "Choose one of the moves offered." in response.content.decode()
    assert "puzzles" not in response.cookies
    right = client.post(url("puzzle_answer", pid=puzzle.id),
                        fields_for(puzzle, puzzle.solution_action(state)))
    assert parse_qs(urlparse(right["Location"]).query)["res"] == ["ok"]
    # The address names the move in the file's words, so it shows the result in any language.
    for language in ("en", "sv"):
        address = url("puzzle", language, pid=puzzle.id) + "?" + urlparse(right["Location"]).query
        assert 'id="puzzle-result"' in client.get(address).content.decode()
