"""Class tables in Debian's Chromium: a teacher goes live, two students join on 375 px phones
(Swedish and English), the teacher splits the class into a table of three (a bot in the empty
seat); each phone is sent to its seat and plays by tapping, the teacher's page follows the
moves over the stream without showing a card, and shows the result when the deal is over."""

from __future__ import annotations

import random
import re
import time

import pytest
from axe_playwright_python.sync_playwright import Axe
from django.utils import translation
from playwright.sync_api import expect

from games.adapters import adapter
from live import service as LS
from live.models import LiveSession
from practice import service as P
from rules.engine import cards as CARDS
from tables import service as TS
from tables.models import Table
from tests.browser.test_live import go_live, join
from tests.browser.test_tables import end_table, fresh, hand_shown, play_in_page
from tests.browser.turns import DB

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
DESKTOP = {"width": 1280, "height": 800}


@pytest.fixture(autouse=True)
def quick(settings):
    settings.PRACTICE_BOT_DELAY_MS = 80


def test_a_class_splits_into_a_table_plays_and_the_teacher_sees_the_result(
        page, live_server, browser, quick_motion):
    page.set_viewport_size(DESKTOP)
    code = go_live(page, live_server)
    phones = {}
    for language, name in (("sv", "Sara"), ("en", "Emma")):
        _ctx, phone = join(browser, live_server, language, name, code)
        phones[name] = phone
    expect(page.locator(".live-count")).to_have_text("2 students have joined.")
    page.locator("#class-tables-link").click()
    _no_axe_violations(page)  # the split form
    page.select_option("#id_players", "3")
    page.select_option("#id_level", "easy")
    page.locator("#split").click()
    expect(page.locator(".class-table")).to_have_count(1)
    # Each phone goes to its own seat at the table by itself.
    for name, phone in phones.items():
        expect(phone.locator(".tables-seat--you")).to_contain_text(name, timeout=10_000)
    with DB:
        table = Table.objects.get()
    seats = {i: phones[s["name"]] for i, s in enumerate(table.seats) if "student" in s}
    expect(phones["Sara"].locator("h1")).to_contain_text("Klassbord 1")
    rng = random.Random(3)
    human_moves = 0
    while human_moves < 4:
        deal, state = fresh(table)
        assert not state.over
        seat = state.to_move
        if seat not in seats:
            time.sleep(0.05)  # a bot's turn: a phone asks for it
            continue
        phone = seats[seat]
        expect(phone.locator("#game")).to_have_attribute("data-version", str(deal.version),
                                                         timeout=10_000)
        # Each phone shows its own hand and no other card of any hand.
        for s, other in seats.items():
            expect(other.locator("#game")).to_have_attribute("data-version", str(deal.version))
            assert hand_shown(other) == {CARDS.code(c) for c in state.view(s)["hand"]}
        legal = list(state.legal_actions())
        play_in_page(phone, adapter(table.game).form_fields(legal[rng.randrange(len(legal))]))
        deadline = time.monotonic() + 10
        while fresh(table)[0].version == deal.version and time.monotonic() < deadline:
            time.sleep(0.05)
        human_moves += 1
        # The teacher's page follows, with no reload and no card.
        moves = fresh(table)[0].version
        expect(page.locator(".class-table")).to_have_attribute("data-moves", re.compile(r"\d+"))
        assert int(page.locator(".class-table").get_attribute("data-moves") or 0) <= moves
    expect(page.locator(".class-table")).not_to_have_attribute("data-moves", "0")
    assert page.locator("[data-card]").count() == 0
    # The rest of the deal quickly: bots for every seat, as the server would play them.
    with DB:
        table.refresh_from_db()
        deal = table.deal
        for _move in range(500):
            deal.refresh_from_db()
            derived = P.load(deal)
            if derived.state.over:
                break
            s = derived.state.to_move
            TS._apply(table, deal, deal.version, derived, s,
                      P.make_bot(deal, s).act(derived.state, s))
        deal.refresh_from_db()
        with translation.override("en"):
            outcome = adapter(table.game).deal_outcome(deal.names, deal.result)
    expect(page.locator("#class-results")).to_contain_text(outcome, timeout=10_000)
    expect(page.locator("#class-finished")).to_contain_text("Deal finished at 1 of 1 table.")
    expect(phones["Emma"].locator("#class-table-over")).to_be_visible(timeout=10_000)
    assert page.locator("[data-card]").count() == 0
    _no_axe_violations(page)  # the results table
    _no_axe_violations(phones["Sara"])  # a student's finished table, in Swedish
    page.locator("#summary-link").click()
    expect(page.locator("#class-results")).to_contain_text(outcome)
    _no_axe_violations(page)  # the class summary
    end_table(table)
    with DB:
        LS.end(LiveSession.objects.get())


def _no_axe_violations(page) -> None:
    results = Axe().run(page)
    assert results.violations_count == 0, results.generate_report()
