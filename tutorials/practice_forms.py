"""Forms of the practice game page: the version every POST carries, a move, and the query
parameters (hint, replay step, new-game rule set).  The new-game form is
``practice_views.NewGameForm``.  A POST the form refuses is answered with its message and a
4xx; a query parameter it refuses falls back to the page's default view (they come from links,
and old links must keep working).

A move form only turns fields into the scenario words of the move; whether the move is legal
is the engine's business (``practice.human_move``).
"""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _

from dam_site.forms import TextField, WordsField

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
