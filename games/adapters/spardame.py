"""Spardame: a trick game of the Hearts family; take no hearts and not the queen of spades."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from types import ModuleType
from typing import Any, ClassVar

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext, pgettext

from games import table_parts as parts
from games.coach_reasons import spardame as coach
from rules.engine import cards as C
from rules.engine import spardame as engine
from rules.engine.bots import spardame as bots
from rules.engine.match import Standing

from .base import Figure, GameAdapter, Slot, hand_slots, said, scores_text, who, winners_text

DIRECTION_LABELS = {
    "left": gettext_lazy("Passing to the left"),
    "right": gettext_lazy("Passing to the right"),
    "across": gettext_lazy("Passing across"),
    "none": gettext_lazy("No passing this deal"),
}


class SpardameAdapter(GameAdapter):
    name = "spardame"
    engine: ClassVar[ModuleType] = engine
    bots: ClassVar[dict[str, type[Any]]] = {"easy": bots.RandomBot, "normal": bots.HeuristicBot}
    choice_kinds = ("pass", "play")
    unordered_kinds = frozenset({"pass"})
    default_players = 4
    # Where a seat passes to and from, and the cards it passed and got.
    private_keys: ClassVar[Mapping[str, Any]] = {
        "pass_to": None, "pass_from": None, "passed": None, "received": None}
    teacher_players = ("Anna", "Bo", "Cilla", "David")
    blurb = gettext_lazy("Take no hearts and not the queen of spades. The match runs to "
                         "the point limit.")

    # ------------------------------------------------------------------ deals and series
    def explicit_deal(self, state: Any) -> dict[str, Any]:
        j = state.to_json()
        names = j["names"]
        return {"hands": {names[s]: C.codes(sorted(h)) for s, h in enumerate(j["hands"])},
                "deal_number": j["deal_number"],
                "scores": dict(zip(names, j["scores_before"]))}

    def summary_title(self, standing: Standing, options: Any) -> str:
        return _("Match totals (to %(limit)s points)") % {"limit": options.limit}

    # ------------------------------------------------------------------ moves
    def describe(self, action: Any, names: Sequence[str]) -> str:
        if action[0] == "pass":
            return _("Pass %(cards)s.") % {"cards": self.cards(action[2:])}
        return _("Play %(card)s.") % {"card": self.card(action[2])}

    one_tap_kind = "play"

    def hand_cards(self, action: Any) -> tuple[int, ...]:
        return tuple(action[2:]) if action[0] == "pass" else (action[2],)

    def form_fields(self, action: Any) -> dict[str, Any]:
        if action[0] == "pass":
            return {"move": "pass", "card": C.codes(action[2:])}
        return {"move": "play", "card": [C.code(action[2])]}

    # ------------------------------------------------------------------ narration
    def narrate_event(self, e: Mapping[str, Any], names: Sequence[str],
                      seat: int | None, you: int | None = None) -> str | None:
        t = e.get("type")
        w = who(names, e.get("seat"))
        me = you is not None and e.get("seat") == you
        if t == "pass":
            if "cards" in e:
                return said(me, _("%(who)s passes %(cards)s."), _("You pass %(cards)s."),
                            who=w, cards=self.cards(e["cards"]))
            return said(me, _("%(who)s has chosen three cards to pass."),
                        _("You have chosen three cards to pass."), who=w)
        if t == "cards_exchanged":
            got = e["received"][seat] if seat is not None and seat < len(e["received"]) else []
            if got:
                return said(seat == you, _("The cards change hands. %(who)s gets %(cards)s."),
                            _("The cards change hands. You get %(cards)s."),
                            who=who(names, seat), cards=self.cards(got))
            return _("The cards change hands.")
        if t == "card_played":
            return said(me, _("%(who)s plays %(card)s."), _("You play %(card)s."),
                        who=w, card=self.card(e["cards"][0]))
        if t == "hearts_broken":
            return _("Hearts are broken.")
        if t == "trick_won":
            n = e["points"]
            return said(me, ngettext("%(who)s takes the trick (%(n)d point).",
                                     "%(who)s takes the trick (%(n)d points).", n),
                        ngettext("You take the trick (%(n)d point).",
                                 "You take the trick (%(n)d points).", n), who=w, n=n)
        if t == "moon_shot":
            return said(me, _("%(who)s shot the moon!"), _("You shot the moon!"), who=w)
        if t == "deal_scored":
            return _("Points of this deal: %(scores)s.") % {
                "scores": scores_text(names, e["scores"])}
        if t == "match_over":
            return winners_text(names, e["winners"], you)
        return None

    # ------------------------------------------------------------------ hints
    coach_reasons = coach.REASONS
    puzzle_goal = "fewest_points"
    puzzle_themes = {
        "pass_queen_unguarded": "queen", "pass_queen_few": "queen",
        "keep_queen_guarded": "queen", "shed_queen": "queen", "lead_low_spade": "queen",
        "pass_high_spades": "queen",
        "keep_hearts_for_moon": "moon", "lead_to_stop_moon": "moon", "take_to_stop_moon": "moon",
        "keep_hearts_closed": "hearts", "shed_highest_heart": "hearts",
        "duck_highest": "duck", "duck": "duck", "last_high_no_points": "duck",
        "cannot_duck": "duck", "first_lead": "lead", "lead_sure_loser": "lead",
        "lead_lowest": "lead",
        "shed_highest": "shed", "shed_highest_of_suit": "shed",
        "pass_highest": "pass", "empties_suit": "pass",
    }
    puzzle_choice_kinds = frozenset({"pass"})
    # Three passes: the coach's and two a rule of thumb suggests (a whole deal follows a
    # pass, so its measure is noisy; more rivals would leave hardly any pass clearly best).
    PUZZLE_CHOICES = 3

    def puzzle_theme(self, view: Mapping[str, Any], action: Any) -> str:
        # A pass is a theme of its own (its puzzles are multiple choices, and the shedding
        # theme speaks of tricks), unless the queen or the moon explains it.
        theme = super().puzzle_theme(view, action)
        if action[0] == "pass" and theme not in ("queen", "moon"):
            return "pass"
        return theme

    # ------------------------------------------------------------------ teacher's editor
    def empty_deal(self, players: Sequence[str]) -> dict[str, Any]:
        return {"hands": {p: [] for p in players}}

    def slots(self, deal: Mapping[str, Any], players: Sequence[str], options: Any) -> list[Slot]:
        return hand_slots(deal, players)

    def write_slots(self, deal: dict[str, Any], players: Sequence[str],
                    by_key: Mapping[str, list[str]]) -> None:
        deal["hands"] = {p: by_key.get(f"hand:{i}", []) for i, p in enumerate(players)}

    # ------------------------------------------------------------------ statistics
    def add_statistics(self, sums: Any, deal: Any) -> None:
        result = [int(r) for r in deal.result]
        tricks = [e for e in deal.events if e["type"] == "trick_won"]
        # The points in play: all the points the tricks carry (so 1/13 and 10/100 compare).
        sums.add("in_play", sum(e["points"] for e in tricks))
        sums.add("moon", any(e["type"] == "moon_shot" for e in deal.events))
        for seat in range(len(result)):
            sums.add(f"points_seat_{seat + 1}", result[seat])
        top = max(result)
        sums.add("top", top)
        taker = next((e["seat"] for e in tricks if C.QUEEN_OF_SPADES in e["cards"]), None)
        if taker is not None:
            sums.add("queen_taker_loses", result[taker] == top)

    def statistics_figures(self) -> list[Figure]:
        return [
            Figure("moon", gettext_lazy("How often someone shoots the moon")),
            Figure("queen_taker_loses",
                   gettext_lazy("How often the player who takes the queen of spades scores "
                                "the most points of the deal"),
                   note=gettext_lazy("A shared highest score counts.")),
            Figure("top", gettext_lazy("The highest score of a deal, as a share of the points "
                                       "in play"), per="in_play",
                   note=gettext_lazy("The points in play are those of every card that scores "
                                     "(the hearts and the queen of spades), so rule sets with "
                                     "different card values can be compared.")),
            Figure("points_seat", gettext_lazy("Points each seat gets in a deal, as a share of "
                                               "the points in play"),
                   by_seat=True, per="in_play",
                   note=gettext_lazy("Seats are counted clockwise from the dealer's left, the "
                                     "last seat is the dealer; whoever holds the two of clubs "
                                     "leads first, wherever they sit.")),
        ]

    # ------------------------------------------------------------------ the table
    def table(self, view: Mapping[str, Any], shown: Mapping[int, list[int]],
              marks: frozenset[int], selectable: bool, selected: frozenset[int],
              you: int | None = None) -> dict[str, Any]:
        """Keys: ``seats`` (name, is_viewer, cards or None, count, backs, pickable, to_move,
        leader, chose_pass, tricks_won, deal_points, score, winner), ``trick`` (``[{"name",
        "card"}]`` in play order), ``last_trick`` (same shape plus ``winner``), ``pass_direction``,
        ``pass_label``, ``pass_to`` (name), ``passed`` / ``received`` (the viewer's own cards),
        ``hearts_broken``, ``phase``, ``over``, ``deal_number``, ``limit``, ``moon`` (name)."""
        game = self.name
        names = view["names"]
        n = len(names)
        seats = []
        phase = view["phase"]
        for s, name in enumerate(names):
            cards = parts.hand_for(view, s, shown)
            pick = selectable and s == view["seat"] and phase != "over"
            count = view["hand_counts"][s]
            seats.append({
                "seat": s, "name": name, "is_viewer": s == view["seat"], "hand_id": f"hand-{s}",
                "hand_label": pgettext("the reader's own hand on the card table", "Your hand")
                if s == you else name,
                "cards": parts.hand_items(cards, game, marks, pick, selected),
                "count": count, "backs": range(count) if cards is None else range(0),
                "pickable": pick,
                "to_move": s == view["to_move"], "leader": s == view["leader"],
                "chose_pass": phase == "pass" and view["passes_chosen"][s],
                "tricks_won": view["tricks_won"][s], "deal_points": view["deal_points"][s],
                "score": view["scores"][s], "winner": s in view["winners"],
            })
        trick = []
        leader = view["leader"]
        for i, c in enumerate(view["trick"]):
            who = (leader + i) % n if leader is not None else None
            trick.append({"name": names[who] if who is not None else "", "seat": who,
                          "card": parts.card_item(c, game, marks)})
        last = None
        if view["last_trick"]:
            lt = view["last_trick"]
            last = {"winner": names[lt["winner"]], "winner_seat": lt["winner"],
                    "key": " ".join(C.code(c) for c in lt["cards"]),
                    "taken_by": _("You took the last trick") if lt["winner"] == you
                    else _("Last trick taken by %(name)s") % {"name": names[lt["winner"]]},
                    "cards": [{"name": names[(lt["leader"] + i) % n], "seat": (lt["leader"] + i) % n,
                               "card": parts.card_item(c, game, marks)}
                              for i, c in enumerate(lt["cards"])]}
        direction = view["pass_direction"]
        return {
            "seats": seats, "trick": trick, "last_trick": last,
            "pass_direction": direction,
            "pass_label": str(DIRECTION_LABELS.get(direction, "")) if phase == "pass" else "",
            "pass_to": names[view["pass_to"]] if view["pass_to"] is not None else None,
            "passed": parts.note_items(view["passed"] or (), game, marks),
            "received": parts.note_items(view["received"] or (), game, marks),
            "hearts_broken": view["hearts_broken"], "phase": phase, "over": phase == "over",
            "deal_number": view["deal_number"], "limit": view["limit"],
            "moon": names[view["moon"]] if view.get("moon") is not None else None,
            "moon_text": None if view.get("moon") is None else _("You shot the moon!")
            if view["moon"] == you else _("%(name)s shot the moon!") % {"name": names[view["moon"]]},
        }
