"""Reason codes for refused actions (scenario-format.md) and the errors that carry them."""

from __future__ import annotations

from collections.abc import Mapping

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

# What is wrong with a ``bad_move`` when the engine can say it in a word (the reason code stays
# ``bad_move``, as scenario files expect); the site words each one (games/reasons.py).
BAD_MOVE_WHYS = (
    "unknown_player",  # the move does not start with a player's name
    "unknown_move",  # not a move word of this game
    "card_twice",  # the same card named twice
    "not_now",  # that kind of move has no place at this moment of the deal
    "not_in_attack",  # a beat names a card that is not in the attack
    "card_count",  # the wrong number of cards (or words) for that kind of move
    "not_a_suit",  # an announcement names no suit
    "no_announcing",  # the rules have no announcing
    "not_a_position",  # a position in the row that is not a number of it
)


class IllegalAction(Exception):
    """The engine refused an action; the state it was asked of is unchanged.

    ``cards`` names the cards the reason is about so the site can say which ones in the
    page language; ``why`` says in a word what is wrong with a ``bad_move``
    (``BAD_MOVE_WHYS``).
    """

    def __init__(self, reason: str, *cards: int, detail: str = "", why: str = "") -> None:
        assert reason in ALL_REASONS, reason
        assert not why or (reason == "bad_move" and why in BAD_MOVE_WHYS), why
        self.reason = reason
        self.cards = cards
        self.detail = detail
        self.why = why
        super().__init__(reason if not detail else f"{reason}: {detail}")


# What is wrong with a scenario file, by code.  The parameters are in the file's own notation
# (card codes, player names, option names, JSON values), so the site can put them into its
# translated sentences (games/scenario_messages.py); this English wording is for the command line.
SCENARIO_MESSAGES = {
    # the file
    "not_json": "not valid JSON (line {line}, column {column})",
    "not_text": "the file is not UTF-8 text",
    "not_object": "the file must hold a JSON object",
    "bad_number": "a number in the file is out of range or has too many digits",
    "too_deep": "the file is nested too deeply",
    "control_character": "the text must not contain control characters (found {char})",
    "unknown_field": "unknown field {fields}",
    "bad_format": "'format' must be '{format}'",
    "bad_game": "'game' must be one of {games}",
    "rules_not_object": "'rules' must be an object",
    "players_not_list": "'players' must be a list of names",
    "bad_player_name": "player names must be non-empty and contain no spaces",
    "duplicate_player": "player names must be distinct",
    "player_count": "{game} needs {lo} to {hi} players with these rules, not {n}",
    "dealer_not_player": "dealer '{name}' is not a player",
    "bad_title": "'title' must be a string of at most {limit} characters",
    "bad_seed": "'seed' must be an integer",
    "deal_not_object": "'deal' must be an object",
    "steps_not_list": "'steps' must be a list",
    # rules
    "unknown_preset": "unknown preset '{preset}' (known: {known})",
    "unknown_option": "unknown option '{option}'",
    "bad_option_value": "option '{option}' cannot be {value} (allowed: {allowed})",
    # the deal
    "deal_unknown_field": "deal: unknown field {fields}",
    "deal_not_cards": "deal: {place} must be a list of cards",
    "deal_unknown_card": "deal: {place}: '{card}' is not a card",
    "deal_duplicate": "deal: card named twice: {cards}",
    "deal_hands": "deal: 'hands' must map every player to a list of cards",
    "deal_hand_names": "deal: 'hands' must name exactly the players (missing: {missing}; "
                       "unknown: {unknown})",
    "deal_not_player": "deal: '{field}': '{name}' is not a player",
    "deal_rest": "deal: 'rest' must be 'stock' or 'discard'",
    "deal_turned_option": "deal: 'turned' needs trump=turned",
    "deal_turned_spade": "deal: a spade cannot be the turned trump (D-T2)",
    "deal_trump_suit": "deal: trump {value} is not a suit letter",
    "deal_trump_turned": "deal: 'trump' does not match the turned card",
    "deal_trump_fixed": "deal: trump=fixed already sets the trump suit",
    "deal_rows": "deal: 'rows' must give a row for every player",
    "deal_row_length": "deal: the row of {name} must hold {n} cards",
    "deal_secret": "deal: 'secret' must give a secret card for every player",
    "deal_secret_option": "deal: 'secret' needs the secret_card option",
    "deal_number": "deal: 'deal_number' must be a whole number from 1",
    "deal_scores": "deal: 'scores' must map player names to points",
    "deal_score_value": "deal: the score of {name} must be a whole number from 0",
    "deal_match_over": "deal: a score of {limit} or more has already ended the match",
    "deal_wrong_cards": "deal: {n} players play with the cards of S-S1; not in this game: "
                        "{extra}; missing: {missing}",
    "deal_uneven": "deal: every player must get as many cards",
    "bad_deal": "bad deal: {detail}",
    # the steps
    "step_not_object": "a step must be an object",
    "step_kind": "a step needs exactly one of 'do', 'illegal', 'expect'",
    "bad_say": "'say' must map sv, fi, nb or en to text",
    "expect_not_object": "'expect' must be an object",
    "step_not_move": "'{kind}' must be a move",
    "missing_reason": "an 'illegal' step needs a 'reason'",
    "refused": "'{move}' was refused: {reason}",
    "refused_changed": "'{move}' was refused but changed the game",
    "wrong_reason": "'{move}' was refused with {got}, expected {reason}",
    "accepted": "'{move}' was accepted, expected it refused with {reason}",
    # expect steps
    "expect_key": "expect key '{key}' does not apply to {game}",
    "expect_cards": "expect '{key}' needs a list of cards",
    "expect_unknown_card": "expect '{key}': '{card}' is not a card",
    "expect_by_player": "expect '{key}' needs an object keyed by player name",
    "expect_not_player": "expect '{key}': '{name}' is not a player",
    "expect_bool": "expect '{key}' needs true or false",
    "expect_whole": "expect '{key}' needs whole numbers",
    "expect_names": "expect '{key}' needs a list of player names",
    "expect_choice": "expect '{key}' must be one of {choices}",
    "expect_mismatch": "expected {key} {want}, got {got}",
}
# Where in a deal a card list sits (the ``place`` parameter above).
DEAL_PLACES = {
    "hand": "the hand of {name}",
    "row": "the row of {name}",
    "secret": "the secret card of {name}",
    "stock": "the stock",
    "discard": "the discard pile",
    "turned": "the turned card",
}


class ScenarioError(ValueError):
    """A scenario file (or its deal) is malformed; ``step`` is 0 for faults outside the steps.

    ``code`` is a key of SCENARIO_MESSAGES and ``params`` fill it in; ``message`` is the English
    sentence for the command line.
    """

    def __init__(self, code: str, step: int = 0, **params: object) -> None:
        assert code in SCENARIO_MESSAGES, code
        self.code = code
        self.step = step
        self.params = params
        self.message = scenario_message(code, params)
        super().__init__(self.message)


def scenario_message(code: str, params: Mapping[str, object]) -> str:
    shown = dict(params)
    if "place" in shown:
        shown["place"] = DEAL_PLACES[str(shown["place"])].format(**shown)
    return SCENARIO_MESSAGES[code].format(**shown)
