"""The toy game's adapter: what the site needs of a game beyond its rules (tests/games/toy)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from django.utils.functional import lazy

from games import table_parts as parts
from games.adapters.base import Figure, GameAdapter, Slot, hand_slots
from rules.engine.match import Standing

from . import engine


class RandomBot:
    """Plays its lowest card: enough to finish a deal."""

    def __init__(self, seed: int = 0) -> None:
        self.seed = seed

    def act(self, state: Any, seat: int) -> Any:
        return state.legal_actions()[0]


class ToyAdapter(GameAdapter):
    name = "toy"
    engine = engine
    bots = {"easy": RandomBot, "normal": RandomBot}
    choice_kinds = ("play",)
    one_tap_kind = "play"
    default_players = 2
    blurb = lazy(lambda: "Play your highest card to take the trick.", str)()

    def explicit_deal(self, state: Any) -> dict[str, Any]:
        return {"hands": {n: [engine.C.code(c) for c in h]
                          for n, h in zip(state.names, state.hands, strict=True)}}

    def summary_title(self, standing: Standing, options: Any) -> str:
        return "Tricks"

    def describe(self, action: Any, names: Sequence[str]) -> str:
        return f"Play {self.card(action[2])}."

    def form_fields(self, action: Any) -> dict[str, Any]:
        return {"move": "play", "card": [engine.C.code(action[2])]}

    def hand_cards(self, action: Any) -> tuple[int, ...]:
        return (action[2],)

    def narrate_event(self, e: Mapping[str, Any], names: Sequence[str], seat: int | None,
                      you: int | None = None) -> str | None:
        if e["type"] == "played":
            return f"{names[e['seat']]} plays {self.card(e['card'])}."
        if e["type"] == "trick_won":
            return f"{names[e['seat']]} takes the trick."
        return None

    def table(self, view: Mapping[str, Any], shown: Mapping[int, list[int]],
              marks: frozenset[int], selectable: bool, selected: frozenset[int],
              you: int | None = None) -> dict[str, Any]:
        seats = []
        for s, name in enumerate(view["names"]):
            cards = parts.hand_for(view, s, shown)
            pick = selectable and s == view["seat"] and not view["over"]
            seats.append({
                "seat": s, "name": name, "is_viewer": s == view["seat"], "hand_id": f"hand-{s}",
                "hand_label": name, "cards": parts.hand_items(cards, self.name, marks, pick,
                                                             selected),
                "backs": range(view["hand_counts"][s]) if cards is None else range(0),
                "pickable": pick, "to_move": s == view["to_move"], "tricks": view["tricks"][s]})
        return {"seats": seats, "over": view["over"],
                "trick": parts.card_items(view["trick"], self.name, marks)}

    def empty_deal(self, players: Sequence[str]) -> dict[str, Any]:
        return {"hands": {p: [] for p in players}}

    def slots(self, deal: Mapping[str, Any], players: Sequence[str], options: Any) -> list[Slot]:
        return hand_slots(deal, players)

    def write_slots(self, deal: dict[str, Any], players: Sequence[str],
                    by_key: Mapping[str, list[str]]) -> None:
        deal["hands"] = {p: by_key.get(f"hand:{i}", []) for i, p in enumerate(players)}

    def add_statistics(self, sums: Any, deal: Any) -> None:
        return None

    def statistics_figures(self) -> list[Figure]:
        return []
