"""Next/Back between adjacent steps: only the swaps that turn one step's page into the next.

tests/browser/test_tutorial_swaps.py checks in Chromium that the swaps leave exactly the page a
full load shows; here: when they are sent, what they hold, and when the whole stage is sent.
"""

import re

import pytest
from django.urls import reverse
from django.utils import translation

from tutorials import lessons, oob, wire
from tutorials.views import CSRF_SENTINEL, build_id

pytestmark = pytest.mark.django_db
LANGUAGES = ["sv", "fi", "nb", "en"]
ZONE = re.compile(r'\bid="((?:hand|head|seat|row|pile)-[\w-]+|tutorial-(?:rule|nav|move))"')


def step_url(game, slug, n, language="en"):
    with translation.override(language):
        return reverse(f"tutorial_step_{game}", kwargs={"slug": slug, "step": n})


def click(current, **extra):
    """The headers htmx and tutorial.js send with a Next/Back click on the page at ``current``."""
    headers = {"HTTP_HX_REQUEST": "true", "HTTP_HX_TARGET": "tutorial-stage",
               "HTTP_HX_CURRENT_URL": "http://testserver" + current,
               "HTTP_X_TUTORIAL_BUILD": build_id(), "HTTP_X_TUTORIAL_SWAPS": "attrs patch"}
    headers.update(extra)
    return {k: v for k, v in headers.items() if v is not None}


def transitions(languages=("en",)):
    out = []
    for t in lessons.TUTORIALS.values():
        for m in range(1, len(t.steps) + 1):
            for n in (m - 1, m + 1):
                if 1 <= n <= len(t.steps) and not t.steps[m - 1].your_move:
                    out += [(t.game, t.slug, m, n, lang) for lang in languages]
    return out


def stage_of(html: str) -> str:
    stage = html.split('id="tutorial-stage"', 1)[1].split(">", 1)[1]
    return stage.rsplit('<p class="tutorial-keys">', 1)[0].rstrip().removesuffix("</div>")


def regions_of(html: str) -> dict[str, list[oob.Node]]:
    """What Next/Back change on a step page: the content of the stage, progress and narration."""
    progress = re.search(r'<div id="tutorial-progress" [^>]*>(.*?)</div>', html).group(1)
    narration = re.search(r'<div id="tutorial-narration" [^>]*>(.*?)</div>', html).group(1)
    return {"tutorial-stage": oob.parse(stage_of(html)), "tutorial-progress": oob.parse(progress),
            "tutorial-narration": oob.parse(narration)}


def page_of(html: str) -> wire.Page:
    """What the page's script reads from a step page before swaps (see wire.Page)."""
    return wire.Page.of(re.search(r"<title>(.*?)</title>", html).group(1), regions_of(html))


def answer_markup(client, response, current: str) -> str:
    """The answer as htmx reads it: a compact answer (tutorials/wire.py) expanded the way the
    page at ``current`` expands it."""
    body = response.content.decode()
    if not response.has_header(wire.HEADER):
        return body
    page = client.get(current).content.decode()
    return wire.decode(body, page_of(page))


def zones(html: str) -> dict[str, str]:
    """Each zone (element with an id) of a page's stage, as markup."""
    stage = stage_of(html)
    out = {}

    def walk(nodes):
        for node in nodes:
            if node.tag is not None:
                if node.id and ZONE.search(f' id="{node.id}"'):
                    out[node.id] = node.raw
                walk(node.children)
    walk(oob.parse(stage))
    return out


@pytest.mark.parametrize("game,slug,m,n,language", transitions(LANGUAGES))
def test_adjacent_steps_get_swaps_only_in_every_language(client, game, slug, m, n, language):
    old, new = step_url(game, slug, m, language), step_url(game, slug, n, language)
    response = client.get(new, **click(old))
    assert response.status_code == 200
    assert response["HX-Reswap"] == "none"
    assert response[wire.HEADER] == "1"
    assert "HX-Current-URL" in response["Vary"]
    full = client.get(new, HTTP_HX_REQUEST="true").content
    assert len(response.content) < len(full)
    body = answer_markup(client, response, old)
    assert body.startswith("<title>") and ':#tutorial-narration' in body
    assert CSRF_SENTINEL not in body


@pytest.mark.parametrize("game,slug,m,n,language", transitions())
def test_swaps_touch_only_the_zones_that_changed(client, game, slug, m, n, language):
    old, new = step_url(game, slug, m), step_url(game, slug, n)
    before, after = zones(client.get(old).content.decode()), zones(client.get(new).content.decode())
    body = answer_markup(client, client.get(new, **click(old)), old)
    swaps = re.findall(r'hx-swap-oob="(?:([a-zA-Z]+):)?([^"]*)"', body)
    # (inserting after a zone leaves the zone as it is)
    touched = {m.group(1) for style, s in swaps for m in [re.match(r"#([\w-]+)(>?)", s)]
               if m and not (style == "afterend" and not m.group(2))}
    touched |= set(re.findall(r'<\w+ id="([\w-]+)"[^>]* hx-swap-oob="true"', body))
    for zone, markup in before.items():
        if after.get(zone) == markup and not zone.startswith(("seat-", "tutorial-move")):
            assert zone not in touched, (zone, body)
    changed = {z for z in after if z in before and after[z] != before[z]}
    for zone in changed - {"tutorial-nav"}:
        # a changed zone is reached by its own id or one of its parts' (seat-1 > head-1 ...)
        number = zone.rsplit("-", 1)[-1]
        assert zone in touched or any(t.endswith("-" + number) for t in touched) or \
            f"#{zone}" in body or "#tutorial-stage" in body, (zone, body)


def test_a_typical_next_is_small(client):
    """Anna's attack in step 4 -> 5 of the first Dam tutorial: a few swaps, not the stage."""
    old, new = step_url("dam", "anna-bo-cilla", 4), step_url("dam", "anna-bo-cilla", 5)
    body = client.get(new, **click(old)).content
    page = client.get(new).content
    assert len(body) <= 0.1 * len(page), body.decode()


def test_the_next_link_itself_is_answered_with_swaps(client):
    """A click on Next asks for "?go=next" of the step shown: the next step, as swaps."""
    old = step_url("dam", "anna-bo-cilla", 4)
    response = client.get(old + "?go=next", **click(old))
    assert response["HX-Reswap"] == "none"
    assert response["HX-Push-Url"] == step_url("dam", "anna-bo-cilla", 5)
    assert response.content == client.get(step_url("dam", "anna-bo-cilla", 5),
                                           **click(old)).content


WHOLE_STAGE = 'id="tutorial-rule"'


def whole(response) -> bool:
    body = response.content.decode()
    return (response.status_code == 200 and not response.has_header("HX-Reswap")
            and WHOLE_STAGE in body and '<div id="tutorial-progress" hx-swap-oob' in body)


FIVE = step_url("dam", "anna-bo-cilla", 5)


@pytest.mark.parametrize("current", [
    step_url("dam", "anna-bo-cilla", 2),  # not adjacent
    step_url("dam", "anna-bo-cilla", 5),  # the step itself
    step_url("dam", "anna-bo-cilla", 4) + "?ok=1",  # a query: feedback or hint on that page
    step_url("dam", "anna-bo-cilla", 4) + "?hint=1",
    step_url("dam", "anna-bo-cilla", 4) + "x",
    step_url("dam", "anna-bo-cilla", 4).replace("/4/", "/04/"),
    step_url("dam", "svarta-maja", 4),  # another tutorial
    step_url("dam", "anna-bo-cilla", 4, "sv"),  # another language
    "/en/dam/tutorials/anna-bo-cilla/4",
    "/",
    "not a url at all",
])
def test_other_or_tampered_current_addresses_get_the_whole_stage(client, current):
    response = client.get(FIVE, **click("")
                          | {"HTTP_HX_CURRENT_URL": "http://testserver" + current})
    assert whole(response)


@pytest.mark.parametrize("headers", [
    {"HTTP_HX_CURRENT_URL": None},
    {"HTTP_X_TUTORIAL_BUILD": None},
    {"HTTP_X_TUTORIAL_BUILD": "another-build"},  # a page from another deployment
    {"HTTP_HX_TARGET": "somewhere-else"},
    {"HTTP_HX_HISTORY_RESTORE_REQUEST": "true"},
    {"HTTP_HX_BOOSTED": "true"},
])
def test_missing_or_unexpected_headers_get_the_whole_stage_or_page(client, headers):
    response = client.get(FIVE, **click(step_url("dam", "anna-bo-cilla", 4), **headers))
    if "HTTP_HX_HISTORY_RESTORE_REQUEST" in headers:
        assert "<html" in response.content.decode()
    else:
        assert whole(response)


def test_without_javascript_there_are_no_swaps(client):
    response = client.get(FIVE, HTTP_HX_CURRENT_URL=step_url("dam", "anna-bo-cilla", 4))
    assert "<html" in response.content.decode() and not response.has_header("HX-Reswap")


def test_leaving_a_your_move_step_the_learner_changed_gets_the_whole_stage(client):
    three, four = step_url("dam", "anna-bo-cilla", 3), step_url("dam", "anna-bo-cilla", 4)
    assert client.get(four, **click(three))["HX-Reswap"] == "none"  # as it was rendered
    # A hint shown or a refused move's choice: the page says so (see the nav's hx-headers).
    hint = client.get(three + "?hint=1", HTTP_HX_REQUEST="true").content.decode()
    assert 'hx-headers=\'{"X-Tutorial-Changed": "1"}\'' in hint
    assert whole(client.get(four, **click(three, HTTP_X_TUTORIAL_CHANGED="1")))
    refused = client.post(step_url("dam", "anna-bo-cilla", 3) + "move/",
                          {"action": "beat", "card": "2D", "target": "6D"},
                          HTTP_HX_REQUEST="true").content.decode()
    assert "X-Tutorial-Changed" in refused
    plain = client.get(three, HTTP_HX_REQUEST="true").content.decode()
    assert "X-Tutorial-Changed" not in plain


def test_between_two_your_move_steps_swaps_only_for_pages_that_reset_their_boxes(client):
    # svarta-maja 3 and 4 both ask for a move: boxes ticked on 3 could survive the swaps,
    # unless the page puts them back before applying them (tutorial.js, with compact answers).
    three, four = step_url("dam", "svarta-maja", 3), step_url("dam", "svarta-maja", 4)
    assert whole(client.get(four, **click(three, HTTP_X_TUTORIAL_SWAPS="attrs")))
    response = client.get(four, **click(three))
    assert response["HX-Reswap"] == "none" and response[wire.HEADER] == "1"
    assert whole(client.get(four, **click(three, HTTP_X_TUTORIAL_CHANGED="1")))


def test_swaps_into_a_your_move_step_carry_the_real_csrf_token(client):
    two, three = step_url("dam", "anna-bo-cilla", 2), step_url("dam", "anna-bo-cilla", 3)
    response = client.get(three, **click(two))
    body = answer_markup(client, response, two)
    token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', body).group(1)
    assert response["HX-Reswap"] == "none" and CSRF_SENTINEL not in response.content.decode()
    assert len(token) == 64 and token != CSRF_SENTINEL  # a masked token of this session


def test_attrs_swap_only_for_pages_that_have_it(client):
    old, new = step_url("dam", "anna-bo-cilla", 4), step_url("dam", "anna-bo-cilla", 5)
    with_attrs = client.get(new, **click(old, HTTP_X_TUTORIAL_SWAPS="attrs")).content.decode()
    without = client.get(new, **click(old, HTTP_X_TUTORIAL_SWAPS=None))
    assert 'hx-swap-oob="attrs:' in with_attrs
    assert without["HX-Reswap"] == "none"
    assert "attrs:" not in without.content.decode()


def test_cached_answers_stay_apart(client):
    old, new = step_url("dam", "anna-bo-cilla", 4), step_url("dam", "anna-bo-cilla", 5)
    swaps = client.get(new, **click(old)).content
    full = client.get(new, HTTP_HX_REQUEST="true").content
    assert client.get(new, **click(old)).content == swaps
    assert client.get(new, HTTP_HX_REQUEST="true").content == full != swaps
    back = client.get(new, **click(step_url("dam", "anna-bo-cilla", 6))).content
    assert back not in (swaps, full)
    with translation.override("sv"):
        swedish = client.get(step_url("dam", "anna-bo-cilla", 5, "sv"),
                             **click(step_url("dam", "anna-bo-cilla", 4, "sv"))).content
    assert swedish != swaps


@pytest.mark.parametrize("game,slug", [(t.game, t.slug) for t in lessons.TUTORIALS.values()])
def test_ids_are_unique_on_every_step_page(client, game, slug):
    """Swaps address elements by id: one element per id on the page."""
    for n in range(1, len(lessons.get(game, slug).steps) + 1):
        html = client.get(step_url(game, slug, n)).content.decode()
        ids = re.findall(r'\sid="([^"]+)"', html)
        assert len(ids) == len(set(ids)), sorted(i for i in ids if ids.count(i) > 1)


# ------------------------------------------------------------------ the swaps module
def test_patch_is_checked_by_the_model():
    old = '<ul id="h"><li>a</li><li>b</li><li>c</li></ul><p class="x">1</p>'
    new = '<ul id="h"><li>b</li><li>d</li><li>c</li><li>e</li></ul><p class="y">1</p>'
    ops = oob.patch(old, new, "#root", attrs=True)
    assert ops is not None
    nodes = oob.parse(old)
    differ_ops = oob._Differ({"h"}, attrs=True).children(nodes, oob.parse(new), "#root")[1]
    assert oob.apply(nodes, differ_ops, "#root") == "".join(
        n.canonical() for n in oob.parse(new))
    assert any("attrs:#root>:nth-child(2)" in op for op in ops)  # <p class="y">


@pytest.mark.parametrize("markup", [
    "<p><div>x</div></p>", "<ul><li>a<li>b</ul>", "<a href=x><a href=y>z</a></a>",
    "<table><tr><td>x</td></tr></table>", "<div>", "</div>", "<span>a < b</span>",
    '<i id="a" id="b"></i>', "<script>x</script>",
])
def test_markup_the_browser_would_parse_differently_is_not_patched(markup):
    assert oob.patch(markup, "<p>new</p>", "#root") is None


def test_attrs_swap_keeps_the_attribute_order():
    old = '<span class="card" role="img" data-card="4D"></span>'
    reordered = '<span role="img" class="card card--highlight" data-card="4D"></span>'
    ops = oob.patch(old, reordered, "#root", attrs=True)
    assert ops is not None and not any("attrs:" in op for op in ops)
    added = '<span class="card card--highlight" role="img" data-card="4D" hidden></span>'
    ops = oob.patch(old, added, "#root", attrs=True)
    assert ops == ['<i hx-swap-oob="attrs:#root>:nth-child(1)" '
                   'class="card card--highlight" hidden></i>']
    assert oob.patch(added, old, "#root", attrs=True) == [
        '<i hx-swap-oob="attrs:#root>:nth-child(1)" class="card" data-remove="hidden"></i>']


def test_an_id_placed_again_before_its_element_is_reached_is_not_used_to_address_it():
    old = '<b id="x">1</b><b id="y">2</b>'
    new = '<b id="y">2</b><b id="x">1</b>'
    nodes = oob.parse(old)
    by_id = oob._Differ({"x", "y"}).children(nodes, oob.parse(new), "#root")[1]
    assert [op.html() for op in by_id] == ['<div hx-swap-oob="afterend:#y"><b id="x">1</b></div>',
                                           '<i hx-swap-oob="delete:#x"></i>']
    assert oob.apply(nodes, by_id, "#root") is None  # "#x" would find two elements
    assert oob.patch(old, new, "#root") == [
        '<i hx-swap-oob="delete:#root>:nth-child(2)"></i>',
        '<div hx-swap-oob="afterbegin:#root"><b id="y">2</b></div>']
