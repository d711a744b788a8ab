"""Dam (Svarta Maja): attacks, beats, takes; the one left with the queen of spades loses."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext, pgettext_lazy

from rules.cardnames import suit_name
from rules.engine import cards as C
from rules.engine import dam as engine
from rules.engine.bots import dam as bots
from rules.engine.match import Standing
from rules.templatetags.cards import card_context

from .base import (
    MOVE_LABELS,
    GameAdapter,
    Slot,
    discard_slot,
    hand_slots,
    stock_slot,
    who,
    write_common,
)


class DamAdapter(GameAdapter):
    name = "dam"
    engine = engine
    bots = {"easy": bots.RandomBot, "normal": bots.HeuristicBot}
    choice_kinds = ("attack", "add", "beat")
    default_players = 3
    blurb = gettext_lazy("Attack and defend; nobody wants the queen of spades. A session of "
                         "deals keeps a tally of who lost.")
    card_names = {C.QUEEN_OF_SPADES: pgettext_lazy("card in the game Dam",
                                                   "queen of spades (Svarta Maja)")}
    summary_column = gettext_lazy("Lost")

    # ------------------------------------------------------------------ deals and series
    def explicit_deal(self, state: Any) -> dict[str, Any]:
        j = state.to_json()
        names = j["names"]
        return {"hands": {names[s]: C.codes(h) for s, h in enumerate(j["hands"])},
                "stock": C.codes(j["stock"])}

    def summary_title(self, standing: Standing, options: Any) -> str:
        return _("Lost deals this session")

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
        return str(MOVE_LABELS.get(kind, kind))

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

    # ------------------------------------------------------------------ narration
    def narrate_event(self, e: Mapping[str, Any], names: Sequence[str],
                      seat: int | None) -> str | None:
        t = e.get("type")
        w = who(names, e.get("seat"))
        if t == "attack":
            return _("%(who)s attacks %(defender)s with %(cards)s.") % {
                "who": w, "defender": who(names, e["defender"]), "cards": self.cards(e["cards"])}
        if t == "beat":
            return _("%(who)s beats %(attack)s with %(card)s.") % {
                "who": w, "attack": self.card(e["attack_card"]), "card": self.card(e["card"])}
        if t == "take":
            return _("%(who)s takes %(cards)s.") % {"who": w, "cards": self.cards(e["cards"])}
        if t == "announce":
            return _("%(who)s announces king and queen of %(suit)s: %(suit)s are trump.") % {
                "who": w, "suit": suit_name(e["suit"])}
        if t == "slap":
            return _("%(who)s slaps: the attack is closed.") % {"who": w}
        if t == "wait":
            return _("%(who)s waits for more cards.") % {"who": w}
        if t == "add":
            return _("%(who)s adds %(cards)s.") % {"who": w, "cards": self.cards(e["cards"])}
        if t == "done":
            return _("%(who)s adds no more cards.") % {"who": w}
        if t == "trump_turned":
            if e.get("card") is None:
                return _("No trump can be turned: this deal has no trump.")
            return _("%(card)s is turned up: %(suit)s are trump.") % {
                "card": self.card(e["card"]), "suit": suit_name(e["suit"])}
        if t == "spade_returned":
            return _("%(card)s was turned up, but spades cannot be trump; it goes back into the "
                     "stock.") % {"card": self.card(e["card"])}
        if t == "refill":
            return ngettext("%(who)s draws %(n)d card.", "%(who)s draws %(n)d cards.",
                            e["count"]) % {"who": w, "n": e["count"]}
        if t == "player_out":
            return _("%(who)s has no cards left and is out.") % {"who": w}
        if t == "overplay_penalty":
            return _("Too many cards! %(who)s takes the attack back and all of %(defender)s's "
                     "cards.") % {"who": w, "defender": who(names, e["defender"])}
        if t == "deal_over":
            if e.get("loser") is None:
                return _("The deal is over; nobody is left with cards.")
            return _("The deal is over: %(who)s gets Svarta Maja.") % {
                "who": who(names, e["loser"])}
        return None

    # ------------------------------------------------------------------ hints
    def reason(self, view: Mapping[str, Any], action: Any, names: Sequence[str]) -> str:
        kind = action[0]
        trump = view["trump"]
        hand = view["hand"]
        stock = view["stock_count"]
        trumps = [c for c in hand if trump is not None and c // 13 == trump]
        if kind == "beat":
            card = action[3]
            if trump is not None and card // 13 == trump and action[2] // 13 != trump:
                if stock == 0:
                    return _("The stock is empty: now trumps decide who is left with the cards, "
                             "so use one.")
                return _("No card of that suit can beat it, and taking would cost more: a "
                         "trump does the job.")
            if trumps and stock:
                return ngettext(
                    "Keep your trumps: %(n)d card is still in the stock, and trumps decide the "
                    "end of the deal.",
                    "Keep your trumps: %(n)d cards are still in the stock, and trumps decide "
                    "the end of the deal.", stock) % {"n": stock}
            return _("Beat with the lowest card of the same suit that does it; keep the high "
                     "ones for later.")
        if kind == "take":
            if stock:
                return _("Taking costs less here than spending a trump or a high card you need "
                         "later: the stock will still refill other hands.")
            return _("Beating here would cost cards you need at the end; taking is the lesser "
                     "evil.")
        if kind in ("attack", "add"):
            cards = action[2]
            if C.QUEEN_OF_SPADES in cards:
                if len(cards) > 1:
                    return _("Get rid of Svarta Maja together with other spades: nothing can "
                             "beat her, so the defender must take the lot.")
                return _("Play Svarta Maja out while you can: nothing can beat her, so the "
                         "defender must take her.")
            if len(cards) >= 3:
                return _("Attack with many cards of one suit: such an attack is hard to beat in "
                         "full, and it empties your hand quickly.")
            if kind == "add":
                return _("Add cards the defender must beat too: every card that leaves your "
                         "hand brings you closer to going out.")
            if trump is not None and any(c // 13 == trump for c in cards):
                return _("The stock is empty: now trumps decide who is left with the cards, "
                         "so use one.") if stock == 0 else _(
                    "Only trumps are left to attack with; play the lowest.")
            return _("Attack with low cards and keep the high ones for beating.")
        if kind == "done":
            if trumps and stock:
                return _("Stop adding: the cards you could add are worth more later (save "
                         "trumps for the end).")
            return _("Stop adding: the cards you could add are worth keeping.")
        if kind == "slap":
            return _("Close the attack now, before the attacker can add more cards.")
        if kind == "announce":
            return _("Announce the pair: it makes trump of a suit you hold many cards of.")
        return super().reason(view, action, names)

    def negligible(self, cost: float) -> bool:
        return cost < 0.005

    def cost_text(self, cost: float) -> str:
        return _("about %(n)d percentage points more chance of being left with Svarta "
                 "Maja") % {"n": round(cost * 100)}

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
    def add_statistics(self, sums: Any, result: list[float], events: Sequence[Mapping[str, Any]],
                       first_mover: int, queen_holder: int | None) -> None:
        loser = result.index(1.0) if 1.0 in result else None
        sums.add("attacks", sum(1 for e in events if e["type"] == "attack"))
        for seat in range(len(result)):
            sums.add(f"loss_seat_{seat + 1}", 1.0 if loser == seat else 0.0)
        sums.add("first_attacker_loses", 1.0 if loser == first_mover else 0.0)
        if queen_holder is not None:
            sums.add("queen_holder_loses", 1.0 if loser == queen_holder else 0.0)
