"""The adapter interface and what the three games share (move words, card lists in text)."""

from __future__ import annotations

import dataclasses
from abc import ABC, abstractmethod
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from types import ModuleType
from typing import Any, ClassVar

from django.utils.functional import Promise
from django.utils.text import capfirst
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext, pgettext_lazy

from games.cardnames import card_list, card_phrase, text_list
from games.coach_reasons import Reason, choose, no_rule
from games.numbers import tenths
from games.reasons import reason_text
from rules.engine import cards as engine_cards
from rules.engine.errors import IllegalAction
from rules.engine.match import Standing
from rules.engine.options import option_choices

# The move vocabulary of the scenario notation, as button labels, in the order pages show
# them.  Which ones a page offers is the engine's business: those its legal actions use now.
MOVE_LABELS: dict[str, Promise] = {
    "attack": pgettext_lazy("move button", "Attack"),
    "announce": pgettext_lazy("move button", "Announce"),
    "beat": pgettext_lazy("move button", "Beat"),
    "take": pgettext_lazy("move button", "Take the cards"),
    "slap": pgettext_lazy("move button", "Slap (close the attack)"),
    "wait": pgettext_lazy("move button", "Wait"),
    "add": pgettext_lazy("move button", "Add"),
    "done": pgettext_lazy("move button", "Done"),
    "draw_stock": pgettext_lazy("move button", "Draw from the stock"),
    "draw_discard": pgettext_lazy("move button", "Draw from the discard pile"),
    "swap": pgettext_lazy("move button", "Swap"),
    "discard": pgettext_lazy("move button", "Discard"),
    "shield": pgettext_lazy("move button", "Shield"),
    "steal": pgettext_lazy("move button", "Steal"),
    "pass": pgettext_lazy("move button", "Pass"),
    "play": pgettext_lazy("move button", "Play"),
}


@dataclass
class Slot:
    """A place cards lie at the start of a deal, as the teacher's editor fills it."""

    key: str
    label: str
    cards: list[str]
    single: bool = False
    # A player's place that must hold cards for the deal to be ready (a hand, a row).
    required: bool = False


def who(names: Sequence[str], seat: int | None) -> str:
    return names[seat] if seat is not None and 0 <= seat < len(names) else "?"


def scores_text(names: Sequence[str], scores: Iterable[int]) -> str:
    return ", ".join(f"{names[s]} {p}" for s, p in enumerate(scores))


def said(you: bool, third: str, second: str, **params: Any) -> str:
    """A sentence about a player: ``second`` ("You take %(cards)s.") when that player is the
    reader of the page (practice, its replay), else ``third`` ("%(who)s takes %(cards)s.").
    Both are whole gettext strings, so every language writes its own grammar for each (verb
    forms, possessives, the Finnish personal endings) instead of putting "You" into a name's
    place."""
    return (second if you else third) % params


def winners_text(names: Sequence[str], winners: Sequence[int], you: int | None) -> str:
    """The end of a match: who won, with the reader as "you"."""
    others = text_list(names[s] for s in winners if s != you)
    if you is not None and you in winners:
        if not others:
            return _("The match is over. You win.")
        return _("The match is over. You share the win with %(names)s.") % {"names": others}
    return ngettext("The match is over. Winner: %(names)s.",
                    "The match is over. Winners: %(names)s.", len(winners)) % {"names": others}


class GameAdapter(ABC):
    """The site's view of one game.  Subclasses set the class attributes and implement the
    abstract methods; the engine module gives the rules."""

    name: ClassVar[str]
    engine: ClassVar[ModuleType]
    # Bot classes by level below "strong" (the strong bot is one for every game).
    bots: ClassVar[dict[str, type[Any]]]
    # Moves whose form needs a choice of cards or positions (the rest are one button each).
    choice_kinds: ClassVar[tuple[str, ...]]
    # Whether a player's own hand is drawn as cards to pick for those moves.
    picks_from_hand: ClassVar[bool] = True
    default_players: ClassVar[int]
    # Whether practice offers to show the cards the player has seen (and may forget).
    memory_aid: ClassVar[bool] = False
    # Names the teacher's editor starts a new scenario with.
    teacher_players: ClassVar[tuple[str, ...]] = ("Anna", "Bo", "Cilla")
    blurb: ClassVar[Promise]

    # ------------------------------------------------------------------ cards in text
    def card(self, card: int) -> str:
        """A card in a sentence ("the nine of clubs")."""
        return card_phrase(card, self.name)

    def cards(self, cards: Iterable[int]) -> str:
        """Cards in a sentence, the last two joined by "and" in the page language."""
        return card_list(cards, self.name)

    # ------------------------------------------------------------------ players
    def player_choices(self) -> range:
        """Every player count some rule allows (the new-game form then checks the chosen
        rules against the engine's range for them, with a message)."""
        module = self.engine
        base = module.Options()
        lo, hi = module.player_range(base)
        for name, choices in option_choices(module.Options).items():
            for value in choices:
                try:
                    a, b = module.player_range(dataclasses.replace(base, **{name: value}))
                except (TypeError, ValueError):
                    continue
                lo, hi = min(lo, a), max(hi, b)
        return range(lo, hi + 1)

    # ------------------------------------------------------------------ deals and series
    @abstractmethod
    def explicit_deal(self, state: Any) -> dict[str, Any]:
        """The deal of a freshly dealt state written out card by card (scenario ``deal``)."""

    def standing(self, players: int, results: Iterable[Mapping[str, Any]]) -> Standing:
        standing: Standing = self.engine.match_standing(players, results)
        return standing

    @abstractmethod
    def summary_title(self, standing: Standing, options: Any) -> str:
        """The heading of the series table under the deal."""

    summary_column: ClassVar[Promise] = gettext_lazy("Points")

    def deal_values(self, players: int, result: Mapping[str, Any]) -> list[int]:
        """One finished deal's figure per seat, in ``summary_column``'s terms."""
        return list(self.standing(players, [result]).values)

    def deal_outcome(self, names: Sequence[str], result: Mapping[str, Any]) -> str:
        """One finished deal's result in a line (the class tables' results)."""
        return _("Points: %(scores)s") % {
            "scores": scores_text(names, self.deal_values(len(names), result))}

    # ------------------------------------------------------------------ moves
    def kind(self, action: Any) -> str:
        return str(action[0])

    def seat(self, action: Any) -> int:
        """The seat that makes ``action``."""
        return int(action[1])

    @abstractmethod
    def describe(self, action: Any, names: Sequence[str]) -> str:
        """The move as an instruction for the player, in the page language."""

    @abstractmethod
    def form_fields(self, action: Any) -> dict[str, Any]:
        """The form values that make ``action`` (a hint's "play it", a one-button move)."""

    def move_words(self, move: str, data: Mapping[str, Any]) -> list[str]:
        """A submitted practice move form as the words of the scenario notation after the
        player's name; ValueError with a translated message for a form the page never
        makes.  Whether the move is legal is the engine's business."""
        return [move, *data["card"]]

    def choice_context(self, legal: Sequence[Any], view: Mapping[str, Any], seat: int,
                       kinds: Sequence[str]) -> dict[str, Any]:
        """Extra form parts for the moves that need a choice (targets, positions)."""
        return {}

    # Move kinds whose cards the notation lists in no particular order ("attack 5C 5H" is
    # "attack 5H 5C"), so two such moves are compared with their cards sorted.
    unordered_kinds: ClassVar[frozenset[str]] = frozenset()

    # ------------------------------------------------------------------ legal-move cues
    # The one move kind made by tapping a single card (the card is the whole choice), if any.
    one_tap_kind: ClassVar[str | None] = None

    def hand_cards(self, action: Any) -> tuple[int, ...]:
        """The mover's own cards ``action`` uses (a card no legal action uses is dimmed)."""
        return ()

    def unplayable_reason(self, state: Any, seat: int, card: int, kinds: Sequence[str]) -> str:
        """Why ``card`` of the mover's hand takes part in no legal move now, in a sentence:
        the engine's own reason when the card alone makes one of ``kinds``, otherwise a
        general one."""
        code = engine_cards.code(card)
        for kind in kinds:
            try:
                state.apply(self.engine.parse_action(state, seat, [kind, code]))
            except IllegalAction as exc:
                if exc.reason != "bad_move":
                    return reason_text(exc.reason, (), self.name)
            except (ValueError, TypeError, IndexError):
                continue
        return _("This card cannot take part in any move now.")

    def idle_own_reason(self, view: Mapping[str, Any], seat: int) -> str:
        """Why a card of the mover's own that no legal move uses (and that is not drawn as a
        pick with its own reason) does nothing when tapped, if the game has more to say than
        the page's general sentence ("" for none)."""
        return ""

    def pile_tap(self, action: Any) -> str | None:
        """The place on the table a tap on which makes ``action`` (a move without a choice):
        "stock", "discard" or "next" (the mover's next place in a row); None for none."""
        return None

    def targets(self, action: Any) -> tuple[int, ...]:
        """The cards on the table ``action`` takes as its target (Dam's beat)."""
        return ()

    def pair_template(self) -> str:
        """For a move that pairs one of the mover's cards with a card on the table (Dam's
        beat): the sentence shown before confirming, with {card} and {target} to fill in."""
        return ""

    def page_view(self, view: dict[str, Any], memory_aid: bool) -> dict[str, Any]:
        """The seat's view as the practice page shows it."""
        return view

    # A seat's own keys of its view (besides ``hand``) and what a spectator gets instead.
    private_keys: ClassVar[Mapping[str, Any]] = {}

    def public_view(self, state: Any) -> dict[str, Any]:
        """What a spectator may see (``seat`` None): a seat's view without what that seat
        alone knows, so every hand is drawn as a count of backs."""
        view = dict(state.view(0), seat=None, hand=[])
        view.update(self.private_keys)
        return view

    def open_view(self, state: Any, viewer: int
                  ) -> tuple[dict[str, Any], dict[int, list[int]], int | None]:
        """The teacher's all-hands view: ``viewer``'s view, the other hands to reveal, and the
        seat whose private events may mark cards (``games.table.event_cards``)."""
        view = state.view(viewer)
        reveal = {s: state.view(s).get("hand", []) for s in range(len(state.names))
                  if s != viewer}
        return view, reveal, viewer

    # ------------------------------------------------------------------ the table
    @abstractmethod
    def table(self, view: Mapping[str, Any], shown: Mapping[int, list[int]],
              marks: frozenset[int], selectable: bool, selected: frozenset[int],
              you: int | None = None) -> dict[str, Any]:
        """The game's own keys of the table template (``games/<name>.html``) from a seat's
        ``view``: ``shown`` the other hands the page may show (seat -> sorted cards),
        ``marks`` the cards to highlight, ``selectable`` whether the viewer's hand is drawn
        as cards to pick (``selected`` checked), ``you`` the reader's seat, named in the
        second person.  ``games.table.table_context`` adds what every table shares."""

    def move_cards(self, view: Mapping[str, Any], action: Any) -> tuple[int, ...]:
        """The face-up cards of the open table (``view``: ``open_view`` before the move) that
        ``action`` uses, to mark them on the cards (the review): the mover's own cards and the
        cards it takes as its target; none for a move that uses no card (Dam's take)."""
        return self.hand_cards(action) + self.targets(action)

    def pick_target(self, view: Mapping[str, Any], ctx: dict[str, Any], target: int | None
                    ) -> None:
        """Turn the cards on the table that the mover may choose as a target into inputs
        (Dam's defence); ``target`` starts checked.  Most games have no such choice."""
        return None

    # ------------------------------------------------------------------ narration
    def visible(self, events: list[dict[str, Any]], seat: int | None) -> list[dict[str, Any]]:
        shown: list[dict[str, Any]] = self.engine.visible_events(events, seat)
        return shown

    def narrate(self, events: list[dict[str, Any]], names: Sequence[str],
                seat: int | None, you: int | None = None) -> list[str]:
        """One sentence per event, in the page language, as ``seat`` may see it; the seat
        ``you`` (the practice player, who reads the page) is spoken to in the second person."""
        out = []
        for e in self.visible(events, seat):
            text = self.narrate_event(e, names, seat, you)
            if text:
                # A sentence may open with a card's name ("five of diamonds is turned up").
                out.append(capfirst(text))
        return out

    @abstractmethod
    def narrate_event(self, e: Mapping[str, Any], names: Sequence[str],
                      seat: int | None, you: int | None = None) -> str | None:
        """One event in a sentence of the page language, or None for one with nothing to say;
        sentences about the seat ``you`` are in the second person (``said``)."""

    # ------------------------------------------------------------------ hints
    # The game's reasons, in the order they are tried (games/coach_reasons/<game>.py).
    coach_reasons: ClassVar[tuple[Reason, ...]] = ()

    # Puzzles (puzzles/): the theme of a puzzle whose solution the coach explains by a reason
    # of this name (a code of puzzles/themes.py); a solution no listed reason explains is
    # filed under "judgement".  ``puzzle_goal`` is the code of the goal every puzzle of the
    # game states (what the game's value measures).
    puzzle_themes: ClassVar[Mapping[str, str]] = {}
    puzzle_goal: ClassVar[str] = ""
    # Kinds of move whose decisions have too many legal moves to measure them all (a
    # Spardame pass: 286): such a decision can still be a puzzle as a multiple choice among
    # ``PUZZLE_CHOICES`` moves (``puzzle_choices``), the solution clearly best among them.
    puzzle_choice_kinds: ClassVar[frozenset[str]] = frozenset()
    PUZZLE_CHOICES: ClassVar[int] = 4

    def puzzle_choices(self, view: Mapping[str, Any], legal: Sequence[Any], first: Any,
                       rng: Any) -> list[Any] | None:
        """The moves a multiple-choice puzzle offers at this decision, or None when the
        decision is not one of ``puzzle_choice_kinds``: ``first`` (the strong bot's policy,
        which the coach's hint names too), then for each of the game's reasons in order the
        first legal move it recommends (the moves a rule of thumb would suggest: plausible
        rivals, not straw men), then random legal moves, ``PUZZLE_CHOICES`` in all, in a
        shuffled order (the solution is not always first)."""
        if not legal or self.kind(first) not in self.puzzle_choice_kinds:
            return None
        picks = [first]
        for reason in self.coach_reasons:
            if len(picks) >= self.PUZZLE_CHOICES:
                break
            found = next((a for a in legal if a not in picks and reason.holds(view, a)), None)
            if found is not None:
                picks.append(found)
        rest = [a for a in legal if a not in picks and self.kind(a) == self.kind(first)]
        rng.shuffle(rest)
        picks += rest[:max(0, self.PUZZLE_CHOICES - len(picks))]
        rng.shuffle(picks)
        return picks

    def puzzle_policy(self, policy: Any, themes: frozenset[str]) -> Any:
        """The player of a generation run's deals that asks for ``themes``: the strong bot's
        policy, unless the game's bots seldom reach those themes' positions (the dolda
        adapter)."""
        return policy

    def puzzle_theme(self, view: Mapping[str, Any], action: Any) -> str:
        """The theme of a puzzle whose solution is ``action`` in ``view``."""
        chosen = self.chosen_reason(view, action)
        return self.puzzle_themes.get(chosen.name, "judgement") if chosen else "judgement"

    def chosen_reason(self, view: Mapping[str, Any], action: Any) -> Reason | None:
        """The first of the game's reasons that is true of ``action`` in ``view``."""
        return choose(self.coach_reasons, view, action)

    def reason(self, view: Mapping[str, Any], action: Any, names: Sequence[str]) -> str:
        """Why ``action`` is a good move here, in one sentence that is true of it, from what
        the seat sees (``view``) only: the first reason of the game's list whose claim holds
        for the move, or a plain word that no rule of thumb decides it (the hint's figure from
        simulated play then stands alone)."""
        chosen = self.chosen_reason(view, action)
        if chosen is None:
            return no_rule()
        return chosen.say(view, action, self, names)

    # How a difference of the strong bot's estimates reads: Dam counts the chance of losing the
    # deal, the other games points (each game's `value` in rules/engine/bots/<game>.py).
    def cost_text(self, cost: float) -> str:
        """An estimated cost (the review's and the hint's figure) in words."""
        return ngettext("about %(n)s point more", "about %(n)s points more",
                        max(1, round(cost))) % {"n": tenths(cost)}

    def negligible(self, cost: float) -> bool:
        """Whether a cost would read as zero in ``cost_text``."""
        return cost < 0.05

    def certainty(self, behind: float, se: float) -> str:
        """How sure an estimated difference is, in words."""
        if se == 0.0 or behind > 2.5 * se:
            return _("The difference is clear.")
        if behind > se:
            return _("The difference is probably real, but small.")
        return _("The two are about equally good: the difference is within the uncertainty of "
                 "the simulation.")

    def hint_figure(self, ranked: Sequence[Any], minimum: int, names: Sequence[str]) -> str:
        """The figure behind a hint, only when it rests on at least ``minimum`` playouts of
        both the suggested move and the next best one (strong.Estimate, best first); empty
        otherwise."""
        if len(ranked) < 2 or ranked[0].playouts < minimum or ranked[1].playouts < minimum:
            return ""
        best, second = ranked[0], ranked[1]
        n = min(best.playouts, second.playouts)
        if self.negligible(second.behind):
            return _("In %(n)d simulated continuations from here (the cards you cannot see dealt "
                     "at random), the next best move, %(other)s, did about as well: either is "
                     "a sound choice.") % {
                "n": n, "other": self._lower(self.describe(second.action, names))}
        return _("In %(n)d simulated continuations from here (the cards you cannot see dealt "
                 "at random), the next best move, %(other)s, cost %(cost)s. %(certainty)s") % {
            "n": n, "other": self._lower(self.describe(second.action, names)),
            "cost": self.cost_text(max(second.behind, 0.0)),
            "certainty": self.certainty(second.behind, second.behind_se)}

    @staticmethod
    def _lower(sentence: str) -> str:
        """An instruction ("Draw from the stock.") inside a sentence."""
        text = sentence.rstrip(".")
        return text[:1].lower() + text[1:] if text else text

    # ------------------------------------------------------------------ handouts
    def trump_text(self, states: Sequence[Any], events: Sequence[Sequence[Mapping[str, Any]]]
                   ) -> str:
        """What a handout says about trump, from the positions of a replayed scenario
        (``states[0]`` the deal, ``events[n]`` what step n did); "" for a game without trump."""
        return ""

    def start_deal(self, state: Any, deal: Mapping[str, Any] | None) -> dict[str, Any]:
        """A scenario's deal with every card where the engine put it (cards the file left to
        chance written out), for the handout."""
        return {**(deal or {}), **self.explicit_deal(state)}

    # ------------------------------------------------------------------ teacher's editor
    @abstractmethod
    def empty_deal(self, players: Sequence[str]) -> dict[str, Any]:
        """A deal with every place empty, for a new scenario."""

    @abstractmethod
    def slots(self, deal: Mapping[str, Any], players: Sequence[str], options: Any) -> list[Slot]:
        """The places cards lie at the start of a deal under these rules, filled from it."""

    @abstractmethod
    def write_slots(self, deal: dict[str, Any], players: Sequence[str],
                    by_key: Mapping[str, list[str]]) -> None:
        """Put the filled slots back into ``deal`` (the game's own places)."""

    def fit_deal(self, deal: dict[str, Any], options: Any) -> None:
        """Drop or add the deal's places that the rules now do not have or need.  By default
        there are none: a deal of only hands fits every rule set."""
        return None

    # ------------------------------------------------------------------ statistics
    @abstractmethod
    def add_statistics(self, sums: Any, deal: Any) -> None:
        """Add a finished simulated deal (``reference.simulation.SimulatedDeal``) to ``sums``,
        under the keys that ``statistics_figures`` shows.  Every value is a whole number (a
        count, 0/1, points), so that sums of any chunks of deals are exact."""

    @abstractmethod
    def statistics_figures(self) -> list[Figure]:
        """The questions the game's variant page answers from those sums, in page order."""


@dataclass(frozen=True)
class Figure:
    """One question of a variant page, answered for every rule set from the simulated sums.

    ``unit`` is "percent" (a rate: the share of deals in which something happens, or
    ``key`` divided by ``per``, a share of a whole) or "count" (a number per deal).  With
    ``by_seat`` the keys are ``<key>_1`` … ``<key>_<players>``, seats counted clockwise from
    the dealer's left (the last seat deals)."""

    key: str
    title: Promise
    unit: str = "percent"
    note: Promise | None = None
    by_seat: bool = False
    per: str | None = None  # the whole that ``key`` is a share of (both sums per deal)
    # The chart marks 1 in the number of players: with ``by_seat`` the seats' shares add up to
    # one (one loser per deal), and a rate about one player compares with a random player's.
    equal_share: bool = False
    # Without ``by_seat``: what the mark means, with ``%(share)s`` for it (25 %).
    equal_note: Promise | None = None


def write_common(deal: dict[str, Any], by_key: Mapping[str, list[str]]) -> None:
    """The stock, the discard pile and the turned card: the same places in every game
    that has them."""
    for key in ("stock", "discard"):
        if key in by_key:
            if by_key[key] or key == "stock":
                deal[key] = by_key[key]
            else:
                deal.pop(key, None)
    if "turned" in by_key:
        if by_key["turned"]:
            deal["turned"] = by_key["turned"][0]
        else:
            deal.pop("turned", None)


def stock_slot(deal: Mapping[str, Any]) -> Slot:
    return Slot("stock", _("Stock (top card first)"), list(deal.get("stock", [])))


def discard_slot(deal: Mapping[str, Any], label: str | None = None) -> Slot:
    return Slot("discard", label or _("Discard pile"), list(deal.get("discard", [])))


def hand_slots(deal: Mapping[str, Any], players: Sequence[str]) -> list[Slot]:
    hands = deal.get("hands") or {}
    return [Slot(f"hand:{i}", _("%(name)s's hand") % {"name": p}, list(hands.get(p, [])),
                 required=True) for i, p in enumerate(players)]
