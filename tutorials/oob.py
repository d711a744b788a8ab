"""Out-of-band htmx swaps that turn one rendered fragment into another.

Used for Next/Back between adjacent tutorial steps: the browser shows step m as rendered by this
server, so instead of re-sending the whole stage of step n, the response carries only the swaps
that turn m's markup into n's (``hx-swap-oob`` elements: ``delete``, ``afterend``/``afterbegin``
inserts, ``outerHTML``/``innerHTML`` replacements), each addressed by an id or by a
``#id>:nth-child(k)>…`` path.  Swaps are applied by htmx in document order, so siblings are
handled from the last to the first: an operation never moves an element a later one addresses.

``patch(old, new, root)`` returns the swaps for the children of the element matched by ``root``
(an ``#id`` selector), or None when the markup is outside the simple, well-formed HTML this
module understands (then the caller sends the whole fragment).  Every patch is checked by
``apply``, a small model of what htmx does with it, before it is returned: when the model does
not end with exactly ``new`` (tags, attributes in order, text) the patch is refused.

With ``attrs=True`` an element whose attributes alone changed (a card that is no longer
highlighted, the progress bar's value) may get ``<i hx-swap-oob="attrs:SEL" class="…">``: the
``attrs`` swap of static/js/tutorial.js sets the attributes given and removes those named in
``data-remove``, and keeps the children.  Only offered when the attributes end up in the same
order as in ``new`` and neither ``id`` nor an htmx attribute changes.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

VOID = frozenset({"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta",
                  "source", "track", "wbr"})
# Elements whose content is not parsed as markup, or whose parsing depends on context in ways
# this module does not model: markup holding them is not patched.
UNSUPPORTED = frozenset({"script", "style", "textarea", "title", "template", "table", "tbody",
                         "thead", "tfoot", "tr", "td", "th", "caption", "colgroup", "select",
                         "option", "optgroup", "iframe", "noscript", "svg", "math", "pre",
                         "listing", "plaintext", "xmp", "noembed", "noframes", "frameset",
                         "head", "body", "html", "dialog"})
# Start tags that close an open <p> (the HTML parser would move them out of it).
CLOSES_P = frozenset({"address", "article", "aside", "blockquote", "center", "details", "dir",
                      "div", "dl", "dd", "dt", "fieldset", "figcaption", "figure", "footer",
                      "form", "h1", "h2", "h3", "h4", "h5", "h6", "header", "hgroup", "hr",
                      "li", "main", "menu", "nav", "ol", "p", "search", "section", "summary",
                      "ul"})
SCOPE_FOR_P = frozenset({"button"})
NAME = r"[A-Za-z][A-Za-z0-9-]*"
ATTR = r"""\s+[^\s"'>/=]+(?:\s*=\s*(?:"[^"]*"|'[^']*'|[^\s"'=<>`]+))?"""
TAG = re.compile(rf"<(/?)({NAME})((?:{ATTR})*)\s*(/?)>")
ATTR_PARTS = re.compile(r"""\s+([^\s"'>/=]+)(?:\s*=\s*("[^"]*"|'[^']*'|[^\s"'=<>`]+))?""")
PLAIN_ID = re.compile(r"^[A-Za-z][A-Za-z0-9_-]*$")


REMOVE_ATTR = "data-remove"


class Unsupported(Exception):
    """Markup this module does not patch (the caller sends the whole fragment instead)."""


@dataclass(eq=False)
class Node:
    tag: str | None  # None: a text node
    start: str = ""  # the start tag as written (a text node: its text)
    end: str = ""  # the end tag as written ("" for void elements and text)
    children: list[Node] = field(default_factory=list)
    id: str | None = None
    attrs: tuple[tuple[str, str | None], ...] = ()  # (name, value as written, unquoted)

    @property
    def raw(self) -> str:
        if self.tag is None:
            return self.start
        return self.start + self.inner + self.end

    @property
    def inner(self) -> str:
        return "".join(c.raw for c in self.children)

    def copy(self) -> Node:
        return Node(self.tag, self.start, self.end, [c.copy() for c in self.children], self.id,
                    self.attrs)

    def canonical(self) -> str:
        """The node as the browser would hold it: tag, attributes in order, content."""
        if self.tag is None:
            return self.start
        attrs = "".join(f" {k}" if v is None else f' {k}="{v}"' for k, v in self.attrs)
        inner = "".join(c.canonical() for c in self.children)
        return f"<{self.tag}{attrs}>{inner}" + ("" if self.tag in VOID else f"</{self.tag}>")


# --------------------------------------------------------------------------- parsing
def parse(html: str) -> list[Node]:
    """The nodes of a fragment, or ``Unsupported`` when the browser might build another tree."""
    root = Node("#root")
    stack = [root]
    pos = 0
    for m in TAG.finditer(html):
        if m.start() > pos:
            _text(stack[-1], html[pos:m.start()])
        pos = m.end()
        closing, name, _attrs, selfclose = m.group(1), m.group(2).lower(), m.group(3), m.group(4)
        if name in UNSUPPORTED:
            raise Unsupported(name)
        if closing:
            if name in VOID or stack[-1].tag != name:
                raise Unsupported(f"unexpected </{name}>")
            stack[-1].end = m.group(0)
            stack.pop()
            continue
        _check_nesting(stack, name)
        node = Node(name, m.group(0))
        attrs = []
        for a in ATTR_PARTS.finditer(m.group(3)):
            value = a.group(2)
            if value is not None and value[:1] in "\"'":
                value = value[1:-1]
            if value is not None and '"' in value:
                value = value.replace('"', "&quot;")  # written in single quotes
            attrs.append((a.group(1).lower(), value))
            if attrs[-1][0] == "id":
                node.id = value or ""
        node.attrs = tuple(attrs)
        if len({k for k, _v in attrs}) != len(attrs):
            raise Unsupported("an attribute given twice")
        stack[-1].children.append(node)
        if name in VOID:
            continue
        if selfclose:
            raise Unsupported(f"<{name}/>")
        stack.append(node)
    if pos < len(html):
        _text(stack[-1], html[pos:])
    if len(stack) != 1:
        raise Unsupported(f"<{stack[-1].tag}> not closed")
    return root.children


def _text(parent: Node, text: str) -> None:
    if "<" in text or "\r" in text or "\0" in text:
        raise Unsupported("markup the tokenizer does not know")
    if parent.tag in ("ul", "ol") and text.strip():
        raise Unsupported("text in a list")
    parent.children.append(Node(None, text))


def _check_nesting(stack: list[Node], name: str) -> None:
    tags = [n.tag for n in stack]
    if name in CLOSES_P:
        for tag in reversed(tags):
            if tag in SCOPE_FOR_P:
                break
            if tag == "p":
                raise Unsupported(f"<{name}> inside <p>")
    if name in ("a", "form", "button", "label") and name in tags:
        raise Unsupported(f"<{name}> inside <{name}>")
    if name == "li":
        for tag in reversed(tags):
            if tag in ("ul", "ol", "menu"):
                break
            if tag == "li":
                raise Unsupported("<li> inside <li>")
    if name in ("dd", "dt"):
        raise Unsupported(name)


def ids_in(nodes: list[Node]) -> list[str]:
    out = []
    for n in nodes:
        if n.tag is not None:
            if n.id is not None:
                out.append(n.id)
            out += ids_in(n.children)
    return out


# --------------------------------------------------------------------------- swaps
def _with_attr(start: str, attr: str) -> str:
    """A start tag with one more attribute (before ``>`` or ``/>``)."""
    cut = -2 if start.endswith("/>") else -1
    return start[:cut] + f" {attr}" + start[cut:]


def _esc(value: str) -> str:
    return value.replace("&", "&amp;").replace('"', "&quot;")


@dataclass(frozen=True)
class Op:
    """One out-of-band swap: ``style`` on the elements matching ``selector``."""
    style: str  # "outerHTML", "true" (outerHTML by the new element's id), "innerHTML",
    # "afterend", "afterbegin", "delete", "attrs"
    selector: str
    nodes: tuple[Node, ...] = ()
    set_attrs: tuple[tuple[str, str | None], ...] = ()  # "attrs": set these,
    remove_attrs: tuple[str, ...] = ()  # and remove these

    def html(self) -> str:
        if self.style == "delete":
            return f'<i hx-swap-oob="delete:{_esc(self.selector)}"></i>'
        if self.style == "attrs":
            given = "".join(f" {k}" if v is None else f' {k}="{v}"' for k, v in self.set_attrs)
            if self.remove_attrs:
                given += f' {REMOVE_ATTR}="{" ".join(self.remove_attrs)}"'
            return f'<i hx-swap-oob="attrs:{_esc(self.selector)}"{given}></i>'
        if self.style in ("outerHTML", "true"):
            node = self.nodes[0]
            value = "true" if self.style == "true" else f"outerHTML:{_esc(self.selector)}"
            return _with_attr(node.start, f'hx-swap-oob="{value}"') + node.inner + node.end
        content = "".join(n.raw for n in self.nodes)
        return f'<div hx-swap-oob="{self.style}:{_esc(self.selector)}">{content}</div>'


def cost(ops: list[Op]) -> int:
    return sum(len(op.html().encode()) for op in ops)


INF = float("inf")


def _attrs_change(o: Node, n: Node) -> tuple[tuple, tuple] | None:
    """(set, remove) turning o's attributes into n's, in n's order; None if not possible."""
    old, new = dict(o.attrs), dict(n.attrs)
    kept = [k for k, _v in o.attrs if k in new]
    names = [k for k, _v in n.attrs]
    if names[:len(kept)] != kept or o.id != n.id:
        return None
    changed = {k for k in set(old) | set(new) if old.get(k, 0) != new.get(k, 0)}
    if any(k.startswith(("hx-", "data-hx-")) or k in ("id", REMOVE_ATTR) for k in changed):
        return None
    return (tuple((k, v) for k, v in n.attrs if k in changed),
            tuple(k for k, _v in o.attrs if k not in new))


class Measure:
    """What a list of swaps costs in the response (here: bytes of their markup).  Another
    encoding of the swaps (tutorials/wire.py) measures them its own way, so the differ picks
    what is cheapest in the form actually sent."""

    def ops(self, ops: list[Op]) -> int:
        return cost(ops)

    def node(self, node: Node) -> int:
        """The bytes ``node`` adds to an insertion swap."""
        return len(node.raw.encode())


class _Differ:
    def __init__(self, id_ok: set[str], attrs: bool = False,
                 measure: Measure | None = None) -> None:
        self.id_ok = id_ok  # ids that may address an element (unique, and never re-inserted)
        self.attrs = attrs
        self.measure = measure or Measure()

    def child_selector(self, parent_sel: str, node: Node, index: int) -> str:
        if node.id and node.id in self.id_ok:
            return "#" + node.id
        return f"{parent_sel}>:nth-child({index + 1})"

    # A node that differs: replace it, replace its content, or patch its children.
    def node(self, o: Node, n: Node, sel: str) -> tuple[float, list[Op]]:
        if o.raw == n.raw:
            return 0, []
        if o.tag != n.tag or o.tag is None:
            raise AssertionError("only elements of one kind are compared")
        by_id = n.id is not None and n.id == o.id and sel == "#" + (o.id or "")
        replace = [Op("true" if by_id else "outerHTML", sel, (n,))]
        best: tuple[float, list[Op]] = (self.measure.ops(replace), replace)
        head: list[Op] = []
        if o.start != n.start:
            change = _attrs_change(o, n) if self.attrs else None
            if change is None:
                return best
            head = [Op("attrs", sel, set_attrs=change[0], remove_attrs=change[1])]
        if n.tag in VOID or o.inner == n.inner:
            options = [(self.measure.ops(head), head)]
        else:
            inner = [Op("innerHTML", sel, tuple(n.children))]
            c, ops = self.children(o.children, n.children, sel)
            options = [(self.measure.ops(head + inner), head + inner),
                       (self.measure.ops(head) + c, head + ops)]
        return min([best, *options], key=lambda x: x[0])

    def children(self, old: list[Node], new: list[Node], sel: str) -> tuple[float, list[Op]]:
        if [c.raw for c in old] == [c.raw for c in new]:
            return 0, []
        if all(c.tag is not None for c in old + new):
            return self.align(old, new, sel)
        if _same_shape(old, new):
            total, ops = 0.0, []
            elements = [i for i, c in enumerate(old) if c.tag is not None]
            index = {i: k for k, i in enumerate(elements)}
            for i in reversed(elements):
                c, o = self.node(old[i], new[i], self.child_selector(sel, old[i], index[i]))
                total += c
                ops += o
            return total, ops
        return INF, []

    def align(self, old: list[Node], new: list[Node], sel: str) -> tuple[float, list[Op]]:
        """Edit script between two element lists: delete, insert (runs share one swap), keep or
        patch; the cheapest in bytes."""
        n_old, n_new = len(old), len(new)
        sels = [self.child_selector(sel, c, i) for i, c in enumerate(old)]
        delete = [self.measure.ops([Op("delete", s)]) for s in sels]
        sizes = [self.measure.node(c) for c in new]
        anchors = [(("afterbegin", sel) if i == 0 else ("afterend", sels[i - 1]))
                   for i in range(n_old + 1)]
        run = [self.measure.ops([Op(style, s)]) for style, s in anchors]
        match: dict[tuple[int, int], tuple[float, list[Op]]] = {}

        def matched(i: int, j: int) -> tuple[float, list[Op]]:
            if (i, j) not in match:
                o, n = old[i], new[j]
                if o.tag != n.tag:
                    match[i, j] = (INF, [])
                else:
                    match[i, j] = self.node(o, n, sels[i])
            return match[i, j]

        # a[i][j]: old[:i] -> new[:j] ending with a kept/deleted old element; b: ending with an
        # insertion (a further insertion at the same place needs no new swap element).
        a = [[INF] * (n_new + 1) for _ in range(n_old + 1)]
        b = [[INF] * (n_new + 1) for _ in range(n_old + 1)]
        step: dict[tuple[str, int, int], tuple[str, str]] = {}
        a[0][0] = 0
        for i in range(n_old + 1):
            for j in range(n_new + 1):
                if i > 0:
                    best = min(a[i - 1][j], b[i - 1][j])
                    c = best + delete[i - 1]
                    if c < a[i][j]:
                        a[i][j] = c
                        step["a", i, j] = ("del", "a" if a[i - 1][j] <= b[i - 1][j] else "b")
                    if j > 0:
                        prev = min(a[i - 1][j - 1], b[i - 1][j - 1])
                        if prev < INF:
                            c = prev + matched(i - 1, j - 1)[0]
                            if c < a[i][j]:
                                a[i][j] = c
                                step["a", i, j] = (
                                    "keep", "a" if a[i - 1][j - 1] <= b[i - 1][j - 1] else "b")
                if j > 0:
                    c_new = a[i][j - 1] + run[i] + sizes[j - 1]
                    c_more = b[i][j - 1] + sizes[j - 1]
                    if min(c_new, c_more) < b[i][j]:
                        b[i][j] = min(c_new, c_more)
                        step["b", i, j] = ("ins", "a" if c_new <= c_more else "b")
        total = min(a[n_old][n_new], b[n_old][n_new])
        if total == INF:
            return INF, []
        # Walk back: per old element what happens to it, and what is inserted after it.
        fate: dict[int, tuple[str, int]] = {}
        inserted: dict[int, list[int]] = {}
        table, i, j = ("a" if a[n_old][n_new] <= b[n_old][n_new] else "b"), n_old, n_new
        while i or j:
            what, prev = step[table, i, j]
            if what == "del":
                fate[i - 1] = ("del", -1)
                i -= 1
            elif what == "keep":
                fate[i - 1] = ("keep", j - 1)
                i, j = i - 1, j - 1
            else:
                inserted.setdefault(i - 1, []).insert(0, j - 1)
                j -= 1
            table = prev
        ops: list[Op] = []
        for k in range(n_old - 1, -2, -1):
            if k in inserted:
                style, s = anchors[k + 1]
                ops.append(Op(style, s, tuple(new[x] for x in inserted[k])))
            if k < 0:
                break
            what, x = fate[k]
            if what == "del":
                ops.append(Op("delete", sels[k]))
            else:
                ops += matched(k, x)[1]
        return total, ops


def _same_shape(old: list[Node], new: list[Node]) -> bool:
    return len(old) == len(new) and all(
        (a.tag is None and b.tag is None and a.raw == b.raw)
        or (a.tag is not None and a.tag == b.tag) for a, b in zip(old, new))


def patch(old: str, new: str, root: str, reserved: frozenset[str] = frozenset(),
          attrs: bool = False) -> list[str] | None:
    """Swaps turning the children ``old`` of the element ``root`` (``#id``) into ``new``, as
    markup.

    ``reserved``: ids found elsewhere in the page (never used to address an element here).
    ``attrs``: the page has the ``attrs`` swap.  None when the markup is not understood or the
    checked result would differ."""
    ops = patch_ops(old, new, root, reserved, attrs)
    return None if ops is None else [op.html() for op in ops]


def patch_ops(old: str | list[Node], new: str, root: str,
              reserved: frozenset[str] = frozenset(), attrs: bool = False,
              measure: Measure | None = None) -> list[Op] | None:
    """``patch`` as ``Op`` objects, the cheapest by ``measure``; ``old`` may be parsed already."""
    try:
        old_nodes = parse(old) if isinstance(old, str) else old
        new_nodes = parse(new)
    except Unsupported:
        return None
    old_ids, new_ids = ids_in(old_nodes), ids_in(new_nodes)
    # An id may address an element when it is unique in both renders and is not placed again by
    # a swap before the element is reached (checked by the model below; if it fails, paths
    # from the root are used instead).
    usable = {i for i in set(old_ids) if i and PLAIN_ID.match(i) and old_ids.count(i) == 1
              and new_ids.count(i) <= 1 and i not in reserved}
    expected = "".join(c.canonical() for c in new_nodes)
    for id_ok in (usable, set()):
        c, ops = _Differ(id_ok, attrs, measure).children(old_nodes, new_nodes, root)
        if c == INF:
            return None
        if apply(old_nodes, ops, root) == expected:
            return ops
    return None


# --------------------------------------------------------------------------- the model
class _Mismatch(Exception):
    pass


def _select(doc: Node, selector: str) -> list[tuple[Node, int]]:
    """Elements matched by the selectors this module writes (``#id`` and ``#id>:nth-child(k)``
    chains), as (parent, index) pairs, in document order."""
    parts = selector.split(">")
    if not parts[0].startswith("#"):
        raise _Mismatch(selector)
    current = _with_id(doc, parts[0][1:])
    for part in parts[1:]:
        m = re.fullmatch(r":nth-child\((\d+)\)", part)
        if not m:
            raise _Mismatch(selector)
        k = int(m.group(1)) - 1
        found = []
        for parent, i in current:
            element = parent.children[i]
            positions = [x for x, c in enumerate(element.children) if c.tag is not None]
            if k < len(positions):
                found.append((element, positions[k]))
        current = found
    return current


def _with_id(node: Node, ident: str) -> list[tuple[Node, int]]:
    out = []
    for i, c in enumerate(node.children):
        if c.tag is not None:
            if c.id == ident:
                out.append((node, i))
            out += _with_id(c, ident)
    return out


def apply(old: list[Node], ops: list[Op], root: str) -> str | None:
    """What htmx leaves of ``old`` (the children of ``root``) after the swaps, as markup; None
    when a swap would not find exactly one element."""
    result = apply_regions({root[1:]: old}, ops)
    return None if result is None else result[root[1:]]


def apply_regions(regions: dict[str, list[Node]], ops: list[Op]) -> dict[str, str] | None:
    """``apply`` on a page of several regions (the children of elements with those ids)."""
    holders = [Node("div", f'<div id="{k}">', "</div>", [c.copy() for c in v], k)
               for k, v in regions.items()]
    doc = Node("#doc", children=holders)
    try:
        for op in ops:
            selector = "#" + (op.nodes[0].id or "") if op.style == "true" else op.selector
            targets = _select(doc, selector)
            if len(targets) != 1:
                return None
            parent, i = targets[0]
            target = parent.children[i]
            new = [n.copy() for n in op.nodes]
            if target in holders and op.style not in ("innerHTML", "afterbegin", "attrs"):
                return None
            if op.style == "delete":
                del parent.children[i]
            elif op.style in ("outerHTML", "true"):
                parent.children[i:i + 1] = new
            elif op.style == "innerHTML":
                target.children = new
            elif op.style == "afterend":
                parent.children[i + 1:i + 1] = new
            elif op.style == "afterbegin":
                target.children[0:0] = new
            elif op.style == "attrs" and target.tag is not None and target not in holders:
                values = dict(op.set_attrs)
                kept = [(k, values.pop(k, v)) for k, v in target.attrs
                        if k not in op.remove_attrs]
                target.attrs = (*kept, *values.items())
            else:
                return None
    except _Mismatch:
        return None
    return {h.id or "": "".join(c.canonical() for c in h.children) for h in holders}


def ops_from_markup(markup: str) -> list[Op]:
    """The swaps htmx finds in markup made of ``Op.html`` elements (no <title>: ``parse``
    does not read it)."""
    ops = []
    for node in parse(markup):
        if node.tag is None:
            raise Unsupported("text between swaps")
        attrs = dict(node.attrs)
        value = attrs.get("hx-swap-oob")
        if value is None:
            raise Unsupported(f"<{node.tag}> without hx-swap-oob")
        style, _colon, selector = value.partition(":")
        if style == "true":
            kept = tuple((k, v) for k, v in node.attrs if k != "hx-swap-oob")
            ops.append(Op("true", "", (Node(node.tag, node.start, node.end, node.children,
                                            node.id, kept),)))
        elif style == "outerHTML":
            kept = tuple((k, v) for k, v in node.attrs if k != "hx-swap-oob")
            ops.append(Op("outerHTML", selector, (Node(node.tag, node.start, node.end,
                                                       node.children, node.id, kept),)))
        elif style == "attrs":
            given = tuple((k, v) for k, v in node.attrs if k not in ("hx-swap-oob", REMOVE_ATTR))
            remove = tuple((attrs.get(REMOVE_ATTR) or "").split())
            ops.append(Op("attrs", selector, set_attrs=given, remove_attrs=remove))
        elif style == "delete":
            ops.append(Op("delete", selector))
        else:
            ops.append(Op(style, selector, tuple(node.children)))
    return ops
