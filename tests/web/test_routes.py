"""Translated routes: worked out once per language, the same addresses as Django's own."""

from __future__ import annotations

import uuid

import pytest
from django.urls import URLResolver, get_resolver, resolve, reverse
from django.utils import translation
from django.utils.functional import Promise, lazy
from django.utils.translation import trans_real

from web.routes import Route, path

LANGUAGES = ["sv", "fi", "nb", "en"]


def _lazy_routes(patterns, where: str = "") -> list[str]:
    found = []
    for entry in patterns:
        route = getattr(entry.pattern, "_route", None)
        if isinstance(route, Promise):
            found.append(where + str(route))
        if isinstance(entry, URLResolver):
            found += _lazy_routes(entry.url_patterns, where + str(entry.pattern))
    return found


def test_no_route_of_the_site_is_a_bare_lazy_string():
    assert _lazy_routes(get_resolver().url_patterns) == []


@pytest.mark.parametrize("language", LANGUAGES)
def test_resolving_a_practice_game_runs_no_gettext_once_warm(monkeypatch, language):
    with translation.override(language):
        address = reverse("practice_dolda_play", args=[uuid.uuid4()])
        resolve(address)
        calls = []
        real = trans_real.gettext
        monkeypatch.setattr(trans_real, "gettext", lambda m: calls.append(m) or real(m))
        match = resolve(address)
    assert match.url_name == "practice_dolda_play"
    assert calls == []


def test_a_route_is_translated_once_per_language():
    calls = []

    def text() -> str:
        calls.append(translation.get_language())
        return {"sv": "regler/", "fi": "säännöt/"}.get(translation.get_language(), "rules/")

    route = Route(lazy(text, str)())
    for language in ["sv", "fi", "en", "sv", "fi", "en"]:
        expected = {"sv": "regler/", "fi": "säännöt/"}.get(language, "rules/")
        with translation.override(language):
            # What Django's resolver and URL checks read of a route: ==, str(), in, str methods.
            assert route == expected and str(route) == expected
            assert expected[:3] in route and route.startswith(expected[:3])
    assert calls == ["sv", "fi", "en"]


def test_plain_routes_are_passed_on_unchanged():
    assert path("healthz/", lambda r: None).pattern._route == "healthz/"
    assert isinstance(path(lazy(lambda: "x/", str)(), lambda r: None).pattern._route, Route)
