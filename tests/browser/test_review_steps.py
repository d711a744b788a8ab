"""The review's step pages in Debian's Chromium on a phone: a finished deal walked with the arrow
keys, the flagged decision marked on the cards, each step equal to a fresh load of its address."""

from __future__ import annotations

import difflib
import random
import re

import pytest
from axe_playwright_python.sync_playwright import Axe
from django.urls import reverse
from django.utils import translation
from playwright.sync_api import expect

from games.adapters import adapter
from practice import service as P
from practice.models import PracticeGame
from tests.browser.test_screens import SMALL_TARGETS

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 375, "height": 740}
CSRF = re.compile(r'name="csrfmiddlewaretoken" value="[^"]+"')


@pytest.fixture(autouse=True)
def quick(settings, monkeypatch):
    settings.PRACTICE_BOT_DELAY_MS = 30
    monkeypatch.setattr(P, "ANALYSIS_PLAYOUTS", {"dam": 12, "dolda": 8, "spardame": 12})


def finished_and_reviewed(page, live_server, language: str) -> PracticeGame:
    """A Spardame deal started in the page (the browser owns it), played to its end in the
    service with random moves for the player, analysed, and each decision where the strong bot
    prefers another move flagged (the analysis' own ``flagged``)."""
    with translation.override(language):
        page.goto(live_server.url + reverse("practice_spardame"))
    page.select_option("#id_level", "easy")
    page.locator("form.practice-form button[type=submit]").click()
    page.wait_for_selector("#game")
    record = PracticeGame.objects.latest("created")
    rng = random.Random(4)
    module = adapter("spardame").engine
    while not P.load(record).state.over:
        state = P.load(record).state
        if P.is_bot_turn(record, state):
            P.step_bot(record, record.version)
        else:
            acts = list(state.legal_actions())
            P.human_move(record, record.version,
                         module.format_action(acts[rng.randrange(len(acts))]).split())
        record.refresh_from_db()
    P.review_step(record)
    record.refresh_from_db()
    review = record.review
    for item in review["items"]:
        item["flagged"] = item["best"] != record.actions[item["index"]].split(maxsplit=1)[1]
        item["cost"] = max(item["cost"], 1.0) if item["flagged"] else item["cost"]
    PracticeGame.objects.filter(pk=record.pk).update(review=review)
    record.refresh_from_db()
    return record


def settled(page) -> None:
    expect(page.locator(".htmx-request, .htmx-swapping, .htmx-settling")).to_have_count(0)


def step_url(record: PracticeGame, n: int, language: str = "en") -> str:
    with translation.override(language):
        return reverse("practice_spardame_review_step", args=[record.pk, n])


def test_walk_the_review_with_the_arrow_keys_on_a_phone(page, live_server):
    page.set_viewport_size(PHONE)
    record = finished_and_reviewed(page, live_server, "en")
    walk = P.review_walk(record)
    game = adapter("spardame")
    separate = []
    for entry in walk.flagged:
        played, best = P.review_moves(record, walk, entry["index"])
        if not set(game.hand_cards(played)) & set(game.hand_cards(best)):
            separate.append(entry["index"])
    assert separate, "no flagged decision with cards of its own"
    target = next((i for i in separate if i >= 2), separate[0])
    start = max(target - 2, 0)
    page.goto(live_server.url + step_url(record, start))
    page.locator("body").focus()
    for n in range(start + 1, target + 1):
        page.keyboard.press("ArrowRight")
        expect(page.locator("#review-step")).to_have_attribute("data-step", str(n))
    expect(page).to_have_url(re.compile(rf"/review/{target}/$"))
    settled(page)

    # The marks, seen as a learner sees them: on the cards, in words, within the screen.
    played = page.locator(".game-table .card--played")
    best = page.locator(".game-table .card--best")
    expect(played.first).to_be_visible()
    expect(best.first).to_be_visible()
    expect(played.first.locator(".card__tag--played")).to_have_text("You")
    expect(best.first.locator(".card__tag--best")).to_have_text("Best")
    assert "you played it" in played.first.get_attribute("aria-label")
    assert "the strong bot prefers it" in best.first.get_attribute("aria-label")
    # Told apart by more than colour: the frames differ in style.
    styles = [loc.first.evaluate("e => getComputedStyle(e).outlineStyle") for loc in (played, best)]
    assert styles == ["dashed", "solid"]
    for loc in (played.first, best.first):
        box = loc.bounding_box()
        assert box is not None and 0 <= box["x"] and box["x"] + box["width"] <= PHONE["width"]
    expect(page.locator(".practice-decision--flagged")).to_contain_text("Estimated cost")
    expect(page.get_by_role("button", name="Try it again")).to_be_visible()
    expect(page.locator('.practice-flags__list a[aria-current="step"]')).to_have_attribute(
        "href", step_url(record, target))
    assert page.evaluate("document.documentElement.scrollWidth - window.innerWidth") <= 0
    assert page.evaluate(SMALL_TARGETS) == []
    results = Axe().run(page)
    assert results.violations_count == 0, results.generate_report()

    # The page after the steps is the fresh load of its address, the links to the other
    # languages included.
    with translation.override("sv"):
        sv = reverse("practice_spardame_review_step", args=[record.pk, target])
    expect(page.locator('#language-switcher a[hreflang="sv"]')).to_have_attribute(
        "href", live_server.url + sv)
    stepped = CSRF.sub("", page.locator("#review-step").inner_html())
    title = page.title()
    page.reload()
    fresh = CSRF.sub("", page.locator("#review-step").inner_html())
    assert fresh == stepped, "\n".join(
        difflib.unified_diff(fresh.split(">"), stepped.split(">"), lineterm=""))
    assert page.title() == title

    # End: the deal's last position, no decision, no marks; Home: the deal.
    page.locator("body").focus()
    page.keyboard.press("End")
    expect(page.locator("#review-step")).to_have_attribute("data-step", str(len(record.actions)))
    expect(page.locator(".card--played, .card--best")).to_have_count(0)
    page.keyboard.press("Home")
    expect(page.locator("#review-step")).to_have_attribute("data-step", "0")
    expect(page).to_have_url(re.compile(r"/review/0/$"))
    # A flagged decision in the list is one tap away, and the tap brings its marked cards
    # into view (the list is below them): on a phone, and on a laptop.
    last = walk.flagged[-1]["index"]
    page.locator(".practice-flags__list a").last.click()
    expect(page.locator("#review-step")).to_have_attribute("data-step", str(last))
    expect(page.locator(".practice-decision--flagged")).to_be_visible()
    expect(page.locator("#card-table")).to_be_in_viewport()
    page.set_viewport_size({"width": 1280, "height": 800})
    page.locator(".practice-flags__list a").first.click()
    expect(page.locator("#review-step")).to_have_attribute("data-step",
                                                           str(walk.flagged[0]["index"]))
    page.locator(".practice-flags__list a").last.click()
    expect(page.locator("#review-step")).to_have_attribute("data-step", str(last))
    expect(page.locator(".game-table .card--best").first).to_be_in_viewport()
    results = Axe().run(page)
    assert results.violations_count == 0, results.generate_report()
    # Try it again opens the position as a puzzle.
    page.get_by_role("button", name="Try it again").click()
    page.wait_for_selector(".practice-puzzle")
    puzzle = PracticeGame.objects.get(puzzle_of=record)
    assert puzzle.actions == record.actions[:last]
