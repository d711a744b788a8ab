"""static/js/tutorial.js expands compact Next/Back answers exactly as tutorials/wire.py does.

In Chromium, on each step page: the answers for the adjacent steps are fetched with the headers
htmx and tutorial.js send, expanded by the page's script against the page, and compared with
``wire.decode`` against the same page as served.  (tests/tutorials/test_wire.py checks that
``wire.decode``'s result turns the page into the next step.)
"""

import pytest
from django.urls import reverse
from django.utils import translation

from tutorials import lessons, wire

from ..tutorials.test_swaps import page_of

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

EXPAND = """async ([url, target]) => {
  const page = await (await fetch(window.location.href)).text();
  const build = JSON.parse(document.getElementById("tutorial-stage").getAttribute("hx-headers"));
  const response = await fetch(target, {headers: {
    "HX-Request": "true", "HX-Target": "tutorial-stage", "HX-Current-URL": window.location.href,
    "X-Tutorial-Build": build["X-Tutorial-Build"], "X-Tutorial-Swaps": "attrs patch"}});
  const text = await response.text();
  return {page, text, compact: response.headers.get("X-Tutorial-Patch") === "1",
          expanded: window.damTutorialWire.expand(text, window.damTutorialWire.currentPage())};
}"""


def url(live_server, game, slug, n, language):
    with translation.override(language):
        return live_server.url + reverse(f"tutorial_step_{game}",
                                         kwargs={"slug": slug, "step": n})


def tutorials_in(languages):
    out = []
    for language in languages:
        out += [(t.game, t.slug, language) for t in lessons.TUTORIALS.values()]
    return out


def check_tutorial(page, live_server, game, slug, language):
    total = len(lessons.get(game, slug).steps)
    for m in range(1, total + 1):
        here = url(live_server, game, slug, m, language)
        page.goto(here)
        for n in (m - 1, m + 1):
            if not 1 <= n <= total:
                continue
            got = page.evaluate(EXPAND, [here, url(live_server, game, slug, n, language)])
            assert got["compact"], (here, n)
            assert got["expanded"] == wire.decode(got["text"], page_of(got["page"])), (here, n)


@pytest.mark.parametrize("game,slug,language", tutorials_in(["en", "fi"]))
def test_the_script_expands_answers_like_the_server(page, live_server, game, slug, language):
    check_tutorial(page, live_server, game, slug, language)


@pytest.mark.parametrize("game,slug,language", [("dam", "anna-bo-cilla", "sv"),
                                                ("dolda", "thieves-and-shields", "nb"),
                                                ("spardame", "scoring-and-moon", "sv")])
def test_the_script_expands_answers_like_the_server_in_swedish_and_norwegian(
        page, live_server, game, slug, language):
    check_tutorial(page, live_server, game, slug, language)


def test_the_script_has_the_servers_snippets(page, live_server):
    page.goto(url(live_server, "dam", "anna-bo-cilla", 1, "en"))
    assert page.evaluate("window.damTutorialWire.snippets") == list(wire.SNIPPETS)
