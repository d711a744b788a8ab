"""Tutorials in Debian's Chromium: keyboard and click walks, a "your move" step, axe, 375 px."""

import re

import pytest
from axe_playwright_python.sync_playwright import Axe
from django.urls import reverse
from django.utils import translation
from playwright.sync_api import expect

from tests.pages import LANGUAGES

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
SLUG = "anna-bo-cilla"
LAST = 10  # its number of steps; step 3 asks Bo to answer 5C 9C QC (the lesson: 8C on 5C)


def step_url(live_server, language, n, game="dam", slug=SLUG):
    with translation.override(language):
        return live_server.url + reverse(f"tutorial_step_{game}", kwargs={"slug": slug, "step": n})


def settled(page):
    busy = page.locator(".htmx-request, .htmx-swapping, .htmx-settling, .htmx-added")
    expect(busy).to_have_count(0)


def at_step(page, live_server, language, n):
    expect(page).to_have_url(step_url(live_server, language, n))
    expect(page.locator("#tutorial-progressbar")).to_have_attribute("value", str(n))
    settled(page)


def mark_page(page):
    page.evaluate("window.__sameDocument = true")


def still_same_document(page) -> bool:
    return page.evaluate("window.__sameDocument === true")


@pytest.mark.parametrize("language", LANGUAGES)
def test_walk_forwards_and_back_with_the_keyboard(page, live_server, language):
    page.goto(step_url(live_server, language, 1))
    mark_page(page)
    first = page.locator("#tutorial-narration").inner_text()
    page.keyboard.press("ArrowRight")
    at_step(page, live_server, language, 2)
    assert page.locator("#tutorial-narration").inner_text() != first
    page.keyboard.press(" ")
    at_step(page, live_server, language, 3)
    page.keyboard.press("ArrowLeft")
    at_step(page, live_server, language, 2)
    page.keyboard.press("ArrowLeft")
    at_step(page, live_server, language, 1)
    assert page.locator("#tutorial-narration").inner_text() == first
    assert still_same_document(page)  # htmx swapped the stage; no page load
    assert page.locator("html").get_attribute("lang") == language


@pytest.mark.parametrize("language", LANGUAGES)
def test_walk_forwards_and_back_with_clicks(page, live_server, language):
    page.goto(step_url(live_server, language, LAST - 2))
    mark_page(page)
    for n in (LAST - 1, LAST):
        page.locator("#tutorial-next").click()
        at_step(page, live_server, language, n)
    assert page.locator("#tutorial-next").count() == 0
    page.locator("#tutorial-back").click()
    at_step(page, live_server, language, LAST - 1)
    assert still_same_document(page)
    page.go_back()
    at_step(page, live_server, language, LAST)


@pytest.mark.parametrize("language,target", [("en", "sv"), ("fi", "nb")])
def test_switching_language_after_htmx_steps_keeps_the_step(page, live_server, language, target):
    page.goto(step_url(live_server, language, 1))
    page.locator("#tutorial-next").click()
    at_step(page, live_server, language, 2)
    page.locator(f'.language-switcher a[hreflang="{target}"]').click()
    expect(page).to_have_url(step_url(live_server, target, 2))
    assert page.locator("html").get_attribute("lang") == target


def pick(page, code, name="card"):
    page.locator(f'label.pick:has(input[name="{name}"][value="{code}"])').click()


@pytest.mark.parametrize("language", LANGUAGES)
def test_your_move_after_an_illegal_and_a_different_move(page, live_server, language):
    page.goto(step_url(live_server, language, 3))
    mark_page(page)
    feedback = page.locator("#tutorial-narration [data-feedback]")
    # Illegal: the eight of clubs cannot beat the nine.
    pick(page, "8C")
    pick(page, "9C", name="target")
    page.locator('button[name="action"][value="beat"]').click()
    expect(feedback).to_have_attribute("data-feedback", "illegal")
    settled(page)
    # Legal but not the lesson's move: taking the cards.
    page.locator('button[name="action"][value="take"]').click()
    expect(feedback).to_have_attribute("data-feedback", "different")
    settled(page)
    # Still step 3, at the address of its reason (a fresh load of it shows the same).
    expect(page).to_have_url(re.compile(re.escape(step_url(live_server, language, 3)) + r"\?fb=different"))
    expect(page.locator("#tutorial-progressbar")).to_have_attribute("value", "3")
    # The lesson's move.
    if not page.locator('input[name="card"][value="8C"]').is_checked():
        pick(page, "8C")
    pick(page, "5C", name="target")
    page.locator('button[name="action"][value="beat"]').click()
    expect(page).to_have_url(step_url(live_server, language, 4) + "?ok=1")
    expect(page.locator("#tutorial-progressbar")).to_have_attribute("value", "4")
    expect(feedback).to_have_attribute("data-feedback", "success")
    assert still_same_document(page)


def test_your_move_works_without_javascript(browser, live_server):
    context = browser.new_context(java_script_enabled=False)
    page = context.new_page()
    page.goto(step_url(live_server, "en", 3))
    page.locator('button[name="action"][value="take"]').click()
    expect(page).to_have_url(re.compile(r"/en/dam/tutorials/anna-bo-cilla/3/\?fb=different"))
    expect(page.locator("[data-feedback]")).to_have_attribute("data-feedback", "different")
    pick(page, "8C")
    pick(page, "5C", name="target")
    page.locator('button[name="action"][value="beat"]').click()
    expect(page).to_have_url(re.compile(r"/en/dam/tutorials/anna-bo-cilla/4/\?ok=1$"))
    page.locator("#tutorial-next").click()
    expect(page).to_have_url(step_url(live_server, "en", 5))
    context.close()


def test_hints_give_a_nudge_then_the_move(page, live_server):
    page.goto(step_url(live_server, "en", 3))
    page.get_by_role("button", name="Give me a hint").click()
    expect(page.locator("#tutorial-nudge")).to_be_visible()
    expect(page.locator("#tutorial-nudge")).to_be_focused()
    expect(page.locator('input[name="card"][value="8C"]')).not_to_be_checked()
    page.get_by_role("button", name="Show me the move").click()
    expect(page.locator("#tutorial-hint")).to_be_visible()
    expect(page.locator('input[name="card"][value="8C"]')).to_be_checked()
    page.locator('button[name="action"][value="beat"]').click()
    expect(page.locator("#tutorial-feedback")).to_contain_text("★☆☆")


PAGES = [("dam", SLUG, 3), ("dam", "endgame", 10), ("dolda", "draw-and-swap", 5),
         ("spardame", "passing", 2), ("spardame", "following-suit", 4)]


@pytest.mark.parametrize("language", LANGUAGES)
def test_axe_finds_no_violations(page, live_server, language):
    urls = [step_url(live_server, language, n, game, slug) for game, slug, n in PAGES]
    with translation.override(language):
        urls += [live_server.url + reverse(name) for name in ("tutorials", "tutorials_dolda")]
    for url in urls:
        page.goto(url)
        results = Axe().run(page)
        assert results.violations_count == 0, (url, results.generate_report())


@pytest.mark.parametrize("language", LANGUAGES)
def test_nothing_overflows_at_375_px(page, live_server, language):
    page.set_viewport_size({"width": 375, "height": 800})
    for game, slug, n in PAGES:
        page.goto(step_url(live_server, language, n, game, slug))
        overflow = page.evaluate("document.documentElement.scrollWidth - window.innerWidth")
        assert overflow <= 0, (game, slug, n, overflow)


def test_cards_travel_between_steps(page, live_server):
    page.goto(step_url(live_server, "en", 1))
    page.locator("#tutorial-next").click()  # Anna's three clubs go from her hand to the table
    page.wait_for_function("() => document.getAnimations().length > 0")
    settled(page)


def test_reduced_motion_keeps_the_cards_still(browser, live_server):
    context = browser.new_context(reduced_motion="reduce")
    page = context.new_page()
    page.goto(step_url(live_server, "en", 1))
    page.evaluate("""() => { window.__moved = 0; document.addEventListener('htmx:afterSettle',
        () => { window.__moved += document.getAnimations().length
                + document.querySelectorAll('.card-ghost').length; }); }""")
    for link, n in (("#tutorial-next", 2), ("#tutorial-next", 3), ("#tutorial-back", 2)):
        page.locator(link).click()
        at_step(page, live_server, "en", n)
    assert page.evaluate("window.__moved") == 0
    context.close()
