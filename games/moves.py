"""Reading moves: card words, the move buttons a position offers, a submitted lesson form as
scenario notation, and the canonical form two moves are compared in.  Which moves are legal is
the engine's business; how a game writes and orders its moves is its adapter's."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from django.utils.translation import gettext_lazy

from games.adapters import MOVE_LABELS as SITE_MOVE_LABELS
from games.adapters import adapter
from rules.engine import cards as C

# The move vocabulary of the scenario notation, as buttons (one list for the whole site).
# Which ones a step offers is the engine's business: those its legal actions use now.  The
# lessons' forms have no position pickers, so Dam med dolda kort's variant moves (shield,
# steal) are not among them.
MOVE_LABELS = {k: v for k, v in SITE_MOVE_LABELS.items() if k not in ("shield", "steal")}
# Kinds whose notation names cards of the player's hand: the page lets the learner pick them.
CARD_KINDS = frozenset({"attack", "announce", "beat", "add", "pass", "play"})


def cards_named(words: Iterable[str]) -> list[int]:
    """The cards among ``words`` (card codes), in order; other words are passed over."""
    out = []
    for word in words:
        try:
            out.append(C.parse(word))
        except (C.CardError, ValueError, KeyError, IndexError, AttributeError):
            continue
    return out


def move_kind(words: list[str]) -> str:
    """The button a move in scenario notation (without the player) belongs to."""
    if words and words[0] == "draw" and len(words) > 1:
        return f"draw_{words[1]}"
    return words[0] if words else ""


def legal_kinds(module: Any, state: Any) -> list[str]:
    """The buttons for the moves the engine allows now, in the page's order."""
    kinds = {move_kind(module.format_action(a).split()) for a in state.legal_actions()}
    return [k for k in MOVE_LABELS if k in kinds]


class BadInput(Exception):
    """A form the page never offers (unknown action, garbled cards): said plainly, nothing done."""


class NeedChoice(Exception):
    """A move button pressed without the cards it needs: the page says what to choose."""

    def __init__(self, code: str) -> None:
        super().__init__(code)
        self.code = code


NEED_TEXTS = {
    "need_beat": gettext_lazy("Choose one card of yours and the attack card it should beat."),
    "need_announce": gettext_lazy("Choose the king and queen of the suit you announce."),
    "need_cards": gettext_lazy("Choose the cards for this move first."),
}


def move_text(player: str, action: str, cards: list[str], target: str,
              allowed: list[str]) -> str:
    """The scenario-notation move for a submitted form (the engine judges it)."""
    if action not in allowed:
        raise BadInput
    if action not in CARD_KINDS:
        return " ".join([player, *action.split("_")])
    if action == "beat":
        if len(cards) != 1 or not target:
            raise NeedChoice("need_beat")
        return f"{player} beat {target} {cards[0]}"
    if action == "announce":
        suits = sorted({c[-1].upper() for c in cards})
        if len(suits) != 1:
            raise NeedChoice("need_announce")
        return f"{player} announce {suits[0]}"
    if not cards:
        raise NeedChoice("need_cards")
    return f"{player} {action} {' '.join(cards)}"


def canonical(module: Any, action: Any) -> tuple[str, ...]:
    """``action`` as words that are equal for the same move however its cards were ordered
    (the kinds whose cards come in no order are the game adapter's ``unordered_kinds``)."""
    words = module.format_action(action).split()
    if words and words[0] in adapter(module.NAME).unordered_kinds:
        return (words[0], *sorted(words[1:]))
    return tuple(words)


def lesson_cards(move: str) -> list[int]:
    """The cards a scenario move names (for an announcement: the king and queen shown)."""
    words = move.split()
    if len(words) == 3 and words[1] == "announce":
        words = words[:2] + [f"K{words[2]}", f"Q{words[2]}"]
    return cards_named(words[2:])
