import re
from pathlib import Path

import pytest
from django.core.management import call_command
from django.urls import reverse
from django.utils import translation

from reference.models import FaqEntry, GlossaryTerm

ROOT = Path(__file__).resolve().parents[2]
SPEC = (ROOT / "docs" / "rules-spec.md").read_text(encoding="utf-8")
LANGUAGES = ["sv", "fi", "nb", "en"]
RULE_PAGES = {"D": "rules_dam", "H": "rules_dolda", "S": "rules_spardame"}

pytestmark = pytest.mark.django_db


@pytest.fixture
def content(db):
    call_command("load_content")


def spec_rules() -> dict[str, str]:
    return dict(re.findall(r"^- ([DHS]-[A-Z]+\d+) (.*)$", SPEC, flags=re.MULTILINE))


def page(client, name: str, language: str, **params) -> str:
    with translation.override(language):
        url = reverse(name)
    return client.get(url, params).content.decode()


def test_load_content_is_idempotent(content):
    counts = (FaqEntry.objects.count(), GlossaryTerm.objects.count())
    call_command("load_content")
    assert (FaqEntry.objects.count(), GlossaryTerm.objects.count()) == counts
    assert counts[0] >= 20 and counts[1] >= 25


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_faq_entry_has_question_and_answer_in_language(content, language):
    for entry in FaqEntry.objects.all():
        assert getattr(entry, f"question_{language}").strip(), entry.slug
        assert getattr(entry, f"answer_{language}").strip(), entry.slug


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_glossary_term_has_term_and_definition_in_language(content, language):
    for term in GlossaryTerm.objects.all():
        assert getattr(term, f"term_{language}").strip(), term.slug
        assert getattr(term, f"definition_{language}").strip(), term.slug


def test_faq_has_entries_for_every_game(content):
    assert set(FaqEntry.objects.values_list("game", flat=True)) >= {"dam", "dolda", "spardame"}


@pytest.mark.parametrize("language", LANGUAGES)
def test_faq_page_shows_questions_in_the_page_language(client, content, language):
    html = page(client, "faq", language)
    entry = FaqEntry.objects.first()
    assert getattr(entry, f"question_{language}") in html.replace("&#x27;", "'").replace("&quot;", '"')


@pytest.mark.parametrize("language,word", [("sv", "trumf"), ("fi", "valtti"), ("nb", "trumf"),
                                           ("en", "trump")])
def test_faq_search_finds_entries_by_a_word_in_each_language(client, content, language, word):
    html = page(client, "faq", language, q=word)
    assert html.count('class="faq-entry"') >= 1
    assert html.count('class="faq-entry"') < FaqEntry.objects.count()


def test_faq_search_ignores_case_of_non_ascii_letters(client, content):
    lower = page(client, "faq", "fi", q="musta maija").count('class="faq-entry"')
    upper = page(client, "faq", "fi", q="MUSTA MAIJA").count('class="faq-entry"')
    assert lower == upper >= 1


def test_faq_search_with_no_match_says_so(client, content):
    with translation.override("en"):
        html = page(client, "faq", "en", q="zzzzqqq")
    assert 'class="faq-entry"' not in html and "No question matches" in html


def test_faq_search_htmx_request_gets_only_the_results_partial(client, content):
    with translation.override("en"):
        url = reverse("faq")
    response = client.get(url, {"q": "trump"}, HTTP_HX_REQUEST="true")
    html = response.content.decode()
    assert html.lstrip().startswith('<div id="faq-results"') and "<html" not in html


@pytest.mark.parametrize("language,word", [("sv", "talong"), ("fi", "nostopakka"), ("nb", "stikk"),
                                           ("en", "trick")])
def test_glossary_search_finds_terms_by_a_word_in_each_language(client, content, language, word):
    html = page(client, "glossary", language, q=word)
    assert 1 <= html.count('class="glossary__entry"') < GlossaryTerm.objects.count()


def test_overlong_search_is_cut_not_refused(client, content):
    with translation.override("en"):
        response = client.get(reverse("faq"), {"q": "x" * 5000})
    assert response.status_code == 200


@pytest.mark.parametrize("language", LANGUAGES)
def test_rules_pages_have_an_anchor_for_every_rule_id(client, language):
    for rule_id in spec_rules():
        html = page(client, RULE_PAGES[rule_id[0]], language)
        assert f'id="{rule_id}"' in html, rule_id


def test_every_documented_decision_is_shown_as_such(client):
    for rule_id, text in spec_rules().items():
        if "Decision" not in text:
            continue
        html = page(client, RULE_PAGES[rule_id[0]], "en")
        block = html.split(f'id="{rule_id}"', 1)[1].split('class="rule"', 1)[0]
        assert 'class="decision"' in block, rule_id


@pytest.mark.parametrize("language,label", [("en", "Cards in hand"), ("sv", "Kort på handen"),
                                            ("fi", "Kortteja kädessä")])
def test_rules_pages_name_options_by_their_labels_not_their_keys(client, language, label):
    from reference.variants import OPTION_LABELS

    html = page(client, "rules_dam", language)
    options = [p.split("</p>", 1)[0] for p in html.split('class="rule__options"')[1:]]
    assert options and any(label in o for o in options)
    for o in options:
        assert "<code>" not in o
        for key in OPTION_LABELS:
            if "_" in key:  # "trump", "moon" and "limit" are also plain English words
                assert key not in o, key


def test_dam_rules_page_has_tactics_and_common_mistakes(client):
    html = page(client, "rules_dam", "en")
    assert 'id="tactics"' in html and 'id="mistakes"' in html


def test_rule_examples_are_drawn_with_the_card_component(client):
    html = page(client, "rules_dam", "en")
    block = html.split('id="D-B2"', 1)[1].split('class="rule"', 1)[0]
    assert 'data-card="QS"' in block


def test_rules_pages_link_to_the_tutorial_steps_that_show_a_rule(client):
    from tutorials import lessons

    with translation.override("en"):
        html = client.get(reverse("rules_dam")).content.decode()
        tutorial = lessons.get("dam", "anna-bo-cilla") or next(
            t for t in lessons.TUTORIALS.values() if t.game == "dam")
        n, step = next((n, s) for n, s in enumerate(tutorial.steps, start=1))
        url = reverse("tutorial_step_dam", kwargs={"slug": tutorial.slug, "step": n})
    block = html.split(f'id="{step.rule}"', 1)[1].split('class="rule"', 1)[0]
    assert f'href="{url}"' in block
    assert client.get(url).status_code == 200


def test_every_rule_a_tutorial_shows_has_a_link_on_its_rules_page(client):
    from tutorials import lessons

    for game in ("dam", "dolda", "spardame"):
        with translation.override("en"):
            html = client.get(reverse(f"rules_{game}")).content.decode()
        for tutorial in lessons.TUTORIALS.values():
            if tutorial.game == game:
                for step in tutorial.steps:
                    block = html.split(f'id="{step.rule}"', 1)[1].split('class="rule"', 1)[0]
                    assert 'class="rule__tutorials"' in block, (game, step.rule)


@pytest.mark.parametrize("language,query,expected", [
    ("en", "how many players", "How many people can play Dam?"),
    ("sv", "hur många spelare", "Hur många kan spela Dam?"),
    ("fi", "montako pelaajaa", "Montako pelaajaa Piilokortti-Damiin mahtuu?"),
])
def test_faq_search_finds_a_question_by_words_in_any_order_and_form(client, content, language,
                                                                     query, expected):
    html = page(client, "faq", language, q=query).replace("&#x27;", "'")
    assert expected in html
    assert html.count('class="faq-entry"') < FaqEntry.objects.count() / 2


# Where the seeds say a thing differently from the rules we play (or say it vaguely), the rules
# page marks our reading as a decision, though rules-spec.md does not mark these yet: the extra
# attack kept to one suit (musta-maija-fi.txt), trumping only when out of the suit in the older
# Swedish text, the source's definition of hearts opened (spardame-nb.txt), who wins on equal
# totals and the fewer cards with fewer players of Dam med dolda kort (dam-dolda-kort-sv.txt), and
# that Dam names no winner, where two descriptions name the first out (the FAQ said so, the
# rules page did not).
SEED_DECISIONS = ["D-A5", "D-B1", "D-E2", "S-T3", "H-E2", "H-S2"]


@pytest.mark.parametrize("language", LANGUAGES)
def test_readings_of_the_seeds_are_marked_as_decisions(client, language):
    for rule_id in SEED_DECISIONS:
        html = page(client, RULE_PAGES[rule_id[0]], language)
        block = html.split(f'id="{rule_id}"', 1)[1].split('class="rule"', 1)[0]
        assert 'class="decision"' in block, (language, rule_id)


def test_the_first_in_turn_with_a_pair_decides_trump_in_the_older_rules(client):
    html = page(client, "rules_dam", "en")
    block = html.split('id="D-T4"', 1)[1].split('class="rule"', 1)[0]
    assert "the first of them in turn gets the first chance to show it" in block


def test_the_thieves_and_shields_rule_reads_in_three_paragraphs(client):
    """Review F-82: shields, then thieves, then what does nothing, not one 130-word block."""
    for language in LANGUAGES:
        html = page(client, "rules_dolda", language)
        block = html.split('id="H-V4"', 1)[1].split('class="decision"', 1)[0]
        assert block.count("<p>") == 3, language
