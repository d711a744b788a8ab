"""Dam (Svarta Maja): attacks, beats, takes; the one left with the queen of spades loses."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from types import ModuleType
from typing import Any, ClassVar

from django.utils.text import capfirst
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext, pgettext, pgettext_lazy

from games import table_parts as parts
from games.cardnames import in_sentence, suit_name
from games.coach_reasons import dam as coach
from games.templatetags.cards import card_context
from rules.engine import cards as C
from rules.engine import dam as engine
from rules.engine.bots import dam as bots
from rules.engine.match import Standing

from .base import (
    MOVE_LABELS,
    Figure,
    GameAdapter,
    Slot,
    discard_slot,
    hand_slots,
    said,
    stock_slot,
    who,
    write_common,
)

# The moves that need no card, as sentences like the other moves' descriptions (a hint and a
# review show them; so do their buttons).
MOVE_SENTENCES = {"take": gettext_lazy("Take the cards."),
                  "slap": gettext_lazy("Slap the cards (close the attack)."),
                  "wait": gettext_lazy("Wait for more cards."),
                  "done": gettext_lazy("Add no more cards.")}
# The order in which players went out, as a word that fits "You went out %(order)s." in each
# language (Swedish "som tvåa", Finnish "toisena"): a bare "(2.)" beside "0 cards" read as two
# unrelated scraps.  Eight players at most, so seven can go out.
OUT_ORDER = (
    pgettext_lazy("went out …", "first"), pgettext_lazy("went out …", "second"),
    pgettext_lazy("went out …", "third"), pgettext_lazy("went out …", "fourth"),
    pgettext_lazy("went out …", "fifth"), pgettext_lazy("went out …", "sixth"),
    pgettext_lazy("went out …", "seventh"),
)


def out_text(name: str, order: int, you: bool) -> str:
    """One sentence for a player who has gone out: who, and as which."""
    word = str(OUT_ORDER[order - 1]) if 0 < order <= len(OUT_ORDER) else f"{order}."
    return said(you, _("%(name)s went out %(order)s."), _("You went out %(order)s."),
                name=name, order=word)


class DamAdapter(GameAdapter):
    name = "dam"
    engine: ClassVar[ModuleType] = engine
    bots: ClassVar[dict[str, type[Any]]] = {"easy": bots.RandomBot, "normal": bots.HeuristicBot}
    choice_kinds = ("attack", "add", "beat")
    unordered_kinds = frozenset({"attack", "add"})
    default_players = 3

    def public_view(self, state: Any) -> dict[str, Any]:
        """Counts of cards too are hidden when the rules hide them (D-P: the end without a
        stock under the overplay penalty, D-A4), where a seat's view shows its own only."""
        view = super().public_view(state)
        if None in view["hand_counts"]:
            view["hand_counts"] = [None] * len(view["hand_counts"])
        return view
    blurb = gettext_lazy("Attack and defend; nobody wants the queen of spades. A session of "
                         "deals keeps a tally of who lost.")
    summary_column = gettext_lazy("Lost")

    # ------------------------------------------------------------------ deals and series
    def explicit_deal(self, state: Any) -> dict[str, Any]:
        j = state.to_json()
        names = j["names"]
        return {"hands": {names[s]: C.codes(h) for s, h in enumerate(j["hands"])},
                "stock": C.codes(j["stock"])}

    def start_deal(self, state: Any, deal: Mapping[str, Any] | None) -> dict[str, Any]:
        out = super().start_deal(state, deal)
        turned = (deal or {}).get("turned")
        if turned:  # it lies under the stock: its own place, not the stock's last card
            out["stock"] = [c for c in out["stock"] if c != turned]
        return out

    def summary_title(self, standing: Standing, options: Any) -> str:
        return _("Lost deals this session")

    def deal_outcome(self, names: Sequence[str], result: Mapping[str, Any]) -> str:
        loser = result.get("loser")
        if loser is None:
            return _("Nobody took Svarta Maja.")
        return _("%(who)s took Svarta Maja.") % {"who": names[loser]}

    # ------------------------------------------------------------------ moves
    def describe(self, action: Any, names: Sequence[str]) -> str:
        kind = action[0]
        if kind == "attack":
            return _("Attack with %(cards)s.") % {"cards": self.cards(action[2])}
        if kind == "add":
            return _("Add %(cards)s to the attack.") % {"cards": self.cards(action[2])}
        if kind == "beat":
            return _("Beat %(attack)s with %(card)s.") % {
                "attack": self.card(action[2]), "card": self.card(action[3])}
        if kind == "announce":
            return _("Announce king and queen of %(suit)s.") % {"suit": suit_name(action[2])}
        return str(MOVE_SENTENCES.get(kind) or MOVE_LABELS.get(kind, kind))

    def form_fields(self, action: Any) -> dict[str, Any]:
        kind = action[0]
        if kind in ("attack", "add"):
            return {"move": kind, "card": C.codes(action[2])}
        if kind == "beat":
            return {"move": kind, "target": C.code(action[2]), "card": [C.code(action[3])]}
        if kind == "announce":
            return {"move": kind, "suit": C.SUITS[action[2]]}
        return {"move": kind}

    def move_words(self, move: str, data: Mapping[str, Any]) -> list[str]:
        cards = data["card"]
        if move == "beat":
            target = data["target"].strip()
            if not target or len(cards) != 1:
                raise ValueError(_("To beat, choose one card on the table and one card of yours."))
            return [move, target, cards[0]]
        if move == "announce":
            return [move, data["suit"].strip()[:2]]
        return [move, *cards]

    def choice_context(self, legal: Sequence[Any], view: Mapping[str, Any], seat: int,
                       kinds: Sequence[str]) -> dict[str, Any]:
        if "beat" not in kinds:
            return {}
        return {"targets": [card_context(c, self.name) for c in view["table"]]}

    def hand_cards(self, action: Any) -> tuple[int, ...]:
        if action[0] in ("attack", "add"):
            return tuple(action[2])
        if action[0] == "beat":
            return (action[3],)
        return ()

    def unplayable_reason(self, state: Any, seat: int, card: int, kinds: Sequence[str]) -> str:
        if "beat" in kinds:
            return _("This card cannot beat any card on the table.")
        if "add" in kinds:
            return _("This card cannot be added to this attack.")
        return super().unplayable_reason(state, seat, card, kinds)

    def targets(self, action: Any) -> tuple[int, ...]:
        return (action[2],) if action[0] == "beat" else ()

    def pair_template(self) -> str:
        return _("Beat %(attack)s with %(card)s.") % {"attack": in_sentence("{target}"),
                                                       "card": in_sentence("{card}")}

    # ------------------------------------------------------------------ narration
    def narrate_event(self, e: Mapping[str, Any], names: Sequence[str],
                      seat: int | None, you: int | None = None) -> str | None:
        t = e.get("type")
        w = who(names, e.get("seat"))
        me = you is not None and e.get("seat") == you
        if t == "attack":
            cards = self.cards(e["cards"])
            if you is not None and e["defender"] == you:
                return _("%(who)s attacks you with %(cards)s.") % {"who": w, "cards": cards}
            return said(me, _("%(who)s attacks %(defender)s with %(cards)s."),
                        _("You attack %(defender)s with %(cards)s."),
                        who=w, defender=who(names, e["defender"]), cards=cards)
        if t == "beat":
            return said(me, _("%(who)s beats %(attack)s with %(card)s."),
                        _("You beat %(attack)s with %(card)s."),
                        who=w, attack=self.card(e["attack_card"]), card=self.card(e["card"]))
        if t == "take":
            return said(me, _("%(who)s takes %(cards)s."), _("You take %(cards)s."),
                        who=w, cards=self.cards(e["cards"]))
        if t == "announce":
            return said(me, _("%(who)s announces king and queen of %(suit)s: %(suit)s are "
                              "trump."),
                        _("You announce king and queen of %(suit)s: %(suit)s are trump."),
                        who=w, suit=suit_name(e["suit"]))
        if t == "slap":
            return said(me, _("%(who)s slaps: the attack is closed."),
                        _("You slap: the attack is closed."), who=w)
        if t == "wait":
            return said(me, _("%(who)s waits for more cards."), _("You wait for more cards."),
                        who=w)
        if t == "add":
            return said(me, _("%(who)s adds %(cards)s."), _("You add %(cards)s."),
                        who=w, cards=self.cards(e["cards"]))
        if t == "done":
            return said(me, _("%(who)s adds no more cards."), _("You add no more cards."),
                        who=w)
        if t == "trump_turned":
            if e.get("card") is None:
                return _("No trump can be turned: this deal has no trump.")
            # The sentence may open with the card ("The nine of diamonds is turned up").
            return capfirst(_("%(card)s is turned up: %(suit)s are trump.") % {
                "card": self.card(e["card"]), "suit": suit_name(e["suit"])})
        if t == "spade_returned":
            return capfirst(_("%(card)s was turned up, but spades cannot be trump; it goes back "
                              "into the stock.") % {"card": self.card(e["card"])})
        if t == "refill":
            n = e["count"]
            return said(me, ngettext("%(who)s draws %(n)d card.", "%(who)s draws %(n)d cards.", n),
                        ngettext("You draw %(n)d card.", "You draw %(n)d cards.", n), who=w, n=n)
        if t == "player_out":
            return said(me, _("%(who)s has no cards left and is out."),
                        _("You have no cards left and are out."), who=w)
        if t == "overplay_penalty":
            if you is not None and e["defender"] == you:
                return _("Too many cards! %(who)s takes the attack back and all of your "
                         "cards.") % {"who": w}
            return said(me, _("Too many cards! %(who)s takes the attack back and all of "
                              "%(defender)s's cards."),
                        _("Too many cards! You take the attack back and all of %(defender)s's "
                          "cards."), who=w, defender=who(names, e["defender"]))
        if t == "deal_over":
            if e.get("loser") is None:
                return _("The deal is over; nobody is left with cards.")
            return said(you is not None and e["loser"] == you,
                        _("The deal is over: %(who)s gets Svarta Maja."),
                        _("The deal is over: you get Svarta Maja."), who=who(names, e["loser"]))
        return None

    # ------------------------------------------------------------------ hints
    coach_reasons = coach.REASONS
    puzzle_goal = "dam_not_left"
    puzzle_themes = {
        "maja_with_spades": "maja", "maja_alone": "maja",
        "beat_low_keep_trumps": "save_trumps", "take_keep_trumps": "save_trumps",
        "done_trumps": "save_trumps", "done_keep": "save_trumps", "trump_endgame": "save_trumps",
        "only_trumps_lowest": "save_trumps",
        "beat_low": "overplay", "lowest_trump_no_suit": "overplay", "trump_no_suit": "overplay",
        "take_nothing_beats": "overplay",
        "lowest_attack": "attack_low", "lowest_of_suit": "attack_low", "several": "attack_low",
        "adds": "attack_low", "done_nothing": "attack_low",
        "slap": "extra_attack", "announce": "marriage",
    }

    def puzzle_theme(self, view: Mapping[str, Any], action: Any) -> str:
        # Once the stock is empty an attack is bounded by the defender's hand (D-A4): every
        # attack then is a puzzle of the endgame limit, unless it plays Svarta Maja out (the
        # queen of spades is the game's own lesson, and most of her chances come late).
        theme = super().puzzle_theme(view, action)
        if theme != "maja" and view["stock_count"] == 0 and action[0] in ("attack", "add") \
                and not view.get("turned_in_stock"):
            return "endgame_limit"
        return theme

    def negligible(self, cost: float) -> bool:
        return cost < 0.005

    def cost_text(self, cost: float) -> str:
        n = round(cost * 100)
        return ngettext("about %(n)d percentage point more chance of being left with Svarta "
                        "Maja",
                        "about %(n)d percentage points more chance of being left with Svarta "
                        "Maja", n) % {"n": n}

    # ------------------------------------------------------------------ handouts
    def trump_text(self, states: Sequence[Any], events: Sequence[Sequence[Mapping[str, Any]]]
                   ) -> str:
        start = states[0].view(0)
        options = start["options"]
        if options["trump"] == "fixed":
            return _("Trump: %(suit)s, fixed by the rules.") % {
                "suit": suit_name(start["trump"])}
        if start["trump_decided"]:
            if start["turned"] is not None:
                return _("Trump: %(suit)s (%(card)s lies turned up under the stock).") % {
                    "suit": suit_name(start["trump"]), "card": self.card(start["turned"])}
            if start["trump"] is None:
                return _("This deal has no trump.")
            return _("Trump: %(suit)s.") % {"suit": suit_name(start["trump"])}
        if options["trump"] == "marriage":
            return _("No trump yet: a player who holds the king and queen of a suit may "
                     "announce them.")
        # Turned at the first attack (D-T1): from the steps, or from any first move, which all
        # turn the same card (the stock is fixed by the deal).
        found = next((e for step in events for e in step if e.get("type") == "trump_turned"),
                     None)
        if found is None and not states[-1].over:
            state = states[-1]
            legal = list(state.legal_actions())
            if legal:
                after = state.apply(legal[0])[1]
                found = next((e for e in after if e.get("type") == "trump_turned"), None)
        if found is None:
            return ""
        if found.get("card") is None:
            return _("This deal has no trump: no card can be turned.")
        return _("Trump: %(suit)s (%(card)s is turned up at the first attack).") % {
            "suit": suit_name(found["suit"]), "card": self.card(found["card"])}

    # ------------------------------------------------------------------ teacher's editor
    def empty_deal(self, players: Sequence[str]) -> dict[str, Any]:
        return {"hands": {p: [] for p in players}, "stock": []}

    def slots(self, deal: Mapping[str, Any], players: Sequence[str], options: Any) -> list[Slot]:
        out = hand_slots(deal, players)
        out.append(stock_slot(deal))
        if options.trump == "turned":
            turned = deal.get("turned")
            out.append(Slot("turned", _("Turned trump card (drawn last)"),
                            [turned] if turned else [], single=True))
        out.append(discard_slot(deal))
        return out

    def write_slots(self, deal: dict[str, Any], players: Sequence[str],
                    by_key: Mapping[str, list[str]]) -> None:
        deal["hands"] = {p: by_key.get(f"hand:{i}", []) for i, p in enumerate(players)}
        write_common(deal, by_key)

    def fit_deal(self, deal: dict[str, Any], options: Any) -> None:
        if options.trump != "turned":
            deal.pop("turned", None)

    # ------------------------------------------------------------------ statistics
    def add_statistics(self, sums: Any, deal: Any) -> None:
        result = deal.result
        loser = result.index(1.0) if 1.0 in result else None
        sums.add("moves", deal.moves)
        sums.add("attacks", sum(1 for e in deal.events if e["type"] == "attack"))
        # Seat 1 sits at the dealer's left and attacks first (D-S4); the last seat deals.
        for seat in range(len(result)):
            sums.add(f"loss_seat_{seat + 1}", loser == seat)
        holder = next((s for s in range(len(result))
                       if C.QUEEN_OF_SPADES in deal.start.view(s)["hand"]), None)
        if holder is not None:  # she may lie in the stock
            sums.add("queen_holder_loses", loser == holder)

    def statistics_figures(self) -> list[Figure]:
        return [
            Figure("loss_seat", gettext_lazy("How often each seat loses"), by_seat=True,
                   equal_share=True,
                   note=gettext_lazy("Seats are counted clockwise from the dealer's left: seat "
                                     "1 attacks first, the last seat is the dealer.")),
            Figure("queen_holder_loses",
                   gettext_lazy("How often the player dealt the queen of spades loses"),
                   equal_share=True,
                   note=gettext_lazy("Deals in which she was dealt to a player, not left in "
                                     "the stock. She can still be passed on in an attack."),
                   equal_note=gettext_lazy("The dashed line marks %(share)s: how often any "
                                           "one player loses.")),
            Figure("attacks", gettext_lazy("Attacks in a deal"), unit="count"),
            Figure("moves", gettext_lazy("Moves in a deal"), unit="count",
                   note=gettext_lazy("Every move counts as one: an attack, beating a "
                                     "card, taking the cards and so on.")),
        ]

    # ------------------------------------------------------------------ the table
    def table(self, view: Mapping[str, Any], shown: Mapping[int, list[int]],
              marks: frozenset[int], selectable: bool, selected: frozenset[int],
              you: int | None = None) -> dict[str, Any]:
        """Keys: ``seats`` (name, is_viewer, cards or None, count (None = hidden size), backs,
        attacker, defender, to_move, out (1-based order or None), loser, pickable), ``attack``
        (``[{"card", "beaten_by"}]`` in attack order: beaten pairs first, then unbeaten cards),
        ``trump`` (suit dict or None), ``turned`` (the face-up trump card while it lies under the
        stock), ``stock_count``, ``discard_count``, ``phase``, ``over``, ``loser_name``."""
        game = self.name
        names = view["names"]
        out = list(view["out"])
        seats = []
        for s, name in enumerate(names):
            cards = parts.hand_for(view, s, shown)
            count = view["hand_counts"][s]
            pick = selectable and s == view["seat"] and not view["over"]
            seats.append({
                "seat": s, "name": name, "is_viewer": s == view["seat"], "hand_id": f"hand-{s}",
                "hand_label": pgettext("the reader's own hand on the card table", "Your hand")
                if s == you else name,
                "cards": parts.hand_items(cards, game, marks, pick, selected),
                "count": count, "backs": range(count or 0) if cards is None else range(0),
                "pickable": pick,
                "attacker": s == view["attacker"] and not view["over"],
                "defender": s == view["defender"] and not view["over"],
                "to_move": s == view["to_move"],
                "out": out.index(s) + 1 if s in out else None,
                "out_text": out_text(name, out.index(s) + 1, s == you) if s in out else "",
                "loser": s == view["loser"],
                # Public: she was taken from the table, drawn as the turned card or shown in a
                # pair (the seed's tactic "watch where Maja is").
                "maja_known": self._maja_text(view, s, you),
            })
        attack: list[dict[str, Any]] = [
            {"card": parts.card_item(a, game, marks), "beaten_by": parts.card_item(b, game, marks)}
            for a, b in view["beaten"]]
        attack += [{"card": parts.card_item(a, game, marks), "beaten_by": None} for a in view["table"]]
        turned = view["turned"] if view.get("turned_in_stock") else None
        return {
            "seats": seats, "attack": attack, "trump": parts.suit_item(view["trump"]),
            "turned": parts.card_item(turned, game, marks) if turned is not None else None,
            "stock_count": view["stock_count"], "discard_count": view["discard_count"],
            "phase": view["phase"], "over": view["over"],
            "loser_name": names[view["loser"]] if view["loser"] is not None else None,
            "attack_suit": parts.suit_item(view.get("attack_suit")),
            "attacker_seat": view["attacker"], "defender_seat": view["defender"],
        }

    def pick_target(self, view: Mapping[str, Any], ctx: dict[str, Any], target: int | None
                    ) -> None:
        """In a defence, the defender also picks which attack card to beat: the unbeaten attack
        cards become radios named "target"."""
        if "attack" not in ctx or view["phase"] != "defend" or view["to_move"] != view["seat"]:
            return
        for entry in ctx["attack"]:
            if entry["beaten_by"] is None:
                entry["pick"] = True
                entry["card"]["checked"] = C.parse(entry["card"]["code"]) == target
        ctx["pick_target"] = True

    @staticmethod
    def _maja_text(view: Mapping[str, Any], seat: int, you: int | None) -> str:
        if view.get("maja_known_with") != seat or view["over"]:
            return ""
        if seat == you:
            return _("everyone saw you get Svarta Maja")
        return _("has Svarta Maja (everyone saw)")
