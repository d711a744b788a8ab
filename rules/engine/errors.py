"""Reason codes for refused actions (scenario-format.md) and the errors that carry them."""

from __future__ import annotations

# Checked in this order by every game (scenario-format.md, "Reason codes").
COMMON_FIRST = ("game_over", "not_your_turn", "unknown_card", "card_not_in_hand")

DAM_REASONS = (
    "attack_empty",
    "attack_mixed_suits",
    "attack_over_cap",
    "attack_exceeds_defender_hand",
    "queen_of_spades_cannot_beat",
    "queen_of_spades_cannot_be_beaten",
    "not_higher",
    "wrong_suit",
    "already_beaten",
    "no_marriage",
    "trump_fixed",
    "add_not_allowed",
    "add_wrong_suit",
)
DOLDA_REASONS = (
    "no_card_held",
    "already_drew",
    "discard_pile_empty",
    "cannot_swap_crosswise",
    "not_a_shield",
    "not_a_thief",
    "own_row",
    "target_shielded",
    "victim_already_robbed",
)
SPARDAME_REASONS = (
    "pass_three_cards",
    "must_lead_lowest_club",
    "must_follow_suit",
    "hearts_not_broken",
    "no_points_first_trick",
)
ALL_REASONS = COMMON_FIRST + DAM_REASONS + DOLDA_REASONS + SPARDAME_REASONS + ("bad_move",)


class IllegalAction(Exception):
    """The engine refused an action; the state it was asked of is unchanged.

    ``cards`` names the cards the reason is about so the site can say which ones in the
    page language.
    """

    def __init__(self, reason: str, *cards: int, detail: str = "") -> None:
        assert reason in ALL_REASONS, reason
        self.reason = reason
        self.cards = cards
        self.detail = detail
        super().__init__(reason if not detail else f"{reason}: {detail}")


class ScenarioError(ValueError):
    """A scenario file (or its deal) is malformed; ``step`` is 0 for faults outside the steps."""

    def __init__(self, message: str, step: int = 0) -> None:
        self.step = step
        self.message = message
        super().__init__(message)
