"""One translated sentence for every reason code the engine gives (scenario-format.md)."""

from __future__ import annotations

from collections.abc import Iterable

from django.utils.text import format_lazy
from django.utils.translation import gettext_lazy as _

from games.cardnames import card_name, text_list
from rules.engine.errors import ALL_REASONS, BAD_MOVE_WHYS

REASON_TEXTS = {
    "game_over": _("The deal is over; no more moves can be made."),
    "not_your_turn": _("It is not your turn."),
    "unknown_card": _("That is not a card."),
    "card_not_in_hand": _("You do not have that card."),
    "bad_move": _("That move is not possible now."),
    # Dam
    "attack_empty": _("An attack needs at least one card."),
    "attack_mixed_suits": _("All the cards of an attack must be of the same suit."),
    "attack_over_cap": _("That attack has more cards than the agreed limit allows."),
    "attack_exceeds_defender_hand": _("Now that the stock is empty you may not attack with more cards than the defender holds."),
    "queen_of_spades_cannot_beat": _("The queen of spades can never beat a card, not even the two of spades."),
    "queen_of_spades_cannot_be_beaten": _("Nothing beats the queen of spades, not even a trump: she has to be taken."),
    "not_higher": _("To beat a card of the same suit you need a higher one."),
    "wrong_suit": _("Beat a card with a higher card of its own suit, or with a trump."),
    "already_beaten": _("That card has already been beaten."),
    "no_marriage": _("You can only announce a suit whose king and queen you hold, and spades cannot become trump."),
    "trump_fixed": _("Trump cannot be changed now."),
    "add_not_allowed": _("No more cards may be added to this attack."),
    "add_wrong_suit": _("Added cards must be of the attack's suit."),
    # Dam med dolda kort
    "no_card_held": _("Draw a card first."),
    "already_drew": _("You have already drawn a card this turn."),
    "discard_pile_empty": _("The discard pile is empty."),
    "cannot_swap_crosswise": _("The crosswise card at the end of the row can never be swapped; discard the card you hold."),
    "not_a_shield": _("Only the jacks of hearts and diamonds in your row are shields."),
    "not_a_thief": _("Only the jacks of spades and clubs in your row are thieves."),
    "own_row": _("A thief steals from another player's row, not from your own."),
    "target_shielded": _("That card is protected by a shield."),
    "victim_already_robbed": _("Two thieves may not rob the same player."),
    # Spardame
    "pass_three_cards": _("Pass exactly three cards from your hand."),
    "must_lead_lowest_club": _("The first trick must be led with the two of clubs, or the lowest club when the two has been taken out."),
    "must_follow_suit": _("You must follow suit when you can."),
    "hearts_not_broken": _("Hearts may not be led until hearts have been broken."),
    "no_points_first_trick": _("No hearts or queen of spades on the first trick while you have another card."),
}
assert set(REASON_TEXTS) == set(ALL_REASONS), set(ALL_REASONS) ^ set(REASON_TEXTS)

# What is wrong with a ``bad_move``, when the engine says it (``IllegalAction.why``).
WHY_TEXTS = {
    "unknown_player": _("A move starts with the name of one of the players."),
    "unknown_move": _("That is not a move of this game."),
    "card_twice": _("The same card is named twice."),
    "not_now": _("That kind of move has no place at this point of the deal."),
    "not_in_attack": _("That card is not in the attack."),
    "card_count": _("That move takes a different number of cards or words."),
    "not_a_suit": _("Name a suit with its letter: C, D, H or S."),
    "no_announcing": _("These rules have no announcing of trump."),
    "not_a_position": _("A position in the row is a number, 1 for the leftmost card."),
}
assert set(WHY_TEXTS) == set(BAD_MOVE_WHYS), set(BAD_MOVE_WHYS) ^ set(WHY_TEXTS)


def reason_text(code: str, cards: Iterable[int] = (), game: str | None = None,
                why: str = "") -> str:
    """The sentence for a refused move, naming the cards concerned in the page language;
    for a ``bad_move`` also what is wrong with it when the engine says (``why``)."""
    sentence = str(REASON_TEXTS.get(code, REASON_TEXTS["bad_move"]))
    if code == "bad_move" and why in WHY_TEXTS:
        sentence = str(format_lazy(_("{sentence} {why}"), sentence=sentence,
                                   why=WHY_TEXTS[why]))
    named = [card_name(c, game) for c in cards]
    if named:
        return str(format_lazy(_("{sentence} ({cards})"), sentence=sentence, cards=text_list(named)))
    return sentence
