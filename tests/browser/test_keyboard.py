"""Issue #38 from the keyboard, at 1280×800: T puts the focus on a card so that the arrow keys
move at once, as the shortcut list says; a game starts a few Tabs from the top of its form;
the presenter's address names the step shown at every moment."""

from __future__ import annotations

import pytest
from django.urls import reverse
from django.utils import translation
from playwright.sync_api import expect

from tests.browser.test_table_ux import MY_TURN_OR_OVER, advance, new_game

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def browser_context_args(browser_context_args):
    return {**browser_context_args, "viewport": {"width": 1280, "height": 800}}


@pytest.fixture(autouse=True)
def fast_bots(settings):
    settings.PRACTICE_BOT_DELAY_MS = 30


def url(live_server, name, language="en", **kwargs):
    with translation.override(language):
        return live_server.url + reverse(name, **kwargs)


FOCUS = """() => { const a = document.activeElement;
  return {id: a.id, value: a.getAttribute('value'), name: a.getAttribute('name'),
          hand: !!a.closest('.game-seat--viewer')}; }"""


@pytest.mark.parametrize(("game", "players", "language"),
                         [("dam", 3, "fi"), ("spardame", 4, "nb"), ("dolda", 4, "sv")])
def test_t_puts_the_focus_on_a_card_and_the_arrows_move_at_once(page, live_server, game,
                                                                players, language):
    record = new_game(page, live_server, game, players, language)
    if game == "dolda":  # the start of a turn: draw from a pile
        state = advance(record, lambda s: s.to_move == 0 and s.view(0)["holder"] is None)
    else:
        state = advance(record, lambda s: s.to_move == 0 and len(
            {c for a in s.legal_actions() for c in _cards(game, a)}) >= 2)
    assert state is not None
    page.reload()
    page.wait_for_function(MY_TURN_OR_OVER)
    page.locator("h1").click()  # focus nowhere in particular
    page.keyboard.press("t")
    first = page.evaluate(FOCUS)
    if game == "dolda":
        # No card to choose at the start of a turn: the focus is on the stock, a tap on which
        # draws, and the arrows go on from there to the move buttons.
        assert page.evaluate("document.activeElement.matches('#pile-stock .game-tap')")
        page.keyboard.press("ArrowDown")
        assert page.evaluate("document.activeElement.matches('.practice-buttons button')")
        page.keyboard.press("ArrowUp")
        assert page.evaluate("document.activeElement.matches('.game-centre .game-tap')")
        return
    assert first["hand"] and first["name"] == "card", first
    page.keyboard.press("ArrowRight")
    second = page.evaluate(FOCUS)
    assert second["hand"] and second["value"] != first["value"], (first, second)
    page.keyboard.press("ArrowLeft")
    assert page.evaluate(FOCUS)["value"] == first["value"]


def _cards(game, action):
    from games.adapters import adapter
    return adapter(game).hand_cards(action)


def test_arrows_on_the_table_itself_start_at_the_first_card(page, live_server):
    new_game(page, live_server, "dam", 3)
    page.locator("#card-table").focus()  # the skip link's target
    page.keyboard.press("ArrowRight")
    focus = page.evaluate(FOCUS)
    assert focus["hand"] and focus["name"] == "card"


@pytest.mark.parametrize("language", ["sv", "fi", "nb", "en"])
def test_a_game_starts_a_few_tabs_from_the_top(page, live_server, language):
    page.goto(url(live_server, "practice_dam", language))
    page.keyboard.press("Tab")  # Skip to content
    page.keyboard.press("Tab")  # Skip to the game settings
    assert page.evaluate("document.activeElement.getAttribute('href')") == "#new-game"
    page.keyboard.press("Enter")
    tabs = 0
    while tabs < 12 and page.evaluate("document.activeElement.id") != "start-game":
        page.keyboard.press("Tab")
        tabs += 1
    assert page.evaluate("document.activeElement.id") == "start-game"
    assert tabs <= 7, tabs  # name, players, bots, rule set, single rules (folded), Start
    page.keyboard.press("Enter")
    page.wait_for_selector("#game")


# --------------------------------------------------------------------------- 8. presenter
WATCH = """() => { window.__seen = [];
  const stage = document.getElementById('present-stage');
  const note = () => window.__seen.push({
    text: (document.getElementById('present-progress-label') || {}).textContent || '', path: location.pathname});
  new MutationObserver(note).observe(stage, {childList: true, subtree: true, characterData: true});
}"""


@pytest.mark.parametrize("language", ["fi", "en"])
def test_the_presenters_address_names_the_step_shown_at_every_moment(page, live_server,
                                                                      language):
    start = url(live_server, "tutorial_present", language,
                kwargs={"game": "dam", "slug": "aino-eero-maija", "step": 3})
    page.goto(start)
    page.evaluate(WATCH)
    with translation.override(language):
        step_words = translation.gettext("Step %(n)s of %(total)s")  # the msgid of the label
    for key, step in (("ArrowRight", 4), ("ArrowRight", 5), ("ArrowLeft", 4),
                      ("ArrowLeft", 3)):
        page.keyboard.press(key)
        page.wait_for_function(f"() => location.pathname.endsWith('/{step}/')")
        expect(page.locator("#present-stage")).to_contain_text(
            step_words.replace("%(n)s", str(step)).split("%(total)s")[0].strip())
    seen = page.evaluate("window.__seen")
    assert seen
    for entry in seen:  # each time the stage changed, the address already named its step
        n = entry["path"].rstrip("/").rsplit("/", 1)[-1]
        shown = step_words.replace("%(n)s", n).split("%(total)s")[0].strip()
        assert shown in entry["text"], entry
