"""Forms of the teacher pages: every POST and query parameter the views read.

The forms read and cut the fields (at the lengths the pages always kept); what a value means
(a rule set, a card, a legal move) is judged by ``teacher.service``, which explains a refusal in
the page language.  A field a form refuses becomes a ``Refusal`` with its message (400).
"""

from __future__ import annotations

import uuid

from django import forms
from django.utils.translation import gettext_lazy as _

from web.errors import Refusal
from web.forms import NumberField, TextField, WordsField, first_error

from . import service as S

UNREADABLE = _("That form could not be read.")


def checked(form: forms.Form) -> dict:
    """The cleaned data, or Refusal with the form's first message."""
    if not form.is_valid():
        raise Refusal(first_error(form) or str(UNREADABLE))
    return form.cleaned_data


class CreateForm(forms.Form):
    rules = TextField(cut=60, controls=True)  # "game:preset", judged by S.blank
    players = TextField(cut=300)


class ImportForm(forms.Form):
    file = forms.FileField(required=False, allow_empty_file=True)
    text = TextField(controls=True)  # the file's text: S.problems_in explains every fault
    title = TextField(cut=S.MAX_TITLE, controls=True)  # checked with the file's problems


class FromPracticeForm(forms.Form):
    game_id = TextField(controls=True)

    def clean_game_id(self) -> uuid.UUID | None:
        """A game's id, or its address (play page or replay link); None when it is neither."""
        raw = self.cleaned_data["game_id"].strip()
        try:
            return uuid.UUID(raw.rstrip("/").rsplit("/", 1)[-1][:64])
        except ValueError:
            return None


class StepsForm(forms.Form):
    """How many steps the page showed (a second tab or double submit is refused)."""

    steps = NumberField(required=False, min_value=0, max_value=10**6,
                               error_messages={"invalid": UNREADABLE, "min_value": UNREADABLE,
                                               "max_value": UNREADABLE})


class DealForm(forms.Form):
    action = forms.ChoiceField(choices=[(a, a) for a in ("fill", "clear", "assign", "remove")],
                               error_messages={"required": UNREADABLE,
                                               "invalid_choice": UNREADABLE})
    card = WordsField(cap=60)
    typed = TextField(cut=300, controls=True)  # card codes, judged by S.parse_cards
    target = TextField(cut=20, controls=True)  # a slot key, judged by S.assign


class RulesForm(forms.Form):
    """The rule set and one field per option of the game (``opt_<name>``)."""

    preset = TextField(cut=40, controls=True)

    def __init__(self, option_names, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.option_names = list(option_names)
        for name in self.option_names:
            self.fields[f"opt_{name}"] = TextField(cut=20, controls=True)

    def options(self) -> dict[str, str]:
        """The options the form sent (an option left out keeps the rule set's value)."""
        return {n: self.cleaned_data[f"opt_{n}"] for n in self.option_names
                if f"opt_{n}" in self.data}


class MoveForm(forms.Form):
    action = forms.ChoiceField(choices=[("play", "play"), ("refuse", "refuse")], required=False,
                               error_messages={"invalid_choice": UNREADABLE})
    move = TextField(cut=S.MAX_MOVE + 50)


class SaveForm(forms.Form):
    """The title and a narration field ``say-<step>-<language>`` per step and language."""

    title = TextField()

    def __init__(self, steps: int, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.keys = [(n, lang) for n in range(1, steps + 1) for lang in S.LANGUAGES]
        for n, lang in self.keys:
            self.fields[f"say-{n}-{lang}"] = TextField()

    def texts(self) -> dict[tuple[int, str], str]:
        """The narration fields the form sent (one left out keeps its text)."""
        return {(n, lang): self.cleaned_data[f"say-{n}-{lang}"] for n, lang in self.keys
                if f"say-{n}-{lang}" in self.data}


class EditKeyForm(forms.Form):
    key = TextField(cut=64, controls=True)  # any text that is not the key is a wrong key


class SeatForm(forms.Form):
    """``?seat=``: one player's view; "all" (or anything else) shows every hand."""

    def __init__(self, players: list[str], *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.fields["seat"] = forms.TypedChoiceField(
            choices=[(str(i), p) for i, p in enumerate(players)], coerce=int, required=False,
            empty_value=None)

    def seat(self) -> int | None:
        return self.cleaned_data["seat"] if self.is_valid() else None


class HandoutForm(forms.Form):
    """``?after=3&after=7``: the positions a handout shows (0 = right after the deal).  A
    number out of range or not a number is left out (links stay usable after an undo)."""

    def __init__(self, last: int, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.last = last

    def steps(self) -> list[int]:
        out = []
        for raw in self.data.getlist("after")[:50] if hasattr(self.data, "getlist") else []:
            try:
                n = int(raw)
            except (TypeError, ValueError):
                continue
            if 0 <= n <= self.last and n not in out:
                out.append(n)
        return sorted(out)
