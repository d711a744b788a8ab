"""The variant pages' statistics: each adapter's questions (``Figure``) answered for every rule
set from the stored sums, with 95% intervals, as localized text, as chart geometry and as a
one-sentence conclusion.

Numbers meant for people are rounded to the nearest tenth and formatted here in the page
language (decimal comma in sv, fi and nb); the chart's coordinates are plain numbers that the
template writes with ``{% localize off %}``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from django.utils.formats import number_format
from django.utils.translation import gettext as _

from games.adapters import adapter
from games.adapters.base import Figure
from games.numbers import tenths
from reference.simulation import PLAYERS, Estimate, Sums, estimate

# Chart geometry.  Across: percentages of the chart's width, so that a chart fills the text
# column at any width while its words keep the page's font size (a chart scaled as a picture
# had 11 px labels in 200 px on a 1280 px screen, and would have 7 px ones on a phone).  Down:
# pixels.
SEAT_LABEL_ROOM = 18  # per cent, for "Seat 1" left of each bar in a chart by seat
VALUE_ROOM = 20  # per cent, for the value written after each bar
VALUE_GAP = 6  # pixels between a bar (or its interval) and its value
BAR = 16
FONT = 15  # the labels' size in static/css/site.css


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
        return _("%(value)s%%") % {"value": tenths(x * 100)}
    return tenths(x)


def formatted_range(low: float, high: float, unit: str) -> str:
    if unit == "percent":
        return _("%(low)s–%(high)s%%") % {"low": tenths(low * 100), "high": tenths(high * 100)}
    return _("%(low)s–%(high)s") % {"low": tenths(low), "high": tenths(high)}


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
    or left of it (seats, under a heading per rule set).  ``x`` values are percentages of
    the width, ``y`` values pixels."""
    rows = [r for _label, rs in groups for r in rs]
    top = nice_top(max([r.estimate.high for r in rows] + [0.0]), unit) or 1.0
    left = SEAT_LABEL_ROOM if by_seat else 0
    span = 100 - VALUE_ROOM - left

    def x(v: float) -> float:
        return round(left + span * min(max(v, 0.0), top) / top, 2)

    line = FONT + 7
    y = 0
    items: list[dict[str, Any]] = []
    for heading, group_rows in groups:
        if heading is not None:
            items.append({"heading": heading, "y": y + FONT})
            y += line + 2
        for row in group_rows:
            if not by_seat:
                items.append({"label": row.label, "label_x": 0, "label_y": y + FONT})
                y += line
            bar: dict[str, Any] = {"y": y, "h": BAR, "mid": y + BAR / 2, "x0": left,
                   "w": round(x(row.estimate.mean) - left, 2),
                   "x_low": x(row.estimate.low), "x_high": x(row.estimate.high),
                   "value": row.value}
            bar["value_x"] = round(max(bar["x_high"], left + bar["w"]), 2)
            if by_seat:
                bar.update(label=row.label, label_x=0, label_y=y + BAR / 2)
            items.append({"bar": bar})
            y += BAR + (8 if by_seat else 12)
        y += 8 if by_seat else 0
    axis_y = y
    ticks = [{"x": x(top * f), "text": tick_text(top * f, unit)} for f in (0, 0.5, 1)]
    return {"items": items, "ticks": ticks, "axis_y": axis_y, "tick_y": axis_y + FONT + 2,
            "equal_x": None if equal is None else x(equal), "value_gap": VALUE_GAP,
            "left": left, "right": left + span, "height": axis_y + FONT + 8}


def apart(a: Row, b: Row) -> bool:
    """Whether ``a`` is above ``b`` by more than chance: their 95% intervals do not overlap."""
    return a.estimate.low > b.estimate.high


def conclusion(groups: Sequence[tuple[str | None, Sequence[Row]]], by_seat: bool) -> str:
    """One plain sentence that settles an argument about the figure: the largest difference
    that the intervals show is real, or that every difference may be chance."""
    if by_seat:
        found = []
        for heading, rows in groups:
            seats = list(enumerate(rows, start=1))
            if len(seats) > 1:
                top = max(seats, key=lambda r: r[1].estimate.mean)
                bottom = min(seats, key=lambda r: r[1].estimate.mean)
                if apart(top[1], bottom[1]):
                    found.append((top[1].estimate.mean - bottom[1].estimate.mean, heading, top,
                                  bottom))
        if not found:
            return _("In every rule set the seats differ by no more than chance: their "
                     "intervals overlap.")
        _gap, heading, (high_seat, high_row), (low_seat, low_row) = max(found, key=lambda f: f[0])
        return _("The seat matters in “%(rules)s”: seat %(high)s comes out at %(high_value)s "
                 "against %(low_value)s for seat %(low)s, and the intervals do not overlap."
                 ) % {"rules": heading, "high": high_seat, "low": low_seat,
                      "high_value": high_row.value, "low_value": low_row.value}
    rows = [r for _h, rs in groups for r in rs]
    if len(rows) < 2:
        return ""
    high = max(rows, key=lambda r: r.estimate.mean)
    low = min(rows, key=lambda r: r.estimate.mean)
    if not apart(high, low):
        return _("The rule sets differ by no more than chance: every interval overlaps the "
                 "others.")
    return _("The figure is clearly higher for “%(high)s” (%(high_value)s) than for "
             "“%(low)s” (%(low_value)s): their intervals do not overlap.") % {
        "high": high.label, "low": low.label, "high_value": high.value,
        "low_value": low.value}


def tick_text(v: float, unit: str) -> str:
    shown = v * 100 if unit == "percent" else v
    text = number_format(round(shown)) if abs(shown - round(shown)) < 1e-9 else tenths(shown)
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
                    "groups": groups, "conclusion": conclusion(groups, figure.by_seat),
                    "chart": chart(groups, figure.unit, figure.by_seat, equal)})
    return out
