"""What is wrong with a scenario file, in the page language.

The engine reports a fault as a code with parameters in the file's own notation
(``rules.engine.errors.SCENARIO_MESSAGES``); here every code has a translated sentence.  The
parameters stay as the file writes them (card codes, names, option names, JSON values) because
that is what the teacher has to find and fix in the file.
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext_lazy as _

from games.reasons import reason_text
from games.registry import BY_KEY, GAME_TITLES
from rules.engine.errors import DEAL_PLACES, SCENARIO_MESSAGES

MESSAGES = {
    # the file
    "not_json": _("The file is not valid JSON (line %(line)s, column %(column)s)."),
    "not_text": _("The file is not UTF-8 text."),
    "not_object": _("The file must hold one JSON object, in braces { }."),
    "bad_number": _("The file holds a number that is out of range or has too many digits."),
    "too_deep": _("The file is nested too deeply: lists and objects inside each other."),
    "control_character": _("The text contains a control character (%(char)s), which is not allowed."),
    "unknown_field": _("Unknown field %(fields)s."),
    "bad_format": _("The field “format” must be “%(format)s”."),
    "bad_game": _("The field “game” must be one of %(games)s."),
    "rules_not_object": _("The field “rules” must be an object."),
    "players_not_list": _("The field “players” must be a list of names."),
    "bad_player_name": _("Player names must not be empty or contain spaces."),
    "duplicate_player": _("Two players have the same name."),
    "player_count": _("%(game)s needs %(lo)s to %(hi)s players with these rules, not %(n)s."),
    "dealer_not_player": _("The dealer “%(name)s” is not one of the players."),
    "bad_title": _("The field “title” must be a text of at most %(limit)s characters."),
    "bad_seed": _("The field “seed” must be a whole number."),
    "deal_not_object": _("The field “deal” must be an object."),
    "steps_not_list": _("The field “steps” must be a list."),
    # rules
    "unknown_preset": _("Unknown rule set “%(preset)s”. Known rule sets: %(known)s."),
    "unknown_option": _("Unknown rule option “%(option)s”."),
    "bad_option_value": _("The rule option “%(option)s” cannot be %(value)s. Allowed: %(allowed)s."),
    # the deal
    "deal_unknown_field": _("Unknown field in the deal: %(fields)s."),
    "deal_not_cards": _("In the deal, %(place)s must be a list of cards."),
    "deal_unknown_card": _("In the deal, %(place)s holds “%(card)s”, which is not a card."),
    "deal_duplicate": _("The deal names these cards more than once: %(cards)s."),
    "deal_hands": _("In the deal, “hands” must give every player a list of cards."),
    "deal_hand_names": _("In the deal, “hands” must name exactly the players (missing: %(missing)s; not players: %(unknown)s)."),
    "deal_not_player": _("In the deal, “%(field)s” names “%(name)s”, who is not a player."),
    "deal_rest": _("In the deal, “rest” must be “stock” or “discard”."),
    "deal_turned_option": _("The deal turns up a trump card, but with these rules trump is not turned up."),
    "deal_turned_spade": _("With these rules a spade cannot be the turned trump card."),
    "deal_trump_suit": _("In the deal, the trump %(value)s is not a suit letter (C, D, H or S)."),
    "deal_trump_turned": _("In the deal, the trump suit is not the suit of the turned card."),
    "deal_trump_fixed": _("These rules already fix the trump suit, so the deal cannot set another."),
    "deal_rows": _("In the deal, “rows” must give every player a row."),
    "deal_row_length": _("The row of %(name)s must hold %(n)s cards."),
    "deal_secret": _("In the deal, “secret” must give every player a secret card."),
    "deal_secret_option": _("The deal gives secret cards, but these rules have none."),
    "deal_number": _("In the deal, “deal_number” must be a whole number from 1 up."),
    "deal_scores": _("In the deal, “scores” must map player names to points."),
    "deal_score_value": _("The score of %(name)s must be a whole number from 0 up."),
    "deal_match_over": _("A score of %(limit)s or more has already ended the match."),
    "deal_wrong_cards": _("With %(n)s players the game uses the cards of rule S-S1. Not in this game: %(extra)s. Missing: %(missing)s."),
    "deal_uneven": _("Every player must get the same number of cards."),
    "bad_deal": _("The deal could not be read."),
    # the steps
    "step_not_object": _("A step must be an object."),
    "step_kind": _("A step needs exactly one of “do”, “illegal” and “expect”."),
    "bad_say": _("“say” must map sv, fi, nb or en to text."),
    "expect_not_object": _("“expect” must be an object."),
    "step_not_move": _("“%(kind)s” must give a move."),
    "missing_reason": _("An “illegal” step needs a “reason”."),
    "refused": _("The move “%(move)s” is not allowed. %(reason_text)s"),
    "refused_changed": _("The move “%(move)s” was refused, but it still changed the game."),
    "wrong_reason": _("The file expects the move “%(move)s” to be refused with %(reason)s, but the game refuses it with %(got)s: %(got_text)s"),
    "accepted": _("The file expects the move “%(move)s” to be refused with %(reason)s, but the game allows it."),
    # expect steps
    "expect_key": _("The check “%(key)s” does not apply to %(game)s."),
    "expect_cards": _("The check “%(key)s” needs a list of cards."),
    "expect_unknown_card": _("The check “%(key)s” names “%(card)s”, which is not a card."),
    "expect_by_player": _("The check “%(key)s” needs an object keyed by player name."),
    "expect_not_player": _("The check “%(key)s” names “%(name)s”, who is not a player."),
    "expect_bool": _("The check “%(key)s” needs true or false."),
    "expect_whole": _("The check “%(key)s” needs whole numbers."),
    "expect_names": _("The check “%(key)s” needs a list of player names."),
    "expect_choice": _("The check “%(key)s” must be one of %(choices)s."),
    "expect_mismatch": _("The check “%(key)s” expects %(want)s, but the game has %(got)s."),
}
assert set(MESSAGES) == set(SCENARIO_MESSAGES), set(MESSAGES) ^ set(SCENARIO_MESSAGES)

PLACES = {
    "hand": _("the hand of %(name)s"),
    "row": _("the row of %(name)s"),
    "secret": _("the secret card of %(name)s"),
    "stock": _("the stock"),
    "discard": _("the discard pile"),
    "turned": _("the turned card"),
}
assert set(PLACES) == set(DEAL_PLACES)



def scenario_problem(code: str, params: dict[str, Any], game: str | None = None) -> str:
    """The translated sentence for one fault of a scenario file."""
    shown: dict[str, Any] = dict(params)
    if "place" in shown:
        own = BY_KEY[game].place_names if game in BY_KEY else {}
        place = str(shown["place"])
        shown["place"] = str(own.get(place, PLACES[place])) % {"name": shown.get("name", "")}
    if "game" in shown:
        shown["game"] = str(GAME_TITLES.get(str(shown["game"]), shown["game"]))
    if code == "refused":
        shown["reason_text"] = reason_text(str(params["reason"]), game=game)
    if code == "wrong_reason":
        shown["got_text"] = reason_text(str(params["got"]), game=game)
    return str(MESSAGES[code]) % shown
