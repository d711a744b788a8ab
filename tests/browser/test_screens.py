"""Every screen fits and every word is right (issue "Every screen fits"): what a learner sees
at 1280×800, on a projector at 1920×1080 and on a 375 px phone, measured in Debian's
Chromium."""

from __future__ import annotations

import pytest
from django.urls import reverse
from django.utils import translation

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
LAPTOP = {"width": 1280, "height": 800}
PHONE = {"width": 375, "height": 740}


def address(live_server, name: str, language: str = "en", **kwargs) -> str:
    with translation.override(language):
        return live_server.url + reverse(name, **kwargs)


# ---------------------------------------------------------------------- variant charts
CHARTS = """() => {
  const column = document.querySelector('.variants').getBoundingClientRect().width;
  return [...document.querySelectorAll('figure.chart svg')].map(svg => ({
    share: svg.getBoundingClientRect().width / column,
    font: Math.min(...[...svg.querySelectorAll('text')].map(t => parseFloat(getComputedStyle(t).fontSize))),
    shown: svg.getBoundingClientRect().width / (svg.viewBox.baseVal && svg.viewBox.baseVal.width || svg.getBoundingClientRect().width),
  }));
}"""


@pytest.mark.parametrize("viewport", [LAPTOP, PHONE], ids=["1280", "375"])
def test_variant_charts_fill_the_column_with_readable_words(page, live_server, viewport):
    """They were 360 px pictures with 11 px words (about 200 px wide at 1280)."""
    page.set_viewport_size(viewport)
    page.goto(address(live_server, "variants_dam"))
    charts = page.evaluate(CHARTS)
    assert len(charts) >= 3
    for chart in charts:
        assert chart["share"] > 0.97, chart
        assert chart["font"] * chart["shown"] >= 13, chart  # as drawn, in CSS pixels
    assert page.evaluate("document.documentElement.scrollWidth") <= viewport["width"]


# ---------------------------------------------------------------------- practice at 1280×800
MY_TURN = """() => {
  const g = document.getElementById('game');
  return !!g && !document.querySelector('.htmx-request') && !!document.getElementById('hint-link');
}"""
OUTSIDE = """selectors => {
  const out = [];
  for (const sel of selectors) {
    const found = [...document.querySelectorAll(sel)].filter(e => e.getClientRects().length);
    if (!found.length) out.push([sel, 'missing']);
    for (const e of found) {
      const r = e.getBoundingClientRect();
      if (r.top < 0 || r.bottom > innerHeight || r.left < 0 || r.right > innerWidth)
        out.push([sel, Math.round(r.top), Math.round(r.bottom)]);
    }
  }
  return out;
}"""


@pytest.mark.parametrize("game, players", [("dam", 3), ("dolda", 4), ("spardame", 4)])
def test_practice_hand_move_buttons_and_an_opened_hint_fit_1280_by_800(
        page, live_server, settings, game, players):
    """The hand sat at y≈630–690 and Attack/Beat at y≈715, the hint below the fold."""
    settings.PRACTICE_BOT_DELAY_MS = 30
    page.set_viewport_size(LAPTOP)
    page.goto(address(live_server, f"practice_{game}"))
    page.select_option("#id_players", str(players))
    page.select_option("#id_level", "easy")
    page.locator("form.practice-form button[type=submit]").click()
    page.wait_for_function(MY_TURN, timeout=60_000)
    page.locator("#hint-link").click()
    page.wait_for_selector("#play-hint")
    assert page.evaluate("scrollY") == 0
    moves = ".practice-actions button, .practice-simple button, .practice-actions .pick"
    assert page.evaluate(OUTSIDE, [".game-seat--viewer", moves, ".practice-hint"]) == []


# ---------------------------------------------------------------------- tutorials at 1280×800
def your_move_steps(language: str) -> list[str]:
    from tutorials.lessons import TUTORIALS

    tutorials = TUTORIALS.values() if isinstance(TUTORIALS, dict) else TUTORIALS
    with translation.override(language):
        return [reverse(f"tutorial_step_{t.game}", kwargs={"slug": t.slug, "step": n})
                for t in tutorials for n, s in enumerate(t.steps, start=1) if s.your_move]


@pytest.mark.parametrize("language", ["en", "fi"])
def test_every_tutorial_move_and_hint_fits_1280_by_800(page, live_server, language):
    """"Give me a hint" sat at y≈780–800; the move buttons, both hints and the whole table
    are on screen at every "your move" step, with no hint, the nudge and the move shown."""
    page.set_viewport_size(LAPTOP)
    steps = your_move_steps(language)
    assert len(steps) > 15
    found = []
    for step in steps:
        for hint in ("", "?hint=1", "?hint=2"):
            page.goto(live_server.url + step + hint)
            found += [(step + hint, *o) for o in page.evaluate(OUTSIDE, [
                "#tutorial-move button", "#tutorial-nudge, #tutorial-hint, #tutorial-hint-form",
                ".game-table"])]
    assert found == []


# ---------------------------------------------------------------------- feedback moves no card
COUNT_CARD_MOTION = """window.__cardMotion = 0;
const animate = Element.prototype.animate;
Element.prototype.animate = function () {
  if (this.matches && this.matches('[data-card]')) window.__cardMotion++;
  return animate.apply(this, arguments);
};"""


@pytest.mark.parametrize("viewport", [LAPTOP, PHONE, {"width": 1000, "height": 740}],
                         ids=["1280", "375", "1000"])
def test_feedback_moves_no_card_that_stayed_on_the_table(page, live_server, viewport):
    """A move that is not the lesson's changes nothing on the table, but its feedback pushed
    the table down about 30 px (more on a phone) and every card flew from its old place."""
    page.set_viewport_size(viewport)
    page.add_init_script(COUNT_CARD_MOTION)
    page.goto(address(live_server, "tutorial_step_dam", kwargs={"slug": "svarta-maja",
                                                                "step": 3}))
    table = page.evaluate("document.querySelector('.game-table').getBoundingClientRect().top")
    # Clicked without scrolling, as a reader at the top of the page would.
    page.evaluate("[...document.querySelectorAll('#tutorial-move button')]"
                  ".find(b => b.value === 'take').click()")
    page.wait_for_selector("#tutorial-feedback")
    page.wait_for_timeout(400)
    assert page.evaluate("window.__cardMotion") == 0
    if viewport is LAPTOP:  # the narration is beside the table there
        moved = page.evaluate("document.querySelector('.game-table').getBoundingClientRect().top")
        assert moved == table


# ---------------------------------------------------------------------- the live projector
@pytest.mark.parametrize("viewport", [LAPTOP, {"width": 1920, "height": 1080}],
                         ids=["1280", "1920"])
def test_the_projector_shows_the_table_next_and_ask_without_scrolling(page, live_server,
                                                                     viewport):
    """The site header stayed and the cards were very large: the attack pile, Next and
    "Ask: what would you play?" were below the fold at 1280×800."""
    from tests.browser.test_live import go_live

    page.set_viewport_size(viewport)
    go_live(page, live_server)
    # One step at a time: a key pressed while the previous step is still loading is dropped.
    for step in (2, 3):
        page.keyboard.press("ArrowRight")
        page.wait_for_selector(f"#present-stage[data-step='{step}']")
    page.wait_for_selector("#live-ask")
    assert page.evaluate("scrollY") == 0
    assert page.evaluate(OUTSIDE, [".game-table", "#present-next", "#live-ask"]) == []
    # The turned trump card lies crosswise beside the stock, inside the stock's cell (at
    # 1920×1080 it ran into the discard pile's).
    overflow = page.evaluate("""() => {
      const cell = document.querySelector('.game-stock'), card = document.querySelector('.game-turned .card');
      const a = cell.getBoundingClientRect(), b = card.getBoundingClientRect();
      return b.right - a.right;
    }""")
    assert overflow <= 0, f"the turned card sticks out of the stock's cell by {overflow:.0f} px"



# ---------------------------------------------------------------------- phones: tap targets
# Links, buttons, fields and summaries under 24 px (WCAG 2.5.8), except a link inside running
# text: a paragraph, list item or cell that holds words outside the link.
SMALL_TARGETS = r"""() => {
  const small = [];
  const sel = 'a[href], button, input:not([type=hidden]), select, textarea, summary, label.pick';
  const BLOCK = 'p, li, dd, td, figcaption, blockquote';
  for (const el of document.querySelectorAll(sel)) {
    if (el.closest('.visually-hidden, [hidden], .skip-link, svg')) continue;
    if (el.matches('input.pick__box')) continue;  // the label around it is the target
    const r = el.getBoundingClientRect();
    if (!r.width || !r.height) continue;
    const cs = getComputedStyle(el);
    if (cs.visibility === 'hidden' || cs.display === 'none') continue;
    if (r.height >= 24 && r.width >= 24) continue;
    if (el.matches('a')) {
      // An inline link in running text: its block holds words outside the link.
      const block = el.parentElement.closest(BLOCK) || el.parentElement;
      let words = '';
      for (const n of block.childNodes) {
        if (n === el || (n.nodeType === 1 && (n.matches('a') || n.contains(el)))) continue;
        words += n.textContent;
      }
      if (words.replace(/[\s·›|,;:.()–-]/g, '').length > 0) continue;
    }
    small.push(`${el.tagName.toLowerCase()}.${el.className || ''} "${(el.textContent || el.value || '').trim().slice(0, 30)}" ${Math.round(r.width)}×${Math.round(r.height)}`);
  }
  return small;
}"""
MAIN_PAGES = ["home", "cards", "rules_dam", "rules_dolda", "rules_spardame", "variants_dam",
              "faq", "glossary", "tutorials", "tutorials_dam", "practice", "practice_dam",
              "scenarios_new", "live_join"]


@pytest.mark.parametrize("language", ["sv", "fi", "nb", "en"])
def test_no_tap_target_on_a_phone_is_under_24_px(page, live_server, language):
    """The table of contents was 22 px, tutorial breadcrumbs 19 px; 42 links on /fi/dam/."""
    page.set_viewport_size(PHONE)
    pages = [address(live_server, name, language) for name in MAIN_PAGES]
    pages.append(address(live_server, "tutorial_step_dam", language,
                         kwargs={"slug": "svarta-maja", "step": 3}))
    small = []
    for url in pages:
        page.goto(url)
        small += [f"{url}: {s}" for s in page.evaluate(SMALL_TARGETS)]
    assert small == []


@pytest.mark.parametrize("language", ["sv", "fi", "nb", "en"])
def test_the_names_table_shows_every_language_on_a_phone(page, live_server, language):
    """It was 444–501 px wide, the nb and en columns hidden with no cue to scroll."""
    page.set_viewport_size(PHONE)
    page.goto(address(live_server, "home", language))
    box = page.locator(".names-table").evaluate(
        "t => [t.parentElement.scrollWidth, t.parentElement.clientWidth]")
    assert box[0] <= box[1]
    for label in ("Svenska", "Suomi", "Norsk bokmål", "English"):
        assert page.locator(f'.names-table td[data-label="{label}"]').first.is_visible()


# ---------------------------------------------------------------------- the header at 1280×800
HEADER = """() => {
  const box = el => el.getBoundingClientRect();
  const items = [...document.querySelectorAll('.site-nav li, .language-switcher li')];
  const name = box(document.querySelector('.site-name'));
  return {
    tops: items.map(li => Math.round(box(li).top)),
    hidden: items.filter(li => { const r = box(li); const s = getComputedStyle(li);
      return r.width === 0 || r.height === 0 || s.visibility === 'hidden' || r.right > innerWidth; })
      .map(li => li.textContent.trim()),
    menuButton: box(document.querySelector('.site-menu__button')).width,
    height: Math.round(box(document.querySelector('.site-header')).height),
    nameTop: Math.round(name.top), nameBottom: Math.round(name.bottom),
    overflow: document.documentElement.scrollWidth - innerWidth,
  };
}"""


@pytest.mark.parametrize("language", ["sv", "fi", "nb", "en"])
@pytest.mark.parametrize("name", ["home", "practice", "faq"])
def test_the_header_fits_on_one_line_at_1280(page, live_server, language, name):
    """The Finnish menu wrapped onto two lines at 1280 px (#34 item 6): the site's name, every
    menu item and every language lie on one line, none hidden, nothing folded into the menu
    button."""
    page.set_viewport_size(LAPTOP)
    page.goto(address(live_server, name, language))
    got = page.evaluate(HEADER)
    assert got["hidden"] == [] and got["menuButton"] == 0 and got["overflow"] <= 0, got
    assert max(got["tops"]) - min(got["tops"]) <= 4, got  # one line
    assert got["height"] <= 64, got
