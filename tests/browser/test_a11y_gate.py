"""Accessibility gate: axe finds nothing on any type of page in any of the four languages, and
a tutorial and a practice game can be finished with the keyboard alone.

Page types are found, not listed: the argument-free pages of the URL configuration, a practice
game of each kind and a teacher scenario made by this browser, then the links they show,
followed within the language; one page per URL name is checked (tests/hardening/crawl.py).
English checks every page type; Swedish, Finnish and Norwegian each check a third of them in
turn (by the type's name), so that every type is checked in English and in one of the three.
What axe finds comes from the markup, which is one template for all four languages; a whole
crawl in each language was the suite's slowest test (some 80 s each on a two-core machine).
"""

from __future__ import annotations

import json
import zlib
from urllib.parse import urldefrag, urlparse

import pytest
from axe_playwright_python.sync_playwright import Axe
from django.urls import NoReverseMatch, reverse
from django.utils import translation
from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import expect

from tests.browser.layout import overflow_with_wider_control_font
from tests.hardening.crawl import page_type, start_urls
from tests.pages import LANGUAGES
from tutorials import lessons

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

MAX_PAGES = 60
PHONE, DESKTOP = {"width": 375, "height": 740}, {"width": 1280, "height": 900}
TUTORIAL = ("dam", "anna-bo-cilla")


@pytest.fixture(autouse=True)
def fast_bots(settings, monkeypatch):
    settings.PRACTICE_BOT_DELAY_MS = 30
    # The keyboard-only game asks for a hint at every turn: what is checked is that it can be
    # asked for and played with the keyboard, not the hint's strength (tests/practice has
    # that); at the site's playouts the hints were about half of the test's time.
    monkeypatch.setattr("practice.service.ANALYSIS_PLAYOUTS", {"dam": 24, "dolda": 24,
                                                               "spardame": 24})


def path(name: str, language: str, **kwargs) -> str:
    with translation.override(language):
        return reverse(name, kwargs=kwargs)


def open_practice_games(page, live_server, language: str) -> list[str]:
    urls = []
    for game in ("dam", "dolda", "spardame"):
        page.goto(live_server.url + path(f"practice_{game}", language))
        page.select_option("#id_level", "easy")
        page.locator("form.practice-form button[type=submit]").click()
        page.wait_for_selector("#game")
        urls.append(urlparse(page.url).path)
    return urls


def open_teacher_scenario(page, live_server, language: str) -> list[str]:
    try:
        url = path("scenarios_new", language)
    except NoReverseMatch:
        return []
    page.goto(live_server.url + url)
    page.fill("#new-players", "Anna Bo Cilla")
    page.locator("#new-submit").click()
    page.wait_for_load_state()
    return [urlparse(page.url).path]


def links(page, prefix: str) -> list[str]:
    hrefs = page.eval_on_selector_all("a[href]:not([download])",
                                      "as => as.map(a => a.getAttribute('href'))")
    out = []
    for href in hrefs:
        href = urldefrag(href)[0]
        parts = urlparse(href)
        if not parts.scheme and not parts.netloc and parts.path.startswith(prefix):
            out.append(href)
    return out


OTHERS = [lang for lang in LANGUAGES if lang != "en"]


def mine(kind: str, language: str) -> bool:
    """Whether ``language`` checks pages of ``kind``: English all, each other language a third
    (the links are still followed, so every type is reached in every language)."""
    if language == "en" or kind == "home":
        return True
    return OTHERS[zlib.crc32(kind.split(":")[0].encode()) % len(OTHERS)] == language


@pytest.mark.parametrize("language", LANGUAGES)
def test_axe_finds_no_violations_on_any_page_type(page, live_server, language):
    queue = open_practice_games(page, live_server, language)
    queue += open_teacher_scenario(page, live_server, language)
    queue += start_urls(language)
    seen_types: set[str] = set()
    seen_urls: set[str] = set()
    checked_types: set[str] = set()
    failures = []
    checked = 0
    while queue and checked < MAX_PAGES:
        url = queue.pop(0)
        kind = page_type(url, language)
        if kind in seen_types or url in seen_urls:
            continue
        seen_types.add(kind)
        seen_urls.add(url)
        try:
            response = page.goto(live_server.url + url)
        except PlaywrightError as exc:  # a file download (exports) is not a page
            if "Download is starting" in str(exc):
                continue
            raise
        assert response is not None and response.status < 500, url
        if response.status >= 400:  # an error page is a page type of its own
            kind = f"{kind}:{response.status}"
        assert page.locator("html").get_attribute("lang") == language, url
        assert page.locator("h1").count() == 1, url
        if mine(kind, language):
            checked += 1
            checked_types.add(kind)
            results = Axe().run(page)
            if results.violations_count:
                failures.append(f"{url}\n{results.generate_report()}")
        queue += [u for u in links(page, f"/{language}/") if u not in seen_urls]
    print(language, checked, "page types:", " ".join(sorted(checked_types)))
    assert checked >= (20 if language == "en" else 5), sorted(checked_types)
    assert {"practice_dam_play", "tutorial_step_dam", "home"} <= seen_types
    # Every page without arguments is among them (no other test runs axe on those).
    assert {page_type(u, language) for u in start_urls(language)
            if mine(page_type(u, language), language)} <= checked_types
    assert not failures, "\n\n".join(failures)


# --------------------------------------------------------------------------- keyboard only
def tab_to(page, selector: str, limit: int = 250) -> None:
    """Press Tab until the focused element matches selector (keyboard only, no focus())."""
    for _ in range(limit):
        page.keyboard.press("Tab")
        if page.evaluate("s => !!document.activeElement && document.activeElement.matches(s)",
                         selector):
            return
    raise AssertionError(f"Tab never reached {selector}")


def settled(page) -> None:
    expect(page.locator(".htmx-request, .htmx-swapping, .htmx-settling")).to_have_count(0)


def progress(page) -> str:
    return page.locator("#tutorial-progressbar").get_attribute("value")


def lesson_moves(game: str, slug: str) -> dict[int, str]:
    """Lesson step number -> the kind of the move the learner makes there ("beat", ...)."""
    tutorial = lessons.get(game, slug)
    data = json.loads(tutorial.scenario_path.read_text())
    return {n: data["steps"][step.at - 1]["do"].split()[1]
            for n, step in enumerate(tutorial.steps, start=1) if step.your_move}


def test_a_tutorial_can_be_finished_with_the_keyboard_alone(page, live_server):
    game, slug = TUTORIAL
    moves = lesson_moves(game, slug)
    total = len(lessons.get(game, slug).steps)
    page.goto(live_server.url + path(f"tutorial_step_{game}", "en", slug=slug, step=1))
    for n in range(1, total + 1):
        expect(page.locator("#tutorial-progressbar")).to_have_attribute("value", str(n))
        settled(page)
        if n in moves:
            for _level in (1, 2):  # the nudge, then the move (a step without a nudge: at once)
                if page.locator("#tutorial-hint").count():
                    break
                tab_to(page, "form.tutorial-hint-form button")
                page.keyboard.press("Enter")
                expect(page.locator(".tutorial-hint").first).to_be_visible()
                settled(page)
            expect(page.locator("#tutorial-hint")).to_be_visible()
            tab_to(page, f'button[name="action"][value="{moves[n]}"]')
            page.keyboard.press("Enter")
            expect(page.locator("[data-feedback]")).to_have_attribute("data-feedback", "success")
        elif n < total:
            tab_to(page, "#tutorial-next")
            page.keyboard.press("Enter")
    tab_to(page, "#tutorial-done")
    page.keyboard.press("Enter")
    expect(page).to_have_url(live_server.url + path(f"tutorials_{game}", "en"))


MY_TURN_OR_OVER = """() => {
  const g = document.getElementById('game');
  return !!g && !document.querySelector('.htmx-request')
    && (g.dataset.over === 'true' || !!document.getElementById('hint-link'));
}"""


def test_a_practice_game_can_be_finished_with_the_keyboard_alone(page, live_server):
    page.goto(live_server.url + path("practice_dam", "en"))
    tab_to(page, "#id_players")
    page.keyboard.type("2")
    tab_to(page, "#id_level")
    page.keyboard.type("E")  # Easy
    tab_to(page, "form.practice-form button[type=submit]")
    page.keyboard.press("Enter")
    page.wait_for_selector("#game")
    assert page.locator("#id_players").count() == 0
    for _ in range(300):
        page.wait_for_function(MY_TURN_OR_OVER, timeout=60_000)
        if page.locator("#game").get_attribute("data-over") == "true":
            break
        before = page.locator("#game").get_attribute("data-version")
        tab_to(page, "#hint-link")
        page.keyboard.press("Enter")
        page.wait_for_selector("#play-hint")
        tab_to(page, "#play-hint")
        page.keyboard.press("Enter")
        page.wait_for_function(
            f"() => document.getElementById('game')?.dataset.version !== '{before}'")
    assert page.locator("#game").get_attribute("data-over") == "true"


# --------------------------------------------------------------------------- #20 states
@pytest.mark.parametrize("language", LANGUAGES)
def test_axe_finds_no_violations_on_the_table_pages_at_both_widths(page, live_server, language):
    """The practice table of each game (with its cues, menu button and shortcuts), the
    replay link, the four-player editor with its default deal, the handout with a printed
    position and the presenter, at 1280 and 375 px (the same pages: making them twice, once
    per width, was most of the test's time; they are made at the phone's width)."""
    page.set_viewport_size(PHONE)
    urls = open_practice_games(page, live_server, language)
    page.goto(live_server.url + urls[0])
    page.wait_for_function(MY_TURN_OR_OVER, timeout=60_000)
    page.locator("form[action*='share'] button").click()
    page.wait_for_selector(".practice-share a")
    urls.append(urlparse(page.locator(".practice-share a").get_attribute("href")).path)
    page.goto(live_server.url + path("scenarios_new", language))
    page.fill("#new-players", "Anna Bo Cilla Dag")
    page.locator("#new-submit").click()
    page.wait_for_selector("#deal-ready")
    urls.append(urlparse(page.url).path)
    code = page.locator("#editor").get_attribute("data-code")
    settled(page)
    # The first allowed move: a button per move, or a list and one button when the random
    # deal offers more than 30 moves (a long suit in the first attacker's hand).
    page.locator(".editor-legal button[type=submit]").first.click()
    settled(page)
    urls.append(path("scenario_print", language, code=code) + "?after=0&after=1")
    urls.append(path("scenario_present", language, code=code, step=1))
    failures = []
    for size in (PHONE, DESKTOP):
        width = size["width"]
        page.set_viewport_size(size)
        for url in urls:
            page.goto(live_server.url + url)
            assert page.evaluate("document.documentElement.scrollWidth") <= width, (width, url)
            results = Axe().run(page)
            if results.violations_count:
                failures.append(f"{width} px {url}\n{results.generate_report()}")
            if size is PHONE and (excess := overflow_with_wider_control_font(page)) > 0:
                failures.append(f"{url}: {excess} px too wide with a wider font in its controls")
    assert not failures, "\n\n".join(failures)
