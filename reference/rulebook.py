"""The rules pages' text, organised by the rule ids of docs/rules-spec.md."""

from dataclasses import dataclass

from django.utils.translation import gettext_lazy as _


@dataclass(frozen=True)
class Rule:
    id: str  # "D-B2"
    title: object  # short heading, e.g. _("The queen of spades")
    text: object  # 1-4 sentences, the rule in plain words
    more: tuple = ()  # further paragraphs of a long rule, each its own msgid
    decision: object = None  # where rules-spec.md marks a Decision: our choice and why
    options: tuple = ()  # names of the options (rules-spec.md) that change this rule
    example: tuple = ()  # card codes drawn by the card component, e.g. ("QS", "3S", "7S")
    example_caption: object = None


@dataclass(frozen=True)
class Section:
    key: str  # "setup", "trump", "attack", ...
    title: object
    rules: tuple


@dataclass(frozen=True)
class Game:
    key: str  # "dam", "dolda", "spardame"
    title: object
    intro: object  # 2-3 sentences
    sections: tuple
    tactics: tuple = ()
    mistakes: tuple = ()


DAM = Game(
    key="dam",
    title=_("Dam (Svarta Maja)"),
    intro=_(
        "Dam, also called Svarta Maja, is an attack game for 2–6 players: you attack your "
        "left-hand neighbour with cards of one suit, and they beat them or take them up. The queen "
        "of spades can neither beat nor be beaten, so she travels round the table. When the stock "
        "is gone, whoever is left holding cards loses the deal, and that player nearly always "
        "holds her."
    ),
    sections=(
        Section(
            key="setup",
            title=_("Setup"),
            rules=(
                Rule(
                    id="D-S1",
                    title=_("Players"),
                    text=_(
                        "Two to six can play, with an ordinary 52-card deck and no jokers; aces "
                        "are high. With the eight-player option up to eight can join, as Swedish "
                        "Wikipedia allows."
                    ),
                    options=("max_players_8",),
                ),
                Rule(
                    id="D-S2",
                    title=_("Hand size"),
                    text=_(
                        "Everyone plays with the same hand size, agreed before the deal: six cards "
                        "in the Swedish sources, five in Musta Maija as pagat.com describes it, or "
                        "three in the Finnish three-card variant."
                    ),
                    options=("hand_size",),
                ),
                Rule(
                    id="D-S3",
                    title=_("Dealing"),
                    text=_(
                        "The dealer gives out the cards one at a time, clockwise, starting with "
                        "the player on their left. The undealt cards form the stock, placed face "
                        "down."
                    ),
                ),
                Rule(
                    id="D-S4",
                    title=_("First attack"),
                    text=_("The player on the dealer's left makes the first attack."),
                ),
            ),
        ),
        Section(
            key="trump",
            title=_("Trump"),
            rules=(
                Rule(
                    id="D-T1",
                    title=_("Turned trump"),
                    text=_(
                        "In the usual game nobody knows trump when the deal starts. As soon as the "
                        "first attack lies on the table, and before the attacker draws, the top "
                        "card of the stock is turned face up: its suit is trump for the whole "
                        "deal. The card is slid crosswise under the stock, so it is the last card "
                        "anyone draws."
                    ),
                    options=("trump",),
                    example=("8D",),
                    example_caption=_("Eight of diamonds turned up: diamonds are trump."),
                ),
                Rule(
                    id="D-T2",
                    title=_("Spades are never trump"),
                    text=_(
                        "If the turned card is a spade, it is pushed back in among the cards of "
                        "the stock and the top card is turned again, as often as needed. The "
                        "option that lets spades be trump switches this off."
                    ),
                    decision=_(
                        "The sources say only that the spade goes back into the stock, in among "
                        "the cards; we put it at a random place, which may be the top, so that "
                        "nobody knows where it lies. If the stock holds nothing but spades, we "
                        "play the deal without trump: the sources do not cover this rare case, "
                        "and turning cards for ever is no answer."
                    ),
                    options=("spades_can_be_trump",),
                    example=("5S",),
                    example_caption=_("A turned spade goes back into the stock."),
                ),
                Rule(
                    id="D-T3",
                    title=_("Fixed trump"),
                    text=_(
                        "Some tables skip the turning: one suit – diamonds, unless you choose "
                        "another – is trump from the moment the cards are dealt."
                    ),
                    options=("trump", "fixed_trump_suit"),
                ),
                Rule(
                    id="D-T4",
                    title=_("Trump by marriage"),
                    text=_(
                        "In the older Swedish rules the deal starts without trump, or with a trump "
                        "you agreed beforehand. A player holding the king and queen of one suit "
                        "may show them whenever the choice is theirs – before attacking or while "
                        "defending – and that suit becomes trump. Showing is voluntary and costs "
                        "no turn. Depending on the option, the first marriage settles trump for "
                        "the deal, or every later one changes it again. If several players were "
                        "dealt a pair, the first of them in turn gets the first chance to show "
                        "it, and so decides trump – unless they choose to wait."
                    ),
                    options=(
                        "trump",
                        "initial_trump",
                        "marriage_can_change",
                        "spades_can_be_trump",
                    ),
                    example=("KH", "QH"),
                    example_caption=_("King and queen of hearts: show them and hearts are trump."),
                ),
                Rule(
                    id="D-T5",
                    title=_("Three cards"),
                    text=_(
                        "In the Finnish three-card game no trump is turned: diamonds are trump "
                        "until someone shows a king-and-queen pair. On this site that is the "
                        "marriage rule with diamonds as the starting trump."
                    ),
                    options=("hand_size", "trump", "initial_trump"),
                ),
            ),
        ),
        Section(
            key="attack",
            title=_("Attack"),
            rules=(
                Rule(
                    id="D-A1",
                    title=_("Laying an attack"),
                    text=_(
                        "The attacker puts one or more cards of a single suit face up in front of "
                        "the defender. The defender is the next player to the attacker's left who "
                        "still has cards."
                    ),
                    example=("4H", "9H", "KH"),
                    example_caption=_("An attack in hearts: four, nine and king."),
                ),
                Rule(
                    id="D-A2",
                    title=_("Maja in an attack"),
                    text=_(
                        "You may attack with the queen of spades on her own, or put her in among "
                        "other spades."
                    ),
                    example=("QS", "3S", "7S"),
                    example_caption=_(
                        "Queen of spades with the three and seven of spades: the defender can beat "
                        "the small ones, but must take the queen."
                    ),
                ),
                Rule(
                    id="D-A3",
                    title=_("Size of an attack"),
                    text=_(
                        "As long as there is a stock, an attack may contain more cards than the "
                        "defender holds. If you like, agree a cap on the number of cards in one "
                        "attack; five is a common choice."
                    ),
                    options=("attack_cap",),
                ),
                Rule(
                    id="D-A4",
                    title=_("No overplay in the endgame"),
                    text=_(
                        "Once the stock is empty, an attack may hold no more cards than the "
                        "defender has in hand. In the older Swedish rules hand sizes are kept "
                        "hidden instead, and an attack that is too big is allowed but punished: "
                        "the defender hands every card to the attacker, who also takes the attack "
                        "back, and the defender is out. The next player after the defender who "
                        "still has cards then attacks."
                    ),
                    decision=_(
                        "The older text only says that the defender then hands all their cards to "
                        "the attacker. That the attack goes back to the attacker, the defender is "
                        "out and the next player with cards attacks is our own reading of it; the "
                        "standard rule simply forbids overplaying."
                    ),
                    options=("endgame_overplay",),
                ),
                Rule(
                    id="D-A5",
                    title=_("Extra attack"),
                    text=_(
                        "With the Finnish extra attack, the defender gets a choice once the "
                        "attacker has refilled: slap the cards to close the attack, or wait and "
                        "let the attacker add more cards of the same suit, within the usual "
                        "limits, until the attacker says done. Cards added this way are only "
                        "replaced at the attacker's next refill. If the attacker has no card of "
                        "that suit, or no more are allowed, the step is skipped."
                    ),
                    decision=_(
                        "The Finnish source says only that the attacker may add cards after "
                        "refilling unless the defender slaps them; it does not say which. We keep "
                        "the added cards to the attack's suit, since an attack is always of one "
                        "suit."
                    ),
                    options=("extra_attack",),
                ),
            ),
        ),
        Section(
            key="defence",
            title=_("Defence"),
            rules=(
                Rule(
                    id="D-B1",
                    title=_("Beating a card"),
                    text=_(
                        "The defender deals with each attack card separately: a higher card of the "
                        "same suit beats it, and so does any trump if the attack card is not a "
                        "trump. A trump attack card can only be beaten by a higher trump. Each "
                        "defending card beats exactly one attack card."
                    ),
                    decision=_(
                        "The older Swedish description lets the defender use a trump only when "
                        "they hold no card of the attacked suit. We follow the other sources: any "
                        "trump beats a card of another suit, whatever else the defender holds."
                    ),
                    example=("5C", "8C", "9C", "3D", "QC"),
                    example_caption=_(
                        "Diamonds are trump. Anna attacks Bo with the five, nine and queen of "
                        "clubs; Bo beats the five with the eight of clubs and the nine with the "
                        "three of diamonds, and takes up the queen. Bo took up a card, so "
                        "Cilla, after him, attacks next."
                    ),
                ),
                Rule(
                    id="D-B2",
                    title=_("The queen of spades"),
                    text=_(
                        "The queen of spades never beats anything, not even the two of spades. "
                        "When she is part of an attack, nothing beats her: not a trump, not the "
                        "king or ace of spades."
                    ),
                    example=("QS",),
                    example_caption=_("Svarta Maja: she cannot beat and cannot be beaten."),
                ),
                Rule(
                    id="D-B3",
                    title=_("Beating is optional"),
                    text=_(
                        "You never have to beat or to trump: you decide card by card. The defence "
                        "ends when you take up whatever is left unbeaten, or by itself once every "
                        "attack card has been beaten."
                    ),
                ),
                Rule(
                    id="D-B4",
                    title=_("The discard pile"),
                    text=_(
                        "Each beaten attack card and the card that beat it go face down onto the "
                        "discard pile. They are out of the game."
                    ),
                ),
                Rule(
                    id="D-B5",
                    title=_("Taking up"),
                    text=_(
                        "Every attack card the defender did not beat goes into the defender's "
                        "hand."
                    ),
                ),
            ),
        ),
        Section(
            key="refill",
            title=_("Refill"),
            rules=(
                Rule(
                    id="D-R1",
                    title=_("Who draws, and when"),
                    text=_(
                        "Straight after laying the attack (and, on the first attack, after trump "
                        "is turned) the attacker draws from the stock back up to the hand size; "
                        "the defender refills once the defence is over. So the attacker always "
                        "draws first. Anyone already holding the hand size or more draws nothing, "
                        "and the other players do not draw."
                    ),
                ),
                Rule(
                    id="D-R2",
                    title=_("Running out"),
                    text=_(
                        "If the stock runs out in the middle of a refill, that player simply stops "
                        "drawing."
                    ),
                ),
            ),
        ),
        Section(
            key="next",
            title=_("Who attacks next"),
            rules=(
                Rule(
                    id="D-N1",
                    title=_("The next attacker"),
                    text=_(
                        "A defender who beat every attack card becomes the next attacker and "
                        "attacks their own left-hand neighbour. If anything was taken up, the "
                        "attack passes to the player after the defender."
                    ),
                ),
                Rule(
                    id="D-N2",
                    title=_("Going out"),
                    text=_(
                        "Once the stock is empty, a player whose hand is empty is out – whether "
                        "they have just attacked with their last card or beaten with it. Players "
                        "who are out are skipped: the defender is always the next player who still "
                        "has cards."
                    ),
                ),
            ),
        ),
        Section(
            key="end",
            title=_("End of the deal"),
            rules=(
                Rule(
                    id="D-E1",
                    title=_("No more drawing"),
                    text=_(
                        "When the stock is empty, nobody refills any more. From then on the only "
                        "way to gain cards is to take them up."
                    ),
                ),
                Rule(
                    id="D-E2",
                    title=_("Who loses"),
                    text=_(
                        "The deal is over when the stock is empty, no attack is waiting and at "
                        "most one player still has cards. That player loses – they are left with "
                        "Svarta Maja – and nobody wins. Because the queen of spades can never be "
                        "discarded, the loser of a normal deal always holds her."
                    ),
                    decision=_(
                        "Two descriptions, the older Swedish one and one Finnish account, also "
                        "name a winner: the first player to get rid of all their cards. The "
                        "sources agree only on the loser, so we name only the loser of each deal."
                    ),
                ),
                Rule(
                    id="D-E3",
                    title=_("Keeping count"),
                    text=_(
                        "There are no points. Over several deals the site simply counts how many "
                        "times each player has lost."
                    ),
                ),
            ),
        ),
    ),
    tactics=(
        _(
            "Hold on to your trumps for the endgame. While you can still draw, beat with a higher "
            "card of the same suit instead; once the stock is gone, trumps decide who gets rid of "
            "their cards."
        ),
        _(
            "Attack with several cards. Three or four cards of one suit are hard to beat completely, and they "
            "empty your hand fast."
        ),
        _(
            "Get rid of Maja along with other spades. With the three and seven of spades beside her, the "
            "defender still has to take her, and you shed three cards at once."
        ),
        _(
            "Keep track of the queen. Whoever has just taken her up will attack with her at the "
            "first chance; if you sit after that player, try to hold few cards when the stock runs "
            "dry."
        ),
        _(
            "Count the trumps. The trump suit has thirteen cards; once you know how many have "
            "gone, you know when your own are safe."
        ),
    ),
    mistakes=(
        _(
            "Trying to beat with the queen of spades. She beats nothing, not even the two of "
            "spades."
        ),
        _("Mixing suits in an attack. Every card in one attack must be of the same suit."),
        _(
            "Drawing in the wrong order. The attacker refills before the defender, and near the "
            "end of the stock that decides who gets the last cards."
        ),
        _(
            "Forgetting the endgame limit. Once the stock is empty you may not attack with more "
            "cards than the defender is holding."
        ),
    ),
)

DOLDA = Game(
    key="dolda",
    title=_("Dam with hidden cards"),
    intro=_(
        "Dam with hidden cards is a different Swedish game that happens to share the name. Each "
        "player has a row of face-down cards that nobody may look at, and improves it by swapping "
        "in cards from the stock or the discard pile, strictly from left to right. When the stock "
        "is gone the rows are turned up and the lowest score wins – queens count nothing."
    ),
    sections=(
        Section(
            key="setup",
            title=_("Setup"),
            rules=(
                Rule(
                    id="H-S1",
                    title=_("Players"),
                    text=_("Two to six can play with one ordinary deck."),
                    decision=_(
                        "The source does not say how many can play. We allow two to six, because "
                        "even with seven-card rows six players still leave a stock to draw from."
                    ),
                ),
                Rule(
                    id="H-S2",
                    title=_("Your row"),
                    text=_(
                        "Each player gets six cards face down in a row in front of them, or seven "
                        "in the seven-card variant. The last card is laid crosswise and can never "
                        "be swapped. Nobody looks at their own row."
                    ),
                    decision=_(
                        "The source also mentions fewer cards in the row when fewer people play, "
                        "without saying how many. We deal six (or seven) whatever the number of "
                        "players, so the same row and the same scores hold at every table."
                    ),
                    options=("row_size",),
                ),
                Rule(
                    id="H-S3",
                    title=_("Stock and discard pile"),
                    text=_(
                        "The remaining cards are the stock, face down. During play a face-up "
                        "discard pile grows beside it."
                    ),
                ),
            ),
        ),
        Section(
            key="turn",
            title=_("A turn"),
            rules=(
                Rule(
                    id="H-T1",
                    title=_("Who starts"),
                    text=_(
                        "Forehand, the player on the dealer's left, starts, and turns pass "
                        "clockwise."
                    ),
                ),
                Rule(
                    id="H-T2",
                    title=_("Taking a card"),
                    text=_(
                        "On your turn, take either the top card of the stock or the top card of "
                        "the discard pile into your hand and look at it."
                    ),
                ),
                Rule(
                    id="H-T3",
                    title=_("Swapping along the row"),
                    text=_(
                        "Now either discard that card face up, which ends your turn, or swap it "
                        "for the leftmost card of your row. Look at the card you took out: discard "
                        "it, or swap it for the next card along, and so on, always from left to "
                        "right. On every turn the swapping starts again at the leftmost card."
                    ),
                ),
                Rule(
                    id="H-T4",
                    title=_("The crosswise card"),
                    text=_(
                        "The crosswise card at the end can never be swapped. A card taken out of "
                        "the last place before it must be discarded, even if it is better than the "
                        "one you kept. There is no going back."
                    ),
                ),
                Rule(
                    id="H-T5",
                    title=_("Face down, from memory"),
                    text=_(
                        "Row cards always stay face down. You may remember what you have seen; in "
                        "practice mode the site can show a memory aid, which is switched off in "
                        "strict mode."
                    ),
                ),
            ),
        ),
        Section(
            key="end",
            title=_("End of the deal"),
            rules=(
                Rule(
                    id="H-E1",
                    title=_("When the deal ends"),
                    text=_(
                        "The deal ends when the stock is empty and the turn that drew its last "
                        "card has been played out."
                    ),
                ),
                Rule(
                    id="H-E2",
                    title=_("Scoring"),
                    text=_(
                        "Everyone turns their row face up and adds it up: queens 0, aces 1, two to "
                        "ten their face value, jacks 11, kings 13. The lowest total wins the deal."
                    ),
                    decision=_(
                        "The source names one winner and does not say what happens on equal "
                        "totals. When players tie for the lowest total, they share the win, of "
                        "the deal and of the match."
                    ),
                    example=("QH", "AC", "7D", "JS", "KD", "2S"),
                    example_caption=_("0 + 1 + 7 + 11 + 13 + 2 = 34 points."),
                ),
                Rule(
                    id="H-E3",
                    title=_("A whole match"),
                    text=_(
                        "A match has one deal per player, so that everyone deals once. The lowest "
                        "total over all the deals wins."
                    ),
                ),
            ),
        ),
        Section(
            key="variants",
            title=_("Variants"),
            rules=(
                Rule(
                    id="H-V1",
                    title=_("Seven cards"),
                    text=_("Each row has seven cards instead of six; the seventh lies crosswise."),
                    options=("row_size",),
                ),
                Rule(
                    id="H-V2",
                    title=_("Secret card"),
                    text=_(
                        "Your row has four face-down cards you can swap, and you also hold one "
                        "secret card turned towards the others, against your forehead: everyone "
                        "sees it except you. It is never swapped and is revealed last."
                    ),
                    decision=_(
                        "The source speaks of four ordinary hidden cards plus a secret card. We "
                        "read that as four cards you can swap plus the secret one, which is never "
                        "swapped."
                    ),
                    options=("secret_card",),
                ),
                Rule(
                    id="H-V3",
                    title=_("Special cards"),
                    text=_(
                        "The ten of hearts scores minus 1 and the king of hearts minus 2, so they "
                        "lower your total."
                    ),
                    options=("special_cards",),
                    example=("TH", "KH"),
                    example_caption=_("Ten of hearts −1, king of hearts −2."),
                ),
                Rule(
                    id="H-V4",
                    title=_("Thieves and shields"),
                    text=_(
                        "The jacks of spades and clubs are thieves and the jacks of hearts and "
                        "diamonds shields, but only jacks in a row take part. Once the rows are "
                        "turned up, and before any secret card is shown, each shield in turn order "
                        "from forehand is laid on one or two of its owner's other row cards, which "
                        "can then no longer be stolen."
                    ),
                    more=(
                        _("Next the thieves act in the order they were acquired: each is laid on "
                          "one of its owner's other cards and must steal an unshielded card from "
                          "another player's row, even if its owner's cards are good; each thief "
                          "steals once, and two thieves may not rob the same player."),
                        _("A thief that was itself stolen before its turn, or that has nobody to "
                          "rob, does nothing, and all the jacks still score as cards."),
                    ),
                    decision=_(
                        "A theft is an exchange: the card under the thief goes to the robbed "
                        "player, into the place of the stolen card, so every row keeps its length. "
                        "For the order of thieves, a jack dealt into the row counts as acquired at "
                        "the deal (ties go in turn order from forehand), and a jack keeps its place in "
                        "the thieves' order when a swap moves it along its own row."
                    ),
                    options=("thieves_and_shields",),
                    example=("JS", "JC", "JH", "JD"),
                    example_caption=_(
                        "Thieves: jacks of spades and clubs. Shields: jacks of hearts and "
                        "diamonds."
                    ),
                ),
                Rule(
                    id="H-V5",
                    title=_("Capped at five"),
                    text=_(
                        "The secret card and the special cards – the ten and king of hearts, and "
                        "the thief and shield jacks – score at most 5 points each, so the last "
                        "reveal cannot decide everything."
                    ),
                    options=("cap_special_at_5",),
                ),
            ),
        ),
    ),
    tactics=(
        _(
            "Watch the discard pile. A card you throw away may be exactly what the next player "
            "wants, and a known card from the pile can be safer than a blind draw."
        ),
        _(
            "Swap low cards in early. Kings and jacks cost the most, and every swap also shows you "
            "one more of your hidden cards."
        ),
        _(
            "Stop a chain in good time. Near the crosswise card you risk having to throw away a "
            "good card, so a middling card you can live with is often the place to stop."
        ),
        _(
            "Remember what you have seen. You may not peek at your row, so memory and odds are all "
            "you have – and as the stock runs low, the chances to improve run out too."
        ),
    ),
)

SPARDAME = Game(
    key="spardame",
    title=_("Spardame"),
    intro=_(
        "Spardame is a Norwegian trick-taking game of the Hearts family, known elsewhere as Black "
        "Maria – not the attack game Dam. You try not to take hearts or the queen of spades in "
        "your tricks, because they cost points. When someone reaches the point limit, the lowest "
        "total wins."
    ),
    sections=(
        Section(
            key="setup",
            title=_("Setup"),
            rules=(
                Rule(
                    id="S-S1",
                    title=_("Players and cards"),
                    text=_(
                        "Three to six can play; four is the standard game. Cards are removed so "
                        "that every hand is the same size – the two of clubs with three players, "
                        "two twos with five, all four twos with six – and then all the cards are "
                        "dealt one at a time."
                    ),
                    decision=_(
                        "With five players we remove the twos of diamonds and spades, so that the "
                        "two of clubs can still open the game and all thirteen hearts stay in "
                        "play."
                    ),
                    example=("2D", "2S"),
                    example_caption=_("Five players: these two twos leave the deck."),
                ),
            ),
        ),
        Section(
            key="passing",
            title=_("Passing cards"),
            rules=(
                Rule(
                    id="S-P1",
                    title=_("Passing three cards"),
                    text=_(
                        "Before play everyone passes three cards: to the left in the first deal, "
                        "to the right in the second, across in the third, and nobody passes in the "
                        "fourth; then the cycle starts again. Players choose in seat order from "
                        "forehand, and the cards only move once everyone has chosen, so you can "
                        "never pass on a card you have just received."
                    ),
                    decision=_(
                        "With n players, “across” means the player ⌊n/2⌋ seats to your left: the "
                        "one opposite with four, two seats on with five, three with six. With "
                        "three players nobody sits across, so the cycle is left, right, no "
                        "passing."
                    ),
                ),
            ),
        ),
        Section(
            key="play",
            title=_("Play"),
            rules=(
                Rule(
                    id="S-T1",
                    title=_("The first lead"),
                    text=_("Whoever holds the two of clubs leads it to the first trick."),
                    decision=_(
                        "When the two of clubs has been removed (three or six players), the holder "
                        "of the lowest club leads that club instead – the nearest thing to the "
                        "usual opening."
                    ),
                    example=("2C",),
                    example_caption=_("The two of clubs opens the first trick."),
                ),
                Rule(
                    id="S-T2",
                    title=_("Following suit"),
                    text=_(
                        "You must follow the suit that was led if you can. If you cannot, you may "
                        "play any card, except where the first-trick rule forbids it."
                    ),
                ),
                Rule(
                    id="S-T3",
                    title=_("Breaking hearts"),
                    text=_(
                        "You may not lead a heart until hearts are broken, meaning a heart has "
                        "been played to an earlier trick – usually by someone who could not follow "
                        "suit. A player with nothing but hearts may lead one anyway. With the "
                        "house rule, the queen of spades, however she is played, breaks hearts as "
                        "well."
                    ),
                    decision=_(
                        "The Norwegian source calls hearts opened once someone has had to play a "
                        "heart because they could not follow suit. We count any heart played to "
                        "an earlier trick, so a heart led by a player who holds nothing else "
                        "breaks hearts too."
                    ),
                    options=("qs_breaks_hearts",),
                ),
                Rule(
                    id="S-T4",
                    title=_("No points on the first trick"),
                    text=_(
                        "Hearts and the queen of spades may not be played to the first trick. The "
                        "rule is on by default and can be switched off."
                    ),
                    decision=_(
                        "A player who holds nothing but point cards may still play one – otherwise "
                        "they would have no legal card at all."
                    ),
                    options=("no_points_first_trick",),
                ),
                Rule(
                    id="S-T5",
                    title=_("Winning a trick"),
                    text=_(
                        "The highest card of the suit led wins the trick, and the winner leads to "
                        "the next one."
                    ),
                ),
            ),
        ),
        Section(
            key="scoring",
            title=_("Scoring"),
            rules=(
                Rule(
                    id="S-C1",
                    title=_("Point cards"),
                    text=_(
                        "Every heart in your tricks costs 1 point and the queen of spades 13. With "
                        "high values a heart costs 10 and the queen 100."
                    ),
                    options=("high_values",),
                    example=("2H", "9H", "QS"),
                    example_caption=_("1 + 1 + 13 = 15 points."),
                ),
                Rule(
                    id="S-C2",
                    title=_("Shooting the moon"),
                    text=_(
                        "If one player takes every heart and the queen of spades in a deal, that "
                        "player scores 0 and everyone else scores 26 – in the usual game exactly "
                        "the points in play."
                    ),
                    decision=_(
                        "The Norwegian description of Spardame gives the others 26 each and says "
                        "no more. Read as “the points in play”, that is 25 when the two of hearts "
                        "has been removed and 230 with high values; read to the letter, it is 26 "
                        "whatever the values. We follow the first reading, so that shooting the "
                        "moon always hands the others what the deal would have cost the shooter. "
                        "The option “The moon gives the others 26 each” plays the second one, as "
                        "the description's house rules do."
                    ),
                    options=("moon", "moon_fixed_26"),
                ),
                Rule(
                    id="S-C3",
                    title=_("End of the game"),
                    text=_(
                        "The game ends after the deal in which someone reaches the point limit: "
                        "100, or 500 as a house rule. The lowest total wins, and players on equal "
                        "totals share the win."
                    ),
                    options=("limit",),
                ),
            ),
        ),
    ),
)

GAMES = (DAM, DOLDA, SPARDAME)
_BY_ID = {(g.key, r.id): r for g in GAMES for section in g.sections for r in section.rules}


def rule_by_id(game: str, rule_id: str) -> Rule | None:
    """The rule ``rule_id`` of ``game``'s rules page, or None."""
    return _BY_ID.get((game, rule_id))
