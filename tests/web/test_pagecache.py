"""Kept pages (web/pagecache.py): rendered once per language, release, content version and
address; the CSRF token, the deck preference and the learner's progress stay each visitor's."""

import re
from unittest import mock

import pytest
from django.core.cache import caches
from django.core.exceptions import ImproperlyConfigured
from django.core.management import call_command
from django.middleware.csrf import _unmask_cipher_token
from django.test import Client, RequestFactory
from django.urls import reverse
from django.utils import translation

from reference.models import ContentVersion, FaqEntry
from tutorials import progress
from web import context_processors, pagecache

pytestmark = pytest.mark.django_db
TOKEN = re.compile(r'name="csrfmiddlewaretoken" value="([^"]+)"')
STEP = ("dam", "svarta-maja", 3)  # a "your move" step: its form carries a CSRF token
LESSON = {"action": "beat", "card": "9S", "target": "3S"}


def url(name, language="en", **kwargs):
    with translation.override(language):
        return reverse(name, kwargs=kwargs or None)


def step_url(n=STEP[2], language="en"):
    return url(f"tutorial_step_{STEP[0]}", language, slug=STEP[1], step=n)


def kept_pages():
    store = caches[pagecache.CACHE]
    return [v for v in store._cache.values()]  # pickled strings and link dicts


@pytest.fixture
def renders():
    """How many times a kept page was rendered."""
    with mock.patch.object(pagecache, "render_kept", wraps=pagecache.render_kept) as spy:
        yield spy


@pytest.fixture
def faq_entry():
    return FaqEntry.objects.create(slug="kept", game="dam", question_en="How many kept pages?",
                                   answer_en="Exactly one per language.")


def test_a_page_is_rendered_once_and_then_served_as_kept(client, renders):
    for _ in range(3):
        assert client.get(url("rules_dam")).status_code == 200
    assert renders.call_count == 1


def test_each_language_has_its_own_kept_page(client, renders):
    english = client.get(url("rules_dam", "en")).content.decode()
    swedish = client.get(url("rules_dam", "sv")).content.decode()
    assert renders.call_count == 2
    assert '<html lang="en">' in english and '<html lang="sv">' in swedish
    assert client.get(url("rules_dam", "sv")).content.decode().count('<html lang="sv">') == 1
    assert renders.call_count == 2


def test_a_content_change_renders_the_faq_again(client, faq_entry, renders):
    assert "Exactly one per language." in client.get(url("faq")).content.decode()
    # A change that bypasses the signals (a queryset update) leaves the kept page: it is kept.
    FaqEntry.objects.filter(pk=faq_entry.pk).update(answer_en="Changed quietly.")
    assert "Exactly one per language." in client.get(url("faq")).content.decode()
    assert renders.call_count == 1
    faq_entry.refresh_from_db()
    faq_entry.answer_en = "Changed in the admin."
    faq_entry.save()  # as the admin saves: a new content version
    assert "Changed in the admin." in client.get(url("faq")).content.decode()
    assert renders.call_count == 2


def test_load_content_gives_a_new_content_version(client, faq_entry, renders):
    client.get(url("faq") + "?q=kept")
    before = ContentVersion.current()
    call_command("load_content", verbosity=0)
    assert ContentVersion.current() != before
    client.get(url("faq") + "?q=kept")
    assert renders.call_count == 2


def test_a_new_release_renders_again(client, renders):
    client.get(url("home"))
    with mock.patch.object(pagecache, "release", return_value="another-release"):
        client.get(url("home"))
    assert renders.call_count == 2


def test_shipped_pages_ask_the_database_nothing_once_kept(client, django_assert_num_queries):
    for name in ("home", "rules_dam"):
        client.get(url(name))
        with django_assert_num_queries(0):
            assert client.get(url(name)).status_code == 200


def test_two_visitors_get_their_own_csrf_token_and_deck_on_a_kept_page(renders):
    one, two = Client(), Client()
    one.post(reverse("deck_preference"), {"four_colour": "1", "next": "/en/"})
    pages = [c.get(step_url()).content.decode() for c in (one, two)]
    assert renders.call_count == 1  # the second visitor got the kept page
    for client, html in zip((one, two), pages):
        tokens = TOKEN.findall(html)
        assert len(tokens) == 2  # the move form and the deck form
        secret = client.cookies["csrftoken"].value
        assert all(_unmask_cipher_token(t) == secret for t in tokens)
    assert _unmask_cipher_token(TOKEN.findall(pages[0])[0]) != _unmask_cipher_token(
        TOKEN.findall(pages[1])[0])
    assert '<body class="deck-4"' in pages[0] and "Use the two-colour deck" in pages[0]
    assert '<body class=""' in pages[1] and "Use a four-colour deck" in pages[1]
    for html in pages:
        assert f'name="next" value="{step_url()}"' in html
    # What is kept holds the holes, never a token, a nonce or the session's choice.
    kept = [v for v in kept_pages() if isinstance(v, bytes) and b"<html" in v]
    assert kept
    for value in kept:
        assert b"__live" in value and b"nonce" not in value and b"deck-4" not in value
        for html in pages:
            for token in TOKEN.findall(html):
                assert token.encode() not in value


def test_two_learners_keep_their_own_progress_on_a_kept_step(renders):
    one, two = Client(), Client()
    one.post(url(f"tutorial_move_{STEP[0]}", slug=STEP[1], step=STEP[2]), LESSON)
    solved = one.get(step_url(STEP[2] + 1) + "?ok=1").content.decode()
    fresh = two.get(step_url(STEP[2] + 1)).content.decode()
    again = one.get(step_url(STEP[2] + 1)).content.decode()
    assert "★★★" in solved and 'data-feedback="success"' in solved
    assert "★" not in fresh and "★" not in again
    assert renders.call_count == 1  # the plain step was kept; the one with stars never is
    assert progress.STARS_COOKIE in one.cookies and progress.STARS_COOKIE not in two.cookies


def test_a_kept_page_may_not_read_the_session():
    request = RequestFactory().get("/en/")
    request.session = Client().session

    def reads_the_session(holes):
        return str(request.session.get("four_colour"))

    with pytest.raises(ImproperlyConfigured, match="session"):
        pagecache.render_kept(request, reads_the_session)


def test_holes_cannot_be_opened_by_a_query(client, faq_entry):
    """A visitor who types a hole's name gets the text back, not a token."""
    typed = "__livecsrf__"
    html = client.get(url("faq") + f"?q={typed}").content.decode()
    assert typed in html and pagecache.hole("csrf") not in html


def test_language_links_are_computed_once_per_address(client):
    with mock.patch.object(context_processors, "translate_url",
                           wraps=context_processors.translate_url) as spy:
        for _ in range(3):
            client.get(url("tutorials"))
        assert spy.call_count == 4  # once for each language, on the first request
        client.get(url("tutorials", "fi"))
        assert spy.call_count == 8
        client.get("/en/no-such-page/")
        client.get("/en/no-such-page/")
    html = client.get(url("tutorials")).content.decode()
    assert 'hreflang="fi"' in html and "/fi/" in html


def test_pages_are_not_kept_when_the_policy_asks_for_nonces(client, settings):
    from django.utils.csp import CSP

    settings.SECURE_CSP = {**settings.SECURE_CSP, "script-src": [CSP.SELF, CSP.NONCE]}
    with pytest.raises(ImproperlyConfigured, match="nonce"):
        client.get(url("home"))
