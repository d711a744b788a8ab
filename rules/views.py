from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import reverse
from django.utils.http import urlencode
from django.utils.translation import get_language
from django.utils.translation import gettext_lazy as _
from django.views.decorators.http import require_safe

from .models import GAME_CHOICES, FaqEntry, GlossaryTerm
from .search import search

MAX_QUERY = 100


def _grouped(entries):
    labels = dict(GAME_CHOICES)
    groups = []
    for game, _label in GAME_CHOICES:
        items = [e for e in entries if e.game == game]
        if items:
            groups.append({"game": game, "label": labels[game], "entries": items})
    return groups


@require_safe
def faq(request: HttpRequest) -> HttpResponse:
    query = request.GET.get("q", "").strip()[:MAX_QUERY]
    entries = list(FaqEntry.objects.all())
    if query:
        entries = search(FaqEntry.objects.all(), query, get_language(), ("question", "answer"))
    context = {"groups": _grouped(entries), "query": query, "count": len(entries),
               "language": get_language()}
    template = "rules/faq.html#results" if request.htmx else "rules/faq.html"
    return render(request, template, context)


@require_safe
def glossary(request: HttpRequest) -> HttpResponse:
    query = request.GET.get("q", "").strip()[:MAX_QUERY]
    terms = list(GlossaryTerm.objects.all())
    if query:
        # A term is found by its name in any language too ("shoot the moon" on /sv/).
        terms = search(GlossaryTerm.objects.all(), query, get_language(), ("term", "definition"),
                       texts=("term_sv", "term_fi", "term_nb", "term_en"))
    context = {"groups": _grouped(terms), "query": query, "count": len(terms)}
    template = "rules/glossary.html#results" if request.htmx else "rules/glossary.html"
    return render(request, template, context)


@require_safe
def rules_page(request: HttpRequest, game: str) -> HttpResponse:
    from .rulebook import GAMES

    book = next(g for g in GAMES if g.key == game)
    return render(request, "rules/rules_page.html", {
        "book": book, "game": game, "variants_url": reverse(f"variants_{game}"),
        "tutorial_steps": _tutorial_steps(game)})


def _tutorial_steps(game: str) -> dict[str, list[dict]]:
    """For each rule id, the tutorial steps that show it (first step of each tutorial only)."""
    from tutorials import lessons

    found: dict[str, list[dict]] = {}
    for tutorial in lessons.TUTORIALS.values():
        if tutorial.game != game:
            continue
        seen = set()
        for n, step in enumerate(tutorial.steps, start=1):
            if step.rule in seen:
                continue
            seen.add(step.rule)
            url = reverse(f"tutorial_step_{game}", kwargs={"slug": tutorial.slug, "step": n})
            found.setdefault(step.rule, []).append({"title": tutorial.title, "n": n, "url": url})
    return found


STAT_LABELS = {
    "actions": _("Moves per deal"),
    "attacks": _("Attacks per deal"),
    "first_attacker_loses": _("The first attacker loses"),
    "queen_holder_loses": _("The player dealt the queen of spades loses"),
    "moon": _("Someone shoots the moon"),
    "winning_score": _("Winning score"),
    "average_score": _("Average score"),
}


def _stat_label(key: str) -> str:
    if key.startswith("loss_seat_"):
        return str(_("Seat %(seat)s loses") % {"seat": key.rsplit("_", 1)[1]})
    if key.startswith("points_seat_"):
        return str(_("Points taken by seat %(seat)s") % {"seat": key.rsplit("_", 1)[1]})
    return str(STAT_LABELS[key])


def _chart(rows: list[dict], rate: bool) -> dict:
    """Geometry for a horizontal bar chart with 95% interval whiskers, drawn server-side."""
    top = max([r["high"] for r in rows] + [1.0 if rate else 0.0]) or 1.0
    scale = 1.0 if rate else top * 1.1
    bar_h, gap, left, width = 22, 10, 0, 300
    bars = []
    for i, r in enumerate(rows):
        y = i * (bar_h + gap)
        bars.append({**r, "y": y, "h": bar_h, "mid": y + bar_h / 2,
                     "w": round(width * max(r["mean"], 0) / scale, 1),
                     "x_low": round(width * max(r["low"], 0) / scale, 1),
                     "x_high": round(width * min(r["high"], scale) / scale, 1)})
    # Room on the right for the labels written after each bar.
    return {"bars": bars, "width": width + left + 300, "height": len(rows) * (bar_h + gap)}


@require_safe
def variants(request: HttpRequest, game: str) -> HttpResponse:
    from .models import SimulationResult
    from .rulebook import GAMES
    from .simulation import Sums, estimates
    from .variants import SOURCES, preset_label, preset_table

    book = next(g for g in GAMES if g.key == game)
    table = preset_table(game)
    results = {r.preset: r for r in SimulationResult.objects.filter(game=game) if r.games}
    per_preset = {p: estimates(Sums.from_json(results[p].sums)) for p in table["presets"]
                  if p in results}
    keys: list[str] = []
    for est in per_preset.values():
        keys += [k for k in est if k not in keys]
    # One chart per measure with a bar per preset, so the variants can be compared at a glance.
    stats = []
    for key in keys:
        rows = [{"label": preset_label(game, preset), "mean": e.mean, "low": e.low, "high": e.high, "rate": e.rate}
                for preset, est in per_preset.items() if (e := est.get(key))]
        rate = rows[0]["rate"]
        stats.append({"key": key, "label": _stat_label(key), "rate": rate,
                      "chart": _chart(rows, rate), "rows": rows})
    games = [{"preset": p, "label": preset_label(game, p), "games": r.games, "players": r.players}
             for p, r in results.items()]
    practice_url = reverse(f"practice_{game}")
    presets = [{"name": p, "label": preset_label(game, p), "practice": f"{practice_url}?{urlencode({'preset': p})}"}
               for p in table["presets"]]
    return render(request, "rules/variants.html", {
        "presets": presets,
        "book": book, "game": game, "table": table, "sources": SOURCES[game], "stats": stats,
        "simulated": games,
    })
