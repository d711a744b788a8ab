"""The pieces every game's table builder (``GameAdapter.table``) is made of: cards as the card
component draws them, hands that may be picked from, suits."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from games import cardnames
from games.templatetags.cards import card_context
from rules.engine import cards as engine_cards


def card_item(card: int, game: str, marks: frozenset[int]) -> dict[str, Any]:
    return card_context(card, game, card in marks)


def card_items(cards: Iterable[int], game: str, marks: frozenset[int]) -> list[dict[str, Any]]:
    return [card_item(c, game, marks) for c in cards]


def note_items(cards: Iterable[int], game: str, marks: frozenset[int]) -> list[dict[str, Any]]:
    """Cards shown as a reminder of where they came from or went (Spardame's passed and
    received cards): the card itself is shown where it is, so the review's marks
    (``table.mark_cards``) go there, not on its reminder as well."""
    return [{**card_item(c, game, marks), "note": True} for c in cards]


def pickable_items(cards: Iterable[int], game: str, marks: frozenset[int],
                   selected: frozenset[int]) -> list[dict[str, Any]]:
    out = []
    for c in cards:
        entry = card_item(c, game, marks)
        entry["checked"] = c in selected
        out.append(entry)
    return out


def hand_items(cards: list[int] | None, game: str, marks: frozenset[int], pick: bool,
               selected: frozenset[int]) -> list[dict[str, Any]] | None:
    if cards is None:
        return None
    return pickable_items(cards, game, marks, selected) if pick else card_items(cards, game, marks)


def suit_item(suit: int | None) -> dict[str, Any] | None:
    if suit is None:
        return None
    return {"name": cardnames.suit_name(suit), "symbol": cardnames.SUIT_SYMBOLS[suit],
            "code": engine_cards.SUITS[suit].lower(), "red": suit in (1, 2)}


def hand_for(view: Mapping[str, Any], seat: int, shown: Mapping[int, list[int]]) -> list[int] | None:
    """The cards of ``seat`` the page may show, or None when they are hidden."""
    if seat == view["seat"]:
        return sorted(view["hand"], key=engine_cards.sort_key)
    return shown.get(seat)
