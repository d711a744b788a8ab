"""The card component: one card, a face-down card, a hand and a table, in the page language."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from django import template

from games import cardnames
from rules.engine import cards as engine_cards

register = template.Library()


def card_context(card: int, game: str | None = None, highlight: bool = False) -> dict[str, Any]:
    suit = engine_cards.suit_of(card)
    return {
        "code": engine_cards.code(card),
        "name": cardnames.card_name(card, game),
        "rank": cardnames.rank_label(card),
        "symbol": cardnames.SUIT_SYMBOLS[suit],
        "suit": engine_cards.SUITS[suit].lower(),
        "red": suit in (engine_cards.DIAMONDS, engine_cards.HEARTS),
        "highlight": highlight,
        # Set by the practice table's cues (games.table); present here so that drawing a card
        # never looks up a missing key (each failed lookup costs Django's template engine a
        # dir() of the dict: a few milliseconds on a page of cards).
        "mark": None,
    }


@register.inclusion_tag("includes/card.html")
def card(card: int | str, game: str | None = None, highlight: bool = False) -> dict[str, Any]:
    if isinstance(card, str):
        card = engine_cards.parse(card)
    return {"card": card_context(card, game, highlight)}


@register.inclusion_tag("includes/card_back.html")
def card_back(crosswise: bool = False) -> dict[str, Any]:
    return {"label": cardnames.face_down_name(), "crosswise": crosswise}


@register.inclusion_tag("includes/hand.html")
def hand(cards: Iterable[int | str] = (), label: str = "", game: str | None = None,
         face_down: int = 0, highlight: Iterable[int] = ()) -> dict[str, Any]:
    parsed = [engine_cards.parse(c) if isinstance(c, str) else c for c in cards]
    marked = set(highlight)
    return {
        "cards": [card_context(c, game, c in marked) for c in parsed],
        "face_down": range(face_down),
        "back_label": cardnames.face_down_name(),
        "label": label,
    }


@register.inclusion_tag("includes/table.html")
def card_table(seats: Iterable[dict[str, Any]], centre: Iterable[dict[str, Any]] = (), game: str | None = None,
               label: str = "") -> dict[str, Any]:
    """Seats around a table; each seat is ``{"name", "cards" or "count", "note"}``.

    ``centre`` holds the piles in the middle (``{"label", "cards" or "count"}``): the attack,
    the stock, the turned trump, the discard pile, the trick.
    """
    def pile(entry: dict[str, Any], stacked: bool) -> dict[str, Any]:
        shown = [engine_cards.parse(c) if isinstance(c, str) else c for c in entry.get("cards", ())]
        count = entry.get("count", 0)
        # A pile in the middle is one face-down card with its count, not thirty backs.
        backs = range(1 if count else 0) if stacked else range(count)
        return {**entry, "cards": [card_context(c, game) for c in shown], "backs": backs,
                "stacked": stacked and count}

    return {"seats": [pile(s, False) for s in seats], "centre": [pile(p, True) for p in centre],
            "back_label": cardnames.face_down_name(), "label": label}


@register.filter
def suit_heading(card: int) -> str:
    """The name of the suit a card belongs to, capitalised for a heading."""
    return cardnames.suit_name(engine_cards.suit_of(card)).capitalize()
