"""The review's step pages: a finished deal stepped through with every hand open, the flagged
decisions marked on the cards, each step its own address."""

from __future__ import annotations

import random
import re
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import translation

from games.adapters import adapter
from games.table import mark_cards, table_context
from practice import service as P
from practice.models import PracticeGame
from rules.engine import cards as C

from .helpers import start, url
from .test_review import finish

pytestmark = pytest.mark.django_db
GAMES = ["dam", "dolda", "spardame"]


@pytest.fixture(autouse=True)
def quick(monkeypatch):
    monkeypatch.setattr(P, "ANALYSIS_PLAYOUTS", {"dam": 12, "dolda": 8, "spardame": 12})
    with translation.override("en"):
        yield


def step_url(record: PracticeGame, n: int, language: str = "en") -> str:
    with translation.override(language):
        return reverse(f"practice_{record.game}_review_step", args=[record.pk, n])


def reviewed(client, game: str, seed: int = 1) -> PracticeGame:
    record = finish(start(client, game), seed)
    P.review_step(record)
    record.refresh_from_db()
    return record


def flag_all(record: PracticeGame) -> None:
    """Every analysed decision flagged where the strong bot prefers another move (the analysis'
    own ``flagged``), so that each game has some to show whatever the random moves cost."""
    review = record.review
    for item in review["items"]:
        played = record.actions[item["index"]].split(maxsplit=1)[1]
        item["flagged"] = item["best"] != played
        item["cost"] = max(item["cost"], 1.0) if item["flagged"] else item["cost"]
    PracticeGame.objects.filter(pk=record.pk).update(review=review)
    record.refresh_from_db()


def flagged_indices(record: PracticeGame) -> list[int]:
    return sorted(i["index"] for i in record.review["items"] if i.get("flagged"))


CSRF = re.compile(r'name="csrfmiddlewaretoken" value="[^"]+"')


def main_part(html: str) -> str:
    """The step's own markup (#review-step) of a page or an htmx answer, the CSRF token
    (masked anew on every answer) left out."""
    start_at = html.index('<div id="review-step"')
    end_at = html.index("</article>", start_at) if "</article>" in html[start_at:] else (
        html.index('<link id="alternate-', start_at))
    return CSRF.sub("", html[start_at:end_at]).strip()


# --------------------------------------------------------------------------- every step
@pytest.mark.parametrize("game", GAMES)
def test_every_step_of_the_deal_opens_with_every_hand_and_the_flagged_marks(client, game):
    record = reviewed(client, game)
    flag_all(record)
    flagged = flagged_indices(record)
    assert flagged, "the random player made no choice the strong bot would change"
    game_adapter = adapter(game)
    frames = P.review_walk(record).frames
    for n in range(len(record.actions) + 1):
        r = client.get(step_url(record, n))
        assert r.status_code == 200, n
        html = r.content.decode()
        assert f'data-step="{n}"' in html
        # Every hand open: each seat's hidden cards are on the page once the deal is over.
        view, reveal, _ = game_adapter.open_view(frames[n].state, record.human_seat)
        for cards in reveal.values():
            for card in cards:
                assert f'data-card="{C.code(card)}"' in html, (n, C.code(card))
        if n in flagged:
            assert 'class="practice-decision practice-decision--flagged"' in html
            assert f'name="move" value="{n}"' in html and "Try it again" in html
            assert "Estimated cost of your choice: about" in html
            played, best = P.review_moves(record, P.review_walk(record), n)
            for kind, action in (("played", played), ("best", best)):
                for card in game_adapter.move_cards(view, action):
                    tag = re.search(rf'<span class="card [^"]*card--{kind}[^"]*" role="img" '
                                    rf'aria-label="([^"]+)" data-card="{C.code(card)}"', html)
                    assert tag, (n, kind, C.code(card))
                    words = "you played it" if kind == "played" else "the strong bot prefers it"
                    assert words in tag.group(1)
        else:
            assert "card--played" not in html and "card--best" not in html
            assert "practice-decision--flagged" not in html


@pytest.mark.parametrize("game", GAMES)
def test_the_list_of_flagged_decisions_links_to_their_steps(client, game):
    record = reviewed(client, game)
    flag_all(record)
    html = client.get(step_url(record, 0)).content.decode()
    listed = re.findall(r'<li><a href="([^"]+)" data-hx-get="\1"', html)
    assert listed == [step_url(record, i) for i in flagged_indices(record)]
    # The current one is marked as such on its own step.
    first = flagged_indices(record)[0]
    current = client.get(step_url(record, first)).content.decode()
    assert f'href="{step_url(record, first)}" data-hx-get="{step_url(record, first)}" ' \
           f'data-hx-target="#review-step" data-hx-swap="outerHTML" data-hx-push-url="true" ' \
           f'aria-current="step"' in current


def test_played_and_preferred_cards_are_told_apart_by_words_and_frame(client, monkeypatch):
    # One fixed deal (random deals once found a received card tagged twice, on the hand and
    # on its "Received:" reminder: test_a_received_card_is_marked_in_the_hand_only_…).
    rng = random.Random("played-and-preferred")
    monkeypatch.setattr(P, "new_seeds", lambda: (rng.getrandbits(128), rng.getrandbits(63)))
    record = reviewed(client, "spardame")
    flag_all(record)
    walk = P.review_walk(record)
    for index in flagged_indices(record):
        played, best = P.review_moves(record, walk, index)
        if set(adapter("spardame").hand_cards(played)).isdisjoint(
                adapter("spardame").hand_cards(best)):
            break
    else:
        pytest.skip("no flagged decision with separate cards in this deal")
    html = client.get(step_url(record, index)).content.decode()
    assert html.count('card__tag--played">You<') == len(adapter("spardame").hand_cards(played))
    assert html.count('card__tag--best">Best<') == len(adapter("spardame").hand_cards(best))
    assert 'mark-key--played" aria-hidden="true">You<' in html
    assert 'mark-key--best" aria-hidden="true">Best<' in html


def test_a_decision_that_is_not_flagged_says_what_you_chose_without_marks(client, monkeypatch):
    # One fixed deal: on a random one the random player once chose a move other than the strong
    # bot's at every analysed decision, leaving none to show.
    rng = random.Random("a-quiet-decision")
    monkeypatch.setattr(P, "new_seeds", lambda: (rng.getrandbits(128), rng.getrandbits(63)))
    record = reviewed(client, "dam")
    flag_all(record)
    quiet = [i["index"] for i in record.review["items"] if not i["flagged"]]
    assert quiet
    html = client.get(step_url(record, quiet[0])).content.decode()
    assert "You chose:" in html and "no choice here that is clearly better" in html
    assert "card--played" not in html and "Try it again" not in html


def test_missing_flag_means_cost_above_the_games_floor(client, monkeypatch):
    record = reviewed(client, "dam")
    review = record.review
    for item in review["items"]:
        item.pop("flagged", None)
        item["cost"] = 0.0
    review["items"][0]["cost"] = 0.5
    review["items"][1]["cost"] = 0.5
    review["items"][1]["flagged"] = False  # the analysis' own word wins
    PracticeGame.objects.filter(pk=record.pk).update(review=review)
    record.refresh_from_db()
    walk = P.review_walk(record)
    assert [e["index"] for e in walk.flagged] == [review["items"][0]["index"]]


def test_steps_before_the_analysis_is_done_show_the_cards_and_say_so(client):
    record = finish(start(client, "spardame"))
    decision = P._decisions(record, P._frames(record))[0]
    html = client.get(step_url(record, decision)).content.decode()
    assert "This decision is not analysed yet." in html
    assert "The analysis of your decisions is not finished yet." in html
    assert url(record, "review") in html
    record.refresh_from_db()
    assert record.review is None  # the step pages analyse nothing


def test_an_old_analysis_of_a_deal_undone_since_is_not_shown(client):
    record = reviewed(client, "dam")
    flag_all(record)
    review = record.review
    review["version"] = record.version - 1
    PracticeGame.objects.filter(pk=record.pk).update(review=review)
    html = client.get(step_url(record, flagged_indices(record)[0])).content.decode()
    assert "card--played" not in html and "not analysed yet" in html


# --------------------------------------------------------------------------- htmx = fresh load
@pytest.mark.parametrize("game", GAMES)
def test_an_htmx_step_is_the_fresh_load_of_its_address(client, game):
    record = reviewed(client, game)
    flag_all(record)
    for n in sorted({0, 1, *flagged_indices(record)[:3], len(record.actions)}):
        address = step_url(record, n)
        fresh = client.get(address).content.decode()
        swapped = client.get(address, HTTP_HX_REQUEST="true").content.decode()
        assert not swapped.lstrip().startswith("<!DOCTYPE")
        assert main_part(swapped) == main_part(fresh), n
        # The language links follow the step (out-of-band), as a fresh load's do.
        with translation.override("sv"):
            sv = reverse(f"practice_{game}_review_step", args=[record.pk, n])
        assert f'href="http://testserver{sv}"' in swapped and f'href="http://testserver{sv}"' in fresh


def test_the_step_links_are_real_addresses_with_htmx_swaps(client):
    record = reviewed(client, "dam")
    html = client.get(step_url(record, 1)).content.decode()
    for which, n in (("start", 0), ("prev", 0), ("next", 2), ("end", len(record.actions))):
        link = re.search(rf'<a class="button" id="review-step-{which}"[^>]*>', html).group(0)
        assert f'href="{step_url(record, n)}"' in link and f'data-hx-get="{step_url(record, n)}"' in link
        assert 'data-hx-push-url="true"' in link
    end = client.get(step_url(record, len(record.actions))).content.decode()
    assert 'id="review-step-next"' not in end and 'id="review-step-prev"' in end


# --------------------------------------------------------------------------- refusals
@pytest.mark.parametrize("step", [1, 50, 10**30])
def test_a_step_past_the_end_is_a_translated_not_found(client, step):
    record = reviewed(client, "dam")
    n = len(record.actions) + step
    r = client.get(step_url(record, n))
    assert r.status_code == 404
    assert f"This deal has no move {n}: it has {len(record.actions)} moves." in r.content.decode()
    assert step_url(record, 0) in r.content.decode()
    with translation.override("fi"):
        fi = client.get(step_url(record, n, "fi"))
    assert fi.status_code == 404 and "This deal has no move" not in fi.content.decode()


@pytest.mark.parametrize("tail", ["-1/", "x/", "1.5/", "%20/"])
def test_a_step_that_is_no_number_is_not_found(client, tail):
    record = reviewed(client, "dam")
    r = client.get(url(record, "review") + tail)
    assert r.status_code == 404


def test_no_review_before_the_deal_is_over(client):
    record = start(client, "dam")
    r = client.get(step_url(record, 0))
    assert r.status_code == 409
    html = r.content.decode()
    assert "review the deal once it is over" in html
    assert 'id="review-step"' not in html
    # Nothing but the player's own cards: the other hands stay hidden.
    state = P.load(record).state
    for seat in range(len(record.names)):
        if seat != record.human_seat:
            for card in state.view(seat)["hand"]:
                assert f'data-card="{C.code(card)}"' not in html


def test_another_browser_gets_the_not_found_page(client):
    record = reviewed(client, "spardame")
    stranger = Client()
    r = stranger.get(step_url(record, 0))
    assert r.status_code == 404
    assert "kept in the browser that started them" in r.content.decode()
    stranger.get(reverse("practice_dam"))  # a session of its own, with no games
    assert stranger.get(step_url(record, 1)).status_code == 404


def test_the_review_page_links_each_listed_decision_to_its_step(client, monkeypatch):
    monkeypatch.setattr(P, "MISTAKE_FLOOR", {"dam": 0.0, "dolda": 0.0, "spardame": 0.0})
    # A deal whose review lists a decision: random play nearly always makes a clear mistake,
    # but at the few playouts of these tests an odd deal (its cards are random) has none.
    for seed in range(1, 6):
        record = reviewed(client, "spardame", seed)
        progress = P.review_step(record)
        listed = P.review_costliest(record, progress)
        if listed:
            break
    assert listed
    html = client.get(url(record, "review")).content.decode()
    for item in listed:
        assert f'href="{step_url(record, item["index"])}"' in html
    first = min(item["index"] for item in listed)
    assert re.search(rf'id="review-walk" href="{step_url(record, first)}"', html)


# --------------------------------------------------------------------------- the marks
def test_mark_cards_marks_every_face_up_copy_and_nothing_else():
    state = adapter("spardame").engine.new_game(
        adapter("spardame").engine.Options(), ["A", "B", "C", "D"], 3, 5, None)
    view, reveal, _ = adapter("spardame").open_view(state, 0)
    table = table_context(view, reveal=reveal, you=0)
    mine, theirs = view["hand"][0], reveal[1][0]
    mark_cards(table, {mine: ["played"], theirs: ["played", "best"]})
    marked = {}

    def walk(value):
        if isinstance(value, dict):
            if value.get("mark") is not None:  # every card has the key; unmarked ones None
                marked[value["code"]] = value["mark"]
            for v in value.values():
                walk(v)
        elif isinstance(value, list):
            for v in value:
                walk(v)

    walk(table)
    assert set(marked) == {C.code(mine), C.code(theirs)}
    assert marked[C.code(theirs)]["kinds"] == ["played", "best"]
    assert marked[C.code(theirs)]["label"].endswith("(you played it; the strong bot prefers it)")


def test_a_received_card_is_marked_in_the_hand_only_not_on_its_reminder():
    """Spardame's "Received:" note shows cards that are in the hand too: a played card that
    was received was tagged twice ("You" on the hand and on the note)."""
    engine = adapter("spardame").engine
    state = engine.new_game(engine.Options(), ["A", "B", "C", "D"], 3, 5, None)
    while state.view(0)["phase"] == "pass":
        state.apply_in_place(next(iter(state.legal_actions())))
    view = state.view(0)
    got = view["received"][0]
    assert got in view["hand"]
    table = table_context(view, you=0)
    mark_cards(table, {got: ["played"]})
    tags: list[Any] = []

    def walk(value):
        if isinstance(value, dict):
            if value.get("mark") is not None:
                tags.append(value)
            for v in value.values():
                walk(v)
        elif isinstance(value, list):
            for v in value:
                walk(v)
    walk(table)
    assert len(tags) == 1 and not tags[0].get("note")


def test_dolda_moves_mark_the_cards_they_use():
    from rules.engine.dolda import Action

    game = adapter("dolda")
    view = {"rows": [[1, 2, 3, 4], [5, 6, 7, 8]], "held": 9, "discard_top": 10,
            "next_position": 2}
    assert game.move_cards(view, Action(0, "draw", "discard")) == (10,)
    assert game.move_cards(view, Action(0, "draw", "stock")) == ()
    assert game.move_cards(view, Action(0, "swap")) == (2,)
    assert game.move_cards(view, Action(0, "discard")) == (9,)
    assert game.move_cards(view, Action(0, "shield", positions=(0, 3))) == (1, 4)
    assert game.move_cards(view, Action(0, "steal", positions=(1, 2), victim=1)) == (2, 7)


def test_an_htmx_step_of_a_deal_undone_since_loads_the_whole_page_that_says_why(client):
    record = reviewed(client, "dam")
    address = step_url(record, 1)
    P.undo(record, record.version)
    r = client.get(address, HTTP_HX_REQUEST="true")
    assert r.status_code == 204 and r["HX-Redirect"] == address
    page = client.get(address)
    assert page.status_code == 409 and "review the deal once it is over" in page.content.decode()
    past = client.get(step_url(record, 10**6), HTTP_HX_REQUEST="true")
    assert past.status_code == 204 and past["HX-Redirect"] == step_url(record, 10**6)


def test_dam_moves_mark_the_hand_cards_and_the_card_beaten():
    game = adapter("dam")
    ten, nine, five = C.parse("TH"), C.parse("9H"), C.parse("5C")
    assert game.move_cards({}, ("beat", 0, nine, ten)) == (ten, nine)
    assert game.move_cards({}, ("attack", 0, (five, nine))) == (five, nine)
    assert game.move_cards({}, ("take", 0)) == ()
