"""The live classroom in Debian's Chromium: a teacher goes live with a tutorial, two students
join by code on phones in Swedish and Finnish, follow three steps, answer "What would you
play?" and see whether they were right while the projector shows the chart."""

import re

import pytest
from axe_playwright_python.sync_playwright import Axe
from django.urls import reverse
from django.utils import translation
from playwright.sync_api import expect

from live.models import LiveAnswer

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
GAME, SLUG = "dam", "anna-bo-cilla"
TITLES = {"sv": "Anna, Bo och Cilla", "fi": "Anna, Bo ja Cilla", "en": "Anna, Bo and Cilla"}
PHONE = {"width": 375, "height": 800}


def url(live_server, name, language="en", **kwargs):
    with translation.override(language):
        return live_server.url + reverse(name, **kwargs)


def go_live(page, live_server) -> str:
    page.goto(url(live_server, "tutorial_present", kwargs={"game": GAME, "slug": SLUG,
                                                           "step": 1}))
    page.get_by_role("button", name="Go live with the class").click()
    expect(page.locator(".live-code")).to_be_visible()
    code = re.sub(r"\W", "", page.locator(".live-code").inner_text().split(":")[-1])
    assert len(code) == 6
    expect(page.locator(".live-qr svg")).to_be_visible()
    # The page shows before its deferred scripts run; a key pressed before then is not
    # heard (on a loaded CI machine the first ArrowRight was lost and the step never came).
    page.wait_for_load_state("load")
    page.wait_for_function("() => !!window.htmx")
    return code


def join(browser, live_server, language, name, code, prepare=None):
    """A phone joins; ``prepare(context)`` first, when given (routes the test sets)."""
    context = browser.new_context(viewport=PHONE, locale=language)
    if prepare is not None:
        prepare(context)
    phone = context.new_page()
    phone.goto(live_server.url + f"/j/{code.lower()}/")
    expect(phone).to_have_url(re.compile(f"/{language}/live/join/"))
    expect(phone.locator("#join-code")).to_have_value(code)
    phone.fill("#join-name", name)
    phone.locator(".live-join-button").click()
    expect(phone.locator(".live-step")).to_have_attribute("data-step", "1")
    return context, phone


def end(page, *phones) -> None:
    """End the session, so that its streams end before the test's database goes; the
    projector and every phone given must then say so."""
    page.get_by_role("button", name=re.compile("End live session|Avsluta|Lopeta|Avslutt")).click()
    # Seconds on a loaded machine: runs on two shared cores timed out at the default 5 s, on
    # the projector and on a phone whose stream was still waiting to reconnect after a sleep.
    for screen in (page, *phones):
        expect(screen.locator(".live-ended")).to_be_visible(timeout=20_000)


def shown_cards(page) -> set[str]:
    return set(page.locator("#live-follow [data-card]").evaluate_all(
        "els => els.map(e => e.dataset.card)"))


def test_teacher_and_two_students_follow_three_steps_and_answer(page, live_server, browser):
    code = go_live(page, live_server)
    phones = {lang: join(browser, live_server, lang, name, code)
              for lang, name in (("sv", "Sara"), ("fi", "Aino"))}
    expect(page.locator(".live-count")).to_have_text("2 students have joined.")
    for step in (2, 3):
        page.keyboard.press("ArrowRight")
        expect(page.locator("#present-stage")).to_have_attribute("data-step", str(step))
        for lang, (_ctx, phone) in phones.items():
            expect(phone.locator(".live-step")).to_have_attribute("data-step", str(step),
                                                                   timeout=3000)
            expect(phone.locator(".present-title")).to_contain_text(TITLES[lang])
    projector_cards = set(page.locator("#present-stage [data-card]").evaluate_all(
        "els => els.map(e => e.dataset.card)"))
    for _ctx, phone in phones.values():
        assert shown_cards(phone) == projector_cards  # the same cards, none more

    page.locator("#live-ask").click()
    sv, fi = phones["sv"][1], phones["fi"][1]
    expect(sv.locator(".live-option")).to_have_count(8)
    expect(fi.locator(".live-option")).to_have_count(8)
    sv.locator('.live-option[value="beat 5C 8C"]').click()
    expect(sv.locator('.live-option[value="beat 5C 8C"]')).to_have_attribute("aria-pressed",
                                                                           "true")
    fi.locator('.live-option[value="take"]').click()
    fi.locator('.live-option[value="take"]').click()  # a double tap counts once
    expect(page.locator("#live-answered")).to_have_attribute("data-answered", "2")
    expect(page.locator(".live-bar")).to_have_count(8)
    expect(page.locator(".live-bar-n")).to_have_text(["1", "0", "0", "0", "0", "0", "0", "1"])
    assert LiveAnswer.objects.count() == 2

    page.locator("#live-reveal").click()
    expect(page.locator(".live-bar--lesson")).to_contain_text("eight of clubs")
    expect(sv.locator(".live-result--right")).to_be_visible()
    expect(fi.locator(".live-result--wrong")).to_be_visible()
    expect(fi.locator(".live-lesson")).to_contain_text("risti 8")
    results = Axe().run(sv)
    assert results.violations_count == 0, results.generate_report()
    assert sv.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]

    end(page, *(phone for _ctx, phone in phones.values()))
    for context, _phone in phones.values():
        context.close()


def test_a_phone_that_slept_catches_up_on_its_own(page, live_server, browser):
    code = go_live(page, live_server)
    context, phone = join(browser, live_server, "nb", "Ola", code)
    context.set_offline(True)
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowRight")
    expect(page.locator("#present-stage")).to_have_attribute("data-step", "3")
    context.set_offline(False)
    phone.evaluate("window.dispatchEvent(new Event('online'))")
    expect(phone.locator(".live-step")).to_have_attribute("data-step", "3", timeout=5000)
    end(page, phone)
    context.close()


def test_a_phone_whose_stream_failed_is_loaded_afresh_when_it_comes_back(page, live_server,
                                                                         browser):
    """A stream answered with an error (a server restarting) is retried by htmx's SSE
    extension after 0.5, 1, 2, 4… s; the phone coming back does not wait for that."""
    code = go_live(page, live_server)
    failures = []
    stream = re.compile(r"/live/\w+/nb/$")
    context, phone = join(browser, live_server, "nb", "Ola", code, prepare=lambda c: c.route(
        stream, lambda route: failures.append(1) or route.fulfill(status=503)))
    for _ in range(100):  # the fourth failure is at about 3.5 s; the next try 4 s later
        if len(failures) >= 4:
            break
        phone.wait_for_timeout(100)
    assert len(failures) >= 4
    context.unroute(stream)
    page.keyboard.press("ArrowRight")
    expect(page.locator("#present-stage")).to_have_attribute("data-step", "2")
    phone.evaluate("window.dispatchEvent(new Event('online'))")
    expect(phone.locator(".live-step")).to_have_attribute("data-step", "2")
    page.keyboard.press("ArrowRight")
    expect(page.locator("#present-stage")).to_have_attribute("data-step", "3")
    expect(phone.locator(".live-step")).to_have_attribute("data-step", "3", timeout=2000)
    end(page, phone)
    context.close()


@pytest.mark.parametrize("language", ["sv", "fi", "nb", "en"])
def test_join_page_and_projector_pass_axe_and_the_join_page_fits_375_px(page, live_server,
                                                                        language):
    with translation.override(language):
        present = reverse("tutorial_present", kwargs={"game": GAME, "slug": SLUG, "step": 3})
    page.goto(live_server.url + present)
    page.locator(".present-go-live").click()
    expect(page.locator(".live-qr svg")).to_be_visible()
    page.locator("#live-ask").click()
    expect(page.locator(".live-bar")).to_have_count(8)
    results = Axe().run(page)
    assert results.violations_count == 0, results.generate_report()
    end(page)
    page.set_viewport_size(PHONE)
    page.goto(url(live_server, "live_join", language))
    results = Axe().run(page)
    assert results.violations_count == 0, results.generate_report()
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
