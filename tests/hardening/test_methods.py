"""Every endpoint declares the HTTP methods it takes (require_safe, require_POST, ...) and
answers any other method with 405, so a PUT, PATCH or DELETE never reaches a view that would
answer it like a GET.  Endpoints are found by walking the resolver (tests/hardening/
endpoints.py), so a new page without a declaration fails here."""

from __future__ import annotations

import uuid

import pytest
from django.test import Client
from django.urls import get_resolver, reverse
from django.utils import translation

from .endpoints import declared_methods, endpoints

pytestmark = pytest.mark.django_db

ENDPOINTS = endpoints()
OTHER = ("GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS")
SAMPLE_ARGS = {"UUIDConverter": str(uuid.UUID(int=1)), "IntConverter": 1,
               "SlugConverter": "x", "StringConverter": "dam", "PathConverter": "x",
               "LessonConverter": "anna-bo-cilla"}


def url_of(endpoint) -> str:
    kwargs = {name: SAMPLE_ARGS[conv] for name, conv in endpoint.converters}
    with translation.override("en"):
        return reverse(endpoint.name, kwargs=kwargs)


def view_of(endpoint):
    with translation.override("en"):
        return get_resolver().resolve(url_of(endpoint)).func


@pytest.mark.parametrize("endpoint", ENDPOINTS, ids=[e.name for e in ENDPOINTS])
def test_every_endpoint_declares_its_methods(endpoint):
    methods = declared_methods(view_of(endpoint))
    assert methods is not None, f"{endpoint.name} takes any method: add require_safe or " \
                                "require_POST"
    if "GET" in methods:
        assert "HEAD" in methods, f"{endpoint.name}: use require_safe, so HEAD works too"


# The sibling above proves that every endpoint declares its methods through Django's require_*
# decorators; that a declaration answers 405 with the right Allow is then checked once per
# kind of declaration (one endpoint each), not for every endpoint again.
_KINDS: dict[frozenset[str], object] = {}
for _e in ENDPOINTS:
    _KINDS.setdefault(frozenset(declared_methods(view_of(_e)) or ()), _e)
CASES = [(e, m) for e in _KINDS.values() for m in OTHER
         if m not in (declared_methods(view_of(e)) or ())]


@pytest.mark.parametrize("endpoint,method", CASES, ids=[f"{e.name}-{m}" for e, m in CASES])
def test_a_method_the_endpoint_does_not_take_is_405(endpoint, method):
    methods = declared_methods(view_of(endpoint)) or ()
    client = Client(raise_request_exception=False)
    response = client.generic(method, url_of(endpoint))
    assert response.status_code == 405, (endpoint.name, method, response.status_code)
    assert set(response["Allow"].replace(" ", "").split(",")) == set(methods)


def test_the_methods_test_sees_every_kind_of_endpoint():
    names = {e.name for e in ENDPOINTS}
    assert {"home", "healthz", "root", "faq", "rules_dam", "practice", "practice_dam",
            "scenarios_new", "scenario_edit", "scenario_save", "tutorials",
            "tutorial_move_dam"} <= names
