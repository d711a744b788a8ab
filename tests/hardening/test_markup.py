"""No page carries markup the content security policy would block: inline <script> or
<style>, style="" attributes, on*= or hx-on handlers, javascript: URLs.  Every page reachable
from the site's pages is scanned, in all four languages, with a practice game of each kind
open in the session (so the game pages are reached too)."""

import pytest
from django.urls import reverse
from django.utils import translation

from tests.pages import LANGUAGES

from .crawl import crawl, parse

pytestmark = pytest.mark.django_db

NEW = {"dam": {"preset": "svarta-maja", "players": 3},
       "dolda": {"players": 3, "memory_aid": "on"},
       "spardame": {"players": 4}}


def open_games(client, language: str) -> list[str]:
    from rules.engine.games import game_module

    urls = []
    with translation.override(language):
        for game, data in NEW.items():
            module = game_module(game)
            data = {"preset": module.DEFAULT_PRESET, "level": "easy", "name": "Me", **data}
            r = client.post(reverse(f"practice_{game}"), data)
            assert r.status_code == 302, r.content.decode()[:500]
            urls.append(r["Location"])
    return urls


def test_the_scanner_finds_inline_script_and_handlers():
    found = parse('<script>alert(1)</script><p style="x" onclick="y"><a href="javascript:z">'
                  '</a><style>p{}</style><div hx-on::click="q"></div><script src="/s.js">'
                  "</script>").problems
    assert len(found) == 6


@pytest.mark.parametrize("language", LANGUAGES)
def test_no_page_has_inline_script_style_or_handlers(client, language):
    games = open_games(client, language)
    problems, errors, pages = [], [], 0
    for url, response, markup in crawl(client, language, limit=200, extra=games):
        pages += 1
        if response.status_code >= 500:
            errors.append((url, response.status_code))
        problems += [f"{url}: {p}" for p in markup.problems]
    assert pages > 10
    assert not errors, errors
    assert not problems, "\n".join(problems)
