"""Tables with friends in Debian's Chromium: two, three and four people on their own browsers
(some of them 375 px phones) play whole deals together with a bot in the empty seat.  Every move must reach every
page over the stream; a page reloaded picks up where it was; a player who leaves is replaced
by a bot after the grace period and takes the seat back; a stale double tap is refused."""

from __future__ import annotations

import random
import re
import time
from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone, translation
from playwright.sync_api import expect

from games.adapters import adapter
from practice import service as P
from rules.engine import cards as C
from tables import service as S
from tables.models import Table
from tests.browser.turns import DB

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
PHONE = {"width": 375, "height": 740}
DESKTOP = {"width": 1280, "height": 800}
STALE = {"en": "That move was already made", "sv": "Det draget är redan gjort",
         "fi": "Siirto on jo tehty", "nb": "Det trekket er allerede gjort"}


@pytest.fixture(autouse=True)
def quick_table(settings):
    settings.PRACTICE_BOT_DELAY_MS = 120
    settings.TABLE_GRACE_SECONDS = 2


def url(live_server, name, language="en", **kwargs):
    with translation.override(language):
        return live_server.url + reverse(name, **kwargs)


def open_table(page, live_server, game: str, players: int, name: str) -> Table:
    page.goto(url(live_server, f"practice_{game}"))
    page.locator("#play-with-friends").click()
    page.fill("#id_name", name)
    page.select_option("#id_players", str(players))
    page.select_option("#id_level", "easy")
    page.locator("#open-table").click()
    expect(page.locator("#table-code")).to_be_visible()
    expect(page.locator(".live-qr svg")).to_be_visible()
    with DB:
        return Table.objects.latest("created")


def join(browser, live_server, table: Table, language: str, viewport, name: str):
    context = browser.new_context(viewport=viewport, locale=language)
    page = context.new_page()
    # The short address of the QR code and the link: the table in the phone's language.
    page.goto(live_server.url + f"/t/{table.code}/")
    expect(page).to_have_url(re.compile(f"/{language}/"))
    page.fill("#sit-name", name)
    page.locator("#sit-down").click()
    expect(page.locator(".tables-seat--you")).to_contain_text(name)
    return context, page


def fresh(table: Table):
    with DB:
        table.refresh_from_db()
        deal = table.deal
        assert deal is not None
        deal.refresh_from_db()
        return deal, P.load(deal).state


def wait_version(table: Table, above: int, timeout: float = 15.0) -> int:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        with DB:
            table.refresh_from_db()
            table.deal.refresh_from_db()
        if table.deal.version > above:
            return table.deal.version
        time.sleep(0.05)
    raise AssertionError(f"no move after version {above}")


def all_see(pages, version: int) -> None:
    """Every page shows the position after ``version`` moves, with no reload."""
    for page in pages:
        expect(page.locator("#game")).to_have_attribute("data-version", str(version),
                                                         timeout=10_000)


def play_in_page(page, fields: dict) -> None:
    """Make the move as a player would: a button of its own, or its cards and then the
    kind's button (a card that is played with one tap: the card)."""
    kind = fields["move"]
    cards = fields.get("card", [])
    if kind == "play" and page.locator(f'#move-form button.pick--tap[value="{cards[0]}"]').count():
        page.locator(f'#move-form button.pick--tap[value="{cards[0]}"]').click()
        return
    for form in page.locator(".practice-simple form").all():
        values = {i.get_attribute("name"): i.get_attribute("value")
                  for i in form.locator("input[type=hidden]").all()}
        if values.get("move") == kind and all(values.get(k) == v for k, v in fields.items()
                                               if isinstance(v, str)):
            form.locator("button").click()
            return
    for code in cards:
        page.locator(f'#move-form label:has(input[name="card"][value="{code}"])').click()
    if fields.get("target"):
        page.locator(f'#move-form label:has(input[name="target"][value="{fields["target"]}"])'
                     ).click()
    page.locator(f'#move-form button[name="move"][value="{kind}"]').click()


def play_and_wait(page, table: Table, fields: dict, version: int) -> None:
    """Play and wait for the move to be stored.  A stream event that redraws the same
    position (a seat's news: someone back, a bot scheduled) can land between ticking the
    cards and pressing the button, and the page then sends the move without them; it is
    refused with a message, as it would be for a person, who ticks again: so does this."""
    for attempt in range(3):
        page.wait_for_function(
            "() => !document.querySelector('.htmx-request, .htmx-swapping, .htmx-settling')")
        play_in_page(page, fields)
        try:
            wait_version(table, version, timeout=8.0 if attempt < 2 else 15.0)
            return
        except AssertionError:
            if attempt == 2:
                raise


def end_table(table: Table) -> None:
    """End the table so its streams end before the test's database goes."""
    with DB:
        Table.objects.filter(pk=table.pk).update(active=timezone.now() - timedelta(days=1))
        table.refresh_from_db()
    S.publish(table)
    # Every stream of the table ends on this message, those of pages left behind (a reload,
    # the page before sitting down) too: let their threads finish before the database goes.
    time.sleep(1.5)


def hand_shown(page) -> set[str]:
    return set(page.locator(".game-seat--viewer [data-card]").evaluate_all(
        "els => els.map(e => e.dataset.card)"))


def test_two_friends_and_a_bot_play_dam_with_a_reload_a_leave_and_a_double_tap(
        page, live_server, browser):
    page.set_viewport_size(DESKTOP)
    table = open_table(page, live_server, "dam", 3, "Host")
    _ctx, phone = join(browser, live_server, table, "sv", PHONE, "Vän")
    # The host sees the friend sit down, over the stream.
    expect(page.locator(".tables-seats__list")).to_contain_text("Vän")
    page.locator("#deal").click()
    expect(page.locator("#table-turn")).to_be_visible()
    with DB:
        table.refresh_from_db()
    pages = {0: page, 1: phone}
    deal, state = fresh(table)
    all_see(pages.values(), deal.version)
    assert "Vän" in deal.names and deal.names[0] == "Host"
    rng = random.Random(7)
    reloaded = left = tapped = False
    for _turn in range(600):
        deal, state = fresh(table)
        if state.over:
            break
        seat = state.to_move
        if seat in pages and not S.is_bot(table, seat):
            # A person's turn: nothing moves until they do.  Every page shows this position
            # (the stream brought it), each with its own hand and no other.
            all_see(pages.values(), deal.version)
            for s, other in pages.items():
                assert hand_shown(other) == {C.code(c) for c in state.view(s)["hand"]}
            p = pages[seat]
            if seat == 1 and not reloaded:
                # A reconnect: the phone reloads and is back at its seat, in the same position.
                p.reload()
                expect(p.locator("#game")).to_have_attribute("data-version", str(deal.version))
                expect(p.locator(".tables-seat--you")).to_contain_text("Vän")
                reloaded = True
            if seat == 1 and reloaded and not left and len(deal.actions) > 6:
                # The friend leaves on their turn: after the grace period a bot plays for them.
                p.locator("#leave").click()
                expect(p.locator("#come-back")).to_be_visible()
                expect(page.locator(".tables-seats__list")).to_contain_text("Vän")
                wait_version(table, deal.version, timeout=20)
                with DB:
                    table.deal.refresh_from_db()
                assert table.deal.actions[deal.version].startswith("Vän ")
                p.locator("#come-back").click()
                expect(p.locator("#leave")).to_be_visible()
                with DB:
                    table.refresh_from_db()
                assert not S.is_bot(table, 1)
                left = True
                continue
            legal = list(state.legal_actions())
            action = legal[rng.randrange(len(legal))]
            fields = adapter(table.game).form_fields(action)
            version = deal.version
            play_and_wait(p, table, fields, version)
            if not tapped and seat == 0:
                # A double tap: the same form sent again with the version it showed.
                html = p.evaluate("""async ([url, version]) => {
                    const body = new URLSearchParams({version: String(version), move: "take"});
                    const token = document.querySelector("[name=csrfmiddlewaretoken]").value;
                    const r = await fetch(url, {method: "POST", body,
                        headers: {"HX-Request": "true", "X-CSRFToken": token}});
                    return await r.text();
                }""", [reverse_in(table, "move", "en"), version])
                assert STALE["en"] in html
                tapped = True
        else:
            wait_version(table, deal.version)
    deal, state = fresh(table)
    assert state.over and reloaded and left and tapped
    all_see(pages.values(), deal.version)
    # The host starts the next deal; the friend is told the host does; the tally carries on.
    expect(phone.locator("#next-deal")).to_have_count(0)
    page.locator("#next-deal").click()
    expect(page.locator("#table-turn")).to_contain_text("Deal 2")
    with DB:
        table.refresh_from_db()
    assert table.deal.deal_number == 2
    expect(phone.locator("#table-turn")).to_contain_text("Giv 2")
    end_table(table)
    expect(phone.locator("#table-ended")).to_be_visible(timeout=20_000)


def test_a_phone_coming_back_fetches_the_table_in_place(page, live_server, browser):
    """Waking or back online, a phone asks for the table's current state at once (its stream
    may be waiting to reconnect) and puts it in place of the table it showed."""
    page.set_viewport_size(DESKTOP)
    table = open_table(page, live_server, "dam", 3, "Host")
    context, phone = join(browser, live_server, table, "fi", PHONE, "Aino")
    expect(page.locator(".tables-seats__list")).to_contain_text("Aino")
    page.locator("#deal").click()
    expect(phone.locator("#game")).to_have_attribute("data-deal", "1")
    phone.evaluate("""() => document.getElementById('table-live')
      .insertAdjacentHTML('beforeend', '<i id="stale-mark"></i>')""")
    with phone.expect_response(lambda r: "/now/" in r.url):
        phone.evaluate("window.dispatchEvent(new Event('online'))")
    expect(phone.locator("#stale-mark")).to_have_count(0)
    expect(phone.locator("#table-live #game")).to_have_attribute("data-deal", "1")
    expect(phone.locator("#table-live")).to_have_count(1)
    end_table(table)
    context.close()


def reverse_in(table: Table, name: str, language: str) -> str:
    with translation.override(language):
        return reverse(f"tables_{name}", args=[table.code])


def test_three_friends_and_a_bot_play_a_deal_of_spardame_in_three_languages(
        page, live_server, browser):
    """English at 1280 px, Finnish and Norwegian phones at 375 px: a whole deal, every card
    played by tapping it, every pass by choosing three cards and the button."""
    play_spardame(page, live_server, browser, 4, [("fi", "Aino", PHONE), ("nb", "Ola", PHONE)])


def test_four_friends_and_a_bot_play_a_deal_of_spardame_in_four_languages(
        page, live_server, browser):
    """Four browsers at a table of five (English and Norwegian at 1280 px, Swedish and
    Finnish phones at 375 px), the fifth seat a bot."""
    play_spardame(page, live_server, browser, 5, [("sv", "Sara", PHONE), ("fi", "Aino", PHONE),
                                                  ("nb", "Ola", DESKTOP)])


def play_spardame(page, live_server, browser, seats: int, friends) -> None:
    page.set_viewport_size(DESKTOP)
    table = open_table(page, live_server, "spardame", seats, "Host")
    pages = {0: page}
    for language, name, viewport in friends:
        _ctx, phone = join(browser, live_server, table, language, viewport, name)
        pages[len(pages)] = phone
    expect(page.locator(".tables-seats__list")).to_contain_text(friends[-1][1])
    page.locator("#deal").click()
    expect(page.locator("#table-turn")).to_be_visible()
    with DB:
        table.refresh_from_db()
    assert sum(S.is_bot(table, i) for i in range(seats)) == seats - len(pages)
    rng = random.Random(3)
    for _turn in range(400):
        deal, state = fresh(table)
        if state.over:
            break
        seat = state.to_move
        if seat in pages:
            all_see(pages.values(), deal.version)
            for s, other in pages.items():
                assert hand_shown(other) == {C.code(c) for c in state.view(s)["hand"]}
            legal = list(state.legal_actions())
            play_in_page(pages[seat], adapter("spardame").form_fields(
                legal[rng.randrange(len(legal))]))
            wait_version(table, deal.version)
        else:
            wait_version(table, deal.version)
    deal, state = fresh(table)
    assert state.over
    all_see(pages.values(), deal.version)
    # The match's scores, on every page in its language.
    for p in pages.values():
        expect(p.locator(".practice-summary")).to_be_visible()
    expect(pages[1].locator("#game")).to_contain_text(friends[0][1])
    end_table(table)
    for p in pages.values():
        expect(p.locator("#table-ended")).to_be_visible(timeout=20_000)
