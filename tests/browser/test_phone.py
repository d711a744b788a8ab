"""Issue #38 on a phone: Debian's Chromium at 375×740 with a touch screen (taps, not clicks).
The hint opens where the player looks, every tap on a card that takes part in no legal move
says why (in all three games), the reasons stay inside the screen, primary buttons stay
readable after a tap, a tutorial's move buttons are on screen with the words that name them,
and a new deal opens on the table with the bots' first moves at the chosen pace."""

from __future__ import annotations

import pytest
from django.urls import reverse
from django.utils import translation
from playwright.sync_api import expect

from games.adapters import adapter
from practice import service as P
from practice.models import PracticeGame
from tests.browser.test_table_ux import MY_TURN_OR_OVER, advance, new_game, settled

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
W, H = 375, 740
IN_VIEW = """el => { const r = el.getBoundingClientRect();
  return r.width > 0 && r.top >= 0 && r.left >= 0 && r.bottom <= innerHeight
    && r.right <= document.documentElement.clientWidth; }"""


@pytest.fixture
def browser_context_args(browser_context_args):
    return {**browser_context_args, "viewport": {"width": W, "height": H}, "has_touch": True,
            "is_mobile": True, "device_scale_factor": 2}


@pytest.fixture(autouse=True)
def fast_bots(settings):
    settings.PRACTICE_BOT_DELAY_MS = 30


def url(live_server, name, language="en", **kwargs):
    with translation.override(language):
        return live_server.url + reverse(name, **kwargs)


def in_view(locator) -> bool:
    return locator.evaluate(IN_VIEW)


def my_turn(page, record, wanted=lambda state: True):
    state = advance(record, wanted)
    assert state is not None
    page.reload()
    page.wait_for_function(MY_TURN_OR_OVER)
    return state


# --------------------------------------------------------------------------- 1. the hint
@pytest.mark.parametrize(("game", "players"), [("dolda", 4), ("spardame", 4), ("dam", 3)])
def test_after_a_hint_its_reason_is_on_screen_and_has_the_focus(page, live_server, game,
                                                                 players):
    record = new_game(page, live_server, game, players)
    for turn in range(3):
        if turn:
            my_turn(page, record, lambda s: True)
        hint = page.locator("#hint-link")
        # The player scrolled down to the Hint button, at the bottom of the screen.
        page.evaluate("""() => { const b = document.getElementById('hint-link');
          scrollBy(0, b.getBoundingClientRect().bottom - innerHeight + 4); }""")
        hint.tap()
        page.wait_for_selector("#hint .practice-hint__reason")
        settled(page)
        page.wait_for_timeout(150)  # a smooth scroll, if any, has ended
        reason = page.locator("#hint .practice-hint__reason")
        assert in_view(reason), f"turn {turn}: the hint's reason is off screen"
        assert in_view(page.locator("#hint .practice-hint__move"))
        assert page.evaluate("document.activeElement.id") == "hint"
        page.locator("#play-hint").tap()
        page.wait_for_function(MY_TURN_OR_OVER, timeout=60_000)


def test_the_hint_link_without_javascript_opens_at_the_hint(browser, live_server):
    context = browser.new_context(java_script_enabled=False, viewport={"width": W, "height": H})
    page = context.new_page()
    page.goto(url(live_server, "practice_dolda"))
    page.select_option("#id_players", "4")
    page.locator("#start-game").click()
    page.locator("#hint-link").click()
    assert page.url.endswith("?hint=1#hint")
    assert in_view(page.locator("#hint-title"))
    context.close()


# --------------------------------------------------------------------------- 3, 5. taps
WHY = "document.getElementById('why').textContent"


def tap_each_idle_card(page) -> int:
    """Tap every card on the table that takes part in no legal move (no pick, no tap
    target): each says why, inside the screen, and changes nothing."""
    version = page.locator("#game").get_attribute("data-version")
    idle = page.locator(".game-table .card:not(.pick .card):not(.game-tap .card)")
    count = idle.count()
    assert count > 0
    for i in range(count):
        card = idle.nth(i)
        if not card.is_visible():
            continue
        page.evaluate("document.getElementById('why').textContent = ''")
        card.tap(force=True)  # a fanned hand: whatever card is on top there is tapped
        expect(page.locator("#why")).not_to_be_empty()
        assert in_view(page.locator("#why")), page.evaluate(WHY)
        assert page.locator("#game").get_attribute("data-version") == version
    return count


def test_dolda_every_tap_that_makes_no_move_says_why(page, live_server):
    record = new_game(page, live_server, "dolda", 4)
    # Holding a drawn card: swaps go left to right, into the next place only.
    my_turn(page, record, lambda s: s.view(0)["holder"] == 0)
    assert tap_each_idle_card(page) >= 24
    own = page.locator(".game-seat--viewer .game-row__slot:not(:has(.game-tap)) .card").last
    own.tap()
    expect(page.locator("#why")).to_contain_text("the next place is place 1")
    other = page.locator(".game-seat:not(.game-seat--viewer)").first
    name = other.locator(".game-seat__name").inner_text()
    other.locator(".card").first.tap()
    expect(page.locator("#why")).to_contain_text(f"{name}'s cards take part in none of your moves")
    expect(page.locator("#why")).to_contain_text("Swap the card you hold into your row")
    # Key 9: there is no ninth move button.
    page.locator("#card-table").focus()
    page.keyboard.press("9")
    expect(page.locator("#why")).to_contain_text("No move has the key 9 now.")
    assert in_view(page.locator("#why"))


def test_spardame_every_tap_that_makes_no_move_says_why(page, live_server):
    from tests.browser.test_table_ux import must_follow
    record = new_game(page, live_server, "spardame", 4)
    my_turn(page, record, must_follow)
    tap_each_idle_card(page)
    # A dimmed card of the hand: its own reason, whole and inside the screen (at the right
    # edge too, where the tooltip was cut off).
    offs = page.locator(".game-seat--viewer .pick--off")
    assert offs.count()
    for i in (0, offs.count() - 1):
        off = offs.nth(i)
        off.tap(force=True)  # aria-disabled: Playwright would wait for it to be enabled
        expect(page.locator("#why")).to_have_text(off.get_attribute("data-why"))
        assert in_view(page.locator("#why"))


def test_dam_every_tap_that_makes_no_move_says_why(page, live_server):
    record = new_game(page, live_server, "dam", 3)
    my_turn(page, record, lambda s: s.view(0)["phase"] == "defend")
    tap_each_idle_card(page)


def test_while_the_bots_move_a_tap_says_whose_turn_it_is(page, live_server):
    record = new_game(page, live_server, "dolda", 4)
    page.select_option("#bot-pace", "step")
    page.locator(".practice-pace button").tap()
    page.wait_for_selector("#game")
    page.locator("#pile-stock button.game-tap").tap()  # my draw
    page.wait_for_selector("#game[data-version='1']")
    record.refresh_from_db()
    state = P.load(record).state
    while not P.is_bot_turn(record, state):  # swap and discard until the turn passes
        action = list(state.legal_actions())[-1]
        P.human_move(record, record.version,
                     adapter("dolda").engine.format_action(action).split())
        record.refresh_from_db()
        state = P.load(record).state
    page.reload()
    expect(page.locator("#bot-step")).to_be_visible()
    page.locator(".game-seat--viewer .card").first.tap()
    expect(page.locator("#why")).to_contain_text(
        f"{record.names[state.to_move]} is to move now: wait for that move.")


def test_a_dimmed_cards_tooltip_on_focus_stays_inside_the_screen(page, live_server):
    from tests.browser.test_table_ux import must_follow
    record = new_game(page, live_server, "spardame", 4)
    my_turn(page, record, must_follow)
    offs = page.locator(".game-seat--viewer .pick--off")
    for i in range(offs.count()):
        off = offs.nth(i)
        # A one-tap hand's dimmed card is a button; a hand to choose from has checkboxes.
        (off if off.evaluate("el => el.tagName") == "BUTTON" else off.locator("input")).focus()
        page.keyboard.press("Shift+Tab")
        page.keyboard.press("Tab")  # focus by the keyboard: the tooltip shows
        page.wait_for_timeout(50)
        box = off.evaluate("""el => { const t = getComputedStyle(el, '::after');
          const r = el.getBoundingClientRect(), w = parseFloat(t.width);
          const dx = parseFloat(el.style.getPropertyValue('--why-dx') || '0');
          const left = r.left + r.width / 2 - w / 2 + dx;
          return {content: t.content, left: left, right: left + w,
                  vw: document.documentElement.clientWidth}; }""")
        assert off.get_attribute("data-why") in box["content"]
        assert box["left"] >= 0 and box["right"] <= box["vw"], box


# --------------------------------------------------------------------------- 4. buttons
def contrast(page, selector) -> float:
    return page.evaluate("""sel => { const s = getComputedStyle(document.querySelector(sel));
      const lum = c => { const v = c.match(/[\\d.]+/g).slice(0, 3).map(Number).map(x => x / 255)
        .map(x => x <= 0.03928 ? x / 12.92 : ((x + 0.055) / 1.055) ** 2.4);
        return 0.2126 * v[0] + 0.7152 * v[1] + 0.0722 * v[2]; };
      const a = lum(s.color), b = lum(s.backgroundColor);
      return (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05); }""", selector)


def finish(record):
    while True:
        record.refresh_from_db()
        derived = P.load(record)
        state = derived.state
        if state.over:
            return
        action = list(state.legal_actions())[0]
        if P.is_bot_turn(record, state):
            P._append(record, record.version, derived, state.to_move, action)
        else:
            P.human_move(record, record.version,
                         adapter(record.game).engine.format_action(action).split())


def test_primary_buttons_stay_readable_after_a_tap_and_under_a_mouse(page, browser,
                                                                      live_server):
    record = new_game(page, live_server, "spardame", 4)
    finish(record)
    page.reload()
    for sel in ("#next-deal", "#review-link"):
        # Keep the page: the tap's look is what is measured.
        page.evaluate("""sel => document.querySelector(sel).addEventListener('click',
          e => e.preventDefault())""", sel)
        page.locator(sel).tap()
        page.wait_for_timeout(300)
        assert contrast(page, sel) >= 4.5, sel
    # A mouse over them (a laptop): a darker green, the white text readable.
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    laptop = context.new_page()
    laptop.context.add_cookies(page.context.cookies())
    laptop.goto(page.url)
    for sel in ("#next-deal", "#review-link"):
        laptop.locator(sel).hover()
        laptop.wait_for_timeout(100)
        assert contrast(laptop, sel) >= 4.5, sel
        assert laptop.evaluate(f"getComputedStyle(document.querySelector('{sel}'))"
                               ".backgroundColor") != "rgb(226, 238, 230)"
    context.close()


# --------------------------------------------------------------------------- 2. tutorials
@pytest.mark.parametrize(("language", "game", "slug", "n", "button"), [
    ("nb", "spardame", "following-suit", 2, "Spill"),
    ("fi", "dam", "aino-eero-maija", 3, "Kaada"),
    ("sv", "dolda", "draw-and-swap", 3, None),
    ("en", "dam", "svarta-maja", 4, "Attack"),
])
def test_a_tutorials_move_buttons_are_on_screen_with_the_move_they_name(
        page, live_server, language, game, slug, n, button):
    page.goto(url(live_server, f"tutorial_step_{game}", language,
                  kwargs={"slug": slug, "step": n}) + "?hint=2")
    hint = page.locator("#tutorial-hint")
    expect(hint).to_be_visible()
    buttons = page.locator("#tutorial-move button")
    if button:
        buttons = buttons.filter(has_text=button)
    assert in_view(buttons.first), "the move button is off screen"
    # Scrolled down to the hand, the buttons are still there.
    page.locator(".game-table").evaluate("el => el.scrollIntoView({block: 'end'})")
    assert in_view(buttons.first)


# --------------------------------------------------------------------------- 6. next deal
def test_a_new_deal_opens_on_the_table_and_the_bots_play_at_the_pace(page, live_server,
                                                                      settings):
    settings.PRACTICE_BOT_DELAY_MS = 400
    record = new_game(page, live_server, "dolda", 4)
    finish(record)
    page.reload()
    page.add_init_script("""(() => {
      window.__steps = [];
      document.addEventListener('htmx:beforeRequest', e => {
        if (!e.detail.elt.matches || !e.detail.elt.matches('.practice-step')) return;
        const dealing = document.getAnimations().filter(a => a.effect && a.effect.target
          && a.effect.target.closest && a.effect.target.closest('#game')
          && a.playState === 'running').length;
        window.__steps.push({t: performance.now(), dealing: dealing,
          version: document.getElementById('game').dataset.version});
      });
      document.addEventListener('DOMContentLoaded', () => {
        window.__first = {version: document.getElementById('game').dataset.version,
                          t: performance.now()};
      });
    })()""")
    page.locator("#next-deal").tap()
    page.wait_for_selector("#game[data-fresh-deal='true']")
    new = PracticeGame.objects.get(series=record.series, deal_number=2)
    assert page.evaluate("window.__first.version") == "0"  # no bot had moved yet
    page.wait_for_function(MY_TURN_OR_OVER, timeout=60_000)
    steps = page.evaluate("window.__steps")
    new.refresh_from_db()
    bot_moves = len(new.actions)
    assert bot_moves >= 3 and len(steps) == bot_moves  # one request per bot move
    assert steps[0]["dealing"] == 0, "a bot moved while the cards were being dealt"
    gaps = [b["t"] - a["t"] for a, b in zip(steps, steps[1:])]
    assert min(gaps) >= 400, gaps  # each waits the pace after the one before
    # The news: the latest lines, the earlier folded; the table starts on the first screen.
    assert page.locator("#news > .practice-news__line").count() <= 3
    expect(page.locator("#news .practice-news__earlier summary")).to_be_visible()
    page.evaluate("scrollTo(0, 0)")
    assert page.locator("#card-table").evaluate("el => el.getBoundingClientRect().top") < H / 2
