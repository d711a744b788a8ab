"""The adapter interface and what the three games share (move words, card lists in text)."""

from __future__ import annotations

import dataclasses
from abc import ABC, abstractmethod
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from types import ModuleType
from typing import Any, ClassVar

from django.utils.functional import Promise
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext, pgettext_lazy

from rules.cardnames import card_name
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


def who(names: Sequence[str], seat: int | None) -> str:
    return names[seat] if seat is not None and 0 <= seat < len(names) else "?"


def scores_text(names: Sequence[str], scores: Iterable[int]) -> str:
    return ", ".join(f"{names[s]} {p}" for s, p in enumerate(scores))


class GameAdapter(ABC):
    """The site's view of one game.  Subclasses set the class attributes and implement the
    abstract methods; the engine module gives the rules."""

    name: ClassVar[str]
    engine: ClassVar[ModuleType]
    # Bot classes by level below "strong" (the strong bot is one for every game).
    bots: ClassVar[dict[str, type]]
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
    # The queen of spades (and any other card) under the name this game gives it.
    card_names: ClassVar[dict[int, Promise]] = {}

    # ------------------------------------------------------------------ cards in text
    def card(self, card: int) -> str:
        return card_name(card, self.name)

    def cards(self, cards: Iterable[int]) -> str:
        """Cards in a sentence."""
        return ", ".join(self.card(c) for c in cards)

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
        return self.engine.match_standing(players, results)

    @abstractmethod
    def summary_title(self, standing: Standing, options: Any) -> str:
        """The heading of the series table under the deal."""

    summary_column: ClassVar[Promise] = gettext_lazy("Points")

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

    def page_view(self, view: dict[str, Any], memory_aid: bool) -> dict[str, Any]:
        """The seat's view as the practice page shows it."""
        return view

    def open_view(self, state: Any, viewer: int
                  ) -> tuple[dict[str, Any], dict[int, list[int]], int | None]:
        """The teacher's all-hands view: ``viewer``'s view, the other hands to reveal, and the
        seat whose private events may mark cards (``presenters.event_cards``)."""
        view = state.view(viewer)
        reveal = {s: state.view(s).get("hand", []) for s in range(len(state.names))
                  if s != viewer}
        return view, reveal, viewer

    # ------------------------------------------------------------------ narration
    def visible(self, events: list[dict[str, Any]], seat: int | None) -> list[dict[str, Any]]:
        return self.engine.visible_events(events, seat)

    def narrate(self, events: list[dict[str, Any]], names: Sequence[str],
                seat: int | None) -> list[str]:
        """One sentence per event, in the page language, as ``seat`` may see it."""
        out = []
        for e in self.visible(events, seat):
            text = self.narrate_event(e, names, seat)
            if text:
                out.append(text)
        return out

    @abstractmethod
    def narrate_event(self, e: Mapping[str, Any], names: Sequence[str],
                      seat: int | None) -> str | None:
        """One event in a sentence of the page language, or None for one with nothing to say."""

    # ------------------------------------------------------------------ hints
    def reason(self, view: Mapping[str, Any], action: Any, names: Sequence[str]) -> str:
        """Why ``action`` is a good move here, in words (a tactic of the game), from what the
        seat sees (``view``) only."""
        return _("A careful player would usually choose this.")

    # How a difference of the strong bot's estimates reads: Dam counts the chance of losing the
    # deal, the other games points (see strong._result).
    def cost_text(self, cost: float) -> str:
        """An estimated cost (the review's and the hint's figure) in words."""
        return ngettext("about %(n)s point more", "about %(n)s points more",
                        max(1, round(cost))) % {"n": f"{cost:.1f}"}

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
    def add_statistics(self, sums: Any, result: list[float], events: Sequence[Mapping[str, Any]],
                       first_mover: int, queen_holder: int | None) -> None:
        """Add a finished simulated deal to ``sums`` (rules/simulation.py), under the keys the
        game's variant page shows."""


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


def discard_slot(deal: Mapping[str, Any]) -> Slot:
    return Slot("discard", _("Discard pile"), list(deal.get("discard", [])))


def hand_slots(deal: Mapping[str, Any], players: Sequence[str]) -> list[Slot]:
    hands = deal.get("hands") or {}
    return [Slot(f"hand:{i}", _("%(name)s's hand") % {"name": p}, list(hands.get(p, [])))
            for i, p in enumerate(players)]
