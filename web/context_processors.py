"""Site-wide template context: language alternates of the current page and the navigation."""

from __future__ import annotations

import hashlib
from typing import Any

from django.conf import settings
from django.core.cache import caches
from django.http import HttpRequest
from django.urls import NoReverseMatch, reverse, translate_url
from django.utils.translation import get_language

from . import pagecache
from .navigation import nav_items

# Each language named in itself, as the switcher shows it.
LANGUAGE_NAMES = {"sv": "Svenska", "fi": "Suomi", "nb": "Norsk bokmål", "en": "English"}


def address_links(request: HttpRequest, path: str) -> dict:
    """The links of the page at ``path`` that lead to it in each language: computed once per
    language and address (``translate_url`` resolves and reverses the path for each language)
    and kept in the ``pages`` cache, for addresses the site has (a missing page's are not
    kept, so made-up addresses cannot fill the cache)."""
    current = get_language()
    kept = (path == request.path and getattr(request, "resolver_match", None) is not None)
    if kept:
        where = "\0".join((current or "", request.scheme or "", request.get_host(), path,
                           pagecache.release()))
        key = "links:" + hashlib.sha256(where.encode()).hexdigest()
        found = caches[pagecache.CACHE].get(key)
        if found is not None:
            return found
    links = _address_links(request, path, current)
    if kept:
        caches[pagecache.CACHE].set(key, links)
    return links


def _address_links(request: HttpRequest, path: str, current: str | None) -> dict:
    alternates = []
    for code, _name in settings.LANGUAGES:
        url = translate_url(path, code)
        alternates.append({
            "code": code,
            "name": LANGUAGE_NAMES[code],
            "url": request.build_absolute_uri(url),
            "current": code == current,
        })
    return {"language_alternates": alternates,
            "alternate_default": request.build_absolute_uri("/"),
            "page_path": path}


def site(request: HttpRequest) -> dict[str, Any]:
    current = get_language()
    path = request.path
    nav: list[dict[str, Any]] = []
    for url_name, label in nav_items():
        try:
            url = reverse(url_name)
        except NoReverseMatch:  # only pages that exist are offered
            continue
        nav.append({"url": url, "label": label, "current": False})
    # An entry is current when its section appears in the path; the rightmost one wins, so
    # /en/dam/practice/ is under Practise rather than Dam. Home only matches itself.
    prefix = f"/{current}/"
    best, best_at = None, -1
    for item in nav:
        section = item["url"][len(prefix) - 1:] if item["url"].startswith(prefix) else item["url"]
        at = (0 if path == item["url"] else -1) if section == "/" else path.find(section)
        if at > best_at:
            best, best_at = item, at
    if best is not None:
        best["current"] = True
    return {**address_links(request, path), "page_next": request.get_full_path(),
            "nav_items": nav, "deck_choice": pagecache.Deck(request)}
