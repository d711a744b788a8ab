"""Next/Back answered with swaps only (tutorials/oob.py) leave exactly the page a full load shows.

Every tutorial is walked forwards and back with htmx in Debian's Chromium; after each step the
stage, progress, narration, title and the step addresses outside the stage (language switcher,
alternates, the deck preference's return address) are compared with a fresh load of the same
address.  A mixed walk adds a hint, a refused move, ticked boxes, history and a language switch.
"""

import pytest
from django.urls import reverse
from django.utils import translation
from playwright.sync_api import expect

from tutorials import lessons

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SNAPSHOT = """() => {
  const clean = (el) => {
    const copy = el.cloneNode(true);
    copy.querySelectorAll('[class]').forEach((e) => {
      e.classList.remove('htmx-added', 'htmx-settling', 'htmx-swapping', 'htmx-request');
      if (!e.classList.length) e.removeAttribute('class');
    });
    copy.querySelectorAll('[name="csrfmiddlewaretoken"]')
      .forEach((e) => e.setAttribute('value', 'token'));
    return copy.innerHTML.replace(/>\\s+</g, '><').trim();
  };
  const attr = (sel, name) =>
    Array.from(document.querySelectorAll(sel), (e) => e.getAttribute(name));
  return {
    stage: clean(document.getElementById('tutorial-stage')),
    progress: clean(document.getElementById('tutorial-progress')),
    narration: clean(document.getElementById('tutorial-narration')),
    title: document.title,
    switcher: attr('.language-switcher a', 'href'),
    alternates: attr('link[rel="alternate"]', 'href'),
    back: attr('.deck-form input[name="next"]', 'value'),
  };
}"""


def step_url(live_server, game, slug, n, language="en"):
    with translation.override(language):
        return live_server.url + reverse(f"tutorial_step_{game}",
                                         kwargs={"slug": slug, "step": n})


def settled(page):
    expect(page.locator(".htmx-request, .htmx-swapping, .htmx-settling, .htmx-added")
           ).to_have_count(0)


class Reference:
    """Fresh loads of step pages, in a page of their own."""

    def __init__(self, context):
        self.page = context.new_page()
        self.seen: dict[str, dict] = {}

    def __call__(self, url: str) -> dict:
        if url not in self.seen:
            self.page.goto(url)
            self.seen[url] = self.page.evaluate(SNAPSHOT)
        return self.seen[url]


def record_answers(page) -> list[str]:
    """How each Next/Back was answered: "swaps" (HX-Reswap: none) or "stage"."""
    answers: list[str] = []

    def seen(response):
        if response.request.headers.get("hx-request") == "true":
            # tutorial.js says the page has the "attrs" swap and expands compact answers
            assert response.request.headers.get("x-tutorial-swaps") == "attrs patch"
            answers.append("swaps" if response.headers.get("hx-reswap") == "none" else "stage")
    page.on("response", seen)
    return answers


def same_as_a_fresh_load(page, reference, url, where=""):
    expect(page).to_have_url(url)
    settled(page)
    now, fresh = page.evaluate(SNAPSHOT), reference(url)
    for key in fresh:
        assert now[key] == fresh[key], (where, url, key, now[key], fresh[key])


@pytest.mark.parametrize("game,slug", [(t.game, t.slug) for t in lessons.TUTORIALS.values()])
def test_walking_a_tutorial_with_htmx_leaves_the_page_a_full_load_shows(
        page, context, live_server, game, slug):
    total = len(lessons.get(game, slug).steps)
    reference = Reference(context)
    answers = record_answers(page)
    page.goto(step_url(live_server, game, slug, 1))
    page.evaluate("window.__sameDocument = true")
    walk = [("#tutorial-next", n) for n in range(2, total + 1)]
    walk += [("#tutorial-back", n) for n in range(total - 1, 0, -1)]
    for link, n in walk:
        page.locator(link).click()
        same_as_a_fresh_load(page, reference, step_url(live_server, game, slug, n), link)
    assert page.evaluate("window.__sameDocument === true")  # no page load on the way
    assert len(answers) == 2 * (total - 1)
    # Steps after a "your move" step may get the whole stage; the rest get swaps only.
    assert answers.count("swaps") >= total - 1, answers


def test_hint_refused_move_ticked_boxes_history_and_language(page, context, live_server):
    game, slug = "dam", "anna-bo-cilla"  # step 3 is a "your move" step
    reference = Reference(context)
    answers = record_answers(page)

    def url(n, language="en"):
        return step_url(live_server, game, slug, n, language)

    def check(n, where, language="en"):
        same_as_a_fresh_load(page, reference, url(n, language), where)

    page.goto(url(2))
    page.locator("#tutorial-next").click()
    check(3, "into a your-move step")
    page.get_by_role("button", name="Show me the move").click()
    expect(page.locator(".tutorial-hint")).to_be_visible()
    settled(page)
    page.locator("#tutorial-next").click()  # skip, with the hint shown
    check(4, "skip after the hint")
    assert answers[-1] == "stage"
    page.locator("#tutorial-back").click()
    check(3, "back into the your-move step")
    # A refused move keeps the learner's choice: the next step must not build on that page.
    page.locator('label.pick:has(input[name="card"][value="2D"])').click()
    page.locator('label.pick:has(input[name="target"][value="6D"])').click()
    page.locator('button[name="action"][value="beat"]').click()
    expect(page.locator("[data-feedback]")).to_have_attribute("data-feedback", "illegal")
    settled(page)
    page.locator("#tutorial-back").click()
    check(2, "back after a refused move")
    assert answers[-1] == "stage"
    page.locator("#tutorial-next").click()
    check(3, "your-move step again")
    # Ticked boxes only (no request): leaving for a step without a form drops them all.
    page.locator('label.pick:has(input[name="card"][value="7D"])').click()
    page.locator("#tutorial-next").click()
    check(4, "skip with a ticked box")
    page.locator("#tutorial-next").click()
    check(5, "next")
    assert answers[-1] == "swaps"
    # History: back and forward restore pages, then Next/Back go on from there.
    page.go_back()
    check(4, "history back")
    page.go_back()
    check(3, "history back twice")
    page.go_forward()
    check(4, "history forward")
    page.locator("#tutorial-next").click()
    check(5, "next after history")
    page.locator("#tutorial-back").click()
    check(4, "back after history")
    # The language switcher follows the steps taken with htmx.
    page.locator('.language-switcher a[hreflang="sv"]').click()
    check(4, "switched to Swedish", "sv")
    page.locator("#tutorial-next").click()
    check(5, "next in Swedish", "sv")
    assert answers[-1] == "swaps"
    page.locator("#tutorial-back").click()
    check(4, "back in Swedish", "sv")


def test_boxes_ticked_on_a_your_move_step_are_not_carried_into_the_next_one(
        page, context, live_server):
    """svarta-maja 3 and 4 both ask for a move: swaps may keep the same boxes, so the page puts
    them back as rendered before applying a compact answer."""
    reference = Reference(context)
    answers = record_answers(page)
    page.goto(step_url(live_server, "dam", "svarta-maja", 3))
    boxes = page.locator("#tutorial-stage input.pick__box")
    for i in range(boxes.count()):
        boxes.nth(i).check(force=True)  # (a radio group keeps one: the last)
    assert page.locator("#tutorial-stage input.pick__box:checked").count() >= 1
    page.locator("#tutorial-next").click()
    same_as_a_fresh_load(page, reference, step_url(live_server, "dam", "svarta-maja", 4),
                         "skip with every box ticked")
    assert answers == ["swaps"]
    checked = page.evaluate("Array.from(document.querySelectorAll('#tutorial-stage input'),"
                            " (i) => i.checked !== i.defaultChecked).filter(Boolean).length")
    assert checked == 0
