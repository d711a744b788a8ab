"""The variant pages' statistics: each adapter's questions (``Figure``) answered for every rule
set from the stored sums, with 95% intervals, as localized text and as chart geometry.

Numbers meant for people are formatted here in the page language (decimal comma in sv, fi
and nb); the chart's coordinates are plain numbers that the template writes with
``{% localize off %}``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from django.utils.formats import number_format
from django.utils.translation import gettext as _

from games.adapters import adapter
from games.adapters.base import Figure
from rules.simulation import PLAYERS, Estimate, Sums, estimate

# Chart geometry, in SVG user units (about pixels: the chart is drawn at its own width).
WIDTH = 360
VALUE_ROOM = 50  # for the value written after each bar
SEAT_LABEL_ROOM = 64  # for "Seat 1" left of each bar in a chart by seat
BAR = 12
FONT = 12


@dataclass
class Row:
    label: str
    estimate: Estimate
    unit: str

    @property
    def value(self) -> str:
        return formatted(self.estimate.mean, self.unit)

    @property
    def interval(self) -> str:
        return formatted_range(self.estimate.low, self.estimate.high, self.unit)


def formatted(x: float, unit: str) -> str:
    if unit == "percent":
        return _("%(value)s%%") % {"value": number_format(x * 100, 1)}
    return number_format(x, 1)


def formatted_range(low: float, high: float, unit: str) -> str:
    if unit == "percent":
        return _("%(low)s–%(high)s%%") % {"low": number_format(low * 100, 1),
                                          "high": number_format(high * 100, 1)}
    return _("%(low)s–%(high)s") % {"low": number_format(low, 1), "high": number_format(high, 1)}


def measure(figure: Figure, key: str, sums: Sums) -> Estimate | None:
    """The estimate of one key: a rate (Wilson's interval), a share of ``figure.per`` or a
    count per deal (the normal interval); None when the rule set has no such measure."""
    if key not in sums.values:
        return None
    n, s, ss = sums.values[key]
    if figure.per is not None:
        whole = sums.values.get(figure.per)
        if not whole or not whole[1]:
            return None
        # The whole is the same in every deal of a rule set (the points in play), so the
        # interval of the share is the interval of the points divided by it.
        return estimate(key, n, s, ss, rate=False).scaled(whole[0] / whole[1])
    return estimate(key, n, s, ss, rate=figure.unit == "percent")


def seat_keys(figure: Figure, sums: Sums) -> list[str]:
    seats: list[str] = []
    while f"{figure.key}_{len(seats) + 1}" in sums.values:
        seats.append(f"{figure.key}_{len(seats) + 1}")
    return seats


def nice_top(high: float, unit: str) -> float:
    """The end of the axis: a round number at or above every interval."""
    if unit == "percent":
        for top in (0.05, 0.1, 0.2, 0.25, 0.3, 0.4, 0.5, 0.6, 0.8, 1.0):
            if high <= top:
                return top
        return 1.0
    scale = 1.0
    while scale * 10 < high:
        scale *= 10
    for step in (1, 2, 2.5, 5, 10):
        if high <= step * scale:
            return step * scale
    return 10 * scale


def chart(groups: Sequence[tuple[str | None, Sequence[Row]]], unit: str, by_seat: bool,
          equal: float | None = None) -> dict:
    """Bars with 95% interval whiskers on one axis from 0; labels above each bar (rule sets)
    or left of it (seats, under a heading per rule set)."""
    rows = [r for _label, rs in groups for r in rs]
    top = nice_top(max([r.estimate.high for r in rows] + [0.0]), unit) or 1.0
    left = SEAT_LABEL_ROOM if by_seat else 0
    span = WIDTH - VALUE_ROOM - left

    def x(v: float) -> float:
        return round(left + span * min(max(v, 0.0), top) / top, 1)

    y = 0
    items: list[dict[str, Any]] = []
    for heading, group_rows in groups:
        if heading is not None:
            items.append({"heading": heading, "y": y + FONT})
            y += FONT + 8
        for row in group_rows:
            if not by_seat:
                items.append({"label": row.label, "label_x": 0, "label_y": y + FONT - 2})
                y += FONT + 2
            bar: dict[str, Any] = {"y": y, "h": BAR, "mid": y + BAR / 2, "x0": left,
                   "w": round(x(row.estimate.mean) - left, 1),
                   "x_low": x(row.estimate.low), "x_high": x(row.estimate.high),
                   "value": row.value}
            bar["value_x"] = round(max(bar["x_high"], left + bar["w"]) + 5, 1)
            if by_seat:
                bar.update(label=row.label, label_x=0, label_y=y + BAR / 2)
            items.append({"bar": bar})
            y += BAR + (6 if by_seat else 10)
        y += 6 if by_seat else 0
    axis_y = y
    ticks = [{"x": x(top * f), "text": tick_text(top * f, unit)} for f in (0, 0.5, 1)]
    return {"items": items, "ticks": ticks, "axis_y": axis_y, "tick_y": axis_y + FONT + 2,
            "equal_x": None if equal is None else x(equal),
            "left": left, "right": left + span, "width": WIDTH, "height": axis_y + FONT + 6}


def tick_text(v: float, unit: str) -> str:
    shown = v * 100 if unit == "percent" else v
    text = number_format(shown, 0 if abs(shown - round(shown)) < 1e-9 else 1)
    return _("%(value)s%%") % {"value": text} if unit == "percent" else text


def figures(game: str, results: Mapping[str, Any], labels: Mapping[str, str],
            players: int | None = None) -> list[dict]:
    """Every question of ``game`` that some rule set answers; ``results`` maps a preset to
    its stored sums (``Sums``) in page order, ``labels`` a preset to its name."""
    players = players or PLAYERS[game]
    out = []
    for figure in adapter(game).statistics_figures():
        groups: list[tuple[str | None, list[Row]]] = []
        if figure.by_seat:
            for preset, sums in results.items():
                rows = [Row(_("Seat %(n)s") % {"n": i}, e, figure.unit)
                        for i, k in enumerate(seat_keys(figure, sums), start=1)
                        if (e := measure(figure, k, sums))]
                if rows:
                    groups.append((labels[preset], rows))
        else:
            rows = [Row(labels[preset], e, figure.unit) for preset, sums in results.items()
                    if (e := measure(figure, figure.key, sums))]
            if rows:
                groups.append((None, rows))
        every = [r for _h, rs in groups for r in rs]
        seats = max(([r.label for r in rs] for _h, rs in groups), key=len, default=[])
        # A measure that is the same in every deal of every rule set says nothing.
        if not every or all(r.estimate.variance == 0 and r.estimate.n > 1 for r in every):
            continue
        equal = 1 / players if figure.equal_share else None
        shown = None if equal is None else tick_text(equal, "percent")
        out.append({"key": figure.key, "title": figure.title, "note": figure.note,
                    "equal_note": figure.equal_note and str(figure.equal_note) % {"share": shown},
                    "unit": figure.unit, "by_seat": figure.by_seat, "seats": seats,
                    "equal_share": shown,
                    "groups": groups,
                    "chart": chart(groups, figure.unit, figure.by_seat, equal)})
    return out
