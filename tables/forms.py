"""Forms of the tables: the join code and name, a name to sit down with, a class split."""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from games.adapters import adapter
from live.service import normalise_code
from practice.models import LEVEL_CHOICES
from reference.variants import preset_label
from web.forms import TextField

from .classes import all_table_sizes, table_sizes


class JoinForm(forms.Form):
    code = TextField(cut=32, required=True, label=_("Code"),
                     error_messages={"required": _("Type the table's code.")})
    name = TextField(cut=20, label=_("Your name"))

    def clean_code(self) -> str:
        code = normalise_code(self.cleaned_data["code"])
        if not code:
            raise forms.ValidationError(
                _("A code has six characters, letters and digits, like K7M 4QP."))
        return code


class SitForm(forms.Form):
    name = TextField(cut=20, label=_("Your name"))


class SplitForm(forms.Form):
    """The teacher's split of the class into tables: the rule set, seats per table and the
    bots' level (a table size the chosen rule set does not allow is refused with the range
    it does)."""

    def __init__(self, game: str, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.game = game
        module = adapter(game).engine
        sizes = all_table_sizes(game)
        self.fields["preset"] = forms.ChoiceField(
            label=_("Rule set"), choices=[(p, preset_label(game, p)) for p in module.PRESETS],
            initial=module.DEFAULT_PRESET, required=False,
            error_messages={"invalid_choice": _("Choose a rule set from the list.")})
        self.fields["players"] = forms.TypedChoiceField(
            label=_("Players per table"), coerce=int, choices=[(n, str(n)) for n in sizes],
            initial=4 if 4 in sizes else sizes[-1],
            error_messages={"invalid_choice": _("Choose a table size from the list.")})
        self.fields["level"] = forms.ChoiceField(
            label=_("Bots in the empty seats"), choices=LEVEL_CHOICES, initial="easy",
            error_messages={"invalid_choice": _("Choose a bot level from the list.")})

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        # A form from before the rule set was offered (or without it) deals the usual rules.
        data["preset"] = preset = data.get("preset") or adapter(self.game).engine.DEFAULT_PRESET
        players = data.get("players")
        if preset and players:
            allowed = table_sizes(self.game, preset)
            if players not in allowed:
                raise forms.ValidationError(
                    _("With this rule set a table seats %(lo)d to %(hi)d players.")
                    % {"lo": allowed[0], "hi": allowed[-1]})
        return data
