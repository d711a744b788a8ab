"""The per-deal difference and its 95% interval from a CSV of bench/bots.py (also a partial
one, from a run that was stopped):

    .venv/bin/python bench/bots_interval.py /tmp/dam.csv
"""

from __future__ import annotations

import csv
import os
import sys
from collections import defaultdict

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from bots import interval  # noqa: E402


def main() -> None:
    deals: dict[int, list[tuple[str, float]]] = defaultdict(list)
    with open(sys.argv[1], newline="") as f:
        for row in csv.DictReader(f):
            deals[int(row["deal"])].append((row["level"], float(row["metric"])))
    diffs = []
    for seats in deals.values():
        levels = [lv for lv, _m in seats]
        a = next(lv for lv in levels if levels.count(lv) == 1)
        mine = [m for lv, m in seats if lv == a]
        theirs = [m for lv, m in seats if lv != a]
        diffs.append(mine[0] - sum(theirs) / len(theirs))
    mean, low, high = interval(diffs)
    print(f"deals={len(diffs)}")
    print(f"diff_mean={mean:.4f}")
    print(f"diff_ci95_low={low:.4f}")
    print(f"diff_ci95_high={high:.4f}")
    print(f"a_beats_b={int(high < 0)}")


if __name__ == "__main__":
    main()
