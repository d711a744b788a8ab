"""Forms of the practice pages: the new game, the version every POST carries, a move, and
the query parameters (hint, replay step, new-game rule set).  A POST a form refuses is answered
with its message and a 4xx; a query parameter it refuses falls back to the page's default view
(they come from links, and old links must keep working).

A move form only turns fields into the scenario words of the move; whether the move is legal
is the engine's business (``practice.human_move``).
"""

from __future__ import annotations

import re
from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from dam_site.forms import TextField, WordsField
from rules.engine.games import game_module
from rules.engine.options import option_choices
from rules.variants import OPTION_LABELS, value_label

from .models import LEVEL_CHOICES

INCOMPLETE = _("The form was incomplete; nothing was changed.")
CHOOSE_A_MOVE = _("Choose a move with one of the buttons.")


class VersionForm(forms.Form):
    """The version of the game the page showed (a stale one is refused by the service)."""

    version = forms.IntegerField(error_messages={"required": INCOMPLETE, "invalid": INCOMPLETE})


class MoveForm(forms.Form):
    move = TextField(controls=True)
    card = WordsField(cap=20)
    position = WordsField(cap=3)
    target = TextField(controls=True)
    suit = TextField(controls=True)
    source = TextField(controls=True)

    def __init__(self, game: str, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.game = game

    def clean(self) -> dict:
        data = super().clean()
        if self.errors:
            return data
        move = data["move"].strip().lower()
        if not move or len(move) > 20 or not move.isalpha():
            raise forms.ValidationError(CHOOSE_A_MOVE)
        cards = data["card"]
        words = [move]
        if self.game == "dam":
            if move == "beat":
                target = data["target"].strip()
                if not target or len(cards) != 1:
                    raise forms.ValidationError(_("To beat, choose one card on the table and "
                                                  "one card of yours."))
                words += [target, cards[0]]
            elif move == "announce":
                words.append(data["suit"].strip()[:2])
            else:
                words += cards
        elif self.game == "dolda":
            if move == "draw":
                words.append(data["source"].strip().lower()[:10])
            elif move == "shield":
                words += [p[:2] for p in data["position"]]
            elif move == "steal":
                # One position of one's own row, then "victim:position".
                own = data["position"][-1][:2] if data["position"] else ""
                victim, _sep, pos = data["target"].strip().partition(":")
                words += [own, victim[:30], pos[:2]]
        else:
            words += cards
        if any(not w for w in words):
            raise forms.ValidationError(CHOOSE_A_MOVE)
        data["words"] = words
        return data


class HintForm(forms.Form):
    hint = forms.TypedChoiceField(choices=[("0", "0"), ("1", "1")], coerce=int, required=False,
                                  empty_value=0)


class ReplayStepForm(forms.Form):
    step = forms.IntegerField(required=False)


class PresetForm(forms.Form):
    """``?preset=`` of the new-game page: the rule set to start from."""

    def __init__(self, presets, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.fields["preset"] = forms.ChoiceField(choices=[(p, p) for p in presets],
                                                  required=False)


LEVEL_HELP = _("Easy bots play almost at random, normal bots play like careful beginners, "
               "strong bots simulate many possible deals before each move (using only the cards "
               "they may see).")
# One word of up to 20 characters: no white space, markup characters or control characters.
NAME_RE = re.compile(r"^[^\s<>&\"'\x00-\x1f\x7f-\x9f]{1,20}$")


def _encode(value: Any) -> str:
    if value is None:
        return "none"
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


class NewGameForm(forms.Form):
    def __init__(self, game: str, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.game = game
        module = game_module(game)
        self.module = module
        self.fields["preset"] = forms.ChoiceField(
            label=_("Rule set"), choices=[(p, p) for p in module.PRESETS],
            initial=module.DEFAULT_PRESET)
        self.option_names = []
        for name, choices in option_choices(module.Options).items():
            self.option_names.append(name)
            self.fields[f"opt_{name}"] = forms.ChoiceField(
                label=OPTION_LABELS.get(name, name), required=False,
                choices=[("", _("as in the rule set"))]
                + [(_encode(c), value_label(c)) for c in choices])
        lo, hi = 2 if game != "spardame" else 3, 8 if game == "dam" else 6
        self.fields["players"] = forms.TypedChoiceField(
            label=_("Players"), coerce=int,
            choices=[(k, str(k)) for k in range(lo, hi + 1)], initial=3 if game == "dam" else 4)
        self.fields["level"] = forms.ChoiceField(label=_("Bots"),
                                                 choices=LEVEL_CHOICES, initial="normal",
                                                 help_text=LEVEL_HELP)
        self.fields["name"] = forms.CharField(
            label=_("Your name"), max_length=20, initial=_("You"),
            help_text=_("One word, no spaces."))
        if game == "dolda":
            self.fields["memory_aid"] = forms.BooleanField(
                label=_("Memory aid: show the cards you have seen in the rows"),
                required=False, initial=True)

    def clean_name(self) -> str:
        name = self.cleaned_data["name"].strip()
        if not NAME_RE.match(name):
            raise forms.ValidationError(
                _("Use one word of up to 20 letters, without spaces."))
        return name

    def rules(self) -> dict[str, Any]:
        rules: dict[str, Any] = {"preset": self.cleaned_data["preset"]}
        choices = option_choices(self.module.Options)
        for name in self.option_names:
            raw = self.cleaned_data.get(f"opt_{name}") or ""
            if raw:
                rules[name] = next(c for c in choices[name] if _encode(c) == raw)
        return {k: (None if v is None else v) for k, v in rules.items()}

    def option_fields(self):
        return [self[f"opt_{n}"] for n in self.option_names]
