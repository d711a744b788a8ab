"""The lesson part of a tutorial address: translated per language (``lessons.ADDRESSES``).

``reverse()`` is given the lesson's slug (its key, the English word) and writes the active
language's word; a request may name the lesson with any language's word (old links have the
English one) and the view gets the slug, then sends a word of another language on to its
language's own address with a permanent redirect (``canonical_address``).
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any
from urllib.parse import unquote

from django.http import HttpRequest, HttpResponse, HttpResponsePermanentRedirect
from django.urls import register_converter, reverse

from . import lessons


class LessonConverter:
    regex = "[-a-zA-Z0-9_]+"

    def to_python(self, value: str) -> str:
        return lessons.SLUG_OF_WORD.get(value, value)  # an unknown word: "no such tutorial"

    def to_url(self, value: str) -> str:
        return lessons.address_word(value)


register_converter(LessonConverter, "lesson")


def canonical_address(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
    """A GET of a tutorial address that names its lesson with another language's word (an
    old English address) is sent on permanently to this language's address, query kept."""

    @functools.wraps(view)
    def wrapper(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        match = request.resolver_match
        if request.method in ("GET", "HEAD") and match is not None:
            address = reverse(match.view_name, kwargs=match.kwargs)
            if unquote(address) != request.path:
                query = request.META.get("QUERY_STRING", "")
                return HttpResponsePermanentRedirect(address + (f"?{query}" if query else ""))
        return view(request, *args, **kwargs)
    return wrapper
