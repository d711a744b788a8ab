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

from games.adapters import GameAdapter, adapter
from reference.variants import OPTION_LABELS, form_value, preset_label, value_label
from rules.engine.options import build_options, option_choices
from web.forms import NumberField, TextField, WordsField

from .models import LEVEL_CHOICES

INCOMPLETE = _("The form was incomplete; nothing was changed.")
CHOOSE_A_MOVE = _("Choose a move with one of the buttons.")


class VersionForm(forms.Form):
    """The version of the game the page showed (a stale one is refused by the service)."""

    version = NumberField(error_messages={"required": INCOMPLETE, "invalid": INCOMPLETE})


class MoveForm(forms.Form):
    move = TextField(controls=True)
    card = WordsField(cap=20)
    position = WordsField(cap=3)
    target = TextField(controls=True)
    suit = TextField(controls=True)
    source = TextField(controls=True)

    def __init__(self, game: GameAdapter, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.game = game

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        if self.errors:
            return data
        move = data["move"].strip().lower()
        if not move or len(move) > 20 or not move.isalpha():
            raise forms.ValidationError(CHOOSE_A_MOVE)
        try:
            words = self.game.move_words(move, data)
        except ValueError as exc:
            raise forms.ValidationError(str(exc)) from None
        if any(not w for w in words):
            raise forms.ValidationError(CHOOSE_A_MOVE)
        data["words"] = words
        return data


class HintForm(forms.Form):
    hint = forms.TypedChoiceField(choices=[("0", "0"), ("1", "1")], coerce=int, required=False,
                                  empty_value=0)  # type: ignore[arg-type]  # the stubs take a str


class PuzzleForm(forms.Form):
    """The reviewed move a "try it again" button opens as a puzzle."""

    move = NumberField(min_value=0, error_messages={
        "required": INCOMPLETE, "invalid": INCOMPLETE, "min_value": INCOMPLETE})


class ReplayStepForm(forms.Form):
    step = NumberField(required=False)
    open = forms.TypedChoiceField(choices=[("0", "0"), ("1", "1")], coerce=int, required=False,
                                  empty_value=0)  # type: ignore[arg-type]  # the stubs take a str


class PresetForm(forms.Form):
    """``?preset=`` of the new-game page: the rule set to start from."""

    def __init__(self, presets, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.fields["preset"] = forms.ChoiceField(choices=[(p, p) for p in presets],
                                                  required=False)


LEVEL_HELP = _("Easy bots play almost at random, normal bots play like careful beginners, "
               "and strong bots simulate many possible deals before each move (using only the cards "
               "they may see).")
# One word of up to 20 characters: no white space, markup characters or control characters.
NAME_RE = re.compile(r"^[^\s<>&\"'\x00-\x1f\x7f-\x9f]{1,20}$")


class NewGameForm(forms.Form):
    def __init__(self, game: str, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.game = game
        module = adapter(game).engine
        self.module = module
        self.fields["preset"] = forms.ChoiceField(
            label=_("Rule set"), choices=[(p, preset_label(game, p)) for p in module.PRESETS],
            initial=module.DEFAULT_PRESET)
        self.option_names = []
        for name, choices in option_choices(module.Options).items():
            self.option_names.append(name)
            self.fields[f"opt_{name}"] = forms.ChoiceField(
                label=OPTION_LABELS.get(name, name), required=False,
                choices=[("", _("as in the rule set"))]
                + [(form_value(c), value_label(c)) for c in choices])
        game_adapter = adapter(game)
        counts = game_adapter.player_choices()
        lo, hi = module.player_range(build_options(module.Options, module.PRESETS,
                                                   module.DEFAULT_PRESET, {}))
        self.fields["players"] = forms.TypedChoiceField(
            label=_("Players"), coerce=int, choices=[(k, str(k)) for k in counts],
            initial=game_adapter.default_players,
            # D-S1: 7 or 8 players only with the rule that allows them.
            help_text="" if (lo, hi) == (counts[0], counts[-1]) else _(
                "%(lo)d to %(hi)d players with the usual rules; more only with a rule that "
                "allows them.") % {"lo": lo, "hi": hi})
        self.fields["level"] = forms.ChoiceField(label=_("Bots"),
                                                 choices=LEVEL_CHOICES, initial="normal",
                                                 help_text=LEVEL_HELP)
        self.fields["name"] = forms.CharField(
            label=_("Your name"), max_length=20, initial=_("You"),
            help_text=_("One word, no spaces."))
        if game_adapter.memory_aid:
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
                rules[name] = next(c for c in choices[name] if form_value(c) == raw)
        return {k: (None if v is None else v) for k, v in rules.items()}

    def option_fields(self):
        return [self[f"opt_{n}"] for n in self.option_names]


# The bots' pace: how long the page waits before it shows each bot move (a factor of the
# site's PRACTICE_BOT_DELAY_MS), or "step": only when the player asks (Show the next move).
PACES = {"slow": 2.0, "normal": 1.0, "fast": 0.35, "step": 0.0}
PACE_CHOICES = [("slow", _("slow")), ("normal", _("normal")), ("fast", _("fast")),
                ("step", _("one move at a time, when I ask"))]


class PaceForm(forms.Form):
    pace = forms.ChoiceField(choices=PACE_CHOICES, error_messages={
        "required": INCOMPLETE, "invalid_choice": INCOMPLETE})
    next = forms.CharField(required=False, max_length=500)
