"""Forms of the live classroom: every POST and query parameter its views read."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _

from web.forms import NumberField, TextField, first_error

from . import service as S

__all__ = ["AnswerForm", "ControlForm", "JoinForm", "StartForm", "first_error"]


class StartForm(forms.Form):
    kind = forms.ChoiceField(choices=[(k, k) for k in S.KINDS])
    ref = TextField(cut=80, required=True)
    step = NumberField(min_value=0, max_value=10_000)
    seat = NumberField(min_value=0, max_value=16, required=False)


class ControlForm(forms.Form):
    ACTIONS = ("goto", "next", "back", "open", "reveal", "close", "names_on", "names_off", "end")
    action = forms.ChoiceField(choices=[(a, a) for a in ACTIONS])
    step = NumberField(min_value=0, max_value=10_000, required=False)
    seat = forms.RegexField(regex=r"^(all|[0-9]{1,2})?$", required=False)
    # The question number the page showed (Ask): a second press of the same form opens nothing.
    question = NumberField(min_value=0, max_value=1_000_000, required=False)


class JoinForm(forms.Form):
    code = TextField(cut=32, required=True, label=_("Code"),
                     error_messages={"required": _("Type the code shown on the projector.")})
    name = TextField(cut=S.MAX_NAME, label=_("Your name (optional)"))

    def clean_code(self) -> str:
        code = S.normalise_code(self.cleaned_data["code"])
        if not code:
            raise forms.ValidationError(_("A code has six characters, letters and digits, like K7M 4QP."))
        return code

    @staticmethod
    def initial_code(query) -> str:
        return S.normalise_code(str(query.get("code", ""))[:32])


class AnswerForm(forms.Form):
    question = NumberField(min_value=1, max_value=1_000_000)
    choice = TextField(cut=200, required=True)
