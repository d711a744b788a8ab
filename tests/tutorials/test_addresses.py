"""Tutorial addresses in the page's language (#34 item 13): every lesson has its own address
word in sv, fi and nb; the English (and any other language's) word of an old link is sent on
permanently; reverse() and the language switcher write the target language's word."""

from __future__ import annotations

import re

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import translation
from django.utils.html import escape

from reference.rulebook import rule_by_id
from tutorials import lessons

pytestmark = pytest.mark.django_db
OTHERS = ("sv", "fi", "nb")
ALL = [(t.game, t.slug) for t in lessons.TUTORIALS.values()]


def url(name: str, language: str, **kwargs) -> str:
    with translation.override(language):
        return reverse(name, kwargs=kwargs)


@pytest.mark.parametrize("language", OTHERS)
def test_every_lesson_has_its_own_word_in_every_language(language):
    words = {lessons.address_word(slug, language) for _g, slug in ALL}
    assert len(words) == len(ALL)  # one word per lesson
    translated = [slug for _g, slug in ALL if lessons.address_word(slug, language) != slug]
    # only names (Anna, Bo, …) and international words may stay as in English
    assert len(translated) >= len(ALL) - 1, translated
    for word in words:
        assert re.fullmatch(r"[a-z0-9]+(-[a-z0-9]+)*", word), word


@pytest.mark.parametrize("language", OTHERS)
@pytest.mark.parametrize(("game", "slug"), ALL)
def test_reverse_writes_the_languages_word_and_the_page_answers(client, language, game, slug):
    word = lessons.address_word(slug, language)
    address = url(f"tutorial_step_{game}", language, slug=slug, step=1)
    assert f"/{word}/1/" in address
    assert client.get(address).status_code == 200
    assert f"/{word}/" in url("tutorial_present", language, game=game, slug=slug, step=1)


@pytest.mark.parametrize("language", OTHERS)
def test_the_english_address_of_old_links_is_sent_on_permanently(client, language):
    english = url("tutorial_step_dolda", language, slug="thieves-and-shields", step=2)
    english = english.replace(lessons.address_word("thieves-and-shields", language),
                              "thieves-and-shields")
    r = client.get(english + "?hint=1")
    assert r.status_code == 301
    assert r["Location"] == url("tutorial_step_dolda", language, slug="thieves-and-shields",
                                step=2) + "?hint=1"
    start = url("tutorial_dolda", language, slug="thieves-and-shields")
    old = start.replace(lessons.address_word("thieves-and-shields", language),
                        "thieves-and-shields")
    r = client.get(old)
    assert r.status_code == 301 and r["Location"] == start
    present = url("tutorial_present", language, game="dolda", slug="thieves-and-shields",
                  step=1)
    r = client.get(present.replace(lessons.address_word("thieves-and-shields", language),
                                   "thieves-and-shields"))
    assert r.status_code == 301 and r["Location"] == present


def test_the_issue_address_goes_to_the_swedish_one(client):
    r = client.get("/sv/dam-med-dolda-kort/guider/thieves-and-shields/")
    assert r.status_code == 301
    assert r["Location"] == "/sv/dam-med-dolda-kort/guider/tjuvar-och-skoldar/"


def test_another_languages_word_is_sent_on_to_this_languages_word(client):
    finnish = lessons.address_word("thieves-and-shields", "fi")
    swedish = url("tutorial_step_dolda", "sv", slug="thieves-and-shields", step=1)
    r = client.get(swedish.replace("tjuvar-och-skoldar", finnish))
    assert r.status_code == 301 and r["Location"] == swedish


def test_an_unknown_word_is_still_no_such_tutorial(client):
    address = url("tutorial_step_dam", "sv", slug="no-such-lesson", step=1)
    assert client.get(address).status_code == 404


def test_a_move_post_to_an_old_address_still_works():
    c = Client()
    address = url("tutorial_move_dam", "en", slug="deal-and-trump", step=2)
    r = c.post(address.replace("/en/", "/sv/").replace("/tutorials/", "/guider/"),
               {"move": "attack"})
    assert r.status_code != 404


@pytest.mark.parametrize("language", OTHERS)
def test_the_language_switcher_gives_the_target_languages_word(client, language):
    page = client.get(url("tutorial_step_dam", "en", slug="endgame", step=1)).content.decode()
    switcher = page[page.index('id="language-switcher"'):]
    switcher = switcher[:switcher.index("</nav>")]
    target = url("tutorial_step_dam", language, slug="endgame", step=1)
    links = dict((lang, href) for href, lang in re.findall(r'href="([^"]+)" hreflang="(\w+)"',
                                                          switcher))
    assert links[language].endswith(target)
    assert f"/{lessons.address_word('endgame', language)}/1/" in target


@pytest.mark.parametrize("language", ["sv", "fi", "nb", "en"])
def test_the_rule_under_the_step_is_named_by_its_title_not_its_id(client, language):
    tutorial = lessons.get("dam", "anna-bo-cilla")
    rule_id = tutorial.steps[1].rule
    with translation.override(language):
        title = str(rule_by_id("dam", rule_id).title)
        rules = reverse("rules_dam")
    page = client.get(url("tutorial_step_dam", language, slug="anna-bo-cilla", step=2)
                      ).content.decode()
    link = re.search(r'<a href="([^"]+)" id="tutorial-rule-link">([^<]+)</a>', page)
    assert link is not None
    assert link.group(1) == f"{rules}#{rule_id}"
    assert escape(title) in link.group(2)
    assert rule_id not in link.group(2)
