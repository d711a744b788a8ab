"""Every page in every language, as a visitor reaches it (the crawler of tests/hardening, with
a practice game of each kind open and statistics stored): the HTML parses without a single
error of the HTML5 parsing algorithm (html5lib), every SVG coordinate is a number, numbers in
running text use the language's decimal format, and no option key, rule set slug or file name
is in the visible text."""

from __future__ import annotations

import dataclasses
import re
from html.parser import HTMLParser

import html5lib
import pytest
from django.core.management import call_command
from django.urls import reverse
from django.utils import translation

from reference.models import SimulationResult
from rules.engine.games import GAME_NAMES, game_module
from tests.hardening.crawl import crawl
from tests.pages import LANGUAGES

pytestmark = pytest.mark.django_db

SVG_NUMBERS = {"x", "y", "x1", "x2", "y1", "y2", "cx", "cy", "r", "rx", "ry", "width", "height",
               "stroke-width"}
NUMBER = re.compile(r"-?(\d+(\.\d*)?|\.\d+)([eE]-?\d+)?%?")  # a length may be a percentage
# Developer names: option keys with an underscore, rule set slugs with a hyphen (both never
# plain words), and file names.
OPTION_KEYS = sorted({f.name for g in GAME_NAMES for f in dataclasses.fields(game_module(g).Options)
                      if "_" in f.name})
SLUGS = sorted({p for g in GAME_NAMES for p in game_module(g).PRESETS if "-" in p})
FILE_NAME = re.compile(r"\b[\w-]+\.(txt|json|py|html|po)\b")


class Page(HTMLParser):
    """The visible text of a page (no script, style or template contents) and its SVG
    numbers."""

    HIDDEN = {"script", "style", "template"}

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.text: list[str] = []
        self.svg_values: list[tuple[str, str, str]] = []
        self._hidden = 0
        self._svg = 0

    def handle_starttag(self, tag, attrs):
        if tag in self.HIDDEN:
            self._hidden += 1
        if tag == "svg":
            self._svg += 1
        if self._svg:
            for name, value in attrs:
                if name in SVG_NUMBERS:
                    self.svg_values.append((tag, name, value or ""))
                elif name == "viewbox":
                    self.svg_values += [(tag, name, v) for v in (value or "").split()]

    def handle_endtag(self, tag):
        if tag in self.HIDDEN:
            self._hidden = max(0, self._hidden - 1)
        if tag == "svg":
            self._svg = max(0, self._svg - 1)

    def handle_data(self, data):
        if not self._hidden:
            self.text.append(data)


def read(html: str) -> Page:
    page = Page()
    page.feed(html)
    page.close()
    return page


def html_errors(html: str) -> list[str]:
    parser = html5lib.HTMLParser(strict=False)
    parser.parse(html)
    return [f"line {line}, col {col}: {code} {info or ''}" for (line, col), code, info
            in parser.errors]


@pytest.fixture(scope="module")
def site(django_db_setup, django_db_blocker):
    with django_db_blocker.unblock():
        call_command("load_content", verbosity=0)
        call_command("simulate", "--games", "8", "--chunk", "8", "--workers", "1", verbosity=0)
        yield
        SimulationResult.objects.all().delete()


def open_games(client, language: str) -> list[str]:
    urls = []
    with translation.override(language):
        for game in GAME_NAMES:
            module = game_module(game)
            data = {"preset": module.DEFAULT_PRESET, "level": "easy", "name": "Me",
                    "players": 4 if game == "spardame" else 3, "memory_aid": "on"}
            r = client.post(reverse(f"practice_{game}"), data)
            assert r.status_code == 302, r.content.decode()[:500]
            urls.append(r["Location"])
    return urls


def pages(client, language: str):
    for url, response, _markup in crawl(client, language, limit=250,
                                        extra=open_games(client, language)):
        if response.status_code == 200 and "text/html" in response.get("Content-Type", ""):
            yield url, response.content.decode()


def test_the_checks_find_what_they_look_for():
    assert html_errors("<!doctype html><html lang=en><head><title>x</title></head><body>"
                       "<p><div></p></div></body></html>")
    page = read('<svg viewBox="0 0 10,5 4"><rect width="194,3"></rect></svg>'
                "<p>hand_size</p><script>svarta-maja</script>")
    assert [v for _t, _n, v in page.svg_values if not NUMBER.fullmatch(v)] == ["10,5", "194,3"]
    assert "hand_size" in " ".join(page.text) and "svarta-maja" not in " ".join(page.text)
    assert "moon_fixed_26" in OPTION_KEYS and "aldre-svensk" in SLUGS


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_page_parses_as_html_without_errors(client, site, language):
    found, count = [], 0
    for url, html in pages(client, language):
        count += 1
        found += [f"{url}: {e}" for e in html_errors(html)]
    assert count > 30
    assert not found, "\n".join(found[:40])


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_svg_coordinate_is_a_number(client, site, language):
    bad, charts = [], 0
    for url, html in pages(client, language):
        page = read(html)
        charts += bool(page.svg_values)
        bad += [f"{url}: <{t} {n}={v!r}>" for t, n, v in page.svg_values
                if not NUMBER.fullmatch(v)]
    assert charts >= 3  # the three variant pages draw charts
    assert not bad, "\n".join(bad[:40])


@pytest.mark.parametrize("language", LANGUAGES)
def test_no_option_key_slug_or_file_name_in_visible_text(client, site, language):
    found = []
    for url, html in pages(client, language):
        text = " ".join(read(html).text)
        found += [f"{url}: {key}" for key in OPTION_KEYS + SLUGS
                  if re.search(rf"(?<![\w/-]){re.escape(key)}(?![\w/-])", text)]
        found += [f"{url}: {m.group(0)}" for m in FILE_NAME.finditer(text)]
    assert not found, "\n".join(found[:40])


@pytest.mark.parametrize(("language", "decimal", "other"), [
    ("sv", ",", "."), ("fi", ",", "."), ("nb", ",", "."), ("en", ".", ",")])
def test_numbers_in_the_statistics_text_use_the_languages_decimal_sign(client, site, language,
                                                                     decimal, other):
    with translation.override(language):
        html = client.get(reverse("variants_spardame")).content.decode()
    page = read(html)
    # A count grouped by thousands ("10,000 simulated deals" in English) is not a decimal.
    text = re.sub(r"\b\d{1,3}(,\d{3})+\b(?![.,]\d)", "N", " ".join(page.text)) \
        if language == "en" else " ".join(page.text)
    assert re.search(rf"\d{re.escape(decimal)}\d", text)
    assert not re.search(rf"\d{re.escape(other)}\d", text)
    assert page.svg_values and all(NUMBER.fullmatch(v) for _t, _n, v in page.svg_values)
