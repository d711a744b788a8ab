"""``path()`` for translated addresses, each route's text worked out once per language.

Django's resolver compares a lazily translated route with the requested address at every
request, and each comparison of a ``gettext_lazy`` or ``format_lazy`` proxy runs gettext again:
resolving a practice game's address took about 20 gettext calls, a tenth of the kept page's
time.  A route given to this ``path`` keeps its text per language instead, so the comparison is
a dictionary look-up.  Untranslated routes (plain strings) are passed on unchanged.
"""

from __future__ import annotations

from typing import Any

from django.urls import path as django_path
from django.utils.functional import Promise
from django.utils.translation import get_language


class Route:
    """A lazily translated route, its text kept per language once asked for.

    Not a ``str``: Django then compiles the route's pattern per language, as for a lazy
    route; what the resolver reads of a route (``str()``, ``==``, ``in``, ``startswith``…)
    is the text in the active language."""

    __slots__ = ("_lazy", "_texts")

    def __init__(self, lazy: Promise) -> None:
        self._lazy = lazy
        self._texts: dict[str | None, str] = {}

    def __str__(self) -> str:
        language = get_language()
        try:
            return self._texts[language]
        except KeyError:
            text = self._texts[language] = str(self._lazy)
            return text

    def __eq__(self, other: object) -> bool:
        return str(self) == other

    def __hash__(self) -> int:
        return hash(str(self))

    def __contains__(self, part: str) -> bool:
        return part in str(self)

    def __getattr__(self, name: str) -> Any:  # str's methods (the URL checks' startswith…)
        return getattr(str(self), name)

    def __repr__(self) -> str:
        return f"Route({str(self)!r})"


def path(route: str | Promise, view: Any, kwargs: dict[str, Any] | None = None,
         name: str | None = None) -> Any:
    # Typed for str or a lazy string; a Route reads as either (see its docstring).
    given: Any = Route(route) if isinstance(route, Promise) else route
    return django_path(given, view, kwargs, name)
