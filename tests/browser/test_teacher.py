"""Teacher tools in Debian's Chromium: build a small Dam scenario by clicking, record three
moves, save, open the share link in a second browser context and present it with the keyboard;
axe and the 375 px check on the teacher pages."""

import re

import pytest
from axe_playwright_python.sync_playwright import Axe
from django.urls import reverse
from django.utils import translation
from playwright.sync_api import expect

from teacher.models import TeacherScenario

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
HANDS = [("hand:0", "4D 6D 9D KC 3S 8H"), ("hand:1", "7D 2D JS 5C TH AS"),
         ("hand:2", "3C 8C QD 2H 6S KS"), ("turned", "9H")]
MOVES = ["Anna attack 4D 6D 9D", "Bo beat 4D 7D", "Bo beat 6D TH"]


def url(live_server, name, language="en", **kwargs):
    with translation.override(language):
        return live_server.url + reverse(name, **kwargs)


def settled(page):
    expect(page.locator(".htmx-request, .htmx-swapping, .htmx-settling")).to_have_count(0)


def build(page, live_server) -> str:
    page.goto(url(live_server, "scenarios_new"))
    page.select_option("#new-rules", "dam:svarta-maja")
    page.fill("#new-players", "Anna Bo Cilla")
    page.get_by_role("button", name="Start building the deal").click()
    expect(page.locator("h1")).to_have_text("Scenario editor")
    page.evaluate("window.__sameDocument = true")
    # A new scenario starts from a complete random deal: this one is built by hand.
    page.get_by_role("button", name="Clear the deal").click()
    settled(page)
    for target, cards in HANDS:
        page.select_option("#deal-target", target)
        for code in cards.split():
            page.locator(f'.editor-deck label:has(input[value="{code}"])').click()
        page.get_by_role("button", name="Put the chosen cards there").click()
        settled(page)
        expect(page.locator(f'[data-slot="{target}"] [data-card]')).to_have_count(len(cards.split()))
    expect(page.locator("#deal-ready")).to_be_visible()
    for move in MOVES:
        page.locator(f'button[data-move="{move}"]').click()
        settled(page)
        expect(page.locator(".editor-steps li")).to_have_count(MOVES.index(move) + 1)
    assert page.evaluate("window.__sameDocument === true")  # htmx swapped, no reloads
    page.fill("#save-title", "Three diamonds")
    page.locator("details.editor-say").first.locator("summary").click()
    page.fill("#say-1-en", "Anna attacks with three diamonds.")
    page.locator("#editor-save").click()
    expect(page.locator("h1")).to_have_text("Three diamonds")
    return page.locator("#share-url").input_value()


def test_build_record_save_share_and_present(page, live_server, browser):
    share = build(page, live_server)
    obj = TeacherScenario.objects.get()
    assert [s["do"] for s in obj.data["steps"]] == MOVES
    other = browser.new_context()
    try:
        viewer = other.new_page()
        viewer.goto(share)
        expect(viewer.locator("h1")).to_have_text("Three diamonds")
        expect(viewer.locator("#edit-url")).to_have_count(0)
        viewer.locator("#present-link").click()
        expect(viewer).to_have_url(re.compile(r"/present/0/$"))
        # The full-screen button is added by present.js; htmx takes over the links only at
        # DOMContentLoaded, after the deferred scripts, so wait for the load as a person would.
        expect(viewer.locator("#present-fullscreen")).to_be_visible()
        viewer.wait_for_load_state()
        viewer.keyboard.press("ArrowRight")
        expect(viewer).to_have_url(re.compile(r"/present/1/$"))
        expect(viewer.locator("#present-narration")).to_contain_text("Anna attacks with three diamonds.")
        viewer.keyboard.press("PageDown")
        expect(viewer).to_have_url(re.compile(r"/present/2/$"))
        viewer.keyboard.press(" ")
        expect(viewer).to_have_url(re.compile(r"/present/3/$"))
        viewer.keyboard.press("PageUp")
        expect(viewer).to_have_url(re.compile(r"/present/2/$"))
        viewer.keyboard.press("ArrowLeft")
        expect(viewer).to_have_url(re.compile(r"/present/1/$"))
        expect(viewer.locator("#present-fullscreen")).to_be_visible()
        viewer.locator("#present-fullscreen").focus()  # a clicker still works from the button
        viewer.keyboard.press("PageDown")
        expect(viewer).to_have_url(re.compile(r"/present/2/$"))
        # The other browser may not edit.
        response = viewer.goto(share + "edit/")
        assert response.status == 403
    finally:
        other.close()


def _scenario(live_server) -> TeacherScenario:
    from pathlib import Path

    from rules.engine import scenario

    text = (Path(__file__).resolve().parents[2]
            / "tutorials/scenarios/dam/anna-bo-cilla.json").read_text()
    return TeacherScenario.objects.create(code="testcode1234", edit_token="t" * 32,
                                          title="Demo", data=scenario.loads(text).to_dict())


@pytest.mark.parametrize("name", ["scenario_detail", "scenario_present", "scenario_print",
                                  "scenario_edit"])
def test_teacher_pages_pass_axe_and_fit_375_px(page, live_server, name):
    obj = _scenario(live_server)
    args = [obj.code, 1] if name == "scenario_present" else [obj.code]
    if name == "scenario_edit":
        page.goto(url(live_server, "scenario_edit", args=[obj.code]) + f"?key={obj.edit_token}")
    else:
        page.goto(url(live_server, name, args=args))
    expect(page.locator("h1")).to_have_count(1)
    results = Axe().run(page)
    assert results.violations_count == 0, results.generate_report()
    page.set_viewport_size({"width": 375, "height": 800})
    assert page.evaluate("document.documentElement.scrollWidth - window.innerWidth") <= 0


def test_one_seat_view_has_no_other_hand(page, live_server):
    obj = _scenario(live_server)
    page.goto(url(live_server, "scenario_present", args=[obj.code, 0]))
    page.locator('.present-seats a[data-seat="1"]').click()
    expect(page).to_have_url(re.compile(r"\?seat=1$"))
    settled(page)
    html = page.content()
    for code in obj.data["deal"]["hands"]["Anna"] + obj.data["deal"]["hands"]["Cilla"]:
        assert f'data-card="{code}"' not in html


@pytest.mark.parametrize("language", ["sv", "en"])
def test_blank_editor_with_the_deck_passes_axe_and_fits_375_px(page, live_server, language):
    page.goto(url(live_server, "scenarios_new", language))
    page.locator("#new-submit").click()
    expect(page.locator(".editor-deck input[name=card]")).to_have_count(52)
    assert page.locator("html").get_attribute("lang") == language
    results = Axe().run(page)
    assert results.violations_count == 0, results.generate_report()
    page.set_viewport_size({"width": 375, "height": 800})
    assert page.evaluate("document.documentElement.scrollWidth - window.innerWidth") <= 0


@pytest.mark.parametrize("game,slug", [("spardame", "passing"), ("dolda", "scoring")])
def test_tutorial_presenter_passes_axe_and_fits_375_px(page, live_server, game, slug):
    page.goto(url(live_server, "tutorial_present", kwargs={"game": game, "slug": slug, "step": 1}))
    expect(page.locator("h1")).to_have_count(1)
    results = Axe().run(page)
    assert results.violations_count == 0, results.generate_report()
    page.set_viewport_size({"width": 375, "height": 800})
    assert page.evaluate("document.documentElement.scrollWidth - window.innerWidth") <= 0
