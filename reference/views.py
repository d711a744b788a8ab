from __future__ import annotations

from typing import Any

from django.http import HttpRequest, HttpResponse
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.formats import number_format
from django.utils.http import urlencode
from django.utils.translation import get_language, gettext, ngettext
from django.views.decorators.http import require_safe
from django.views.decorators.vary import vary_on_headers

from web import pagecache
from web.htmx import HtmxHttpRequest

from .models import GAME_CHOICES, ContentVersion, FaqEntry, GlossaryTerm, SimulationResult
from .rulebook import GAMES
from .search import plain, search
from .simulation import PLAYERS, Sums
from .statistics import figures
from .variants import SOURCES, preset_label, preset_table

MAX_QUERY = 100


def _grouped(entries):
    labels = dict(GAME_CHOICES)
    groups = []
    for game, _label in GAME_CHOICES:
        items = [e for e in entries if e.game == game]
        if items:
            groups.append({"game": game, "label": labels[game], "entries": items})
    return groups


# Every page here depends only on the shipped files, the content in the database and the
# language (and the query): each is rendered once per process and kept (web/pagecache.py).
@require_safe
@vary_on_headers("HX-Request")
def faq(request: HtmxHttpRequest) -> HttpResponse:
    query = plain(request.GET.get("q", ""))[:MAX_QUERY]
    template = "rules/faq.html#results" if request.htmx else "rules/faq.html"

    def make(holes: dict[str, Any]) -> str:
        entries = list(FaqEntry.objects.all())
        groups = _grouped(entries)
        if query:
            entries = search(FaqEntry.objects.all(), query, get_language(),
                             ("question", "answer"))
            # Found entries in their rank, best first, whatever their game.
            groups = [{"game": "found", "label": gettext("Best matches first"),
                       "entries": entries}] if entries else []
        context = {"groups": groups, "query": query, "count": len(entries),
                   "language": get_language()}
        return render_to_string(template, {**context, **holes}, request=request)

    return pagecache.cached_page(request, "faq", (template, query), make, content=ContentVersion.current())


@require_safe
@vary_on_headers("HX-Request")
def glossary(request: HtmxHttpRequest) -> HttpResponse:
    query = plain(request.GET.get("q", ""))[:MAX_QUERY]
    template = "rules/glossary.html#results" if request.htmx else "rules/glossary.html"

    def make(holes: dict[str, Any]) -> str:
        terms = list(GlossaryTerm.objects.all())
        if query:
            # A term is found by its name in any language too ("shoot the moon" on /sv/).
            terms = search(GlossaryTerm.objects.all(), query, get_language(),
                           ("term", "definition"),
                           texts=("term_sv", "term_fi", "term_nb", "term_en"))
        context = {"groups": _grouped(terms), "query": query, "count": len(terms)}
        return render_to_string(template, {**context, **holes}, request=request)

    return pagecache.cached_page(request, "glossary", (template, query), make, content=ContentVersion.current())


@require_safe
def rules_page(request: HttpRequest, game: str) -> HttpResponse:
    def make(holes: dict[str, Any]) -> str:
        book = next(g for g in GAMES if g.key == game)
        return render_to_string("rules/rules_page.html", {
            "book": book, "game": game, "variants_url": reverse(f"variants_{game}"), **holes},
            request=request)

    return pagecache.cached_page(request, "rules", (game,), make)


@require_safe
def variants(request: HttpRequest, game: str) -> HttpResponse:
    return pagecache.cached_page(
        request, "variants", (game,),
        lambda holes: render_to_string("rules/variants.html",
                                       {**_variants_context(game), **holes}, request=request),
        content=ContentVersion.current())


def _variants_context(game: str) -> dict[str, Any]:
    book = next(g for g in GAMES if g.key == game)
    table = preset_table(game)
    stored = {r.preset: r for r in SimulationResult.objects.filter(game=game, players=PLAYERS[game])
              if r.games}
    results = {p: Sums.from_json(stored[p].sums) for p in table["presets"] if p in stored}
    labels = {p: preset_label(game, p) for p in table["presets"]}
    counts = {p: stored[p].games for p in results}
    practice_url = reverse(f"practice_{game}")
    presets = [{"name": p, "label": preset_label(game, p), "practice": f"{practice_url}?{urlencode({'preset': p})}"}
               for p in table["presets"]]
    return {
        "presets": presets,
        "book": book, "game": game, "table": table, "sources": SOURCES[game],
        "stats": figures(game, results, labels), "deal_count": _deal_count(counts, labels),
        "players": PLAYERS[game],
    }


def _deal_count(counts: dict[str, int], labels: dict[str, str]) -> str:
    """How many simulated deals the figures rest on, as stored (one number when every rule
    set has the same count)."""
    if not counts:
        return ""
    if len(set(counts.values())) == 1:
        n = next(iter(counts.values()))
        return ngettext("Based on %(count)s simulated deal per rule set.",
                        "Based on %(count)s simulated deals per rule set.", n) % {
            "count": number_format(n, force_grouping=True)}
    parts = [ngettext("%(rule_set)s: %(count)s simulated deal",
                      "%(rule_set)s: %(count)s simulated deals", n) % {
        "rule_set": labels[p], "count": number_format(n, force_grouping=True)}
        for p, n in counts.items()]
    return " · ".join(parts)
