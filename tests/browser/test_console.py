"""A silent browser console: a tutorial walk, a scenario editor session and a live session
log no error (a Content-Security-Policy refusal included).

The pages are photographed along the way as a reviewer's tools do: Playwright's screenshot
hides the text caret by styling every input, which leaves an empty style attribute on each
(password managers and spelling extensions leave such attributes too).  htmx copied that
attribute onto the element an out-of-band swap brought (the footer's #deck-next) and the
site's style-src 'self' refused it, once per step."""

import pytest
from django.urls import reverse
from django.utils import translation
from playwright.sync_api import expect

from tests.browser.test_live import end, go_live, join
from tests.browser.test_teacher import build

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def listen(page) -> list[str]:
    errors: list[str] = []
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: errors.append(str(e)))
    return errors


def settled(page) -> None:
    expect(page.locator(".htmx-request, .htmx-swapping, .htmx-settling")).to_have_count(0)


def test_a_tutorial_walk_logs_no_error(page, live_server):
    errors = listen(page)
    with translation.override("en"):
        page.goto(live_server.url + reverse("tutorial_step_dam",
                                            kwargs={"slug": "svarta-maja", "step": 1}))
    for _ in range(12):
        page.screenshot()
        hint = page.locator("#tutorial-hint-form button")
        if hint.count():
            hint.click()
        elif page.locator("#tutorial-move button").count():
            page.locator("#tutorial-move button").first.click()
        elif page.locator("#tutorial-next").count():
            page.locator("#tutorial-next").click()
        else:
            break
        settled(page)
    page.keyboard.press("ArrowLeft")
    settled(page)
    page.screenshot()
    assert errors == []


def test_an_editor_session_and_its_presentation_log_no_error(page, live_server):
    errors = listen(page)
    share = build(page, live_server)
    page.screenshot()
    page.goto(share)
    page.locator("a[href*='present']").first.click()
    for _ in range(3):
        page.screenshot()
        page.keyboard.press("ArrowRight")
        settled(page)
    assert errors == []


def test_a_live_session_logs_no_error(page, live_server, browser):
    errors = listen(page)
    code = go_live(page, live_server)
    context, phone = join(browser, live_server, "sv", "Sara", code)
    phone_errors = listen(phone)
    for step in (2, 3):
        page.screenshot()
        phone.screenshot()
        page.keyboard.press("ArrowRight")
        expect(phone.locator(".live-step")).to_have_attribute("data-step", str(step))
    page.locator("#live-ask").click()
    phone.locator(".live-option").first.click()
    expect(page.locator("#live-answered")).to_have_attribute("data-answered", "1")
    page.screenshot()
    page.locator("#live-reveal").click()
    expect(phone.locator(".live-result")).to_be_visible()
    phone.screenshot()
    end(page, phone)
    context.close()
    assert errors == []
    assert phone_errors == []
