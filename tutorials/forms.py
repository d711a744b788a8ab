"""Forms of the lesson pages: a learner's move, and the query of a step's address.

A move form only turns fields into card codes and a move word; whether the move is legal is
the engine's business and whether it is the lesson's move the view's.  A query the form
refuses falls back to the plain step (queries come from links, and old links keep working).
"""

from __future__ import annotations

import re
from typing import Any

from django import forms

from web.forms import TextField, WordsField

CARD_CODE = re.compile(r"^(?:10|[2-9TJQKA])[CDHS]$", re.IGNORECASE)
MAX_CARDS = 13  # a whole hand; more than any move names


def _codes(values: list[str], cap: int) -> list[str]:
    if len(values) > cap or not all(CARD_CODE.match(c) for c in values):
        raise forms.ValidationError("not card codes", code="cards")
    return [c.upper() for c in values]


class LessonMoveForm(forms.Form):
    """The learner's move: a move button, the cards ticked in the hand, the attack card to
    beat.  An invalid form is one the page never makes (the view says so plainly)."""

    action = TextField(cut=30)
    card = WordsField(cap=MAX_CARDS + 1)
    target = TextField(cut=4)

    def clean_card(self) -> list[str]:
        return _codes(self.cleaned_data["card"], MAX_CARDS)

    def clean_target(self) -> str:
        target = self.cleaned_data["target"].strip()
        return _codes([target], 1)[0] if target else ""


class DottedCardsField(forms.CharField):
    """Card codes joined with dots (``5C.TD``), as a refused move's address carries them."""

    def __init__(self, *, cap: int, **kwargs) -> None:
        kwargs.setdefault("required", False)
        super().__init__(**kwargs)
        self.cap = cap

    def to_python(self, value: Any) -> list[str]:  # type: ignore[override]  # cards, not text
        text = super().to_python(value) or ""
        return _codes([c for c in text.split(".") if c], self.cap)


class GoForm(forms.Form):
    """``?go=`` of links made by earlier versions of the page."""

    go = forms.ChoiceField(choices=[(g, g) for g in ("next", "prev", "present")])


class StepQueryForm(forms.Form):
    """``?hint=1|2``, ``?ok=1`` (the move before was right) and the feedback of a move refused without JavaScript (``fb``, ``r``, ``c``,
    ``s``, ``t``)."""

    hint = forms.CharField(required=False, max_length=2)
    ok = forms.CharField(required=False, max_length=2)
    fb = forms.CharField(required=False, max_length=20)
    r = forms.CharField(required=False, max_length=40)
    c = DottedCardsField(cap=MAX_CARDS)
    s = DottedCardsField(cap=MAX_CARDS)
    t = DottedCardsField(cap=1)

    def feedback_parts(self) -> tuple[str, str, list[str], list[str], list[str]] | None:
        """(kind, reason, cards named, cards ticked, target) of a refused move, or None when
        the address carries none or garbled ones."""
        if not self.is_valid() or not self.cleaned_data["fb"]:
            return None
        d = self.cleaned_data
        return d["fb"], d["r"], d["c"], d["s"], d["t"]
