"""Figures shown to people, rounded as people round.

Django's ``number_format(x, 1)`` cuts a float's digits off (22.47 reads "22.4", 1.69 "1.6"):
every figure with decimals goes through ``tenths`` instead, which rounds half up from the
number's shortest decimal form (22.45 is 22.5, not 22.4 from the binary 22.4499…) and then
writes it in the page language (decimal comma in sv, fi and nb).
"""

from __future__ import annotations

from decimal import ROUND_HALF_UP, Decimal

from django.utils.formats import number_format


def to_tenth(x: float) -> Decimal:
    """``x`` rounded to a tenth, half up, from its shortest decimal form."""
    return Decimal(repr(float(x))).quantize(Decimal("0.1"), ROUND_HALF_UP)


def tenths(x: float) -> str:
    """``x`` to the nearest tenth in the page language."""
    return number_format(to_tenth(x), 1)
