"""Pages rendered once and kept, with holes for what belongs to each request.

The home page, the rules and variants pages, the FAQ and glossary (per query) and the
tutorial steps depend only on the files a release ships, on the content in the database and
on the language.  Each is rendered once per process and key, and kept in the ``pages`` cache
(local memory, ``cache_settings`` in ``dam_site/settings/base.py``), whole: the layout
included.  The key holds

- the page's name and its own parameters (the game, the step, the hint level, the query),
- the language, the scheme and host and the path (the language links are absolute),
- ``release()``: a hash of the shipped files (templates, catalogues, Python sources, static
  files' names), so a deploy never serves an old release's page even from a shared cache,
- for pages built on the database, the content's version their view passes in
  (``reference.models.ContentVersion.current()``, which ``load_content``, ``simulate`` and
  every edit in the admin change: ``reference/signals.py``).

What belongs to the request is left as holes, filled in per request: the CSRF token (masked
afresh for each response, as Django does), the address the deck form returns to, and the deck
preference kept in the session (the body's class, the footer button).  The holes are marked
with a random word drawn when the process starts, so nothing a visitor types can open one.
Rendering for the cache checks that no hole was left out: it fails if the session or the user
was read, so nothing per visitor is ever kept.  The site uses no CSP nonces (every script is
a static file); a page that asked for one would fail the same check.
"""

from __future__ import annotations

import hashlib
import os
import secrets
from collections.abc import Callable, Iterable
from functools import cache as per_process
from pathlib import Path
from types import SimpleNamespace
from typing import Any

from django.conf import settings
from django.core.cache import caches
from django.core.exceptions import ImproperlyConfigured
from django.http import HttpRequest, HttpResponse
from django.middleware.csrf import get_token
from django.utils.csp import CSP
from django.utils.functional import SimpleLazyObject, empty
from django.utils.html import conditional_escape
from django.utils.translation import get_language
from django.utils.translation import gettext as _

CACHE = "pages"
_MARK = secrets.token_hex(8)
HOLES = ("csrf", "next", "deck_class", "deck_value", "deck_label")


def hole(name: str) -> str:
    return f"__live{_MARK}{name}__"


# What a page rendered for the cache gets in place of the per-request values.
HOLE_CONTEXT: dict[str, Any] = {
    "csrf_token": hole("csrf"),
    "page_next": hole("next"),
    "deck_choice": SimpleNamespace(body_class=hole("deck_class"), value=hole("deck_value"),
                            label=hole("deck_label")),
    "csp_nonce": None,  # no nonce in a kept page: the policy uses none (render_kept checks)
}


class Deck:
    """The deck preference as the layout shows it, read from the session when first used."""

    def __init__(self, request: HttpRequest) -> None:
        self.request = request

    @property
    def four_colour(self) -> bool:
        session = getattr(self.request, "session", None)
        return bool(session is not None and session.get("four_colour"))

    @property
    def body_class(self) -> str:
        return "deck-4" if self.four_colour else ""

    @property
    def value(self) -> str:
        return "0" if self.four_colour else "1"

    @property
    def label(self) -> str:
        return _("Use the two-colour deck") if self.four_colour else _("Use a four-colour deck")


SHIPPED_DIRS = ("templates", "locale", "static", "dam_site", "games", "rules", "reference", "tutorials",
                "practice", "teacher", "live", "web")
SHIPPED_SUFFIXES = (".py", ".html", ".mo", ".json", ".txt", ".css", ".js", ".svg")


@per_process
def release() -> str:
    """A hash of the shipped files' names, sizes and modification times, computed once per
    process: a deploy (or an edit in development, which restarts the server) gives new keys."""
    digest = hashlib.sha256()
    root = Path(settings.BASE_DIR)
    for top in SHIPPED_DIRS:
        for folder, dirs, files in sorted(os.walk(root / top)):
            dirs[:] = sorted(d for d in dirs if d != "__pycache__")
            for name in sorted(files):
                if name.endswith(SHIPPED_SUFFIXES):
                    path = os.path.join(folder, name)
                    stat = os.stat(path)
                    digest.update(f"{path}\0{stat.st_size}\0{stat.st_mtime_ns}\0".encode())
    return digest.hexdigest()[:16]


def cookies(request: HttpRequest, names: Iterable[str]) -> tuple[str, ...]:
    """The values of the cookies ``names`` (a page that shows what they hold keys on them:
    the home page's "Continue" comes from the tutorials' progress cookies)."""
    return tuple(request.COOKIES.get(n, "") for n in names)


def key(request: HttpRequest, name: str, parts: Iterable[Any], content: str) -> str:
    where = [name, *map(str, parts), get_language() or "", request.scheme or "",
             request.get_host(), request.path, release(),
             content]
    return "page:" + hashlib.sha256("\0".join(where).encode()).hexdigest()


def fill(request: HttpRequest, html: str) -> str:
    """The kept page with this request's values in its holes."""
    deck = Deck(request)
    values = {"csrf": get_token(request), "next": conditional_escape(request.get_full_path()),
              "deck_class": deck.body_class, "deck_value": deck.value,
              "deck_label": conditional_escape(deck.label)}
    for name in HOLES:
        mark = hole(name)
        if mark in html:
            html = html.replace(mark, str(values[name]))
    return html


def render_kept(request: HttpRequest, make: Callable[[dict[str, Any]], str]) -> str:
    """``make(HOLE_CONTEXT)`` rendered for keeping; fails if it read the session or the user
    (their values would be kept for everyone)."""
    policy: dict[str, Any] = getattr(settings, "SECURE_CSP", {})
    if any(CSP.NONCE in policy.get(directive, ()) for directive in ("script-src", "style-src")):
        raise ImproperlyConfigured("The policy asks for CSP nonces: a kept page cannot hold one.")
    session = getattr(request, "session", None)
    accessed = session is not None and session.accessed
    if session is not None:
        session.accessed = False
    user = getattr(request, "user", None)
    user_unread = isinstance(user, SimpleLazyObject) and user._wrapped is empty
    try:
        html = make(HOLE_CONTEXT)
        read = []
        if session is not None and session.accessed:
            read.append("the session")
        if user_unread and user._wrapped is not empty:  # type: ignore[union-attr]
            read.append("the user")
    finally:
        if session is not None:
            session.accessed = session.accessed or accessed
    if read:
        raise ImproperlyConfigured(f"A kept page read {' and '.join(read)}: {request.path}")
    return html


def cached_page(request: HttpRequest, name: str, parts: Iterable[Any],
                make: Callable[[dict[str, Any]], str], *, content: str = "-",
                status: int = 200, store: str = CACHE,
                timeout: float | None = None) -> HttpResponse:
    """The page ``name`` with ``parts`` for this request: rendered by ``make`` (given the hole
    context to merge into its template context) on the first request, kept afterwards.  A
    page built on the database passes the content's version as ``content``.  ``store`` names
    the cache: the per-process ``pages`` by default; a page of one visitor's game (whose
    ``parts`` hold the game's version) is kept in the shared ``default`` cache for
    ``timeout`` seconds (None: as long as the cache keeps it), so whichever server answers
    next finds it."""
    k = key(request, name, parts, content)
    cache = caches[store]
    html = cache.get(k)
    if html is None:
        html = render_kept(request, make)
        cache.set(k, html, timeout)
    return HttpResponse(fill(request, html), status=status)


def clear() -> None:
    caches[CACHE].clear()


def forget_on_change(sender: Any, file_path: Path, **kwargs: Any) -> None:
    """runserver: a template or catalogue edited (which does not restart the server) is seen
    at the next request."""
    release.cache_clear()
    caches[CACHE].clear()
    caches["shipped"].clear()
