"""The Nu HTML checker (vnu.jar, the W3C's validator) finds no error on the site's pages in
the four languages: one page of each kind the crawler reaches, a practice game of each kind
open.  htmx's attributes are written data-hx-* (and the SSE extension's data-sse-*), which
htmx reads as well as hx-*, since only data-* attributes are valid HTML.

The jar comes from the npm package vnu-jar (.ci/run installs it under .cache/vnu; VNU_JAR
names another copy) and runs on the machine's Java.  Without either the test is skipped, but
fails on CI."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest

from tests.pages import LANGUAGES
from tests.site.test_page_markup import open_games, site  # noqa: F401  (a fixture)

pytestmark = pytest.mark.django_db
ROOT = Path(__file__).resolve().parents[2]
JAR = Path(os.environ.get("VNU_JAR")
           or ROOT / ".cache/vnu/node_modules/vnu-jar/build/dist/vnu.jar")


def checker() -> list[str]:
    java = shutil.which("java")
    if java and JAR.is_file():
        return [java, "-Xss1m", "-jar", str(JAR)]
    message = (f"the Nu HTML checker needs Java and {JAR} "
               "(npm install --prefix .cache/vnu --ignore-scripts vnu-jar)")
    if os.environ.get("CI"):
        pytest.fail(message)
    pytest.skip(message)


def check(files: list[Path]) -> list[str]:
    done = subprocess.run([*checker(), "--errors-only", "--format", "json", *map(str, files)],
                          capture_output=True, text=True, timeout=300)
    messages = json.loads(done.stderr or "{}").get("messages", [])
    return [f"{Path(m.get('url', '')).name}:{m.get('lastLine')}: {m.get('message')}"
            for m in messages if m.get("type") == "error"]


def test_the_checker_finds_an_htmx_attribute_without_data(tmp_path):
    page = tmp_path / "bad.html"
    page.write_text('<!doctype html><html lang="en"><head><title>x</title></head><body>'
                    '<a href="/" hx-get="/">x</a><a href="/" data-hx-get="/">y</a></body></html>')
    assert [e.split(": ", 1)[1] for e in check([page])] == [
        "Attribute “hx-get” not allowed on element “a” at this point."]


def test_the_main_pages_are_valid_html(client, site, tmp_path):  # noqa: F811
    from tests.hardening.crawl import crawl

    files = []
    for language in LANGUAGES:
        for url, response, _markup in crawl(client, language, limit=60, per_type=1,
                                            extra=open_games(client, language)):
            if response.status_code == 200 and "text/html" in response.get("Content-Type", ""):
                name = url.strip("/").replace("/", "_").replace("?", "_") or "root"
                path = tmp_path / f"{len(files):03d}-{name[:80]}.html"
                path.write_bytes(response.content)
                files.append(path)
    assert len(files) > 100
    errors = check(files)
    assert not errors, "\n".join(errors[:60])
