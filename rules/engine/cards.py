"""Cards as small ints, with text only at the edges.

A card is ``suit * 13 + (rank - 2)``: suits are ordered C D H S (0..3) and ranks run from
2 to 14 (ace high), so ``card // 13`` is the suit and ``card % 13 + 2`` the rank.  The
notation is the scenario files' one: rank then suit, ``T`` or ``10`` for ten, any case.
"""

from __future__ import annotations

from collections.abc import Iterable

SUITS = "CDHS"
CLUBS, DIAMONDS, HEARTS, SPADES = range(4)
RANK_CHARS = "23456789TJQKA"
JACK, QUEEN, KING, ACE = 11, 12, 13, 14
DECK: tuple[int, ...] = tuple(range(52))


class CardError(ValueError):
    """A card code that names no card."""


def make(rank: int, suit: int) -> int:
    return suit * 13 + rank - 2


def suit_of(card: int) -> int:
    return card // 13


def rank_of(card: int) -> int:
    return card % 13 + 2


QUEEN_OF_SPADES = make(QUEEN, SPADES)


# ``text: object``: scenario files hand these anything, and a compiled build would answer a
# non-string with a TypeError before the check could give its CardError.
def parse_suit(text: object) -> int:
    if not isinstance(text, str):
        raise CardError(repr(text))
    t = text.strip().upper()
    if len(t) != 1 or t not in SUITS:
        raise CardError(text)
    return SUITS.index(t)


def parse(text: object) -> int:
    if not isinstance(text, str):
        raise CardError(repr(text))
    t = text.strip().upper()
    if len(t) < 2:
        raise CardError(text)
    rank_text, suit_text = t[:-1], t[-1]
    if rank_text == "10":
        rank_text = "T"
    if len(rank_text) != 1 or rank_text not in RANK_CHARS or suit_text not in SUITS:
        raise CardError(text)
    return make(RANK_CHARS.index(rank_text) + 2, SUITS.index(suit_text))


def parse_many(texts: Iterable[str]) -> list[int]:
    return [parse(t) for t in texts]


def code(card: int) -> str:
    return RANK_CHARS[card % 13] + SUITS[card // 13]


def codes(cards: Iterable[int]) -> list[str]:
    return [code(c) for c in cards]


def sort_key(card: int) -> tuple[int, int]:
    return (card // 13, card % 13)
