"""A newcomer's way to the puzzles, in Chromium: the home page's way in, the end of the first
lesson, "Puzzles on this theme", a puzzle solved (with the two hints), and the result's address
loaded afresh shows the same page; axe finds nothing on the puzzle pages.  The four languages,
two at each width (the translations of every language are checked by
tests/puzzles/test_views.py)."""

import json
from urllib.parse import urlparse

import pytest
from axe_playwright_python.sync_playwright import Axe
from django.urls import reverse
from django.utils import translation
from playwright.sync_api import expect

from games.adapters import adapter
from puzzles import store
from tests.browser.test_tutorial_walk import SNAPSHOT
from tutorials import lessons

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

# The form of the move that the page's "show me the move" preselects: its one-tap card, its
# button or its own small form.
PRESS = """(fields) => {
  const tap = fields.card && document.querySelector(`button.pick--tap[value="${fields.card[0]}"]`);
  if (tap) return tap.click();
  const button = document.querySelector(`#move-form button[name=move][value="${fields.move}"]`);
  if (button) return button.click();
  for (const form of document.querySelectorAll('.practice-simple form')) {
    const inputs = Array.from(form.querySelectorAll('input[type=hidden]'))
      .filter(i => !['csrfmiddlewaretoken', 'set', 'hint'].includes(i.name));
    const wanted = Object.entries(fields).flatMap(([k, v]) => [].concat(v).map(x => k + '=' + x));
    const got = inputs.map(i => i.name + '=' + i.value);
    if (got.length === wanted.length && wanted.every(w => got.includes(w))) {
      return form.querySelector('button').click();
    }
  }
  throw new Error('no control for ' + JSON.stringify(fields));
}"""


def no_violations(page):
    found = Axe().run(page).response["violations"]
    assert found == [], json.dumps(found, indent=1)[:2000]


@pytest.mark.parametrize("language,viewport", [("en", {"width": 1280, "height": 900}),
                                               ("sv", {"width": 375, "height": 740}),
                                               ("fi", {"width": 375, "height": 740}),
                                               ("nb", {"width": 1280, "height": 900})])
def test_a_newcomer_goes_from_the_home_page_to_a_solved_puzzle(page, live_server, language,
                                                               viewport):
    page.set_viewport_size(viewport)
    with translation.override(language):
        home = live_server.url + reverse("home")
    page.goto(home)
    page.locator(".way-in__link").first.click()
    first = next(iter(lessons.BY_GAME["dam"]))
    assert page.url.rstrip("/").endswith("/1")
    # The lesson's end (its last step), as a learner reaches it.
    page.goto(page.url.rsplit("/", 2)[0] + f"/{len(first.steps)}/")
    expect(page.locator("#tutorial-end")).to_be_visible()
    end = page.url
    # On to the next lesson, which opens at its first step; then back to the end screen.
    page.locator("#tutorial-next-lesson").click()
    assert page.url.rstrip("/").endswith("/1") and page.url.rsplit("/", 2)[0] != end.rsplit("/", 2)[0]
    expect(page.locator("h1")).to_be_visible()
    page.go_back()
    expect(page.locator("#tutorial-end")).to_be_visible()
    page.locator("#tutorial-puzzles").click()
    expect(page.locator("#puzzle-goal")).to_be_visible()
    no_violations(page)
    pid = urlparse(page.url).path.rstrip("/").split("/")[-1]
    puzzle = store.by_id()[pid]
    assert puzzle.game == "dam"
    # The two hints: the idea, then the move (preselected on the table).
    page.locator("#hint-link").click()
    expect(page.locator("#puzzle-nudge")).to_be_visible()
    page.locator("#hint-link").click()
    expect(page.locator("#puzzle-hint-move")).to_be_visible()
    state = puzzle.state()
    fields = adapter("dam").form_fields(puzzle.solution_action(state))
    with page.expect_navigation():
        page.evaluate(PRESS, fields)
    expect(page.locator("#puzzle-result")).to_be_visible()
    assert "res=ok" in page.url
    no_violations(page)
    before = page.evaluate(SNAPSHOT)
    page.reload()
    assert page.evaluate(SNAPSHOT) == before
    assert page.evaluate("document.documentElement.scrollWidth") <= viewport["width"]
    # The sets page, linked from the menu.
    with translation.override(language):
        page.goto(live_server.url + reverse("puzzles"))
    expect(page.locator("#puzzles-daily")).to_be_visible()
    no_violations(page)


def test_a_multiple_choice_is_answered_with_one_of_its_buttons(page, live_server):
    from puzzles import views

    page.set_viewport_size({"width": 375, "height": 740})
    puzzle = next(p for p in store.all_puzzles() if p.choices)
    with translation.override("fi"):
        page.goto(live_server.url + reverse("puzzle", args=[puzzle.id]))
        state = puzzle.state(views._names(puzzle))  # the page's names: a thief names its victim
    expect(page.locator("#puzzle-offered")).to_be_visible()
    assert page.locator(".practice-simple form").count() == len(puzzle.choices)
    no_violations(page)
    fields = adapter(puzzle.game).form_fields(puzzle.solution_action(state))
    with page.expect_navigation():
        page.evaluate(PRESS, fields)
    expect(page.locator("#puzzle-result")).to_be_visible()
    assert "res=ok" in page.url
    no_violations(page)
