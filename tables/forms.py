"""Forms of the tables: the join code and name, a name to sit down with."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _

from live.service import normalise_code
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
