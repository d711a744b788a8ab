import re

import pytest
from django.urls import reverse
from django.utils import translation

from tests.pages import LANGUAGES, page_names

pytestmark = pytest.mark.django_db

PAGES = page_names()


def test_the_site_has_pages_to_check():
    assert {"home", "cards"} <= set(PAGES)


def url_in(name: str, language: str) -> str:
    with translation.override(language):
        return reverse(name)


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("name", PAGES)
def test_page_returns_200_with_one_h1_lang_and_hreflang(client, name, language):
    response = client.get(url_in(name, language))
    assert response.status_code == 200
    html = response.content.decode()
    assert len(re.findall(r"<h1[\s>]", html)) == 1
    assert f'<html lang="{language}">' in html
    for other in LANGUAGES:
        href = "http://testserver" + url_in(name, other)
        assert f'<link id="alternate-{other}" rel="alternate" hreflang="{other}" href="{href}">' in html
    assert 'hreflang="x-default"' in html


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("name", PAGES)
def test_language_switcher_links_to_the_same_page_in_every_language(client, name, language):
    html = client.get(url_in(name, language)).content.decode()
    switcher = html.split('class="language-switcher"', 1)[1].split("</nav>", 1)[0]
    for other in LANGUAGES:
        assert f'href="http://testserver{url_in(name, other)}" hreflang="{other}"' in switcher


@pytest.mark.parametrize("accept,expected", [
    ("fi-FI,fi;q=0.9,en;q=0.5", "/fi/"),
    ("nb-NO,nb;q=0.9", "/nb/"),
    ("en-GB,en;q=0.8", "/en/"),
    ("sv-SE", "/sv/"),
    ("de-DE,fr;q=0.5", "/sv/"),
    ("", "/sv/"),
])
def test_root_redirects_by_accept_language_with_swedish_as_fallback(client, accept, expected):
    response = client.get("/", HTTP_ACCEPT_LANGUAGE=accept)
    assert response.status_code == 302
    assert response["Location"] == expected


def test_navigation_marks_the_current_page(client):
    html = client.get(url_in("cards", "en")).content.decode()
    assert f'<a href="{url_in("cards", "en")}" aria-current="page">' in html


def test_navigation_offers_only_pages_that_exist(client):
    html = client.get(url_in("home", "en")).content.decode()
    nav = html.split('class="site-nav"', 1)[1].split("</nav>", 1)[0]
    hrefs = re.findall(r'href="([^"]+)"', nav)
    assert hrefs
    for href in hrefs:
        assert client.get(href).status_code == 200


def test_unknown_page_is_404_not_500(client):
    assert client.get("/en/no-such-page/").status_code == 404


@pytest.mark.django_db
def test_four_colour_deck_preference_is_kept_and_redirects_back(client):
    response = client.post(reverse("deck_preference"), {"four_colour": "1", "next": "/en/"})
    assert response.status_code == 302 and response["Location"] == "/en/"
    assert 'class="deck-4"' in client.get("/en/").content.decode()
    client.post(reverse("deck_preference"), {"four_colour": "0", "next": "/en/"})
    assert 'class="deck-4"' not in client.get("/en/").content.decode()


@pytest.mark.django_db
def test_deck_preference_refuses_to_redirect_off_site(client):
    response = client.post(reverse("deck_preference"), {"four_colour": "1", "next": "https://evil.example/"})
    assert response["Location"] == url_in("home", "sv")


def test_deck_preference_needs_post(client):
    assert client.get(reverse("deck_preference")).status_code == 405


def test_pages_send_a_content_security_policy_without_inline_script(client):
    response = client.get("/en/")
    policy = response["Content-Security-Policy"]
    assert "script-src 'self'" in policy and "unsafe-inline" not in policy


def test_htmx_is_served_from_our_own_static_files(client):
    html = client.get("/en/").content.decode()
    src = re.search(r'<script src="([^"]*htmx[^"]*\.js)"', html).group(1)
    assert src.startswith("/static/")


@pytest.mark.parametrize("name,kwargs,current", [
    ("practice_dam", {}, "practice"),
    ("variants_dolda", {}, "rules_dolda"),
    ("rules_dam", {}, "rules_dam"),
    ("home", {}, "home"),
])
def test_navigation_marks_the_section_a_page_belongs_to(client, name, kwargs, current):
    with translation.override("en"):
        html = client.get(reverse(name, kwargs=kwargs)).content.decode()
        target = reverse(current)
    nav = html.split('class="site-nav"', 1)[1].split("</nav>", 1)[0]
    assert nav.count('aria-current="page"') == 1
    assert f'<a href="{target}" aria-current="page">' in nav
