"""A compact text form of a tutorial's out-of-band swaps, expanded again by static/js/tutorial.js.

Next/Back between adjacent steps are answered with swaps (``tutorials/oob.py``).  As htmx markup
each swap costs a wrapper of about 50 bytes and each card about 110, while the change between
two steps is mostly cards moving.  This form writes the same swaps as one line each and a card
as a token; the page's script turns the text back into exactly the markup ``Op.html`` gives
(``transformResponse`` of the ``tutorial`` htmx extension) before htmx reads it, so htmx applies
the very swaps the model in oob.py checked.  ``encode`` refuses (None) anything it cannot write
so that ``decode`` gives it back byte for byte; the caller then sends the markup instead.

Lines (separated by ``\\n``; a selector ``#id>:nth-child(k)>…`` is written ``id>k>…``)::

    N<card>|<card>|…        cards the page does not show yet, each <code><label> (the rank
                            letter, data-r, is the code's own: 2-9, 10 for T, J Q K A) or
                            <code>^<rank>^<label>; the label is the aria-label, or
                            ~<p>,<s>,<text>: the previous card's label spliced
    T<text>                 <title>text</title>
    U<p>,<s>,<text>         <title>: the page's title with all but its first p and last s
                            characters replaced by text (plain text, escaped when expanded)
    B<label>                the label of face-down cards, when the stage shows none
    d<sel>                  <i hx-swap-oob="delete:#sel"></i>
    a<sel><attributes>      <i hx-swap-oob="attrs:#sel" attributes></i>
    o<sel> <html>           html, its first tag given hx-swap-oob="outerHTML:#sel"
    t <html>                html, its first tag given hx-swap-oob="true"
    i<sel> <html>           <div hx-swap-oob="innerHTML:#sel">html</div>
    x<sel> <p>,<s>,<text>   the same for an element holding only text, as a splice of the text
                            it holds on the page (before any swap; plain text, escaped)
    e<sel> <html>           <div hx-swap-oob="afterend:#sel">html</div>
    b<sel> <html>           <div hx-swap-oob="afterbegin:#sel">html</div>

A splice reads the page as it is before any swap is applied, and expands to the whole new
text; it is only written when, read that way, it gives back exactly the swap's markup.

In ``html`` a card is ``{7S}`` (``{{`` is a literal brace), with flags after the code: ``*``
highlighted, ``p`` in a pick label with a checkbox named card, ``q`` with a radio named target,
``!`` checked, ``f`` belonging to the move form.  Its label and rank letter come from an ``N``
line or from the first card with that code in the stage as the page holds it before the swaps,
which is what the server rendered for the step the page shows.  ``{#}`` is a decorative
face-down card; ``{-}`` a face-down card with a label (``{+}`` lying crosswise), the label of
the first such card in the stage or, when there is none, the one a ``B<label>`` line gives.
``{a}`` … ``{z}`` stand for the fixed pieces of markup in ``SNIPPETS`` (the script has the same
list; tests compare them).
"""

from __future__ import annotations

import html
import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

# Django's escaping, which the templates use and the page's script copies (escapeValue).
from django.utils.html import escape

from . import oob

HEADER = "X-Tutorial-Patch"  # on a response in this form
CAPABILITY = "patch"  # the page's script says it expands this form (X-Tutorial-Swaps)
MOVE_FORM = "tutorial-move"

_CARD = (r'<span class="card card--([cdhs])( card--red)?( card--highlight)?" role="img" '
         r'aria-label="([^"<>]*)" data-card="([2-9TJQKA][CDHS])" data-r="([^"<> ]*)"></span>')
CARD = re.compile(_CARD)
PICK = re.compile(r'<label class="pick"><input class="pick__box" type="(checkbox|radio)" '
                  r'name="(card|target)" value="([2-9TJQKA][CDHS])"( checked)?'
                  rf'( form="{MOVE_FORM}")?>({_CARD})</label>')
BACK = '<span class="card card--back" aria-hidden="true"></span>'
LABELLED_BACK = re.compile(r'<span class="card card--back( card--crosswise)?" role="img" '
                           r'aria-label="([^"<>]*)"></span>')
# Markup the templates repeat, written {a}, {b}, … (longest first, so none hides another).
SNIPPETS = (
    '<form id="tutorial-move" class="tutorial-move" method="post" action="move/" '
    'hx-post="move/"><input type="hidden" name="csrfmiddlewaretoken" value="',
    '</div></form><form class="tutorial-hint-form" method="get" action="./" hx-get="./">'
    '<input type="hidden" name="hint" value="1"><button type="submit" '
    'class="button-secondary">',
    '<a id="tutorial-back" href="?go=prev" hx-get="?go=prev" rel="prev">',
    '<a id="tutorial-next" href="?go=next" hx-get="?go=next" rel="next">',
    '<button type="submit" name="action" value="',
    '"><div class="tutorial-buttons">',
    '<p class="tutorial-move__who"><strong>',
    '<div role="radiogroup" aria-label="',
    '<span class="visually-hidden">',
    '<span class="badge badge--',
    '" class="hand game-hand" aria-label="',
    '<ul class="game-pairs">',
    '<ul id="hand-',
    '<li class="game-pair">',
    '<p class="game-note">',
    '</button>',
    '</li><li>',
)
TOKEN = re.compile(r"\{\{|\{#\}|\{[-+]\}|\{([a-z])\}|\{([2-9TJQKA][CDHS])(\*?)([pq]?)(!?)(f?)\}")
NTH = re.compile(r">:nth-child\((\d+)\)")
SHORT_NTH = re.compile(r">(\d+)")
STYLES = {"innerHTML": "i", "afterend": "e", "afterbegin": "b"}
KINDS = {v: k for k, v in STYLES.items()}
SPLICE = re.compile(r"(\d+),(\d+),")
WHITESPACE = re.compile(r"[\t\n\f\r ]+")

assert len(SNIPPETS) <= 26 and not any("{" in x or "\n" in x for x in SNIPPETS)


class Refused(Exception):
    """What this form cannot carry exactly."""


@dataclass
class Page:
    """What the page's script reads from the page before the swaps: the cards' labels and rank
    letters, the title, and (for splices) the text of elements, here from the markup the server
    rendered for it."""
    names: dict[str, tuple[str, str]] = field(default_factory=dict)
    back: str | None = None  # the label of the first labelled face-down card
    title: str = ""  # as document.title gives it
    doc: oob.Node | None = None

    @classmethod
    def of(cls, title: str, regions: dict[str, list[oob.Node]]) -> Page:
        """``title``: the <title> element's content as rendered; ``regions``: the children of
        the elements with those ids (the stage first)."""
        holders = [oob.Node("div", f'<div id="{k}">', "</div>", v, k) for k, v in regions.items()]
        page = cls(title=WHITESPACE.sub(" ", html.unescape(title)).strip(),
                   doc=oob.Node("#doc", children=holders))
        _names(holders[:1], page.names)
        page.back = _back_label(holders[:1])
        return page

    def text(self, selector: str) -> str | None:
        """textContent of the first element ``selector`` finds (None: none)."""
        try:
            found = oob._select(self.doc, selector) if self.doc else []
        except oob._Mismatch:
            return None
        if not found:
            return None
        parent, i = found[0]
        return _text_content(parent.children[i])


def _text_content(node: oob.Node) -> str:
    if node.tag is None:
        return html.unescape(node.start)
    return "".join(_text_content(c) for c in node.children)


def _names(nodes: Iterable[oob.Node], names: dict[str, tuple[str, str]]) -> None:
    """Label and rank letter of each card code, from the first element carrying a data-card,
    aria-label and data-r (in document order), as the script reads them from the DOM and
    writes them again."""
    for n in nodes:
        if n.tag is None:
            continue
        a = dict(n.attrs)
        code = a.get("data-card")
        if code and code not in names and a.get("aria-label") is not None \
                and a.get("data-r") is not None:
            names[code] = (escape(html.unescape(a["aria-label"])),
                           escape(html.unescape(a["data-r"])))
        _names(n.children, names)


def own_rank(code: str) -> str:
    """The rank letter a card code spells (English decks; other languages may differ)."""
    return "10" if code[0] == "T" else code[0]


def _back_label(nodes: Iterable[oob.Node]) -> str | None:
    """The label of the first span with the classes card and card--back, role img and an
    aria-label (what the script's querySelector finds)."""
    for n in nodes:
        if n.tag is None:
            continue
        a = dict(n.attrs)
        if (n.tag == "span" and {"card", "card--back"} <= set((a.get("class") or "").split())
                and a.get("role") == "img" and a.get("aria-label") is not None):
            return escape(html.unescape(a["aria-label"]))
        found = _back_label(n.children)
        if found is not None:
            return found
    return None


def back_html(crosswise: bool, label: str) -> str:
    return (f'<span class="card card--back{" card--crosswise" if crosswise else ""}" role="img" '
            f'aria-label="{label}"></span>')


def card_html(code: str, flags: str, names: dict[str, tuple[str, str]]) -> str:
    label, rank = names[code]
    suit = code[1].lower()
    cls = f"card card--{suit}" + (" card--red" if suit in "dh" else "") + (
        " card--highlight" if "*" in flags else "")
    span = (f'<span class="{cls}" role="img" aria-label="{label}" data-card="{code}" '
            f'data-r="{rank}"></span>')
    if "p" in flags or "q" in flags:
        kind, name = ("checkbox", "card") if "p" in flags else ("radio", "target")
        span = (f'<label class="pick"><input class="pick__box" type="{kind}" name="{name}" '
                f'value="{code}"' + (" checked" if "!" in flags else "")
                + (f' form="{MOVE_FORM}"' if "f" in flags else "") + f">{span}</label>")
    return span


def _splice(old: str, new: str) -> tuple[int, int, str]:
    p = 0
    while p < min(len(old), len(new)) and old[p] == new[p]:
        p += 1
    s = 0
    while s < min(len(old), len(new)) - p and old[-1 - s] == new[-1 - s]:
        s += 1
    return p, s, new[p:len(new) - s]


class Wire(oob.Measure):
    """Encodes swaps for ``page`` (see ``Page``)."""

    def __init__(self, page: Page) -> None:
        self.page = page
        self.names = dict(page.names)  # grows with the N lines
        self.new: dict[str, tuple[str, str]] = {}  # cards the N lines introduce
        self.back = page.back  # the label {-} and {+} stand for
        self.new_back = False  # (given by a B line)

    # -- measuring (for the differ: N lines are left out, they are the same whatever it picks)
    def ops(self, ops: list[oob.Op]) -> int:
        try:
            return sum(len(self.op(op, learn=False).encode()) + 1 for op in ops)
        except Refused:
            return oob.cost(ops) * 10  # possible, but by far the worst choice

    def node(self, node: oob.Node) -> int:
        try:
            return len(self.content(node.raw, learn=False).encode())
        except Refused:
            return len(node.raw.encode()) * 10

    # -- writing
    def content(self, markup: str, learn: bool = True) -> str:
        if "\n" in markup:
            raise Refused("a line break")
        out = []
        pos = 0
        pattern = f"{PICK.pattern}|{_CARD}|{re.escape(BACK)}|{LABELLED_BACK.pattern}"
        for m in re.finditer(pattern, markup):
            out.append(_literal(markup[pos:m.start()]))
            out.append(self._token(m.group(0), learn))
            pos = m.end()
        out.append(_literal(markup[pos:]))
        return "".join(out)

    def _token(self, markup: str, learn: bool) -> str:
        if markup == BACK:
            return "{#}"
        back = LABELLED_BACK.fullmatch(markup)
        if back:
            if self.back is None and learn:
                self.back, self.new_back = back.group(2), True
            if back.group(2) != (self.back if self.back is not None else back.group(2)) \
                    or "\n" in back.group(2):
                return _literal(markup)
            return "{+}" if back.group(1) else "{-}"
        pick = PICK.fullmatch(markup)
        card = CARD.fullmatch(pick.group(6) if pick else markup)
        _suit, _red, highlight, label, code, rank = card.groups()
        flags = "*" if highlight else ""
        if pick:
            kind, name, value, checked, form = pick.groups()[:5]
            if value != code or (kind == "checkbox") != (name == "card"):
                return _literal(markup)
            flags += ("p" if kind == "checkbox" else "q") + ("!" if checked else "") + (
                "f" if form else "")
        known = self.names.get(code)
        if known is None and learn:
            self.new[code] = self.names[code] = known = (label, rank)
        elif known is None:
            known = (label, rank)
        if (known != (label, rank) or "|" in label or label.startswith(("^", "~")) or "^" in rank
                or card_html(code, flags, {code: known}) != markup):
            return _literal(markup)  # a card the token would not give back
        return "{" + code + flags + "}"

    def op(self, op: oob.Op, learn: bool = True) -> str:
        """One line for ``op``; a splice only when it expands to exactly ``op.html()``."""
        sel = _selector(op.selector) if op.style != "true" else ""
        if op.style == "delete":
            return "d" + sel
        if op.style == "attrs":
            given = oob.Op("attrs", "#x", set_attrs=op.set_attrs,
                           remove_attrs=op.remove_attrs).html()
            attributes = given[len('<i hx-swap-oob="attrs:#x"'):-len("></i>")]
            if "\n" in attributes:
                raise Refused("a line break")
            return "a" + sel + attributes
        if op.style in ("outerHTML", "true"):
            node = op.nodes[0]
            return ("o" + sel if op.style == "outerHTML" else "t") + " " + self.content(
                node.raw, learn)
        line = STYLES[op.style] + sel + " " + self.content("".join(n.raw for n in op.nodes),
                                                           learn)
        if op.style == "innerHTML" and all(n.tag is None for n in op.nodes):
            old = self.page.text(op.selector)
            new = html.unescape("".join(n.raw for n in op.nodes))
            if old is not None and _bmp(old + new) and "\n" not in new:
                p, s, mid = _splice(old, new)
                splice = f"x{sel} {p},{s},{mid}"
                if len(splice) < len(line) and _line(splice, self.names, self.page) == op.html():
                    return splice
        return line

    def title(self, markup: str) -> str:
        """The line for the title element's content ``markup``."""
        if "\n" in markup:
            raise Refused("a line break")
        new = WHITESPACE.sub(" ", html.unescape(markup)).strip()
        if _bmp(self.page.title + new):
            p, s, mid = _splice(self.page.title, new)
            splice = f"U{p},{s},{mid}"
            if len(splice) < len(markup) + 1 and _line(splice, {}, self.page) == (
                    f"<title>{markup}</title>"):
                return splice
        return "T" + markup

    def encode(self, title: str, ops: list[oob.Op]) -> str:
        """The response: ``title`` (the content of <title>) and the swaps, in this order."""
        lines = [self.title(title)] + [self.op(op) for op in ops]
        entries, previous = [], None
        for code, (label, rank) in self.new.items():
            written = label
            if previous is not None:
                p, s, mid = _splice(previous, label)
                if len(f"~{p},{s},{mid}") < len(label):
                    written = f"~{p},{s},{mid}"
            entries.append(code + ("" if rank == own_rank(code) else f"^{rank}^") + written)
            previous = label
        names = "|".join(entries)
        head = (["N" + names] if names else []) + (["B" + self.back] if self.new_back else [])
        return "\n".join(head + lines)


def _literal(markup: str) -> str:
    markup = markup.replace("{", "{{")
    for i, snippet in enumerate(SNIPPETS):
        markup = markup.replace(snippet, "{" + chr(97 + i) + "}")
    return markup


def _bmp(text: str) -> bool:
    """Whether positions in ``text`` count the same in Python and in JavaScript (UTF-16)."""
    return all(ord(c) < 0x10000 for c in text)


def _selector(selector: str) -> str:
    if (not selector.startswith("#") or SHORT_NTH.search(NTH.sub("", selector))
            or any(c in selector for c in " \n")):
        raise Refused(selector)
    return NTH.sub(r">\1", selector[1:])


def pack(title: str, ops: list[oob.Op], page: Page) -> str | None:
    """``encode``, checked: None unless ``decode`` gives back exactly the markup of the title
    element and of ``ops`` (what the markup response would be)."""
    markup = f"<title>{title}</title>" + "".join(op.html() for op in ops)
    try:
        text = Wire(page).encode(title, ops)
        return text if decode(text, page) == markup else None
    except (Refused, ValueError, KeyError, IndexError):
        # Refused: not expressible.  The others would be a fault in this module: the markup
        # form is still right, so the learner gets that.
        return None


def decode(text: str, page: Page) -> str:
    """The markup ``text`` stands for (what static/js/tutorial.js makes of it on ``page``)."""
    names: dict[str, Any] = dict(page.names)
    names["back"] = page.back
    return "".join(_line(line, names, page) for line in text.split("\n"))


def _line(line: str, names: dict[str, Any], page: Page) -> str:
    """One line as markup; ``names``: the cards' (label, rank) by code, and under "back" the
    label of face-down cards (both grow with N and B lines)."""
    kind, rest = line[:1], line[1:]
    if kind == "B":
        names["back"] = rest
        return ""
    if kind == "N":
        previous = ""
        for entry in rest.split("|"):
            code, label, rank = entry[:2], entry[2:], own_rank(entry[:2])
            if label.startswith("^"):
                rank, _mark, label = label[1:].partition("^")
            if label.startswith("~"):
                label = _spliced(previous, label[1:])
            names[code] = (label, rank)
            previous = label
        return ""
    if kind == "T":
        return f"<title>{rest}</title>"
    if kind == "U":
        return f"<title>{escape(_spliced(page.title, rest))}</title>"
    if kind == "d":
        return f'<i hx-swap-oob="delete:{_long(rest)}"></i>'
    sel, sp, content = rest.partition(" ")
    if kind == "a":
        return f'<i hx-swap-oob="attrs:{_long(sel)}"{sp}{content}></i>'
    if kind == "x":
        old = page.text(_long(sel))
        if old is None:
            raise ValueError(f"no element {sel}")
        return f'<div hx-swap-oob="innerHTML:{_long(sel)}">{escape(_spliced(old, content))}</div>'
    markup = _expand(content, names)
    if kind in ("o", "t"):
        value = "true" if kind == "t" else "outerHTML:" + _long(sel)
        cut = markup.index(">")
        cut -= markup[cut - 1] == "/"
        return markup[:cut] + f' hx-swap-oob="{value}"' + markup[cut:]
    return f'<div hx-swap-oob="{KINDS[kind]}:{_long(sel)}">{markup}</div>'


def _spliced(old: str, splice: str) -> str:
    m = SPLICE.match(splice)
    if not m:
        raise ValueError(splice)
    p, s = int(m.group(1)), int(m.group(2))
    return old[:p] + splice[m.end():] + old[len(old) - s:]


def _long(sel: str) -> str:
    return "#" + SHORT_NTH.sub(r">:nth-child(\1)", sel)


def _expand(content: str, names: dict[str, Any]) -> str:
    def token(m: re.Match[str]) -> str:
        if m.group(0) == "{{":
            return "{"
        if m.group(0) == "{#}":
            return BACK
        if m.group(0) in ("{-}", "{+}"):
            if names.get("back") is None:
                raise ValueError("no label for face-down cards")
            return back_html(m.group(0) == "{+}", names["back"])
        if m.group(1):
            return SNIPPETS[ord(m.group(1)) - 97]
        return card_html(m.group(2), "".join(m.groups()[2:]), names)
    return TOKEN.sub(token, content)
