"""Every tutorial, each in one of the four languages in turn, walked in Chromium as a learner
would: at each "your move" step a wrong move, both hints and the right move, then Back to the
puzzle and Next again, and at the end back to the first step; after every Next and Back the
page must be exactly what a fresh load of its address gives (the feedback of the move just
made aside)."""

import pytest
from django.urls import reverse
from django.utils import translation
from playwright.sync_api import expect

from games.moves import MOVE_LABELS, canonical, move_kind
from tests.pages import LANGUAGES
from tutorials import lessons
from tutorials.lessons import replay

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

# The whole document as its reader has it: markup plus the state of every box (a property the
# markup does not show), with what differs between two loads of one page made equal: the CSRF
# token and nonces, and the order of attributes.
SNAPSHOT = """() => {
  const copy = document.documentElement.cloneNode(true);
  copy.querySelectorAll('.card-ghost').forEach(e => e.remove());
  copy.querySelectorAll('input[name=csrfmiddlewaretoken]').forEach(e => e.setAttribute('value', ''));
  copy.querySelectorAll('[nonce]').forEach(e => e.removeAttribute('nonce'));
  copy.querySelectorAll('*').forEach(e => {  // attributes in one order: a morph may add one last
    const attrs = Array.from(e.attributes).map(a => [a.name, a.value]).sort();
    attrs.forEach(([name]) => e.removeAttribute(name));
    attrs.forEach(([name, value]) => e.setAttribute(name, value));
  });
  const boxes = Array.from(document.querySelectorAll('input[type=checkbox], input[type=radio]'))
    .map(i => i.name + '=' + i.value + ':' + (i.checked ? 1 : 0));
  return {title: document.title, html: copy.outerHTML, boxes: boxes.join(' ')};
}"""


def step_url(live_server, language, tutorial, n):
    with translation.override(language):
        return live_server.url + reverse(f"tutorial_step_{tutorial.game}",
                                         kwargs={"slug": tutorial.slug, "step": n})


BUSY = ".htmx-request, .htmx-swapping, .htmx-settling, .htmx-added, .card-ghost"


def settled(page):
    # The page in front: Chromium holds back the animations of a tab behind another one.
    page.bring_to_front()
    page.wait_for_function(f"() => !document.querySelector({BUSY!r})", polling=50)


def form_of(words):
    """The boxes to tick and the button to press for a move in scenario notation."""
    kind = move_kind(words)
    rest = words[1:]
    if kind == "beat":
        return kind, [rest[1]], rest[0]
    if kind == "announce":
        return kind, [f"K{rest[0]}", f"Q{rest[0]}"], None
    if kind.startswith("draw_"):
        return kind, [], None
    return kind, rest, None


def wrong_move(tutorial, n):
    """Another legal move the page offers, else the lesson's button without its cards (refused
    by the engine or the page), else None (the lesson's move is the only one there is)."""
    rp = replay(tutorial.game, tutorial.slug)
    at = tutorial.steps[n - 1].at
    state, module = rp.states[at - 1], rp.scn.module
    lesson = rp.scn.steps[at - 1].move.split()[1:]
    seat = rp.scn.players.index(rp.scn.steps[at - 1].move.split()[0])
    expected = canonical(module, module.parse_action(state, seat, lesson))
    for action in state.legal_actions():
        words = module.format_action(action).split()
        if canonical(module, action) != expected and move_kind(words) in MOVE_LABELS:
            return form_of(words), "different"
    kind, cards, _target = form_of(lesson)
    if cards:
        return (kind, [], None), "illegal"
    return None


def play(page, move):
    kind, cards, target = move
    for box in page.locator('input[name="card"]').all():
        if box.is_checked() != (box.get_attribute("value") in cards):
            page.locator(f'label.pick:has(input[name="card"][value="{box.get_attribute("value")}"])').click()
    if target:
        page.locator(f'label.pick:has(input[name="target"][value="{target}"])').click()
    page.locator(f'#tutorial-move button[value="{kind}"]').click()


FRESH: dict[str, dict] = {}  # a fresh load of an address, taken once until the progress changes


def same_as_fresh(page, fresh):
    settled(page)
    mine = page.evaluate(SNAPSHOT)
    if page.url not in FRESH:
        fresh.goto(page.url)
        FRESH[page.url] = fresh.evaluate(SNAPSHOT)
    theirs = FRESH[page.url]
    assert mine["title"] == theirs["title"], page.url
    assert mine["boxes"] == theirs["boxes"], page.url
    if mine["html"] != theirs["html"]:
        at = next(i for i, (a, b) in enumerate(zip(mine["html"], theirs["html"])) if a != b)
        pytest.fail(f"{page.url} differs from a fresh load at {at}:\n"
                    f"page:  {mine['html'][at - 300:at + 200]}\nfresh: {theirs['html'][at - 300:at + 200]}")


KEYS = sorted(f"{g}:{s}" for g, s in lessons.TUTORIALS)
# One language per tutorial, in turn (each language walks a quarter of the tutorials, every
# language several): what the swap puts in the page is the same in every language but for the
# words, and the words of every step and hint in all four are checked as swapped markup
# against a fresh load in tests/tutorials/test_views.py.  A second language per tutorial
# doubled the suite's slowest part and found nothing the first did not.
WALKS = [(key, LANGUAGES[i % len(LANGUAGES)]) for i, key in enumerate(KEYS)]


@pytest.mark.parametrize("key,language", WALKS)
def test_walk_matches_a_fresh_load_after_every_step(page, context, live_server, language, key,
                                                   quick_motion):
    # quick_motion: what is compared is where the cards end up; waiting out every journey at a
    # learner's speed was a sixth of the walk.
    tutorial = lessons.get(*key.split(":"))
    total = len(tutorial.steps)
    rp = replay(tutorial.game, tutorial.slug)
    fresh = context.new_page()
    page.goto(step_url(live_server, language, tutorial, 1))
    page.evaluate("window.__sameDocument = true")
    feedback = page.locator("#tutorial-feedback")
    n = 1
    while True:
        expect(page).to_have_url(step_url(live_server, language, tutorial, n))
        same_as_fresh(page, fresh)
        step = tutorial.steps[n - 1]
        if step.your_move:
            wrong = wrong_move(tutorial, n)
            if wrong:
                play(page, wrong[0])
                expect(feedback).to_have_attribute("data-feedback", wrong[1])
                settled(page)
                # Focus is on what the page says, not on Skip: a space here must not skip.
                assert page.evaluate("document.activeElement.id") == "tutorial-feedback"
                # The reason has an address of its own, whose fresh load shows the same.
                refused = page.url
                assert refused.startswith(step_url(live_server, language, tutorial, n) + "?fb=")
                same_as_fresh(page, fresh)
                page.keyboard.press(" ")
                settled(page)
                expect(page).to_have_url(refused)
            if step.nudge is not None:
                page.locator("#tutorial-hint-form button").click()
                expect(page.locator("#tutorial-nudge")).to_be_visible()
                same_as_fresh(page, fresh)  # a hint has its own address (?hint=1)
            page.locator("#tutorial-hint-form button").click()
            expect(page.locator("#tutorial-hint")).to_be_visible()
            same_as_fresh(page, fresh)
            play(page, form_of(rp.scn.steps[step.at - 1].move.split()[1:]))
            # The progress changed (stars): what a fresh load shows changes with it.
            FRESH.clear()
            # The next step with the praise, at an address whose fresh load shows it too.
            expect(page).to_have_url(step_url(live_server, language, tutorial, n + 1) + "?ok=1"
                                     if n < total else
                                     step_url(live_server, language, tutorial, n))
            if n < total:
                expect(feedback).to_have_attribute("data-feedback", "success")
                settled(page)
                assert page.evaluate("document.activeElement.id") == "tutorial-feedback"
            same_as_fresh(page, fresh)
            if n == total:
                break
            # Back to the puzzle: a fresh one, nothing left of the hints or the move, but the
            # stars it earned.
            page.locator("#tutorial-back").click()
            expect(page).to_have_url(step_url(live_server, language, tutorial, n))
            same_as_fresh(page, fresh)
        if n == total:
            break
        page.locator("#tutorial-next").click()
        n += 1
    # Back to the start one step at a time, then history and a language switch.
    for n in range(total - 1, 0, -1):
        page.locator("#tutorial-back").click()
        expect(page).to_have_url(step_url(live_server, language, tutorial, n))
        same_as_fresh(page, fresh)
    assert page.evaluate("window.__sameDocument === true")  # htmx answered every step
    page.go_back()
    expect(page).to_have_url(step_url(live_server, language, tutorial, 2))
    same_as_fresh(page, fresh)
    page.go_forward()
    expect(page).to_have_url(step_url(live_server, language, tutorial, 1))
    same_as_fresh(page, fresh)
    other = LANGUAGES[(LANGUAGES.index(language) + 1) % len(LANGUAGES)]
    page.locator(f'.language-switcher a[hreflang="{other}"]').click()
    expect(page).to_have_url(step_url(live_server, other, tutorial, 1))
    fresh.close()
