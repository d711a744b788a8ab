"""Debian's Chromium through Playwright: what a visitor sees on the foundation pages."""

import pytest
from django.urls import reverse
from django.utils import translation

from tests.browser.layout import horizontal_overflow, overflow_with_wider_control_font
from tests.pages import LANGUAGES, page_names

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def url(live_server, name: str, language: str) -> str:
    with translation.override(language):
        return live_server.url + reverse(name)


def overflow_at_375(page) -> int:
    page.set_viewport_size({"width": 375, "height": 800})
    return horizontal_overflow(page)


@pytest.mark.parametrize("language", LANGUAGES)
def test_home_page_loads_in_language(page, live_server, language):
    page.goto(url(live_server, "home", language))
    assert page.locator("html").get_attribute("lang") == language
    assert page.locator("h1").count() == 1


@pytest.mark.parametrize("language,target", [("sv", "fi"), ("fi", "nb"), ("nb", "en"), ("en", "sv")])
def test_language_switcher_keeps_the_page(page, live_server, language, target):
    page.goto(url(live_server, "cards", language))
    page.locator(f'.language-switcher a[hreflang="{target}"]').click()
    page.wait_for_load_state()
    assert page.url == url(live_server, "cards", target)
    assert page.locator("html").get_attribute("lang") == target


# axe on these pages: tests/browser/test_a11y_gate.py, whose crawl of every page type starts
# from them and checks each of them in every language.


@pytest.mark.parametrize("language", LANGUAGES)
def test_nothing_overflows_horizontally_at_375_px(page, live_server, language):
    # One browser page for all of them: a new one per page cost three times the checks.
    overflowing = {}
    for name in page_names():
        page.goto(url(live_server, name, language))
        if (excess := overflow_at_375(page)) > 0:
            overflowing[name] = excess
        elif (excess := overflow_with_wider_control_font(page)) > 0:
            overflowing[f"{name} (wider font in its form controls)"] = excess
    assert not overflowing


def test_skip_link_is_the_first_stop_for_the_keyboard(page, live_server):
    page.goto(url(live_server, "home", "en"))
    page.keyboard.press("Tab")
    focused = page.evaluate("document.activeElement.className")
    assert focused == "skip-link"
