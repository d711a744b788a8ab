"""The content security policy, enforced by Debian's Chromium: inline script, inline event
handlers and style attributes added to a page do nothing; the site's own scripts still run."""

import pytest
from django.urls import reverse
from django.utils import translation

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def home(live_server) -> str:
    with translation.override("en"):
        return live_server.url + reverse("home")


def test_an_inline_script_is_blocked(page, live_server):
    violations = []
    page.on("console", lambda m: violations.append(m.text) if "Content Security" in m.text
            else None)
    page.goto(home(live_server))
    page.evaluate("""() => {
        const s = document.createElement('script');
        s.textContent = 'window.__inlineRan = true';
        document.body.appendChild(s);
    }""")
    assert page.evaluate("window.__inlineRan === undefined")
    assert violations


def test_an_inline_event_handler_is_blocked(page, live_server):
    page.goto(home(live_server))
    page.evaluate("""() => {
        const b = document.createElement('button');
        b.id = 'probe';
        b.setAttribute('onclick', 'window.__handlerRan = true');
        document.body.appendChild(b);
    }""")
    page.locator("#probe").click()
    assert page.evaluate("window.__handlerRan === undefined")


def test_a_style_attribute_is_ignored(page, live_server):
    page.goto(home(live_server))
    width = page.evaluate("""() => {
        const d = document.createElement('div');
        d.setAttribute('style', 'width: 1234px');
        document.body.appendChild(d);
        return getComputedStyle(d).width;
    }""")
    assert width != "1234px"


def test_the_sites_own_scripts_run(page, live_server):
    page.goto(home(live_server))
    assert page.evaluate("typeof window.htmx") == "object"
