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

from games.registry import GAME_TITLES, GAMES
from games.replay import Replay, replay_file

SCENARIO_DIR = Path(__file__).resolve().parent / "scenarios"

# The stages of a game's lesson map, in order: the rules first, then play, then variants.
STAGES: dict[str, Promise] = {
    "rules": _("The rules"),
    "tactics": _("Playing well"),
    "variants": _("Variants"),
}


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
    stage: str = "rules"  # where the lesson map puts it: a key of STAGES
    # The puzzles its end offers ("Puzzles on this theme"): a theme of puzzles/texts.py.
    puzzle_theme: str = "judgement"

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
        Step(1, _("Anna sits on the dealer's left, so she attacks first, against Bo. Get rid of "
                  "cards you can spare, and keep the ones that are good for beating."), "D-S4",
             your_move=True,
             nudge=_("An attack is one or more cards of one suit. Low cards are the ones to "
                     "spare; high cards beat attacks later."),
             better=_("The five and the nine of clubs are low cards of one suit, so both leave "
                      "Anna's hand in one attack. Her ace of clubs and her two kings are worth "
                      "keeping: high cards beat attacks later.")),
        Step(1, _("Right after the first attack the top card of the stock is turned for trump. It "
                  "was the seven of spades, and spades cannot be trump, so it went back into the "
                  "stock. The next card, the king of diamonds, was turned: diamonds are trump."),
             "D-T2"),
        Step(1, _("The king of diamonds lies crosswise under the stock and will be the last card "
                  "drawn. Anna has refilled her hand to six cards: the attacker always draws "
                  "first."), "D-T1"),
        Step(3, _("Bo beats the five of clubs with the eight of clubs, a higher card of the same "
                  "suit."), "D-B1"),
        Step(4, _("He beats the nine with the jack of clubs, so he needs no trump. Every card is "
                  "beaten, so Bo refills and attacks Cilla next."), "D-N1"),
    ), puzzle_theme="attack_low"),
    Tutorial("dam", "anna-bo-cilla", _("Anna, Bo and Cilla: attack and defence"),
             _("Beating with a higher card or a trump, and taking what you cannot beat."), (
        Step(0, _("Anna, Bo and Cilla play with six cards each. Trump is already turned: the "
                  "seven of diamonds lies crosswise under the stock, so diamonds are trump. Anna "
                  "sits on the dealer's left and attacks Bo."), "D-T1"),
        Step(2, _("Anna attacks with three clubs at once: the five, the nine and the queen. An "
                  "attack may hold several cards, all of one suit. Anna refills to six right "
                  "away."), "D-A1"),
        Step(4, _("Bo must answer the attack. He may beat each card on its own, with a higher "
                  "club or with a trump. Keep your trumps if you can."), "D-B1", your_move=True,
             nudge=_("A card of the same suit beats an attack card only if it is higher. Look "
                     "for a card that does the job without costing a trump."),
             better=_("The eight of clubs beats the five without costing a trump, and it is too "
                      "low for the nine or the queen anyway. Keep the trumps for the cards no "
                      "club of Bo's can beat.")),
        Step(4, _("The eight of clubs beats the five: a higher card of the same suit."), "D-B1"),
        Step(4, _("Bo has no club higher than the nine, so only a trump can beat the nine or the "
                  "queen. He holds two trumps: the three and the nine of diamonds."), "D-B1"),
        Step(5, _("Bo can afford to spend one trump, not both. Which club is worth that trump, and "
                  "which would he rather take into his hand?"), "D-B1", your_move=True,
             nudge=_("Any trump beats a card of another suit, so spend the lowest one. If a card "
                     "must be taken, take the one that is more useful to hold."),
             better=_("The three of diamonds, Bo's lowest trump, is enough for the nine of "
                      "clubs. His nine of diamonds is worth keeping, and if a card must be "
                      "taken, the queen of clubs is the better one to hold: it can beat clubs "
                      "later.")),
        Step(6, _("Only the queen of clubs is left. Bo's one remaining trump is the nine of "
                  "diamonds, a card he wants for the end of the deal. Finish the defence."),
             "D-B3", your_move=True,
             nudge=_("Beating is optional, card by card. Trumps decide the end of the deal, when "
                     "the stock is empty and nobody refills."),
             better=_("Bo could beat the queen with the nine of diamonds, but a trump is worth "
                      "more once the stock is empty and nobody refills. The queen of clubs is a "
                      "good card to hold: it beats lower clubs.")),
        Step(6, _("Bo takes the queen of clubs into his hand. The four cards that met, the five "
                  "and the nine with the cards that beat them, go face down to the discard pile, "
                  "out of the game."), "D-B4"),
        Step(6, _("Anna refilled first, right after her attack. Bo now holds four cards plus the "
                  "queen of clubs, five in all, and refills to six."), "D-R1"),
        Step(6, _("Bo did not beat every card, so the attack passes on: Cilla, the player after "
                  "Bo, attacks Anna next."), "D-N1"),
    ), puzzle_theme="overplay"),
    Tutorial("dam", "aino-eero-maija", _("Aino, Eero and Maija: Musta Maija"),
             _("The Finnish way with five cards: beat everything and attack next."), (
        Step(0, _("Aino, Eero and Maija play Musta Maija, the Finnish game, with five cards each. "
                  "There is no trump yet: it is turned only after the first attack. Aino sits on "
                  "the dealer's left and attacks Eero."), "D-S2"),
        Step(2, _("Aino attacks with the seven and the nine of hearts. Only now is the top card "
                  "of the stock turned: the jack of clubs, so clubs are trump. It lies crosswise "
                  "under the stock, and Aino refills to five."), "D-T1"),
        Step(4, _("Eero must answer the attack. A defender who beats every card attacks next: "
                  "can Eero beat both hearts?"), "D-B1", your_move=True,
             nudge=_("A card is beaten by a higher card of its own suit or, unless it is a "
                     "trump itself, by any trump. Use a heart where a heart is enough."),
             better=_("The ace of hearts beats either heart, and the four of clubs, his only "
                      "trump, beats the other one: together they beat both. Taking would cost "
                      "Eero the next attack. In this lesson the ace goes on the nine first.")),
        Step(5, _("The nine of hearts is beaten. The seven is left, and none of his hearts can "
                  "beat it. Finish the defence so that Eero attacks next."), "D-B1",
             your_move=True,
             nudge=_("Any trump beats a card of another suit, even a small trump. A defender who "
                     "beats every card attacks next."),
             better=_("Taking the seven would give Eero one more card and pass the next attack "
                      "on to Maija. The four of clubs is a small trump, and beating with it makes "
                      "Eero the attacker.")),
        Step(5, _("Eero beat both hearts. The four cards that met go face down to the discard "
                  "pile. Eero beat everything, so he refills and attacks next, against Maija."),
             "D-N1"),
        Step(7, _("Eero attacks Maija with the five of spades. Maija holds the queen of spades, "
                  "but she cannot beat with it: the queen of spades never beats anything, not "
                  "even a low spade."), "D-B2"),
        Step(9, _("Maija beats the five with the six of clubs, a trump. She beat everything, so "
                  "she attacks next, against Aino."), "D-N1"),
        Step(11, _("Maija attacks with the queen and the two of spades. Aino can beat the two "
                   "with a trump, but nothing beats the queen of spades, not even a trump."),
             "D-B2"),
        Step(14, _("Aino beats the two with the three of clubs and takes the queen of spades. "
                   "She did not beat everything, so the player after her, Eero, attacks Maija "
                   "next."), "D-N1"),
    ), puzzle_theme="save_trumps"),
    Tutorial("dam", "svarta-maja", _("Svarta Maja, the queen of spades"),
             _("She can neither beat nor be beaten: get rid of her with other spades."), (
        Step(0, _("Bo holds the queen of spades, Svarta Maja. Whoever holds her at the end of the "
                  "deal loses, and she can never be discarded."), "D-E2"),
        Step(1, _("Anna attacks Bo with the three of spades."), "D-A1"),
        Step(2, _("Bo wants to attack next, because an attack is the only way to pass Svarta "
                  "Maja on. Answer Anna's attack."), "D-B2", your_move=True,
             nudge=_("A defender who beats every attack card attacks next. Svarta Maja never "
                     "beats anything, not even the lowest spade."),
             better=_("Taking the three would add a card to Bo's hand and pass the next attack "
                      "on to Cilla. The nine of spades beats it and keeps the jack of diamonds, "
                      "a trump, for later.")),
        Step(3, _("Bo beat every card, so he attacks Cilla. Get Svarta Maja out of his hand, "
                  "together with as many other cards as he can."), "D-A2", your_move=True,
             nudge=_("Svarta Maja may be laid alone or together with other spades, and nothing "
                     "beats her in an attack."),
             better=_("Svarta Maja together with the two of spades passes her on and takes two "
                      "cards out of Bo's hand at once. Laid alone she would go too, but only one "
                      "card would leave his hand; any other attack keeps her with Bo.")),
        Step(4, _("Cilla beats the two of spades with the king of spades."), "D-B1"),
        # Taking is Cilla's only legal move here: told, not asked (a puzzle needs a choice).
        Step(4, _("Only Svarta Maja is left on the table. Cilla holds the ace of spades and two "
                  "trumps, but nothing beats Svarta Maja in an attack, not the ace of spades, "
                  "not a trump: Cilla has to take her."), "D-B2"),
        Step(5, _("Cilla took a card, so the player after her, Anna, attacks next. Cilla must now "
                  "pass Svarta Maja on in an attack of her own."), "D-N1"),
    ), puzzle_theme="maja"),
    Tutorial("dam", "refilling", _("Refilling and who attacks next"),
             _("The attacker draws first, nobody draws above six, and beating everything earns "
               "the attack."), (
        Step(0, _("Four players, six cards each, diamonds trump. Anna attacks Bo."), "D-S4"),
        Step(1, _("Anna laid two hearts and refilled at once: the attacker always draws first, "
                  "right after attacking."), "D-R1"),
        Step(3, _("Bo beat the three of hearts with the nine."), "D-B1"),
        Step(4, _("The five of hearts is still on the table, and Bo has no heart left to beat "
                  "it. Finish the defence as cheaply as you can."), "D-B3", your_move=True,
             nudge=_("Beating is optional, card by card. A trump is worth more than a low card "
                     "in your hand."),
             better=_("Bo could trump the five with the jack of diamonds, but a low heart is "
                      "cheap to take, and the trump is worth keeping for a harder attack.")),
        Step(4, _("Bo took one card and holds six again, so he draws nothing: nobody refills "
                  "above the hand size. He did not beat everything, so Cilla attacks Dag."),
             "D-R1"),
        Step(6, _("Cilla attacks with one club and draws one card."), "D-R1"),
        Step(8, _("Dag must answer the attack. If he beats it, he attacks next. Spend as "
                  "little as you can."), "D-N1", your_move=True,
             nudge=_("Beat with the lowest card that does the job: a higher card of the same "
                     "suit, or else a trump."),
             better=_("The six of clubs is the cheapest card that beats the four. The ten of "
                      "clubs and the nine of diamonds, a trump, are worth keeping, and taking "
                      "would cost Dag the next attack.")),
        Step(8, _("Dag beat everything and refilled after his defence. Now he attacks Anna."),
             "D-N1"),
    ), puzzle_theme="attack_low"),
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
        Step(7, _("The stock is empty and Anna holds two cards. Get rid of Svarta Maja, and keep "
                  "what you will need for beating later."), "D-A4", your_move=True,
             nudge=_("Once the stock is empty, an attack may hold no more cards than the "
                     "defender holds. Svarta Maja may go together with other spades."),
             better=_("Svarta Maja with the five of spades passes her on and gets rid of two cards "
                      "at once. The seven of spades is the better card to keep, for "
                      "beating spades later, and any attack without the queen leaves her with "
                      "Cilla.")),
        Step(8, _("Anna cannot beat either card and takes them both, Svarta Maja included."),
             "D-B5"),
        Step(10, _("Cilla attacked again with the five of clubs. Anna beat it with the eight, so "
                   "now she attacks Cilla."), "D-N1"),
        Step(11, _("Cilla holds one card, so Anna may attack with only one."), "D-A4"),
        Step(12, _("Cilla beats the four with her last card and is out. Anna is the last player "
                   "holding cards: she has Svarta Maja and loses the deal."), "D-E2"),
    ), stage="tactics", puzzle_theme="endgame_limit"),
    Tutorial("dam", "variants", _("Variants: marriage trump, extra attack, overplay penalty"),
             _("The older Swedish rules together with the Finnish extra attack."), (
        Step(0, _("Older Swedish rules with the extra attack. No trump is turned: whoever holds "
                  "the king and queen of one suit may announce them, and that suit becomes "
                  "trump."), "D-T4"),
        Step(1, _("No suit is trump yet, and Anna holds a king and a queen of one suit. Make them "
                  "count before she attacks."), "D-T4", your_move=True,
             nudge=_("A king and queen of one suit may be announced whenever you have a "
                     "decision to make; that suit becomes trump. Announcing does not use up the turn."),
             better=_("Announcing costs nothing and does not use up the turn, and a trump suit "
                      "of her own helps Anna more than no trump at all.")),
        Step(3, _("Anna attacks with two clubs and refills with the last two cards of the stock. "
                  "With the extra attack, Bo decides first: slap to close the attack, or "
                  "wait."), "D-A5"),
        Step(6, _("Bo waits, so Anna may add more cards of the attack's suit. The stock is empty: "
                  "nobody refills any more."), "D-A5", your_move=True,
             nudge=_("After a wait the attacker may add cards of the attack's suit. Cards added "
                     "now are not replaced."),
             better=_("Adding the nine gets one more card out of Anna's hand, and the fewer cards "
                      "she holds near the end, the better.")),
        Step(10, _("Bo beats all three clubs, the last one with the three of hearts: hearts are "
                   "trump now."), "D-B1"),
        Step(12, _("With the stock empty, Bo attacks Cilla with three spades although she holds "
                   "only two cards. Under the older rules that is allowed but punished: Cilla "
                   "gives Bo all her cards, Bo takes his attack back, and Cilla is out."), "D-A4"),
        Step(12, _("In this variant hand sizes are kept hidden once the stock is empty, so an "
                   "overplay is a real risk. Anna attacks next."), "D-A4"),
    ), stage="variants", puzzle_theme="save_trumps"),
)

DOLDA = (
    Tutorial("dolda", "draw-and-swap", _("Drawing and the swap chain"),
             _("Draw a card, swap it along your row, and stop at the crosswise card."), (
        Step(0, _("Each player has a row of six face-down cards; the last one lies crosswise. "
                  "Nobody has looked at their row. Anna, left of the dealer, begins."), "H-S2"),
        # With the discard pile empty the stock is Anna's only move: told, not asked.
        Step(1, _("A turn begins by taking the top card of the stock or of the discard pile. "
                  "The discard pile is still empty, so Anna begins by drawing from the stock."),
             "H-T2"),
        Step(2, _("Anna drew the queen of hearts. The lowest total wins: does this card belong "
                  "in her row?"), "H-T3", your_move=True,
             nudge=_("A queen scores 0. The first card you keep in a turn goes into the "
                     "leftmost position of your row, and the card it replaces comes into your "
                     "hand."),
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
    ), viewer="Anna", reveal_hands=False, puzzle_theme="swap_chain"),
    Tutorial("dolda", "scoring", _("The end of the deal and scoring"),
             _("When the deal ends, what each card is worth, and who wins."), (
        Step(0, _("Late in a deal: two cards are left in the stock. The deal ends when the stock "
                  "is empty and the turn that drew its last card is over."), "H-E1"),
        Step(1, _("Anna draws the nine of diamonds."), "H-T2"),
        Step(2, _("A nine is worth nine points, and Anna has never seen the cards of her row. "
                  "Keep her total as low as possible."), "H-T3", your_move=True,
             nudge=_("Nobody knows the cards in their own row. An unknown card is worth about six "
                     "points on average."),
             better=_("Anna does not know her first card, but an unknown card is worth about six "
                      "on average: the nine would most likely raise her score.")),
        Step(3, _("Bo draws the last card of the stock. The deal ends as soon as his turn is "
                  "over."), "H-E1"),
        Step(5, _("Everyone turns their row up and scores: queen 0, ace 1, two to ten at face "
                  "value, jack 11, king 13."), "H-E2"),
        Step(5, _("Anna has 15 points, Bo 51 and Cilla 19. The lowest total wins: Anna."),
             "H-E2"),
    ), viewer="Anna", reveal_hands=False, puzzle_theme="discard_pile"),
    Tutorial("dolda", "thieves-and-shields", _("Thieves and shields"),
             _("Black jacks steal, red jacks protect, once the rows are turned up."), (
        Step(0, _("With thieves and shields, jacks act at the end: the jacks of spades and clubs "
                  "are thieves, the jacks of hearts and diamonds shields."), "H-V4"),
        Step(3, _("Anna drew a card and discarded it. Bo draws the jack of spades, a thief."),
             "H-T2"),
        Step(4, _("A jack scores 11 points, but a black jack in the row does more than score. "
                  "Is it worth a place in Bo's row?"), "H-V4", your_move=True,
             nudge=_("A black jack in your row is a thief: at the end it steals one card from "
                     "another player's row."),
             better=_("A jack scores 11, but a thief in your row will steal a good card from "
                      "another player at the end.")),
        Step(5, _("Bo discards the king of clubs that came out. The stock is empty, so the rows "
                  "are turned up. Shields act first: Anna has the jack of hearts."), "H-V4"),
        Step(7, _("Anna lays her shield on her two queens: they can no longer be stolen."),
             "H-V4"),
        Step(8, _("Then the thieves act; the one acquired first acts first. Cilla was dealt her "
                  "jack of clubs: she lays it on her king of spades and takes Anna's two of "
                  "clubs. The king goes to Anna in exchange."), "H-V4"),
        Step(9, _("Two thieves may not rob the same player, so Bo robs Cilla: he lays his thief "
                  "on his ten of clubs and takes her queen of diamonds."), "H-V4"),
        Step(9, _("Used jacks still score 11 points. Bo has the lowest total, 29, and wins."),
             "H-E2"),
    ), viewer="Bo", reveal_hands=False, stage="variants", puzzle_theme="thief_shield"),
)

SPARDAME = (
    Tutorial("spardame", "passing", _("Passing cards"),
             _("Three cards to the left, right or across, all at once."), (
        Step(0, _("Four players, thirteen cards each. In the first deal everyone passes three "
                  "cards to the player on their left before play begins."), "S-P1"),
        Step(2, _("Anna chooses first. Which three cards are most likely to cost her points?"),
             "S-P1", your_move=True,
             nudge=_("The queen of spades costs 13 points and each heart one. High cards win "
                     "tricks, and whoever wins a trick takes its points."),
             better=_("The queen of spades costs 13 points, and high spades and hearts are the "
                      "cards most likely to win tricks you do not want. Pass them on.")),
        Step(4, _("The others choose in turn. Chosen cards lie face down until everyone has "
                  "chosen, so nobody can pass on a card they have just received."), "S-P1"),
        Step(5, _("Dag chooses last, and all the cards move at once. Bo now holds the queen of "
                  "spades."), "S-P1"),
        Step(7, _("Whoever holds the two of clubs leads it to the first trick: Anna."), "S-T1"),
    ), viewer="Anna", puzzle_theme="queen"),
    Tutorial("spardame", "following-suit", _("Following suit, breaking hearts, the first trick"),
             _("When you must follow, when you may lead hearts, and the clean first trick."), (
        Step(1, _("The fourth deal has no passing. Bo holds the two of clubs and leads it."),
             "S-T1"),
        Step(2, _("Cilla has no clubs, so she need not follow suit, but no point card may go on "
                  "the first trick. Choose a card that helps her later in the deal."), "S-T4",
             your_move=True,
             nudge=_("Once you hold no card of a suit, you may throw away a heart whenever that "
                     "suit is led."),
             better=_("Playing her only diamond leaves Cilla without diamonds, so she can throw "
                      "hearts away whenever diamonds are led.")),
        Step(4, _("Dag follows with a club. Anna's ace of clubs is the highest club and wins the "
                  "trick; she leads next."), "S-T5"),
        Step(6, _("Anna leads. Hearts are not broken, so she may not lead one. Lead so that she "
                  "can get rid of hearts and the queen of spades later."), "S-T3",
             your_move=True,
             nudge=_("Hearts may not be led until a heart has been played. A suit you no longer "
                     "hold lets you throw away point cards when it is led."),
             better=_("The king of diamonds is Anna's only diamond: once it is played she holds "
                      "none, and whenever diamonds are led she may throw away a heart or the "
                      "queen of spades.")),
        Step(7, _("Bo holds diamonds, so he must follow suit."), "S-T2"),
        Step(8, _("Cilla has no diamonds and throws a heart. Hearts are now broken."), "S-T3"),
        Step(9, _("Anna's king wins the trick, and with it one heart: one point."), "S-C1"),
        Step(11, _("Now Anna may lead a heart."), "S-T3"),
    ), viewer="Anna", puzzle_theme="hearts"),
    Tutorial("spardame", "scoring-and-moon", _("Scoring and shooting the moon"),
             _("A point for each heart, 13 for the queen of spades, unless someone takes them "
               "all."), (
        Step(0, _("Each heart you take costs one point and the queen of spades 13: 26 points in "
                  "all. This deal shows the exception."), "S-C1"),
        # The two of clubs is the only card that may lead the first trick: told, not asked.
        Step(1, _("Anna holds every club; the others hold all the diamonds, hearts and spades. "
                  "Whoever holds the two of clubs leads it to the first trick, so Anna leads "
                  "her two of clubs."), "S-T1"),
        Step(2, _("Bo has no club, so he may play any of his diamonds, and whatever he plays, "
                  "the trick is not his. Which diamond should he play?"), "S-T2", your_move=True,
             nudge=_("A trick you cannot win is the safest place for a high card that could "
                     "win you a trick full of points later."),
             better=_("Anna's two of clubs takes this trick whatever Bo plays, so it costs him "
                      "nothing to get rid of his highest card, the ace of diamonds, which could "
                      "otherwise win him a trick full of hearts later.")),
        Step(4, _("Nobody else has a club, so Anna's two wins the trick, even against three "
                  "aces."), "S-T5"),
        Step(12, _("Anna wins every trick. After three tricks she has three hearts and the queen "
                   "of spades: 16 points so far."), "S-C1"),
        Step(52, _("Anna took all thirteen hearts and the queen of spades: she shot the moon. "
                   "She scores 0 and everyone else 26."), "S-C2"),
        Step(52, _("Scores add up over the deals. The game ends after the deal in which someone "
                   "reaches 100 points, and the lowest total wins."), "S-C3"),
    ), viewer="Anna", puzzle_theme="moon"),
)

# Each game's tutorials in the order its index lists them, the games in the registry's order.
BY_GAME: dict[str, tuple[Tutorial, ...]] = {
    g.key: tuple(t for t in (*DAM, *DOLDA, *SPARDAME) if t.game == g.key) for g in GAMES}
TUTORIALS: dict[tuple[str, str], Tutorial] = {(t.game, t.slug): t for g in BY_GAME.values()
                                              for t in g}


# Each lesson's address word in every language but English (whose word is the lesson's
# ``slug``, its key): natural words in ASCII, as the site's other address words are.  Old
# addresses with the English word (or another language's) are sent on permanently
# (``tutorials.converters``).
ADDRESSES: dict[tuple[str, str], dict[str, str]] = {
    ("dam", "deal-and-trump"): {"sv": "given-och-trumfen", "fi": "jako-ja-valtti",
                                "nb": "given-og-trumfen"},
    ("dam", "anna-bo-cilla"): {"sv": "anna-bo-och-cilla", "fi": "anna-bo-ja-cilla",
                               "nb": "anna-bo-og-cilla"},
    ("dam", "aino-eero-maija"): {"sv": "aino-eero-och-maija", "fi": "aino-eero-ja-maija",
                                 "nb": "aino-eero-og-maija"},
    ("dam", "svarta-maja"): {"sv": "svarta-maja", "fi": "musta-maija", "nb": "svarte-maja"},
    ("dam", "refilling"): {"sv": "pafyllning", "fi": "kaden-taydentaminen",
                           "nb": "pafylling"},
    ("dam", "endgame"): {"sv": "slutspelet", "fi": "loppupeli", "nb": "sluttspillet"},
    ("dam", "variants"): {"sv": "varianter", "fi": "muunnelmat", "nb": "varianter"},
    ("dolda", "draw-and-swap"): {"sv": "dra-och-byt", "fi": "nosto-ja-vaihto",
                                 "nb": "trekk-og-bytt"},
    ("dolda", "scoring"): {"sv": "poangrakning", "fi": "pisteenlasku", "nb": "poengtelling"},
    ("dolda", "thieves-and-shields"): {"sv": "tjuvar-och-skoldar", "fi": "varkaat-ja-kilvet",
                                       "nb": "tyver-og-skjold"},
    ("spardame", "passing"): {"sv": "skicka-kort", "fi": "korttien-antaminen",
                              "nb": "bytte-kort"},
    ("spardame", "following-suit"): {"sv": "bekanna-farg", "fi": "maan-tunnustaminen",
                                     "nb": "folge-farge"},
    ("spardame", "scoring-and-moon"): {"sv": "poang-och-manen", "fi": "pisteet-ja-kuu",
                                       "nb": "poeng-og-manen"},
}
assert set(ADDRESSES) == set(TUTORIALS), set(ADDRESSES) ^ set(TUTORIALS)

# Every address word of every language -> the lesson's slug.  One word names one lesson,
# whatever the language and the game, so an address word alone says which lesson it is.
SLUG_OF_WORD: dict[str, str] = {}
for (_game, _slug), _words in ADDRESSES.items():
    for _word in (_slug, *_words.values()):
        assert SLUG_OF_WORD.setdefault(_word, _slug) == _slug, _word


def address_word(slug: str, language: str | None = None) -> str:
    """The address word of the lesson ``slug`` in ``language`` (default: the active one)."""
    language = (language or translation.get_language() or "en").split("-")[0]
    for (_g, s), words in ADDRESSES.items():
        if s == slug:
            return words.get(language, slug)
    return slug


def get(game: str, slug: str) -> Tutorial | None:
    return TUTORIALS.get((game, slug))


# Every lesson in the order a newcomer takes them: each game's, the games in the registry's order.
ORDER: tuple[Tutorial, ...] = tuple(t for g in BY_GAME.values() for t in g)


def next_lesson(tutorial: Tutorial | None, done: set[str]) -> Tutorial | None:
    """The lesson to take after ``tutorial`` (None: from the start): the next one of its game
    not finished yet, else the first one not finished of any game; None when all are done."""
    after = [t for t in ORDER if t.key not in done]
    if tutorial is not None:
        same = BY_GAME[tutorial.game]
        later = same[same.index(tutorial) + 1:]
        after = [t for t in later if t.key not in done] + after
    return next((t for t in after if t is not tutorial), None)


def replay(game: str, slug: str) -> Replay:
    """A tutorial's scenario replayed (kept per process: a pure function of a shipped file)."""
    return replay_file(TUTORIALS[(game, slug)].scenario_path)


def narration_msgids() -> list[str]:
    """Every msgid a tutorial shows (titles, summaries, narration, nudges, explanations)."""
    texts: list[Promise] = list(GAME_TITLES.values())
    for t in TUTORIALS.values():
        texts += [t.title, t.summary]
        for s in t.steps:
            texts.append(s.say)
            texts += [x for x in (s.nudge, s.better) if x is not None]
    with translation.override(None):  # no catalogue: each text is its msgid
        return [str(x) for x in texts]
