"""Forms of the tables: the join code and name, a name to sit down with, a class split."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _

from live.service import normalise_code
from practice.models import LEVEL_CHOICES
from web.forms import TextField


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
    """The teacher's split of the class into tables: seats per table and the bots' level."""

    def __init__(self, sizes: list[int], *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.fields["players"] = forms.TypedChoiceField(
            label=_("Players per table"), coerce=int, choices=[(n, str(n)) for n in sizes],
            initial=4 if 4 in sizes else sizes[-1],
            error_messages={"invalid_choice": _("Choose a table size from the list.")})
        self.fields["level"] = forms.ChoiceField(
            label=_("Bots in the empty seats"), choices=LEVEL_CHOICES, initial="easy",
            error_messages={"invalid_choice": _("Choose a bot level from the list.")})
