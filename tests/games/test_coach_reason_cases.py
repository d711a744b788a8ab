"""Each of the coach's reason sentences in a position where it is the one shown, and the
reported case (#32): a Dam hint that said "attack with low cards" for the jack of hearts while
the hand held the threes of clubs and hearts.  The views are made by hand with the keys the
reasons read; tests/games/test_coach_reasons.py checks them on real positions."""

from __future__ import annotations

from typing import Any

import pytest
from django.utils import translation

from games.adapters import adapter
from games.coach_reasons import no_rule
from rules.engine import cards as C
from rules.engine import dolda as dolda_engine

NAMES = ["Me", "Anna", "Bo", "Cilla"]


def cards(text: str) -> list[int]:
    return sorted(C.parse(t) for t in text.split())


def dam_view(hand: str, trump: str | None = "D", stock: int = 20, table: str = "",
             attack_suit: str | None = None) -> dict[str, Any]:
    return {"seat": 0, "names": NAMES, "hand": cards(hand),
            "trump": None if trump is None else C.parse_suit(trump), "stock_count": stock,
            "table": cards(table), "attack_suit": None if attack_suit is None
            else C.parse_suit(attack_suit)}


def attack(text: str, kind: str = "attack") -> tuple[Any, ...]:
    return (kind, 0, tuple(cards(text)))


def beat(target: str, card: str) -> tuple[Any, ...]:
    return ("beat", 0, C.parse(target), C.parse(card))


def said(game: str, view: dict[str, Any], action: Any) -> tuple[str | None, str]:
    a = adapter(game)
    with translation.override("en"):
        chosen = a.chosen_reason(view, action)
        return (chosen.name if chosen else None), a.reason(view, action, NAMES)


def no_rule_en() -> str:
    with translation.override("en"):
        return no_rule()


# --------------------------------------------------------------------------- the reported case
@pytest.mark.parametrize("trump", [None, "D", "C", "H", "S"])
def test_D_attack_with_the_jack_of_hearts_beside_two_threes_is_not_called_low(trump):
    """#32: hand 3♣ 3♥ J♥, the recommended attack J♥: no "attack low" sentence."""
    name, text = said("dam", dam_view("3C 3H JH", trump=trump), attack("JH"))
    assert name != "lowest_attack"
    assert "low" not in text.lower()
    assert text == no_rule_en()


def test_D_the_jack_of_hearts_case_says_plainly_that_no_rule_of_thumb_decides():
    name, text = said("dam", dam_view("3C 3H JH", trump="D"), attack("JH"))
    assert name is None
    assert text.startswith("No simple rule of thumb decides this one")


def test_D_the_three_of_clubs_in_the_same_hand_is_the_low_attack():
    name, text = said("dam", dam_view("3C 3H JH", trump="D"), attack("3C"))
    assert name == "lowest_attack"
    assert text == ("Attack with the three of clubs: you hold no lower card, and the high "
                    "ones are worth keeping for beating.")


# --------------------------------------------------------------------------- Dam, one per reason
DAM_CASES = [
    ("maja_with_spades", dam_view("5S QS 9D"), attack("5S QS"),
     "Get rid of Svarta Maja together with the five of spades"),
    ("maja_alone", dam_view("5S QS 9D"), attack("QS"), "Play Svarta Maja out while you can"),
    ("only_trumps_lowest", dam_view("4D 9D KD"), attack("4D"),
     "You hold only trumps: attack with the lowest, the four of diamonds."),
    ("lowest_attack", dam_view("2D 3C 3H JH"), attack("3H"),
     "Attack with the three of hearts: apart from trumps you hold no lower card"),
    ("lowest_of_suit", dam_view("3C 5H JH 2D"), attack("5H"),
     "Attack with the five of hearts, the lowest card you hold of its suit: the higher ones "
     "stay in your hand for beating."),
    ("several", dam_view("3C 3H JH"), attack("3H JH"),
     "Attack with the three of hearts and the jack of hearts together"),
    ("adds", dam_view("5H 9C", attack_suit="H"), attack("5H", "add"),
     "Add the five of hearts: the defender must beat it too or take it."),
    ("done_nothing", dam_view("9C", attack_suit="H"), ("done", 0),
     "You hold no more cards of the attack's suit to add."),
    ("done_trumps", dam_view("5D 9C", attack_suit="D", stock=4), ("done", 0),
     "the cards you could add are trumps, worth keeping while 4 cards are still in the stock"),
    ("done_keep", dam_view("5H 9C", attack_suit="H"), ("done", 0),
     "Stop adding: you keep the five of hearts for beating later."),
    ("slap", dam_view("5H 9C"), ("slap", 0), "Close the attack now"),
    ("announce", dam_view("KH QH 3H 7H 2C", trump=None), ("announce", 0, C.HEARTS),
     "Announce the pair: hearts become trump, and you hold 4 cards of that suit."),
    ("beat_low_keep_trumps", dam_view("7H 9H 2D", table="5H"), beat("5H", "7H"),
     "Beat the five of hearts with the seven of hearts, the lowest card of that suit that "
     "does it, and keep your trumps while the stock lasts."),
    ("beat_low", dam_view("7H 9H 2C", table="5H"), beat("5H", "7H"),
     "the lowest card of that suit that does it: keep the higher ones for later."),
    ("trump_endgame", dam_view("2D 9D 3H", table="5H", stock=0), beat("5H", "9D"),
     "The stock is empty, so no more cards will come: beat the five of hearts with the trump "
     "the nine of diamonds"),
    ("lowest_trump_no_suit", dam_view("2D 9D 3H", table="5H"), beat("5H", "2D"),
     "No card of that suit in your hand beats the five of hearts: beat it with the two of "
     "diamonds, your lowest trump."),
    ("trump_no_suit", dam_view("2D 9D 3H", table="5H"), beat("5H", "9D"),
     "No card of that suit in your hand beats the five of hearts: the trump the nine of "
     "diamonds does."),
    ("take_nothing_beats", dam_view("3C 4S", table="AH QS"), ("take", 0),
     "Nothing in your hand can beat the ace of hearts and the queen of spades (Svarta Maja)"),
    ("take_keep_trumps", dam_view("3D 4C", table="AH", stock=5), ("take", 0),
     "Take the cards and keep your trumps: only a trump could beat them, and 5 cards are "
     "still in the stock."),
]


@pytest.mark.parametrize(("name", "view", "action", "words"), DAM_CASES,
                         ids=[c[0] for c in DAM_CASES])
def test_D_each_reason_shows_where_its_claim_holds(name, view, action, words):
    chosen, text = said("dam", view, action)
    assert chosen == name
    assert words in text


def test_D_a_beat_with_a_higher_card_than_needed_gets_no_low_beat_sentence():
    chosen, text = said("dam", dam_view("7H 9H 2C", table="5H"), beat("5H", "9H"))
    assert chosen is None and text == no_rule_en()


def test_D_a_trump_spent_while_a_card_of_the_suit_could_beat_gets_no_trump_sentence():
    chosen, _text = said("dam", dam_view("7H 9D", table="5H"), beat("5H", "9D"))
    assert chosen is None


# --------------------------------------------------------------------------- Dam med dolda kort
def dolda_view(row: list[str | None], held: str | None = None, position: int | None = None,
               top: str | None = None, pile: str = "", phase: str = "chain",
               others: list[list[str]] | None = None, jack: str | None = None,
               shielded: str = "") -> dict[str, Any]:
    rows = [[None if c is None else C.parse(c) for c in row]]
    rows += [[C.parse(c) for c in r] for r in others or []]
    while len(rows) < 3:
        rows.append([None] * len(row))
    return {"seat": 0, "names": NAMES[:3], "phase": phase,
            "options": dolda_engine.options_to_dict(dolda_engine.Options()),
            "rows": rows, "swappable": 5, "secret": None,
            "held": None if held is None else C.parse(held), "next_position": position,
            "discard_top": None if top is None else C.parse(top),
            "discard_pile": cards(f"{top or ''} {pile}"), "shielded": cards(shielded),
            "robbed": [], "jack": None if jack is None else C.parse(jack)}


def dolda_act(kind: str, source: str = "", positions: tuple[int, ...] = (),
              victim: int = -1) -> dolda_engine.Action:
    return dolda_engine.Action(0, kind, source, positions, victim,
                               NAMES[victim] if victim >= 0 else "")


UNKNOWN: list[str | None] = [None] * 6
DOLDA_CASES = [
    ("stock_only", dolda_view(UNKNOWN, phase="draw"), dolda_act("draw", "stock"),
     "The discard pile is empty: the stock is the only place to draw from."),
    ("take_discard", dolda_view(UNKNOWN, top="QH", phase="draw"),
     dolda_act("draw", "discard"), "Take the queen of hearts (0 points): a card from the "
     "stock is worth 6.2 points on average now"),
    ("leave_discard", dolda_view(UNKNOWN, top="KC", phase="draw"),
     dolda_act("draw", "stock"), "Leave the king of clubs (13 points): a card from the stock "
     "is worth 5.9 points on average now"),
    ("crosswise", dolda_view(UNKNOWN, held="2C", position=6), dolda_act("discard"),
     "The crosswise card at the end of your row can never be swapped: discard the two of "
     "clubs."),
    ("swap_known", dolda_view(["KC", *UNKNOWN[1:]], held="2C", position=1), dolda_act("swap"),
     "Swap: the two of clubs (2 points) is lower than the king of clubs (13 points), the card "
     "you know lies at position 1."),
    ("discard_known", dolda_view(["AC", *UNKNOWN[1:]], held="5C", position=1),
     dolda_act("discard"), "Discard the five of clubs (5 points): the card at position 1 is "
     "the ace of clubs (1 point), which you know is no higher."),
    ("swap_unknown", dolda_view(UNKNOWN, held="AC", position=1), dolda_act("swap"),
     "Swap: the ace of clubs (1 point) is lower than the 6.2 points an unseen card is worth "
     "on average, and you do not know the card at position 1."),
    ("discard_unknown", dolda_view(UNKNOWN, held="KS", position=2), dolda_act("discard"),
     "Discard the king of spades (13 points): you do not know the card at position 2, and an "
     "unseen card is worth only 5.9 points on average."),
    ("shield_lowest", dolda_view(["JH", "AC", "2C", "KC", "KD", "9S"], phase="shields",
                                 jack="JH"), dolda_act("shield", positions=(1, 2)),
     "Shield the ace of clubs and the two of clubs: apart from the jack, none of your other "
     "row cards is lower"),
    ("steal_best", dolda_view(["JS", "KC", "2C", "3C", "4C", "5C"], phase="thieves",
                              jack="JS", others=[["QH", "5D", "9D", "KD", "8D", "7D"]]),
     dolda_act("steal", positions=(1, 0), victim=1),
     "Steal the queen of hearts from Anna, the lowest card you may take, and give away the "
     "king of clubs, your highest card apart from the thief."),
    ("steals_lowest", dolda_view(["JS", "KC", "2C", "3C", "4C", "5C"], phase="thieves",
                                 jack="JS", others=[["QH", "5D", "9D", "KD", "8D", "7D"]]),
     dolda_act("steal", positions=(2, 0), victim=1),
     "Steal the queen of hearts from Anna: no card you may take is lower."),
    ("gives_highest", dolda_view(["JS", "KC", "2C", "3C", "4C", "5C"], phase="thieves",
                                 jack="JS", others=[["QH", "5D", "9D", "KD", "8D", "7D"]]),
     dolda_act("steal", positions=(1, 1), victim=1),
     "Give away the king of clubs: apart from the thief, no card of your row is higher."),
]


@pytest.mark.parametrize(("name", "view", "action", "words"), DOLDA_CASES,
                         ids=[c[0] for c in DOLDA_CASES])
def test_H_each_reason_shows_where_its_claim_holds(name, view, action, words):
    chosen, text = said("dolda", view, action)
    assert chosen == name
    assert words in text


def test_H_swapping_a_card_for_a_known_lower_one_gets_no_swap_sentence():
    view = dolda_view(["AC", *UNKNOWN[1:]], held="5C", position=1)
    assert said("dolda", view, dolda_act("swap")) == (None, no_rule_en())


# --------------------------------------------------------------------------- Spardame
def sp_view(hand: str, trick: str = "", played: str = "", points: tuple[int, ...] = (0,) * 4,
            broken: bool = False) -> dict[str, Any]:
    return {"seat": 0, "names": NAMES, "hand": cards(hand),
            "trick": [C.parse(c) for c in trick.split()], "played": cards(played),
            "deal_points": list(points), "points_in_play": 26, "hearts_broken": broken,
            "passed": None, "received": None}


def play(card: str) -> tuple[Any, ...]:
    return ("play", 0, C.parse(card))


def pass_(text: str) -> tuple[Any, ...]:
    return ("pass", 0, *cards(text))


FULL = "2C 3C 4C 5C 6C 7C 8C"  # a few played tricks' worth of clubs
SPARDAME_CASES = [
    ("pass_queen_unguarded", sp_view("QS AH KH 3C 4C 5C 6C 7C 8C 9C TC 2D 3D"),
     pass_("QS AH KH"), "Pass the queen of spades (the Black Maria) on: you would keep no "
     "lower spade to guard her."),
    ("pass_queen_few", sp_view("QS 3S AH KH 3C 4C 5C 6C 7C 8C 9C 2D 3D"), pass_("QS AH KH"),
     "you would keep only 1 lower spade to guard her."),
    ("keep_hearts_for_moon", sp_view("AH KH QH 9H 8H 7H AC KC QC 2D 3D 4D 5S"),
     pass_("2D 3D 4D"), "Keep all your 6 hearts, the ace, king and queen among them"),
    ("pass_high_spades", sp_view("AS KS 3S 3C 4C 5C 6C 7C 9D TD 2H 3H 4H"), pass_("AS KS 9D"),
     "Pass the king of spades and the ace of spades on: the queen is not among the cards you "
     "keep"),
    ("empties_suit", sp_view("2D 5D 3C 4C 5C 6C 7C 2S 3S 4S 2H 3H 4H"), pass_("2D 5D 7C"),
     "Empty a suit: the two of diamonds and the five of diamonds are all you hold of it"),
    ("pass_highest", sp_view("AC KC 2C AD 3D 4D 2S 3S 4S 2H 3H 4H 5H"), pass_("AC KC AD"),
     "Pass the king of clubs, the ace of clubs and the ace of diamonds: you keep no higher "
     "card"),
    ("keep_queen_guarded", sp_view("QS 2S 3S 4S 5S AH KH 2H JC 2C 3D 4D 5D"),
     pass_("AH KH JC"), "Keep the queen of spades (the Black Maria): the 4 lower spades you "
     "keep guard her."),
    ("first_lead", sp_view("2C 9C KD"), play("2C"),
     "The lowest club in play always leads the first trick, and you hold it: the two of clubs."),
    ("lead_to_stop_moon", sp_view("AD 3C", played=FULL, points=(0, 10, 0, 0)), play("AD"),
     "Anna has taken every point so far and may be trying to shoot the moon: no card still "
     "out can beat the ace of diamonds, so you win this trick."),
    ("lead_low_spade", sp_view("5S 9D", played=FULL), play("5S"),
     "Lead the five of spades: the queen is still out among the spades"),
    ("lead_sure_loser", sp_view("2D 9C", played=FULL), play("2D"),
     "Lead the two of diamonds: every card of its suit still out is higher"),
    ("lead_lowest", sp_view("5D 9D", played=FULL), play("5D"),
     "Lead the five of diamonds, your lowest card of its suit: higher ones are still out"),
    ("take_to_stop_moon", sp_view("AH 3C", trick="5H 7H 2H", played=FULL,
                                  points=(0, 10, 0, 0)), play("AH"),
     "Anna has taken every point so far and may be trying to shoot the moon: the ace of "
     "hearts wins this trick and its points, and the moon cannot be shot."),
    ("duck_highest", sp_view("5D 9D", trick="KD", played=FULL), play("9D"),
     "Stay under the king of diamonds with the nine of diamonds, the highest card you hold "
     "that still loses to it."),
    ("duck", sp_view("5D 9D", trick="KD", played=FULL), play("5D"),
     "Stay under the king of diamonds: the five of diamonds cannot win this trick."),
    ("last_high_no_points", sp_view("9D KD", trick="5D 7D 2D", played=FULL), play("KD"),
     "You play last and the trick holds no points: take it with the king of diamonds"),
    ("cannot_duck", sp_view("9D KD", trick="5D", played=FULL), play("9D"),
     "None of your cards of this suit is lower than the five of diamonds: play the lowest, "
     "the nine of diamonds."),
    ("shed_queen", sp_view("QS 3C", trick="5D", played=FULL), play("QS"),
     "You have no card of the suit led: get rid of the queen of spades (the Black Maria) now."),
    ("shed_highest_heart", sp_view("AH 3H 3C", trick="5D", played=FULL), play("AH"),
     "You have no card of the suit led: shed the ace of hearts, your highest heart."),
    ("keep_hearts_closed", sp_view("3H KC 2C", trick="5D", played=FULL), play("KC"),
     "Hearts are not broken yet, and shedding the king of clubs rather than a heart keeps it "
     "so"),
    ("shed_highest", sp_view("KC 2C 3H", trick="5D", played=FULL, broken=True), play("KC"),
     "You have no card of the suit led: shed the king of clubs, your highest card."),
    ("shed_highest_of_suit", sp_view("KC 2C AH", trick="5D", played=FULL, broken=True),
     play("KC"), "You have no card of the suit led: shed the king of clubs, the highest card "
     "you hold of its suit."),
]


@pytest.mark.parametrize(("name", "view", "action", "words"), SPARDAME_CASES,
                         ids=[c[0] for c in SPARDAME_CASES])
def test_S_each_reason_shows_where_its_claim_holds(name, view, action, words):
    chosen, text = said("spardame", view, action)
    assert chosen == name
    assert words in text


def test_S_a_low_spade_is_not_called_safe_once_the_queen_is_in_the_hand():
    chosen, _text = said("spardame", sp_view("5S QS 9D", played=FULL), play("5S"))
    assert chosen != "lead_low_spade"


def test_S_winning_a_trick_while_a_lower_card_could_duck_gets_no_duck_sentence():
    chosen, _text = said("spardame", sp_view("5D KD", trick="9D", played=FULL), play("KD"))
    assert chosen not in ("duck", "duck_highest", "cannot_duck")


def test_every_reason_has_a_case_here():
    from games.coach_reasons import dam, dolda, spardame

    for reasons, cases in ((dam.REASONS, DAM_CASES), (dolda.REASONS, DOLDA_CASES),
                           (spardame.REASONS, SPARDAME_CASES)):
        assert [r.name for r in reasons] == [c[0] for c in cases]


@pytest.mark.parametrize("lang", ["sv", "fi", "nb"])
def test_every_reason_sentence_is_said_in_the_page_language(lang):
    """Each case's sentence comes out translated, its placeholders filled."""
    for game, cases in (("dam", DAM_CASES), ("dolda", DOLDA_CASES),
                        ("spardame", SPARDAME_CASES)):
        a = adapter(game)
        for name, view, action, _words in cases:
            with translation.override("en"):
                english = a.reason(view, action, NAMES)
            with translation.override(lang):
                text = a.reason(view, action, NAMES)
            assert text != english, (lang, name)
            assert "%(" not in text and ")s" not in text, (lang, name, text)
