"""Every page a visitor can reach: the argument-free pages of the URL configuration, then the
links they show, followed within one language (so new endpoints are picked up by themselves).
"""

from __future__ import annotations

from collections import deque
from html.parser import HTMLParser
from urllib.parse import urldefrag, urlparse

from django.urls import Resolver404, resolve, reverse
from django.utils import translation

from tests.pages import page_names

NON_SCRIPT_TYPES = {"application/json", "application/ld+json", "text/template"}


class Markup(HTMLParser):
    """Links of a page and anything a strict CSP (script-src/style-src 'self') would block."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.links: list[str] = []
        self.problems: list[str] = []
        self._in_script = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        names = {k.lower(): (v or "") for k, v in attrs}
        if tag == "a" and names.get("href"):
            self.links.append(names["href"])
        if tag == "script" and not names.get("src") \
                and names.get("type", "").lower() not in NON_SCRIPT_TYPES:
            self.problems.append(f"inline <script> at line {self.getpos()[0]}")
        if tag == "style":
            self.problems.append(f"inline <style> at line {self.getpos()[0]}")
        for name, value in names.items():
            if name == "style":
                self.problems.append(f'style="" on <{tag}> at line {self.getpos()[0]}')
            elif name.startswith(("on", "hx-on", "data-hx-on")):
                self.problems.append(f"{name}= on <{tag}> at line {self.getpos()[0]}")
            elif name in ("href", "src", "action", "formaction") \
                    and value.strip().lower().startswith("javascript:"):
                self.problems.append(f"javascript: URL on <{tag}> at line {self.getpos()[0]}")


def parse(html: str) -> Markup:
    parser = Markup()
    parser.feed(html)
    parser.close()
    return parser


def start_urls(language: str) -> list[str]:
    with translation.override(language):
        return [reverse(name) for name in page_names()]


def page_type(url: str, language: str) -> str:
    with translation.override(language):
        try:
            return resolve(urlparse(url).path).url_name or url
        except Resolver404:
            return url


def crawl(client, language: str, limit: int = 150, extra: list[str] = (), per_type: int = 3):
    """Yield (url, response, markup) for the pages reachable from the start pages in one
    language, breadth first, at most ``per_type`` pages of one URL name (so every kind of page
    is reached before the limit) and at most ``limit`` pages."""
    prefix = f"/{language}/"
    queue = deque(list(extra) + start_urls(language))
    seen: set[str] = set(queue)
    types: dict[str, int] = {}
    count = 0
    client.raise_request_exception = False  # a 500 is a finding, reported with its URL
    while queue and count < limit:
        url = queue.popleft()
        response = client.get(url, follow=True)
        count += 1
        html = response.content.decode() if "text/html" in response.get("Content-Type", "") \
            else ""
        markup = parse(html) if html else Markup()
        yield url, response, markup
        for href in markup.links:
            href = urldefrag(href)[0]
            parts = urlparse(href)
            if parts.scheme or parts.netloc or not parts.path.startswith(prefix):
                continue
            if href in seen:
                continue
            seen.add(href)
            kind = page_type(href, language)
            types[kind] = types.get(kind, 0) + 1
            if types[kind] <= per_type:
                queue.append(href)
