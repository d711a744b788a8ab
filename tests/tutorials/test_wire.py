"""The compact form of Next/Back answers (tutorials/wire.py).

Every adjacent pair of steps, in every language: the compact answer, expanded as the page's
script expands it, turns the step's page into the next one's (checked with the model of htmx in
tutorials/oob.py).  tests/browser/test_tutorial_wire.py checks that the script expands it like
``wire.decode``; tests/browser/test_tutorial_swaps.py walks every tutorial in Chromium.
"""

import re

import pytest
from django.urls import reverse
from django.utils import translation
from hypothesis import given, settings
from hypothesis import strategies as st

from tutorials import lessons, oob, wire
from tutorials.views import build_id

from .test_swaps import click, page_of, regions_of

pytestmark = pytest.mark.django_db
LANGUAGES = ["sv", "fi", "nb", "en"]


def step_url(game, slug, n, language="en"):
    with translation.override(language):
        return reverse(f"tutorial_step_{game}", kwargs={"slug": slug, "step": n})


def canonical(html: str) -> dict[str, str]:
    return {k: "".join(n.canonical() for n in v) for k, v in regions_of(html).items()}


def title_of(html: str) -> str:
    return re.search(r"<title>(.*?)</title>", html).group(1)


def adjacent(languages):
    out = []
    for t in lessons.TUTORIALS.values():
        for m in range(1, len(t.steps) + 1):
            for n in (m - 1, m + 1):
                if 1 <= n <= len(t.steps):
                    out += [(t.game, t.slug, m, n, lang) for lang in languages]
    return out


@pytest.mark.parametrize("game,slug,m,n,language", adjacent(LANGUAGES))
def test_the_compact_answer_turns_the_page_into_the_next_step(client, game, slug, m, n,
                                                              language):
    old_url, new_url = step_url(game, slug, m, language), step_url(game, slug, n, language)
    old, new = client.get(old_url).content.decode(), client.get(new_url).content.decode()
    response = client.get(new_url, **click(old_url))
    assert response[wire.HEADER] == "1" and response["HX-Reswap"] == "none"
    markup = wire.decode(response.content.decode(), page_of(old))
    title = re.match(r"<title>(.*?)</title>", markup)
    assert title and title.group(1) == title_of(new)
    ops = oob.ops_from_markup(markup[title.end():])
    after = oob.apply_regions(regions_of(old), ops)
    csrf = re.compile(r'(name="csrfmiddlewaretoken" value=")[^"]+')
    assert after is not None
    assert {k: csrf.sub(r"\1", v) for k, v in after.items()} == {
        k: csrf.sub(r"\1", v) for k, v in canonical(new).items()}


def test_the_typical_next_click_is_small(client):
    """The benchmark's click (bench/tutorial_http.py): step 1 to 2 of the first Dam tutorial."""
    one, two = step_url("dam", "anna-bo-cilla", 1), step_url("dam", "anna-bo-cilla", 2)
    body = client.get(one + "?go=next", **click(one)).content
    assert len(body) <= 0.1 * len(client.get(two).content), body.decode()


def test_compact_answers_only_for_pages_that_expand_them(client):
    one, two = step_url("dam", "anna-bo-cilla", 1), step_url("dam", "anna-bo-cilla", 2)
    plain = client.get(two, **click(one, HTTP_X_TUTORIAL_SWAPS="attrs"))
    assert not plain.has_header(wire.HEADER) and plain["HX-Reswap"] == "none"
    assert plain.content.startswith(b"<title>")
    unknown = client.get(two, **click(one, HTTP_X_TUTORIAL_SWAPS="attrs patch2"))
    assert not unknown.has_header(wire.HEADER)


def test_the_build_header_still_guards_compact_answers(client):
    one, two = step_url("dam", "anna-bo-cilla", 1), step_url("dam", "anna-bo-cilla", 2)
    response = client.get(two, **click(one, HTTP_X_TUTORIAL_BUILD=build_id() + "x"))
    assert not response.has_header(wire.HEADER) and not response.has_header("HX-Reswap")


# ------------------------------------------------------------------ the format itself
CARDS = {"7S": ("seven of spades", "7"), "QS": ("queen of spades, Svarta Maja", "Q"),
         "TH": ("ten of hearts", "10")}


def card(code, label, rank, highlight=False):
    suit = code[1].lower()
    cls = f"card card--{suit}" + (" card--red" if suit in "dh" else "") + (
        " card--highlight" if highlight else "")
    return (f'<span class="{cls}" role="img" aria-label="{label}" data-card="{code}" '
            f'data-r="{rank}"></span>')


def page_with(cards, title="Lesson, step 1 of 3 · Dam", texts=()):
    stage = "".join(f"<li>{card(c, *CARDS[c])}</li>" for c in cards)
    extra = "".join(f'<p id="t{i}">{t}</p>' for i, t in enumerate(texts))
    return wire.Page.of(title, {"tutorial-stage": oob.parse(f'<ul id="hand-0">{stage}</ul>'
                                                            + extra)})


def roundtrip(page, title, ops):
    text = wire.pack(title, ops, page)
    assert text is not None
    assert wire.decode(text, page) == f"<title>{title}</title>" + "".join(
        op.html() for op in ops)
    return text


def test_cards_the_page_shows_are_tokens_and_new_cards_come_with_their_names():
    page = page_with(["7S", "QS"])
    new = ("<li>" + card("QS", *CARDS["QS"], highlight=True) + "</li><li>"
           + card("2C", "two of clubs", "2") + "</li>")
    ops = [oob.Op("innerHTML", "#hand-0", tuple(oob.parse(new)))]
    text = roundtrip(page, "Lesson, step 2 of 3 · Dam", ops)
    assert "{QS*}" in text and "{2C}" in text
    assert "N2Ctwo of clubs" in text.splitlines()  # its name once, not queen of spades
    assert "Svarta Maja" not in text


def test_pick_boxes_become_flags():
    page = page_with(["7S"])
    box = ('<label class="pick"><input class="pick__box" type="checkbox" name="card" value="7S"'
           f' form="tutorial-move">{card("7S", *CARDS["7S"])}</label>')
    radio = ('<label class="pick"><input class="pick__box" type="radio" name="target" '
             f'value="TH" checked>{card("TH", *CARDS["TH"])}</label>')
    ops = [oob.Op("innerHTML", "#hand-0>:nth-child(1)", tuple(oob.parse(box + radio)))]
    text = roundtrip(page, "x", ops)
    assert "{7Spf}" in text and "{THq!}" in text


def test_a_card_the_token_would_not_give_back_stays_markup():
    page = page_with(["7S"])
    other_label = card("7S", "seven of spades (yours)", "7")  # not what the page says
    wrong_suit_class = card("7S", *CARDS["7S"]).replace("card--s", "card--h")
    ops = [oob.Op("innerHTML", "#hand-0", tuple(oob.parse(other_label + wrong_suit_class)))]
    text = roundtrip(page, "x", ops)
    assert "{7S" not in text and "seven of spades (yours)" in text


def labelled_back(label, crosswise=False):
    return (f'<span class="card card--back{" card--crosswise" if crosswise else ""}" role="img" '
            f'aria-label="{label}"></span>')


def test_face_down_cards_take_the_label_the_page_or_a_b_line_gives():
    row = labelled_back("face-down card") + labelled_back("face-down card", crosswise=True)
    ops = [oob.Op("afterend", "#hand-0>:nth-child(1)", tuple(oob.parse(row)))]
    without = roundtrip(page_with(["7S"]), "x", ops)
    assert without.splitlines()[0] == "Bface-down card" and "{-}{+}" in without
    shown = wire.Page.of("x", {"tutorial-stage": oob.parse(
        '<ul id="hand-0"><li>' + labelled_back("face-down card") + "</li></ul>")})
    assert wire.Page.of("x", {"tutorial-stage": []}).back is None
    with_back = roundtrip(shown, "x", ops)
    assert not with_back.startswith("B") and "{-}{+}" in with_back
    other = [oob.Op("afterend", "#hand-0>:nth-child(1)",
                    tuple(oob.parse(labelled_back("Bo's hidden card"))))]
    assert "Bo's hidden card" in roundtrip(shown, "x", other)  # another label: markup


def test_braces_and_snippet_lookalikes_in_text_survive():
    page = page_with([], texts=["{a}"])
    text_nodes = oob.parse('<p class="game-note">{a} {{ {7S} {#} }}</p><li class="game-pair">'
                           '</li>')
    ops = [oob.Op("innerHTML", "#hand-0", tuple(text_nodes))]
    text = roundtrip(page, "{b}", ops)
    note = "{" + chr(97 + wire.SNIPPETS.index('<p class="game-note">')) + "}"
    assert note in text  # a snippet


def test_text_is_spliced_from_what_the_page_shows():
    page = page_with([], texts=["Step 1 of 9", "31 cards"])
    ops = [oob.Op("innerHTML", "#t0", (oob.Node(None, "Step 2 of 9"),)),
           oob.Op("innerHTML", "#t1", (oob.Node(None, "Tom &amp; Jerry's 28 cards"),))]
    text = roundtrip(page, "Lesson, step 2 of 3 · Dam", ops)
    lines = text.splitlines()
    assert "xt0 5,5,2" in lines and "U13,11,2" in lines
    # an apostrophe as Django would not write it: the splice would not give it back
    assert not any(line.startswith("xt1") for line in lines)


def test_titles_with_astral_characters_are_sent_whole():
    page = page_with([], title="Lesson \U0001F0A1, step 1")
    text = roundtrip(page, "Lesson \U0001F0A1, step 2", [])
    assert text == "TLesson \U0001F0A1, step 2"


def test_a_fault_in_expanding_falls_back_to_markup(monkeypatch):
    page = page_with(["7S"])
    ops = [oob.Op("delete", "#hand-0>:nth-child(1)")]
    assert wire.pack("x", ops, page) is not None

    def broken(text, page):
        raise KeyError("7S")
    monkeypatch.setattr(wire, "decode", broken)
    assert wire.pack("x", ops, page) is None


def test_line_breaks_are_refused():
    page = page_with([])
    ops = [oob.Op("innerHTML", "#hand-0", (oob.Node(None, "two\nlines"),))]
    assert wire.pack("x", ops, page) is None
    assert wire.pack("two\nlines", [], page) is None


def test_snippets_are_unambiguous():
    assert len(set(wire.SNIPPETS)) == len(wire.SNIPPETS)
    for i, a in enumerate(wire.SNIPPETS):
        for b in wire.SNIPPETS[i + 1:]:
            assert a not in b, (a, b)  # a shorter one listed first would hide a longer one


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet=st.sampled_from(list("{}#ab7SQ*pf!<>/\"' x&;é")), max_size=40))
def test_any_text_between_tags_round_trips(text):
    page = page_with(["7S"])
    markup = f'<p class="game-note">{oob._esc(text).replace("<", "&lt;").replace(">", "&gt;")}</p>'
    try:
        nodes = oob.parse(markup)
    except oob.Unsupported:
        return
    roundtrip(page, "t", [oob.Op("afterend", "#hand-0>:nth-child(1)", tuple(nodes))])
