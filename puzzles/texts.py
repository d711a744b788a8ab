"""The words of the puzzles: their goals and themes by code (the shipped files hold codes
only, puzzles/store.py).  A theme has a title and a nudge, the first of the two hints: the
idea that decides the puzzle, without naming the move."""

from __future__ import annotations

from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

GOALS: dict[str, Promise] = {
    "dam_not_left": _("Find the move that gives you the best chance of not being left with "
                      "the cards at the end of the deal."),
    "lowest_score": _("Find the move that leads to the lowest score for you at the end of "
                      "the deal."),
    "fewest_points": _("Find the move that costs you the fewest penalty points in this "
                       "deal."),
}

THEMES: dict[str, tuple[Promise, Promise]] = {
    # Dam
    "maja": (_("Get rid of Svarta Maja"),
             _("The queen of spades cannot beat and cannot be beaten: think about when to let "
               "her go.")),
    "save_trumps": (_("Save trumps for the endgame"),
                    _("Trumps are what beats the attacks of the endgame: spend one only when "
                      "nothing cheaper does.")),
    "overplay": (_("Beat cheaply"),
                 _("Beat with the lowest card that does the job, and keep the strong ones.")),
    "attack_low": (_("Attack with what you can spare"),
                   _("Low cards are the ones to give away; high cards beat attacks later.")),
    "endgame_limit": (_("The endgame limit"),
                      _("The stock is empty: an attack may hold no more cards than the "
                        "defender has. Count the cards in the hands.")),
    "extra_attack": (_("The extra attack"),
                     _("Think about what the attacker may still add before you answer.")),
    "marriage": (_("Announcing trump"),
                 _("Which trump suit suits your hand best?")),
    # Dam med dolda kort
    "swap_chain": (_("The swap chain"),
                   _("Compare the card in your hand with the card lying at its place in your "
                     "row: known or unknown, which is likely lower?")),
    "discard_pile": (_("The discard pile or the stock"),
                     _("The top of the discard pile is a known card; the stock is a guess. "
                       "Which is better for your row?")),
    "thief_shield": (_("A thief or a shield"),
                     _("A black jack steals and a red jack shields: which card of the rows is "
                       "worth it?")),
    # Spardame
    "queen": (_("The queen of spades"),
              _("Think about who will take the queen of spades, and when.")),
    "moon": (_("Shooting the moon"),
             _("Someone may be taking every point card: take one yourself, or keep the hearts "
               "that let you try.")),
    "hearts": (_("Do not break hearts too soon"),
               _("Hearts are points: think about when to let them go, and to whom.")),
    "duck": (_("Duck the trick"),
             _("Play under the card that wins the trick, and keep the high cards safe.")),
    "lead": (_("The lead"),
             _("Lead a card that someone else must win.")),
    "pass": (_("The pass"),
             _("Which three cards would cost you most if you kept them? Think of the tricks "
               "they would win, and of the suits you could empty.")),
    "shed": (_("Shed a dangerous card"),
             _("When you cannot follow suit, throw away the card that would hurt you later.")),
    # Every game
    "judgement": (_("Judgement"),
                  _("No simple rule decides this one: weigh what each move leaves you with.")),
}


def goal(code: str) -> str:
    return str(GOALS.get(code, ""))


def theme_title(code: str) -> str:
    return str(THEMES[code][0]) if code in THEMES else code


def theme_nudge(code: str) -> str:
    return str(THEMES[code][1]) if code in THEMES else ""
