"""Card names in the page language, for screen readers and narration.

Every card has its own msgid so each language can name cards its own way (Swedish "ruter 3",
Finnish "patarouva", English "three of diamonds") instead of gluing words together.
"""

from __future__ import annotations

from collections.abc import Iterable

from django.utils.text import get_text_list
from django.utils.translation import gettext as _
from django.utils.translation import pgettext, pgettext_lazy

from games import registry
from rules.engine import cards

# Indexed by the engine's card int (suit * 13 + rank - 2, suits C D H S).
CARD_NAMES = (
    pgettext_lazy("card", "two of clubs"),
    pgettext_lazy("card", "three of clubs"),
    pgettext_lazy("card", "four of clubs"),
    pgettext_lazy("card", "five of clubs"),
    pgettext_lazy("card", "six of clubs"),
    pgettext_lazy("card", "seven of clubs"),
    pgettext_lazy("card", "eight of clubs"),
    pgettext_lazy("card", "nine of clubs"),
    pgettext_lazy("card", "ten of clubs"),
    pgettext_lazy("card", "jack of clubs"),
    pgettext_lazy("card", "queen of clubs"),
    pgettext_lazy("card", "king of clubs"),
    pgettext_lazy("card", "ace of clubs"),
    pgettext_lazy("card", "two of diamonds"),
    pgettext_lazy("card", "three of diamonds"),
    pgettext_lazy("card", "four of diamonds"),
    pgettext_lazy("card", "five of diamonds"),
    pgettext_lazy("card", "six of diamonds"),
    pgettext_lazy("card", "seven of diamonds"),
    pgettext_lazy("card", "eight of diamonds"),
    pgettext_lazy("card", "nine of diamonds"),
    pgettext_lazy("card", "ten of diamonds"),
    pgettext_lazy("card", "jack of diamonds"),
    pgettext_lazy("card", "queen of diamonds"),
    pgettext_lazy("card", "king of diamonds"),
    pgettext_lazy("card", "ace of diamonds"),
    pgettext_lazy("card", "two of hearts"),
    pgettext_lazy("card", "three of hearts"),
    pgettext_lazy("card", "four of hearts"),
    pgettext_lazy("card", "five of hearts"),
    pgettext_lazy("card", "six of hearts"),
    pgettext_lazy("card", "seven of hearts"),
    pgettext_lazy("card", "eight of hearts"),
    pgettext_lazy("card", "nine of hearts"),
    pgettext_lazy("card", "ten of hearts"),
    pgettext_lazy("card", "jack of hearts"),
    pgettext_lazy("card", "queen of hearts"),
    pgettext_lazy("card", "king of hearts"),
    pgettext_lazy("card", "ace of hearts"),
    pgettext_lazy("card", "two of spades"),
    pgettext_lazy("card", "three of spades"),
    pgettext_lazy("card", "four of spades"),
    pgettext_lazy("card", "five of spades"),
    pgettext_lazy("card", "six of spades"),
    pgettext_lazy("card", "seven of spades"),
    pgettext_lazy("card", "eight of spades"),
    pgettext_lazy("card", "nine of spades"),
    pgettext_lazy("card", "ten of spades"),
    pgettext_lazy("card", "jack of spades"),
    pgettext_lazy("card", "queen of spades"),
    pgettext_lazy("card", "king of spades"),
    pgettext_lazy("card", "ace of spades"),
)

SUIT_NAMES = (
    pgettext_lazy("suit", "clubs"),
    pgettext_lazy("suit", "diamonds"),
    pgettext_lazy("suit", "hearts"),
    pgettext_lazy("suit", "spades"),
)

SUIT_SYMBOLS = "\u2663\u2666\u2665\u2660"
RANK_LABELS = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")


def card_name(card: int, game: str | None = None) -> str:
    """The card's spoken name; the queen of spades gets the name each game gives her (the
    registry's ``card_names``)."""
    if game is not None and game in registry.BY_KEY:
        special = registry.BY_KEY[game].card_names.get(card)
        if special is not None:
            return str(special)
    return str(CARD_NAMES[card])


def card_phrase(card: int, game: str | None = None) -> str:
    """The card's name as it stands in a sentence: English gives it its article ("the nine of
    clubs"); Swedish, Finnish and Norwegian name a card without one."""
    return in_sentence(card_name(card, game))


def in_sentence(name: str) -> str:
    """A card's name (or a placeholder for one) with what a sentence puts before it."""
    return pgettext("a card's name in a sentence", "the %(card)s") % {"card": name}


def text_list(items: Iterable[str]) -> str:
    """Items in running text, the last two joined by the page language's "and": "A, B and C",
    "A, B och C", "A, B ja C", "A, B og C"."""
    return str(get_text_list([str(i) for i in items],
                             pgettext("the last separator of a list: A, B and C", "and")))


def card_list(cards: Iterable[int], game: str | None = None) -> str:
    """Cards in a sentence: "the two of clubs, the nine of clubs and the queen of clubs"."""
    return text_list(card_phrase(c, game) for c in cards)


def suit_name(suit: int) -> str:
    return str(SUIT_NAMES[suit])


def rank_label(card: int) -> str:
    """The short rank printed in the card's corner, as decks sold in that language print it."""
    rank = cards.rank_of(card)
    if rank == cards.ACE:
        return pgettext("rank letter on a card", "A")
    if rank == cards.KING:
        return pgettext("rank letter on a card", "K")
    if rank == cards.QUEEN:
        return pgettext("rank letter on a card", "Q")
    if rank == cards.JACK:
        return pgettext("rank letter on a card", "J")
    return RANK_LABELS[rank - 2]


def face_down_name() -> str:
    return _("face-down card")
