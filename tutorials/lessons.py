"""The built-in tutorials, declared as data (lichess Learn style).

A tutorial is a scenario file (``tutorials/scenarios/<game>/<slug>.json``, scenario-format.md)
replayed through the engine, plus one narration msgid per step.  A step shows the position
after scenario step ``at`` (0 = the deal), highlights the cards of that move, and links to the
rule id it shows.  A "your move" step instead shows the position *before* scenario step ``at``
and asks the learner to make that move; ``better`` explains why the lesson's move is better
than another legal one.  No literal text here other than msgids: narration comes from the
translation catalogues.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from django.utils import translation
from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

from rules.titles import GAME_TITLES

SCENARIO_DIR = Path(__file__).resolve().parent / "scenarios"


@dataclass(frozen=True)
class Step:
    at: int  # scenario step number whose position is shown (0 = the deal)
    say: Promise  # narration msgid
    rule: str  # rule id on the game's rules page
    your_move: bool = False  # the learner makes scenario step ``at`` (a "do" step)
    better: Promise | None = None  # shown after a legal move other than the lesson's
    nudge: Promise | None = None  # first hint of a "your move": the rule or idea that matters


@dataclass(frozen=True)
class Tutorial:
    game: str
    slug: str
    title: Promise
    summary: Promise
    steps: tuple[Step, ...]
    viewer: str = ""  # whose eyes outside "your move" steps ("" = the first player)
    reveal_hands: bool = True  # every hand is part of the lesson (dam, spardame)

    @property
    def key(self) -> str:
        return f"{self.game}:{self.slug}"

    @property
    def scenario_path(self) -> Path:
        return SCENARIO_DIR / self.game / f"{self.slug}.json"


DAM = (
    Tutorial("dam", "deal-and-trump", _("The deal and turning trump"),
             _("How the cards are dealt, who attacks first, and how trump is turned."), (
        Step(0, _("Cilla has dealt six cards to each player, one at a time, starting with Anna on "
                  "her left. The rest of the deck is the stock, face down."), "D-S3"),
        Step(1, _("Anna sits on the dealer's left, so she attacks first, against Bo. Attack with "
                  "the five and the nine of clubs: choose both cards and press Attack."), "D-S4",
             your_move=True,
             better=_("Attack with low cards of one suit that you can spare. High cards are more "
                      "useful later, for beating.")),
        Step(1, _("Right after the first attack the top card of the stock is turned for trump. It "
                  "was the seven of spades, and spades cannot be trump, so it went back into the "
                  "stock. The next card, the king of diamonds, was turned: diamonds are trump."),
             "D-T2"),
        Step(1, _("The king of diamonds lies crosswise under the stock and will be the last card "
                  "drawn. Anna has refilled her hand to six cards: the attacker always draws "
                  "first."), "D-T1"),
        Step(3, _("Bo beats the five of clubs with the jack of clubs, a higher card of the same "
                  "suit."), "D-B1"),
        Step(4, _("He beats the nine with the ten of diamonds, a trump. Every card is beaten, so "
                  "Bo refills and attacks Cilla next."), "D-N1"),
    )),
    Tutorial("dam", "anna-bo-cilla", _("Anna, Bo and Cilla: attack and defence"),
             _("Beating with a higher card or a trump, and taking what you cannot beat."), (
        Step(0, _("Anna, Bo and Cilla are playing. Trump is already turned: the nine of hearts "
                  "lies under the stock. Anna attacks Bo."), "D-T1"),
        Step(1, _("Anna attacks with three diamonds at once: an attack may hold any number of "
                  "cards of one suit."), "D-A1"),
        Step(2, _("Bo's turn. Beat the four of diamonds with the seven of diamonds: choose your "
                  "seven and the four on the table, then press Beat."), "D-B1", your_move=True,
             better=_("Taking is allowed, but it fills Bo's hand with cards he must get rid of "
                      "later. The seven beats the four cheaply.")),
        Step(3, _("Bo has no higher diamond for the six, so he beats it with the ten of hearts. "
                  "Any trump beats a card of another suit."), "D-B1"),
        Step(4, _("Bo cannot beat the nine, so he takes it into his hand. The beaten pairs went to "
                  "the discard pile and Bo refilled."), "D-B5"),
        Step(4, _("Bo did not beat every card, so he does not attack next: the player after him, "
                  "Cilla, attacks Anna."), "D-N1"),
    )),
    Tutorial("dam", "aino-eero-maija", _("Aino, Eero and Maija: Musta Maija"),
             _("The Finnish way with five cards: beat everything and attack next."), (
        Step(0, _("Aino, Eero and Maija play Musta Maija with five cards each. Clubs are trump: "
                  "the eight of clubs lies turned under the stock."), "D-S2"),
        Step(1, _("Aino attacks Eero with three hearts and refills to five cards."), "D-A1"),
        Step(3, _("Eero beats the three of hearts with the queen of hearts and the seven with the "
                  "four of clubs, a small trump."), "D-B1"),
        Step(4, _("Only the nine is left. Beat it with the ace of hearts."), "D-B3", your_move=True,
             better=_("Eero can beat every card, so he should: the beaten pairs then leave the "
                      "game and Eero attacks next instead of taking cards.")),
        Step(4, _("All three hearts are beaten. The six cards go face down to the discard pile, "
                  "out of the game for good."), "D-B4"),
        Step(6, _("Because Eero beat everything he attacks next, against Maija. He refilled "
                  "after his defence and attacked with the six of spades."), "D-N1"),
        Step(7, _("Maija beats it with the ten of spades, so now she attacks, and Aino "
                  "defends."), "D-N1"),
    )),
    Tutorial("dam", "svarta-maja", _("Svarta Maja, the queen of spades"),
             _("She can neither beat nor be beaten: get rid of her with other spades."), (
        Step(0, _("Bo holds the queen of spades, Svarta Maja. Whoever holds her at the end of the "
                  "deal loses, and she can never be discarded."), "D-E2"),
        Step(1, _("Anna attacks Bo with the two of spades."), "D-A1"),
        Step(2, _("Beat the two of spades, but not with the queen: she never beats anything, not "
                  "even the two."), "D-B2", your_move=True,
             better=_("Taking the two would add a useless card to Bo's hand. The nine of spades "
                      "beats it.")),
        Step(3, _("Bo beat every card, so he attacks Cilla. Get rid of Svarta Maja: attack with "
                  "her together with the four of spades."), "D-A2", your_move=True,
             better=_("Svarta Maja may be laid alone or with other spades, and an attack is the "
                      "only way to pass her on. Use the chance now.")),
        Step(4, _("Cilla beats the four of spades with the king of spades."), "D-B1"),
        Step(5, _("Now the queen. Nothing beats her, not the ace of spades and not a trump: take "
                  "her."), "D-B2", your_move=True),
        Step(5, _("Cilla took a card, so the player after her, Anna, attacks next. Cilla must now "
                  "pass Svarta Maja on in an attack of her own."), "D-N1"),
    )),
    Tutorial("dam", "refilling", _("Refilling and who attacks next"),
             _("The attacker draws first, nobody draws above six, and beating everything earns "
               "the attack."), (
        Step(0, _("Four players, six cards each, diamonds trump. Anna attacks Bo."), "D-S4"),
        Step(1, _("Anna laid two hearts and refilled at once: the attacker always draws first, "
                  "right after attacking."), "D-R1"),
        Step(3, _("Bo beat the three of hearts with the nine."), "D-B1"),
        Step(4, _("Take the five of hearts."), "D-B3", your_move=True,
             better=_("Bo could trump the five with the jack of diamonds, but a low heart is "
                      "cheap to take, and the trump is worth keeping for a harder attack.")),
        Step(4, _("Bo took one card and holds six again, so he draws nothing: nobody refills "
                  "above the hand size. He did not beat everything, so Cilla attacks Dag."),
             "D-R1"),
        Step(6, _("Cilla attacks with one club and draws one card."), "D-R1"),
        Step(8, _("Beat the four of clubs with the ten of clubs."), "D-N1", your_move=True,
             better=_("Dag can beat the only card, so he should: a defender who beats every card "
                      "attacks next.")),
        Step(8, _("Dag beat everything and refilled after his defence. Now he attacks Anna."),
             "D-N1"),
    )),
    Tutorial("dam", "endgame", _("The endgame"),
             _("The attack limit, going out, and the last player who loses."), (
        Step(0, _("Late in a deal: one card is left in the stock and diamonds are trump. Anna "
                  "attacks Bo with the three of clubs."), "D-E1"),
        Step(1, _("Anna refills, but only one card was left, so the refill stops there. The stock "
                  "is empty: from now on nobody draws."), "D-R2"),
        Step(3, _("Bo beats the three of clubs with the jack of diamonds, a trump."), "D-B1"),
        Step(4, _("Bo attacks Cilla with his last card. His hand is empty and the stock is gone, "
                  "so Bo is out: he is safe."), "D-N2"),
        Step(6, _("Cilla beats the six of hearts with the king. The next player with cards, "
                  "Anna, defends."), "D-N2"),
        Step(7, _("Anna holds only two cards, so Cilla may attack with at most two. Attack with "
                  "Svarta Maja and the seven of spades."), "D-A4", your_move=True,
             better=_("With the stock empty every attack is a chance to get rid of Svarta Maja. "
                      "Lay her now, together with the seven.")),
        Step(8, _("Anna cannot beat either card and takes them both, Svarta Maja included."),
             "D-B5"),
        Step(10, _("Cilla attacked again with the five of clubs. Anna beat it with the eight, so "
                   "now she attacks Cilla."), "D-N1"),
        Step(11, _("Cilla holds one card, so Anna may attack with only one."), "D-A4"),
        Step(12, _("Cilla beats the four with her last card and is out. Anna is the last player "
                   "holding cards: she has Svarta Maja and loses the deal."), "D-E2"),
    )),
    Tutorial("dam", "variants", _("Variants: marriage trump, extra attack, overplay penalty"),
             _("The older Swedish rules together with the Finnish extra attack."), (
        Step(0, _("Older Swedish rules with the extra attack. No trump is turned: whoever holds "
                  "the king and queen of one suit may announce them, and that suit becomes "
                  "trump."), "D-T4"),
        Step(1, _("Anna holds the king and queen of hearts. Announce them: choose the two cards "
                  "and press Announce."), "D-T4", your_move=True,
             better=_("Announcing costs nothing and does not use up the turn, and a trump suit "
                      "of her own helps Anna more than no trump at all.")),
        Step(3, _("Anna attacks with two clubs and refills with the last two cards of the stock. "
                  "With the extra attack, Bo decides first: slap to close the attack, or "
                  "wait."), "D-A5"),
        Step(6, _("Bo waits, so Anna may add more clubs. Add the nine of clubs."), "D-A5",
             your_move=True,
             better=_("Adding the nine gets one more card out of Anna's hand, and the fewer cards "
                      "she holds near the end, the better.")),
        Step(10, _("Bo beats all three clubs, the last one with the three of hearts: hearts are "
                   "trump now."), "D-B1"),
        Step(12, _("With the stock empty, Bo attacks Cilla with three spades although she holds "
                   "only two cards. Under the older rules that is allowed but punished: Cilla "
                   "gives Bo all her cards, Bo takes his attack back, and Cilla is out."), "D-A4"),
        Step(12, _("In this variant hand sizes are kept hidden once the stock is empty, so an "
                   "overplay is a real risk. Anna attacks next."), "D-A4"),
    )),
)

DOLDA = (
    Tutorial("dolda", "draw-and-swap", _("Drawing and the swap chain"),
             _("Draw a card, swap it along your row, and stop at the crosswise card."), (
        Step(0, _("Each player has a row of six face-down cards; the last one lies crosswise. "
                  "Nobody has looked at their row. Anna, left of the dealer, begins."), "H-S2"),
        Step(1, _("Draw the top card of the stock."), "H-T2", your_move=True),
        Step(2, _("The queen of hearts is worth nothing. Swap it into your row: it replaces the "
                  "leftmost card, which you then look at."), "H-T3", your_move=True,
             better=_("A queen scores 0, the best card there is: keep it in your row instead of "
                      "discarding it.")),
        Step(2, _("Out came the two of clubs. Anna may discard it, or swap it into the next "
                  "position."), "H-T3"),
        Step(6, _("She swapped on, always one position further to the right, and looked at each "
                  "card she took out."), "H-T3"),
        Step(7, _("After the fifth swap she holds the queen of clubs. The sixth card lies "
                  "crosswise and can never be swapped, so she must discard the queen, good as it "
                  "is."), "H-T4"),
        Step(9, _("Anna discards the queen face up, and her turn ends."), "H-T3"),
        Step(10, _("Bo takes the queen of clubs from the discard pile instead of an unknown card "
                   "from the stock."), "H-T2"),
        Step(12, _("He swaps it into his first position and discards the card that came out. "
                   "Anna sees only the card he discards."), "H-T5"),
    ), viewer="Anna", reveal_hands=False),
    Tutorial("dolda", "scoring", _("The end of the deal and scoring"),
             _("When the deal ends, what each card is worth, and who wins."), (
        Step(0, _("Late in a deal: two cards are left in the stock. The deal ends when the stock "
                  "is empty and the turn that drew its last card is over."), "H-E1"),
        Step(1, _("Anna draws the nine of diamonds."), "H-T2"),
        Step(2, _("A nine is worth nine points. Discard it."), "H-T3", your_move=True,
             better=_("Anna does not know her first card, but an unknown card is worth about six "
                      "on average: the nine would most likely raise her score.")),
        Step(3, _("Bo draws the last card of the stock. The deal ends as soon as his turn is "
                  "over."), "H-E1"),
        Step(5, _("Everyone turns their row up and scores: queen 0, ace 1, two to ten at face "
                  "value, jack 11, king 13."), "H-E2"),
        Step(5, _("Anna has 15 points, Bo 51 and Cilla 19. The lowest total wins: Anna."),
             "H-E2"),
    ), viewer="Anna", reveal_hands=False),
    Tutorial("dolda", "thieves-and-shields", _("Thieves and shields"),
             _("Black jacks steal, red jacks protect, once the rows are turned up."), (
        Step(0, _("With thieves and shields, jacks act at the end: the jacks of spades and clubs "
                  "are thieves, the jacks of hearts and diamonds shields."), "H-V4"),
        Step(3, _("Anna drew a card and discarded it. Bo draws the jack of spades, a thief."),
             "H-T2"),
        Step(4, _("Swap the thief into your row."), "H-V4", your_move=True,
             better=_("A jack scores 11, but a thief in your row will steal a good card from "
                      "another player at the end.")),
        Step(5, _("Bo discards the king of clubs that came out. The stock is empty, so the rows "
                  "are turned up. Shields act first: Anna has the jack of hearts."), "H-V4"),
        Step(7, _("Anna lays her shield on her two queens: they can no longer be stolen."),
             "H-V4"),
        Step(8, _("Then the thieves act, the one got first going first. Cilla was dealt her "
                  "jack of clubs: she lays it on her king of spades and takes Anna's two of "
                  "clubs. The king goes to Anna in exchange."), "H-V4"),
        Step(9, _("Two thieves may not rob the same player, so Bo robs Cilla: he lays his thief "
                  "on his ten of clubs and takes her queen of diamonds."), "H-V4"),
        Step(9, _("Used jacks still score 11 points. Bo has the lowest total, 29, and wins."),
             "H-E2"),
    ), viewer="Bo", reveal_hands=False),
)

SPARDAME = (
    Tutorial("spardame", "passing", _("Passing cards"),
             _("Three cards to the left, right or across, all at once."), (
        Step(0, _("Four players, thirteen cards each. In the first deal everyone passes three "
                  "cards to the player on their left before play begins."), "S-P1"),
        Step(2, _("Anna chooses first. Pass the queen of spades, the ace of spades and the ace of "
                  "hearts: choose the three cards and press Pass."), "S-P1", your_move=True,
             better=_("The queen of spades costs 13 points, and high spades and hearts are the "
                      "cards most likely to win tricks you do not want. Pass them on.")),
        Step(4, _("The others choose in turn. Chosen cards lie face down until everyone has "
                  "chosen, so nobody can pass on a card they have just received."), "S-P1"),
        Step(5, _("Dag chooses last, and all the cards move at once. Bo now holds the queen of "
                  "spades."), "S-P1"),
        Step(7, _("Whoever holds the two of clubs leads it to the first trick: Anna."), "S-T1"),
    ), viewer="Anna"),
    Tutorial("spardame", "following-suit", _("Following suit, breaking hearts, the first trick"),
             _("When you must follow, when you may lead hearts, and the clean first trick."), (
        Step(1, _("The fourth deal has no passing. Bo holds the two of clubs and leads it."),
             "S-T1"),
        Step(2, _("Cilla has no clubs, so she may play any card, but no heart and not the queen "
                  "of spades on the first trick. Play the three of diamonds."), "S-T4",
             your_move=True,
             better=_("Playing her only diamond leaves Cilla without diamonds, so she can throw "
                      "hearts away whenever diamonds are led.")),
        Step(4, _("Dag follows with a club. Anna's ace of clubs is the highest club and wins the "
                  "trick; she leads next."), "S-T5"),
        Step(6, _("Hearts are not broken yet, so you may not lead one. Lead the king of "
                  "diamonds."), "S-T3", your_move=True,
             better=_("This lesson leads the king of diamonds to show how hearts get broken: "
                      "Cilla has no diamonds left and will have to throw something else.")),
        Step(7, _("Bo holds diamonds, so he must follow suit."), "S-T2"),
        Step(8, _("Cilla has no diamonds and throws a heart. Hearts are now broken."), "S-T3"),
        Step(9, _("Anna's king wins the trick, and with it one heart: one point."), "S-C1"),
        Step(11, _("Now Anna may lead a heart."), "S-T3"),
    ), viewer="Anna"),
    Tutorial("spardame", "scoring-and-moon", _("Scoring and shooting the moon"),
             _("A point for each heart, 13 for the queen of spades, unless someone takes them "
               "all."), (
        Step(0, _("Each heart you take costs one point and the queen of spades 13: 26 points in "
                  "all. This deal shows the exception."), "S-C1"),
        Step(4, _("Anna leads the two of clubs. Nobody else has a club, so it wins, even against "
                  "three aces."), "S-T5"),
        Step(5, _("Anna leads again. Lead the ace of clubs."), "S-T5", your_move=True,
             better=_("Any club wins here, since nobody else holds one. The lesson plays the "
                      "clubs from the ace down.")),
        Step(12, _("Anna wins every trick. After three tricks she has three hearts and the queen "
                   "of spades: 16 points so far."), "S-C1"),
        Step(52, _("Anna took all thirteen hearts and the queen of spades: she shot the moon. "
                   "She scores 0 and everyone else 26."), "S-C2"),
        Step(52, _("Scores add up over the deals. The game ends after the deal in which someone "
                   "reaches 100 points, and the lowest total wins."), "S-C3"),
    ), viewer="Anna"),
)

GAMES = ("dam", "dolda", "spardame")
BY_GAME: dict[str, tuple[Tutorial, ...]] = {"dam": DAM, "dolda": DOLDA, "spardame": SPARDAME}
TUTORIALS: dict[tuple[str, str], Tutorial] = {(t.game, t.slug): t for g in BY_GAME.values()
                                              for t in g}


def get(game: str, slug: str) -> Tutorial | None:
    return TUTORIALS.get((game, slug))


def narration_msgids() -> list[str]:
    """Every msgid a tutorial shows (titles, summaries, narration, explanations)."""
    texts: list[Promise] = list(GAME_TITLES.values())
    for t in TUTORIALS.values():
        texts += [t.title, t.summary]
        for s in t.steps:
            texts.append(s.say)
            if s.better is not None:
                texts.append(s.better)
    with translation.override(None):  # no catalogue: each text is its msgid
        return [str(x) for x in texts]
