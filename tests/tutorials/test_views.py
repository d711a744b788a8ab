"""Tutorial pages: full page and htmx partial of every step, the ends, moves and progress."""

import re

import pytest
from django.urls import reverse
from django.utils import translation
from django.utils.html import escape

from tests.pages import LANGUAGES
from tutorials import lessons, progress
from tutorials.lessons import replay

pytestmark = pytest.mark.django_db
HX = {"HTTP_HX_REQUEST": "true"}
LAST = len(lessons.get("dam", "svarta-maja").steps)
ALL_STEPS = [(t.game, t.slug, n) for t in lessons.TUTORIALS.values()
             for n in range(1, len(t.steps) + 1)]


def step_url(game, slug, n, language="en"):
    with translation.override(language):
        return reverse(f"tutorial_step_{game}", kwargs={"slug": slug, "step": n})


def move_url(game, slug, n, language="en"):
    with translation.override(language):
        return reverse(f"tutorial_move_{game}", kwargs={"slug": slug, "step": n})


@pytest.mark.parametrize("game,slug,n", ALL_STEPS)
def test_every_step_renders_as_a_full_page(client, game, slug, n):
    response = client.get(step_url(game, slug, n))
    html = response.content.decode()
    assert response.status_code == 200
    assert html.count("<h1") == 1 and 'id="tutorial-narration"' in html
    assert 'aria-live="polite"' in html and "<progress" in html


@pytest.mark.parametrize("game,slug,n", ALL_STEPS)
def test_every_step_renders_as_an_htmx_partial(client, game, slug, n):
    response = client.get(step_url(game, slug, n), **HX)
    html = response.content.decode()
    assert response.status_code == 200
    assert "<html" not in html and "<h1" not in html
    # the same markup a fresh load has in #tutorial, for the morph
    assert 'id="tutorial-narration"' in html and 'id="tutorial-stage"' in html
    assert 'data-game="' in html
    assert html.startswith("<title>")


@pytest.mark.parametrize("language", ["sv", "fi", "nb", "en"])
def test_step_page_is_in_the_page_language(client, language):
    response = client.get(step_url("dam", "anna-bo-cilla", 2, language))
    assert response.status_code == 200
    assert f'<html lang="{language}">' in response.content.decode()


def test_narration_is_the_lessons_text_in_english(client):
    with translation.override("en"):
        html = client.get(step_url("dam", "anna-bo-cilla", 2)).content.decode()
        assert str(lessons.get("dam", "anna-bo-cilla").steps[1].say) in html


@pytest.mark.parametrize("n", [0, LAST + 1, 10**12])
def test_stepping_past_either_end_is_a_clear_404(client, n):
    response = client.get(f"/en/dam/tutorials/svarta-maja/{n}/")
    assert response.status_code == 404
    assert "No such step" in response.content.decode()


def test_stepping_past_the_end_with_htmx_is_a_clear_404(client):
    response = client.get(f"/en/dam/tutorials/svarta-maja/{LAST + 1}/", **HX)
    assert response.status_code == 404


def test_unknown_tutorial_is_a_clear_404(client):
    response = client.get("/en/dam/tutorials/no-such-thing/1/")
    assert response.status_code == 404
    assert "There is no tutorial at this address." in response.content.decode()


def test_first_step_has_no_back_link_and_last_has_no_next(client):
    first = client.get(step_url("dam", "anna-bo-cilla", 1)).content.decode()
    last = client.get(step_url("dam", "svarta-maja", LAST)).content.decode()
    assert 'id="tutorial-back"' not in first and 'id="tutorial-next"' in first
    assert 'id="tutorial-next"' not in last and 'id="tutorial-back"' in last


def test_next_link_is_a_real_link_with_htmx(client):
    html = client.get(step_url("dam", "svarta-maja", 1)).content.decode()
    url = step_url("dam", "svarta-maja", 2)
    assert f'id="tutorial-next" href="{url}" data-hx-get="{url}" data-hx-push-url="true"' in html


def test_links_of_earlier_pages_still_lead_to_the_step(client):
    response = client.get(step_url("dam", "anna-bo-cilla", 1) + "?go=next")
    assert response.status_code == 302
    assert response["Location"] == step_url("dam", "anna-bo-cilla", 2)
    response = client.get(step_url("dam", "anna-bo-cilla", 2) + "?go=prev")
    assert response["Location"] == step_url("dam", "anna-bo-cilla", 1)


CSRF = re.compile(r'(?<=name="csrfmiddlewaretoken" value=")[^"]+')  # masked anew per response
OOB = re.compile(r'<(link|nav|input) id="[^"]+"[^>]*? data-hx-swap-oob="true"[^>]*>.*?(?:</nav>|(?<=>))',
                 re.S)


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("key", sorted(f"{g}:{s}" for g, s in lessons.TUTORIALS))
def test_every_htmx_step_and_hint_is_the_markup_of_a_fresh_load(client, key, language):
    """What htmx swaps in at every step and hint, in every language: the #tutorial markup and
    each out-of-band element exactly as a fresh load of the address has them.  (Chromium
    checks the swapped page itself in tests/browser/test_tutorial_walk.py, in two languages
    per tutorial.)"""
    tutorial = lessons.get(*key.split(":"))
    for n, step in enumerate(tutorial.steps, start=1):
        queries = ["", "?hint=1", "?hint=2"] if step.your_move else [""]
        for query in queries:
            address = step_url(tutorial.game, tutorial.slug, n, language) + query
            full = CSRF.sub("", client.get(address).content.decode())
            part = CSRF.sub("", client.get(address, **HX).content.decode())
            title, rest = part.removeprefix("<title>").split("</title>", 1)
            assert f"<title>{title}</title>" in full, address
            body = rest.split("<link", 1)[0]
            assert 'id="tutorial-narration"' in body and body in full, address
            oob = [m.group(0) for m in OOB.finditer(rest)]
            assert len(oob) == 6, address  # four alternates, the language switcher, deck-next
            for element in oob:
                assert element.replace(' data-hx-swap-oob="true"', "") in full, (address, element)


@pytest.mark.parametrize("query", ["go=next", "go=prev", "go=sideways"])
def test_going_past_either_end_is_a_clear_404(client, query):
    n = LAST if query == "go=next" else 1
    response = client.get(step_url("dam", "svarta-maja", n) + "?" + query)
    assert response.status_code == 404


def test_step_links_to_its_rule_on_the_rules_page(client):
    html = client.get(step_url(*BEAT)).content.decode()
    assert f'href="{reverse("rules_dam")}#{lessons.get(*BEAT[:2]).steps[BEAT[2] - 1].rule}"' in html


def test_moved_cards_are_highlighted(client):
    html = client.get(step_url("dam", "svarta-maja", 2)).content.decode()
    marked = set(re.findall(
        r'card--highlight" role="img" aria-label="[^"]+" data-card="(\w\w)"', html))
    assert marked == {"3S"}


def test_language_switcher_keeps_the_step(client):
    html = client.get(step_url("dolda", "draw-and-swap", 3, "en")).content.decode()
    assert step_url("dolda", "draw-and-swap", 3, "sv") in html
    assert step_url("dolda", "draw-and-swap", 3, "fi") in html


# ------------------------------------------------------------------ your move
BEAT = ("dam", "svarta-maja", 3)  # Anna attacked with 3S; Bo beats it with 9S


def post(client, data, htmx=False, where=BEAT):
    return client.post(move_url(*where), data, **(HX if htmx else {}))


def test_your_move_step_has_checkboxes_and_buttons(client):
    html = client.get(step_url(*BEAT)).content.decode()
    assert 'type="checkbox" name="card" value="9S"' in html
    assert 'name="action" value="beat"' in html and 'name="action" value="take"' in html


def test_your_move_step_offers_only_the_actions_legal_now(client):
    html = client.get(step_url(*BEAT)).content.decode()
    assert 'name="action" value="attack"' not in html  # Bo defends


def test_an_action_not_legal_now_is_refused_plainly(client):
    response = post(client, {"action": "attack", "card": "9S"})
    assert response.status_code == 400
    assert 'data-feedback="error"' in response.content.decode()


def test_illegal_move_gets_the_engines_reason(client):
    with translation.override("en"):
        response = post(client, {"action": "beat", "card": "QS", "target": "3S"}, htmx=True)
    html = response.content.decode()
    assert response.status_code == 200
    assert 'data-feedback="illegal"' in html
    assert "The queen of spades can never beat a card" in html


def test_legal_but_different_move_explains_why_and_retries(client):
    response = post(client, {"action": "take"}, htmx=True)
    html = response.content.decode()
    assert 'data-feedback="different"' in html
    with translation.override("en"):
        assert str(escape(lessons.get(*BEAT[:2]).steps[BEAT[2] - 1].better)) in html
    assert 'name="action" value="beat"' in html  # the same step again


def test_lesson_move_with_htmx_shows_the_next_step_and_pushes_its_url(client):
    response = post(client, {"action": "beat", "card": "9S", "target": "3S"}, htmx=True)
    assert response.status_code == 200
    assert response["HX-Push-Url"] == step_url("dam", "svarta-maja", 4) + "?ok=1"
    assert 'data-feedback="success"' in response.content.decode()


def test_lesson_move_without_javascript_redirects_to_the_next_step(client):
    response = post(client, {"action": "beat", "card": "9S", "target": "3S"})
    assert response.status_code == 303
    assert response["Location"] == step_url("dam", "svarta-maja", 4) + "?ok=1"
    followed = client.get(response["Location"]).content.decode()
    assert 'data-feedback="success"' in followed


def test_second_hint_shows_the_move(client):
    html = client.get(step_url(*BEAT) + "?hint=2").content.decode()
    assert 'name="card" value="9S" checked' in html
    assert 'name="target" value="3S" checked' in html
    assert 'id="tutorial-hint"' in html and 'id="tutorial-hint-form"' not in html


@pytest.mark.parametrize("data", [
    {"action": "fly"}, {"action": "beat", "card": "9S 2S"}, {"action": "beat", "card": "XX"},
    {"action": "beat", "card": ["2D"] * 20},
    {"action": "beat", "card": "9S", "target": "<b>"}, {},
])
def test_malformed_move_is_refused_plainly(client, data):
    response = post(client, data)
    assert response.status_code == 400
    assert 'data-feedback="error"' in response.content.decode()


def test_card_not_in_hand_is_refused_with_a_reason(client):
    with translation.override("en"):
        html = client.post(move_url(*BEAT), {"action": "beat", "card": "AH", "target": "3S"},
                           follow=True).content.decode()
    assert "You do not have that card." in html


def test_post_to_a_step_without_a_move_is_refused(client):
    response = post(client, {"action": "beat"}, where=("dam", "svarta-maja", 1))
    assert response.status_code == 400


def test_post_past_the_end_is_a_404(client):
    assert post(client, {"action": "take"}, where=("dam", "svarta-maja", 99)).status_code == 404


def test_get_on_the_move_endpoint_is_refused(client):
    assert client.get(move_url(*BEAT)).status_code == 405


def test_double_submit_of_the_lesson_move_changes_nothing(client):
    for _ in range(2):
        response = post(client, {"action": "beat", "card": "9S", "target": "3S"})
        assert response.status_code == 303


def test_dolda_your_move_buttons(client):
    # Anna holds the queen of hearts she drew: swap it in or discard it, nothing else.
    html = client.get(step_url("dolda", "draw-and-swap", 3)).content.decode()
    assert 'value="swap"' in html and 'value="discard"' in html
    assert 'value="draw_stock"' not in html and 'value="draw_discard"' not in html
    response = client.post(move_url("dolda", "draw-and-swap", 3), {"action": "draw_stock"})
    assert response.status_code == 400
    response = client.post(move_url("dolda", "draw-and-swap", 3), {"action": "swap"})
    assert response.status_code == 303


def test_a_step_with_one_possible_move_is_told_not_asked(client):
    """Issue #38 item 9: the draw from the stock, the only way to begin with the discard pile
    empty, is narrated: no move buttons, no stars to earn."""
    html = client.get(step_url("dolda", "draw-and-swap", 2)).content.decode()
    assert 'id="tutorial-move"' not in html and 'value="draw_stock"' not in html
    assert "drawing from the stock" in html


def test_spardame_pass_needs_three_cards(client):
    where = ("spardame", "passing", 2)
    html = client.post(move_url(*where), {"action": "pass", "card": ["QS", "AS"]},
                       follow=True).content.decode()
    assert 'data-feedback="illegal"' in html
    response = client.post(move_url(*where), {"action": "pass", "card": ["QS", "AS", "AH"]})
    assert response.status_code == 303


# ------------------------------------------------------------------ progress
def test_last_step_marks_the_tutorial_finished(client):
    response = client.get(step_url("dam", "svarta-maja", LAST))
    assert "dam:svarta-maja" in response.cookies[progress.COOKIE].value
    index = client.get(reverse("tutorials_dam")).content.decode()
    assert index.count("tutorial-list__item--done") == 1


def test_overview_lists_every_tutorial_with_ticks(client):
    client.get(step_url("spardame", "passing", 5))
    html = client.get(reverse("tutorials")).content.decode()
    assert html.count('<li class="tutorial-list__item') == len(lessons.TUTORIALS)
    assert html.count("tutorial-list__item--done") == 1


def test_reset_forgets_progress(client):
    client.get(step_url("spardame", "passing", 5))
    response = client.post(reverse("tutorials_reset"))
    assert response.status_code == 303
    assert response.cookies[progress.COOKIE].value == ""


def test_tampered_progress_cookie_is_ignored(client):
    client.cookies[progress.COOKIE] = "dam:nope.<script>.dam:endgame"
    html = client.get(reverse("tutorials_dam")).content.decode()
    assert html.count("tutorial-list__item--done") == 1


def test_game_indexes_exist_in_every_language(client):
    for language in ["sv", "fi", "nb", "en"]:
        for game in lessons.BY_GAME:
            with translation.override(language):
                url = reverse(f"tutorials_{game}")
            assert client.get(url).status_code == 200


def test_replays_never_show_a_state_the_engine_did_not_produce():
    for t in lessons.TUTORIALS.values():
        rp = replay(t.game, t.slug)
        assert len(rp.states) == len(rp.scn.steps) + 1


# ------------------------------------------------------------------ nothing hidden leaks
CARD_RE = re.compile(r'data-card="(\w\w)"|name="(?:card|target)" value="(\w\w)"')


def shown_codes(html: str) -> set[str]:
    return {a or b for a, b in CARD_RE.findall(html)}


def hidden_codes(tutorial, n) -> set[str]:
    """Cards the page may not show at step n: stock order, and (dolda) unknown row cards."""
    from rules.engine.cards import code
    rp = replay(tutorial.game, tutorial.slug)
    step = tutorial.steps[n - 1]
    state = rp.states[step.at - 1 if step.your_move else step.at]
    data = state.to_json()
    names = rp.scn.players
    if step.your_move:
        viewer = names.index(rp.scn.steps[step.at - 1].move.split()[0])
    else:
        viewer = names.index(tutorial.viewer) if tutorial.viewer else 0
    view = state.view(viewer)
    hidden = set()
    if tutorial.game == "dam":
        hidden = set(data["stock"]) - ({view["turned"]} if view["turned_in_stock"] else set())
    elif tutorial.game == "dolda":
        hidden = set(data["stock"])
        for owner, row in enumerate(data["rows"]):
            hidden |= {c for c, v in zip(row, view["rows"][owner]) if v is None}
        if data["held"] >= 0 and view["held"] is None:
            hidden.add(data["held"])
    elif data["phase"] == "pass":
        hidden = {c for s, ch in enumerate(data["chosen"]) if s != viewer and ch for c in ch}
    return {code(c) for c in hidden}


@pytest.mark.parametrize("game,slug,n", ALL_STEPS)
def test_no_hidden_card_in_any_step(client, game, slug, n):
    tutorial = lessons.get(game, slug)
    hidden = hidden_codes(tutorial, n)
    for headers in ({}, HX):
        html = client.get(step_url(game, slug, n), **headers).content.decode()
        assert not shown_codes(html) & hidden
    if tutorial.steps[n - 1].your_move:
        html = client.get(step_url(game, slug, n) + "?hint=1").content.decode()
        assert not shown_codes(html) & hidden


def test_a_refused_move_reveals_nothing_new(client):
    where = ("dolda", "draw-and-swap", 2)
    before = shown_codes(client.get(step_url(*where)).content.decode())
    after = shown_codes(client.post(move_url(*where), {"action": "swap"}).content.decode())
    assert after == before


def test_htmx_step_updates_the_links_that_name_its_address(client):
    html = client.get(step_url("dam", "svarta-maja", 4), **HX).content.decode()
    switcher = re.search(r'<nav id="language-switcher"[^>]*data-hx-swap-oob="true".*?</nav>', html, re.S)
    assert switcher and step_url("dam", "svarta-maja", 4, "fi") in switcher.group(0)
    assert re.search(r'<link id="alternate-nb" rel="alternate" hreflang="nb" href="[^"]*'
                     + re.escape(step_url("dam", "svarta-maja", 4, "nb")) + '" data-hx-swap-oob="true">',
                     html)
    assert (f'<input id="deck-next" type="hidden" name="next" '
            f'value="{step_url("dam", "svarta-maja", 4)}" data-hx-swap-oob="true">') in html


def test_htmx_move_updates_the_language_switcher_for_the_next_step(client):
    response = post(client, {"action": "beat", "card": "9S", "target": "3S"}, htmx=True)
    html = response.content.decode()
    assert step_url("dam", "svarta-maja", 4, "nb") in html
    assert f'value="{step_url("dam", "svarta-maja", 4)}?ok=1" data-hx-swap-oob="true"' in html


def test_head_request_on_a_step_is_answered(client):
    assert client.head(step_url("dam", "svarta-maja", 2)).status_code == 200


YOUR_MOVES = [(t.game, t.slug, n) for t in lessons.TUTORIALS.values()
              for n, s in enumerate(t.steps, start=1) if s.your_move]


def form_for(game, slug, n) -> dict:
    """The form a learner submits for the lesson's move, built only from what the page offers."""
    tutorial = lessons.get(game, slug)
    rp = replay(game, slug)
    words = rp.scn.steps[tutorial.steps[n - 1].at - 1].move.split()[1:]
    verb, rest = words[0], words[1:]
    if verb == "draw":
        return {"action": f"draw_{rest[0]}"}
    if verb == "beat":
        return {"action": "beat", "target": rest[0], "card": rest[1]}
    if verb == "announce":
        return {"action": "announce", "card": [f"K{rest[0]}", f"Q{rest[0]}"]}
    return {"action": verb, "card": rest}


@pytest.mark.parametrize("game,slug,n", YOUR_MOVES)
def test_every_your_move_step_can_be_completed_through_its_form(client, game, slug, n):
    html = client.get(step_url(game, slug, n)).content.decode()
    data = form_for(game, slug, n)
    assert f'name="action" value="{data["action"]}"' in html
    for code in ([data["card"]] if isinstance(data.get("card"), str) else data.get("card", [])):
        assert f'name="card" value="{code}"' in html
    response = client.post(move_url(game, slug, n), data)
    assert response.status_code == 303
    assert response["Location"] == step_url(game, slug, n + 1) + "?ok=1"


@pytest.mark.parametrize("game,slug,n", YOUR_MOVES)
def test_every_your_move_step_has_a_hint(client, game, slug, n):
    with translation.override("en"):
        html = client.get(step_url(game, slug, n) + "?hint=2", **HX).content.decode()
    assert 'id="tutorial-hint"' in html and "press “" in html.lower()


def test_refused_move_without_javascript_redirects_to_the_step_with_the_reason(client):
    response = post(client, {"action": "beat", "card": "2C", "target": "3S"})
    assert response.status_code == 303
    assert response["Location"].startswith(step_url(*BEAT) + "?fb=illegal&r=wrong_suit")
    with translation.override("en"):
        html = client.get(response["Location"]).content.decode()
    assert "Beat a card with a higher card of its own suit, or with a trump." in html
    assert 'name="card" value="2C" checked' in html and 'name="target" value="3S" checked' in html


def test_different_move_without_javascript_explains_on_the_step(client):
    response = post(client, {"action": "take"})
    html = client.get(response["Location"]).content.decode()
    assert 'data-feedback="different"' in html


@pytest.mark.parametrize("query", [
    "fb=illegal&r=no_such_reason", "fb=illegal&r=not_higher&c=ZZ", "fb=nope",
    "fb=illegal&r=not_higher&t=3S.9S", "fb=illegal&r=not_higher&s=" + ".".join(["2D"] * 20),
])
def test_tampered_feedback_query_is_ignored(client, query):
    response = client.get(step_url(*BEAT) + "?" + query)
    assert response.status_code == 200
    assert "data-feedback" not in response.content.decode()


def test_announce_hint_names_and_selects_the_king_and_queen(client):
    with translation.override("en"):
        html = client.get(step_url("dam", "variants", 2) + "?hint=2").content.decode()
    assert 'name="card" value="KH" checked' in html and 'name="card" value="QH" checked' in html
    assert "king of hearts" in html.split('id="tutorial-hint"', 1)[1].split("</p>", 1)[0]


# ------------------------------------------------------------------ hints and stars
LESSON = {"action": "beat", "card": "9S", "target": "3S"}  # the lesson's move at BEAT


def stars_of(client):
    return progress.stars(type("R", (), {"COOKIES": {
        progress.STARS_COOKIE: client.cookies[progress.STARS_COOKIE].value
        if progress.STARS_COOKIE in client.cookies else ""}})())


def test_first_hint_is_the_nudge_without_the_move(client):
    with translation.override("en"):
        html = client.get(step_url(*BEAT) + "?hint=1").content.decode()
        nudge = str(escape(lessons.get(*BEAT[:2]).steps[BEAT[2] - 1].nudge))
    assert nudge in html and 'id="tutorial-hint"' not in html
    assert 'checked' not in html.split('id="hand-1"', 1)[1].split("</ul>", 1)[0]
    assert '<input type="hidden" name="hint" value="2">' in html  # the next level offered


@pytest.mark.parametrize("hints,stars", [((), 3), (("1",), 2), (("1", "2"), 1), (("2",), 1)])
def test_a_solved_step_earns_the_stars_its_hints_left(client, hints, stars):
    for level in hints:
        client.get(step_url(*BEAT) + f"?hint={level}")
    html = post(client, LESSON, htmx=True).content.decode()
    assert stars_of(client) == {(f"{BEAT[0]}:{BEAT[1]}", BEAT[2]): stars}
    assert "★" * stars + "☆" * (3 - stars) in html


def test_skipping_earns_no_stars(client):
    client.get(step_url(*BEAT) + "?hint=1")
    client.get(step_url(BEAT[0], BEAT[1], BEAT[2] + 1))
    assert stars_of(client) == {}


def test_the_best_stars_are_kept_and_a_new_try_starts_without_help(client):
    post(client, LESSON)
    client.get(step_url(*BEAT) + "?hint=2")
    post(client, LESSON)
    assert stars_of(client)[(f"{BEAT[0]}:{BEAT[1]}", BEAT[2])] == 3
    client.get(step_url(*BEAT) + "?hint=2")
    post(client, LESSON)
    client.cookies.pop(progress.STARS_COOKIE)
    post(client, LESSON)  # the help was forgotten with the last solution
    assert stars_of(client)[(f"{BEAT[0]}:{BEAT[1]}", BEAT[2])] == 3


def test_lists_show_the_stars_earned(client):
    post(client, LESSON)
    tutorial = lessons.get(*BEAT[:2])
    moves = sum(s.your_move for s in tutorial.steps)
    for url in (reverse("tutorials"), reverse("tutorials_dam")):
        html = client.get(url).content.decode()
        assert f"3/{3 * moves}" in html
        assert f'aria-label="3 of {3 * moves} stars"' in html


def test_reset_forgets_stars_and_hints(client):
    client.get(step_url(*BEAT) + "?hint=1")
    post(client, LESSON)
    response = client.post(reverse("tutorials_reset"))
    for name in (progress.COOKIE, progress.STARS_COOKIE, progress.HELP_COOKIE):
        assert response.cookies[name].value == ""


@pytest.mark.parametrize("value", ["dam:svarta-maja:3:9", "dam:svarta-maja:1:3", "x:y:3:3",
                                   "dam:svarta-maja:3", "dam:svarta-maja:99999:3", "<b>"])
def test_tampered_stars_are_ignored(client, value):
    client.cookies[progress.STARS_COOKIE] = value
    assert client.get(reverse("tutorials")).status_code == 200
    assert stars_of(client) == {}


def test_without_javascript_the_next_step_shows_the_stars(client):
    client.get(step_url(*BEAT) + "?hint=1")
    response = post(client, LESSON)
    html = client.get(response["Location"]).content.decode()
    assert 'data-feedback="success"' in html and "★★☆" in html


def test_a_hint_has_its_own_address_and_refuses_garbage(client):
    assert 'id="tutorial-nudge"' not in client.get(step_url(*BEAT) + "?hint=7").content.decode()
    assert 'id="tutorial-nudge"' not in client.get(
        step_url("dam", "svarta-maja", 2) + "?hint=1").content.decode()  # no move to hint at


@pytest.mark.parametrize("htmx", [False, True])
def test_tutorial_pages_never_touch_the_database(client, django_assert_num_queries, htmx):
    """Tutorials are files and cookies only; so their tests cannot differ between databases."""
    extra = HX if htmx else {}
    with django_assert_num_queries(0):
        client.get(reverse("tutorials"))
        client.get(reverse("tutorials_dam"))
        client.get(step_url(*BEAT), **extra)
        client.get(step_url(*BEAT) + "?hint=1", **extra)
        post(client, {"action": "take"}, htmx=htmx)
        post(client, LESSON, htmx=htmx)
        client.post(reverse("tutorials_reset"))


# ------------------------------------------------------------------ a fresh load shows the same
def _main(html: str) -> str:
    """The #tutorial markup of a page or an htmx answer, without the CSRF token."""
    html = CSRF.sub("", html)
    start = html.index('<div id="tutorial-progress"')
    return html[start:html.index('<p class="tutorial-keys">', start)]


def _with_cookies(client, response) -> None:
    for name, morsel in response.cookies.items():
        if morsel.value:
            client.cookies[name] = morsel.value
        else:
            client.cookies.pop(name, None)


@pytest.mark.parametrize("data,kind", [
    ({"action": "beat", "card": "9S", "target": "3S"}, "success"),
    ({"action": "beat", "card": "2C", "target": "3S"}, "illegal"),
    ({"action": "take"}, "different"),
])
def test_after_an_htmx_move_a_fresh_load_of_the_address_shows_the_same(client, data, kind):
    """The address htmx leaves in the bar, loaded afresh (a reload), shows what the answer
    showed: the praise and stars after a solved step, the reason after a refused move."""
    with translation.override("en"):
        response = post(client, data, htmx=True)
        _with_cookies(client, response)
        assert f'data-feedback="{kind}"' in response.content.decode()
        fresh = client.get(response["HX-Push-Url"]).content.decode()
    assert _main(fresh) == _main(response.content.decode())


def test_a_solved_step_shows_its_stars_when_visited_again(client):
    with translation.override("en"):
        _with_cookies(client, post(client, {"action": "beat", "card": "9S", "target": "3S"}))
        html = client.get(step_url(*BEAT)).content.decode()
    assert 'id="tutorial-solved"' in html and 'aria-label="3 stars of 3"' in html
    assert "Solved without help." in html
    assert 'name="action" value="beat"' in html  # it can be played again


def test_an_unsolved_step_shows_no_stars(client):
    html = client.get(step_url(*BEAT)).content.decode()
    assert 'id="tutorial-solved"' not in html


# ------------------------------------------------------------------ the end of a lesson
def _solve_all(client, game, slug):
    tutorial = lessons.get(game, slug)
    for n, s in enumerate(tutorial.steps, start=1):
        if s.your_move:
            _with_cookies(client, client.post(move_url(game, slug, n), form_for(game, slug, n)))


def test_the_last_step_ends_the_lesson_with_stars_recap_and_what_next(client):
    game, slug = "dam", "anna-bo-cilla"
    tutorial = lessons.get(game, slug)
    _solve_all(client, game, slug)
    moves = sum(s.your_move for s in tutorial.steps)
    with translation.override("en"):
        html = client.get(step_url(game, slug, len(tutorial.steps))).content.decode()
        rules = reverse("rules_dam")
        practise = reverse("practice_dam") + "?preset=svarta-maja"
    end = html[html.index('id="tutorial-end"'):html.index("</section>", html.index('id="tutorial-end"'))]
    assert "Lesson complete" in end
    assert f"{3 * moves}/{3 * moves}" in end
    rule_ids = list(dict.fromkeys(s.rule for s in tutorial.steps))
    assert re.findall(rf'href="{rules}#([A-Z]-[A-Z0-9]+)"', end) == rule_ids
    assert f'href="{step_url(game, "aino-eero-maija", 1)}"' in end  # the next lesson
    assert f'href="{escape(practise)}"' in end


def test_the_next_lesson_skips_finished_ones_and_moves_to_the_next_game():
    dam = lessons.BY_GAME["dam"]
    done = {t.key for t in dam}
    assert lessons.next_lesson(dam[-1], done) is lessons.BY_GAME["dolda"][0]
    assert lessons.next_lesson(dam[0], {dam[1].key}) is dam[2]
    assert lessons.next_lesson(None, set()) is dam[0]
    assert lessons.next_lesson(None, {t.key for t in lessons.ORDER}) is None


def test_the_practise_link_carries_the_lessons_rules(client):
    with translation.override("en"):
        html = client.get(step_url("dam", "variants", len(lessons.get("dam", "variants").steps))
                          ).content.decode()
        link = re.search(r'id="tutorial-practise" class="[^"]*" href="([^"]+)"', html).group(1)
        form = client.get(link.replace("&amp;", "&")).content.decode()
    assert "preset=aldre-svensk" in link and "opt_extra_attack=true" in link
    assert '<option value="aldre-svensk" selected' in form
    assert re.search(r'name="opt_extra_attack"[^>]*>\s*<option value=""[^>]*>[^<]*</option>\s*'
                     r'<option value="false">[^<]*</option>\s*<option value="true" selected>',
                     form)


def test_an_unknown_rule_in_the_practise_link_is_ignored(client):
    with translation.override("en"):
        r = client.get(reverse("practice_dam") + "?opt_extra_attack=maybe&opt_nope=1")
    assert r.status_code == 200 and " selected>yes" not in r.content.decode()


# ------------------------------------------------------------------ the lesson map and the way in
def test_the_lesson_map_groups_by_stage_and_marks_the_next_lesson(client):
    with translation.override("en"):
        html = client.get(reverse("tutorials_dam")).content.decode()
    stages = re.findall(r'<h2 class="tutorial-stage-title">([^<]+)</h2>', html)
    assert stages == ["The rules", "Playing well", "Variants"]
    first = lessons.BY_GAME["dam"][0]
    nxt = re.search(r'tutorial-list__item--next">\s*<strong[^>]*>Next:</strong> <a href="([^"]+)"',
                    html)
    assert nxt and nxt.group(1) == step_url("dam", first.slug, 1)


def test_the_next_lesson_on_the_map_moves_on_when_one_is_finished(client):
    first, second = lessons.BY_GAME["dam"][:2]
    client.cookies[progress.COOKIE] = first.key
    with translation.override("en"):
        html = client.get(reverse("tutorials_dam")).content.decode()
    nxt = re.search(r'tutorial-list__item--next">\s*<strong[^>]*>Next:</strong> <a href="([^"]+)"',
                    html)
    assert nxt and nxt.group(1) == step_url("dam", second.slug, 1)


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_home_page_leads_a_newcomer_to_each_games_first_lesson(client, language):
    with translation.override(language):
        html = client.get(reverse("home")).content.decode()
        for game, tutorials in lessons.BY_GAME.items():
            assert f'href="{step_url(game, tutorials[0].slug, 1, language)}"' in html
    way_in = html[html.index('class="way-in"'):html.index("</section>", html.index('class="way-in"'))]
    assert way_in.count('data-card="') >= 6  # pictures of real positions
    assert "way-in__continue" not in way_in


def test_a_returning_visitor_is_offered_the_next_lesson(client):
    first, second = lessons.BY_GAME["dam"][:2]
    client.cookies[progress.COOKIE] = first.key
    with translation.override("en"):
        html = client.get(reverse("home")).content.decode()
    cont = re.search(r'class="way-in__continue"><a class="way-in__button" href="([^"]+)">'
                     r'Continue: ([^<]+)</a>', html)
    assert cont and cont.group(1) == step_url("dam", second.slug, 1)
    with translation.override("en"):
        assert str(second.title) in cont.group(2)


def test_the_kept_home_page_keeps_each_visitors_own_continue(client):
    """The home page is kept once rendered (web/pagecache.py): a newcomer after a returning
    visitor, and a visitor further on, each see their own way in."""
    first, second, third = lessons.BY_GAME["dam"][:3]
    with translation.override("en"):
        home = reverse("home")
        client.cookies[progress.COOKIE] = first.key
        assert step_url("dam", second.slug, 1) in client.get(home).content.decode()
        client.cookies[progress.COOKIE] = f"{first.key}.{second.key}"
        html = client.get(home).content.decode()
        assert step_url("dam", third.slug, 1) in html.split('way-in__continue')[1][:300]
        client.cookies.pop(progress.COOKIE)
        assert "way-in__continue" not in client.get(home).content.decode()
