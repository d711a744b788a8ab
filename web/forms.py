"""Form fields shared by the practice and teacher pages.

Every POST and query parameter those pages read goes through a Django form; a POST the form
refuses gets a translated message and a 4xx, and nothing is changed.
"""

from __future__ import annotations

import re

from django import forms
from django.core.validators import ProhibitNullCharactersValidator

from games.scenario_messages import scenario_problem
from rules.engine import scenario


class TextField(forms.CharField):
    """Text as typed, cut at ``cut`` characters (what the pages always kept).  A control
    character is refused with the scenario format's message (the one the teacher pages show)
    instead of Django's "Null characters are not allowed"; ``controls=True`` lets it through,
    for a value whose service judges it itself."""

    def __init__(self, *, cut: int | None = None, controls: bool = False, **kwargs) -> None:
        kwargs.setdefault("required", False)
        kwargs.setdefault("strip", False)
        super().__init__(**kwargs)
        self.cut = cut
        self.controls = controls
        # Control characters are judged below (or by the service), with a message of our own.
        self.validators = [v for v in self.validators
                           if not isinstance(v, ProhibitNullCharactersValidator)]

    def to_python(self, value):
        text = super().to_python(value)
        return text[:self.cut] if self.cut else text

    def validate(self, value) -> None:
        super().validate(value)
        char = "" if self.controls else scenario.control_character(value or "")
        if char:
            raise forms.ValidationError(scenario_problem("control_character", {"char": char}))


class NumberField(forms.IntegerField):
    """A whole number written in ASCII digits, as the pages write it: Python's int() also reads
    other scripts' digits ("\u0661", the Arabic-Indic one, as 1), which no form of ours sends."""

    ASCII = re.compile(r"[+-]?[0-9]+")

    def to_python(self, value):
        if isinstance(value, str) and value.strip() and not self.ASCII.fullmatch(value.strip()):
            raise forms.ValidationError(self.error_messages["invalid"], code="invalid")
        return super().to_python(value)


class WordsField(forms.Field):
    """Every value of a repeated field (ticked cards, positions), stripped, empty ones left out,
    at most ``cap`` of them."""

    widget = forms.MultipleHiddenInput

    def __init__(self, *, cap: int, **kwargs) -> None:
        kwargs.setdefault("required", False)
        super().__init__(**kwargs)
        self.cap = cap

    def to_python(self, value) -> list[str]:
        if not value:
            return []
        if isinstance(value, str):
            value = [value]
        return [str(v).strip() for v in value if str(v).strip()][:self.cap]


def first_error(form: forms.Form) -> str:
    """The form's first message (already in the page language)."""
    for errors in form.errors.values():
        if errors:
            return str(errors[0])
    return ""

