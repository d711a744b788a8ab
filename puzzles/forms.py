"""The puzzle pages' query parameters and the answer form.  A query parameter a form refuses
falls back to the page's plain view (they come from links); an answer it refuses gets a
translated message, a 400 and no change."""

from __future__ import annotations

from django import forms

from practice.forms import MoveForm
from web.forms import TextField

SETS_RE = r"^(all|daily|streak|dam|dolda|spardame)(:[a-z_]{1,20})?$"
CARDS_RE = r"^([2-9TJQKA][CDHS](\.[2-9TJQKA][CDHS]){0,12})?$"


class PuzzleQuery(forms.Form):
    set = forms.RegexField(regex=SETS_RE, required=False)
    hint = forms.ChoiceField(choices=[("1", "1"), ("2", "2")], required=False)
    # The answer's result (a solved or missed puzzle), or a refused move's reason.
    res = forms.ChoiceField(choices=[("ok", "ok"), ("miss", "miss")], required=False)
    m = forms.RegexField(regex=r"^[A-Za-z0-9_ ]{1,60}$", required=False, strip=False)
    fb = forms.RegexField(regex=r"^[a-z_]{1,40}$", required=False)
    c = forms.RegexField(regex=CARDS_RE, required=False)


class AnswerForm(MoveForm):
    """Practice's move form (the same fields and cues) plus the set and the hint level the
    page showed."""

    set = TextField(controls=True)
    hint = forms.ChoiceField(choices=[("0", "0"), ("1", "1"), ("2", "2")], required=False)
