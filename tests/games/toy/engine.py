"""A toy fourth game for the test that adding a game touches only its engine module, its
adapter, one registry entry and its table template: "High card".  Every player is dealt a few
cards face down; in turn each plays one face up; whoever played the highest card (ace high,
any suit) takes the trick and leads the next.  The most tricks win the deal.  Pure Python,
like the real engines, and as small as the GameModule protocol allows."""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Iterable, Mapping, Sequence
from typing import Any, Self

from rules.engine import cards as C
from rules.engine.errors import IllegalAction
from rules.engine.match import Standing

NAME = "toy"
PRESETS: dict[str, dict[str, Any]] = {"standard": {}}
DEFAULT_PRESET = "standard"
type Action = tuple[str, int, int]


@dataclasses.dataclass(frozen=True)
class Options:
    hand_size: int = dataclasses.field(default=3, metadata={"choices": (3,)})  # cards dealt each


def player_range(options: Options) -> tuple[int, int]:
    return 2, 4


class State:
    def __init__(self, names: Sequence[str], hands: list[list[int]], leader: int,
                 trick: list[int] | None = None, tricks: list[int] | None = None) -> None:
        self.names = list(names)
        self.hands = hands
        self.leader = leader
        self.trick = trick or []
        self.tricks = tricks or [0] * len(names)

    @property
    def over(self) -> bool:
        return not any(self.hands) and not self.trick

    @property
    def to_move(self) -> int | None:
        return None if self.over else (self.leader + len(self.trick)) % len(self.names)

    def legal_actions(self) -> list[Action]:
        seat = self.to_move
        return [] if seat is None else [("play", seat, c) for c in sorted(self.hands[seat])]

    def clone(self) -> Self:
        return type(self)(self.names, [list(h) for h in self.hands], self.leader,
                          list(self.trick), list(self.tricks))

    def apply(self, action: Action) -> tuple[Self, list[dict[str, Any]]]:
        state = self.clone()
        events: list[dict[str, Any]] = []
        state.apply_in_place(action, events)
        return state, events

    def apply_in_place(self, action: Action, events: list[dict[str, Any]] | None = None
                       ) -> None:
        if action not in self.legal_actions():
            raise IllegalAction("bad_move")
        _kind, seat, card = action
        self.hands[seat].remove(card)
        self.trick.append(card)
        out = events if events is not None else []
        out.append({"type": "played", "seat": seat, "card": card})
        if len(self.trick) == len(self.names):
            best = max(range(len(self.trick)), key=lambda i: C.rank_of(self.trick[i]))
            winner = (self.leader + best) % len(self.names)
            self.tricks[winner] += 1
            out.append({"type": "trick_won", "seat": winner, "cards": list(self.trick)})
            self.trick, self.leader = [], winner

    def view(self, seat: int) -> dict[str, Any]:
        return {"game": NAME, "seat": seat, "names": list(self.names),
                "hand": sorted(self.hands[seat]), "hand_counts": [len(h) for h in self.hands],
                "trick": list(self.trick), "leader": self.leader, "tricks": list(self.tricks),
                "to_move": self.to_move, "over": self.over}

    def to_json(self) -> dict[str, Any]:
        return {"names": self.names, "hands": self.hands, "leader": self.leader,
                "trick": self.trick, "tricks": self.tricks}


def state_from_json(data: dict[str, Any]) -> State:
    return State(data["names"], [list(h) for h in data["hands"]], data["leader"],
                 list(data["trick"]), list(data["tricks"]))


def new_game(options: Options, names: list[str], dealer: int, seed: int,
             deal: dict[str, Any] | None) -> State:
    if deal and deal.get("hands"):
        hands = [[C.parse(c) for c in deal["hands"][n]] for n in names]
    else:
        deck = list(range(52))
        random.Random(seed).shuffle(deck)
        k = options.hand_size
        hands = [deck[i * k:(i + 1) * k] for i in range(len(names))]
    return State(names, hands, (dealer + 1) % len(names))


def parse_action(state: State, seat: int, words: list[str]) -> Action:
    if len(words) != 2 or words[0] != "play":
        raise IllegalAction("bad_move")
    try:
        return ("play", seat, C.parse(words[1]))
    except C.CardError:
        raise IllegalAction("bad_move") from None


def format_action(action: Action) -> str:
    return f"play {C.code(action[2])}"


def check_expect(state: State, key: str, value: Any) -> str | None:
    return None


def outcome(state: State) -> list[float]:
    return [float(t) for t in state.tricks]


def visible_events(events: list[dict[str, Any]], seat: int | None) -> list[dict[str, Any]]:
    return list(events)  # every card is played face up


def deal_result(state: State) -> dict[str, Any]:
    return {"tricks": list(state.tricks)}


def match_standing(players: int, results: Iterable[Mapping[str, Any]]) -> Standing:
    done = list(results)
    tricks = [sum(r["tricks"][s] for r in done) for s in range(players)]
    best = max(tricks) if done else 0
    return Standing(tricks, over=bool(done),
                    winners=[s for s in range(players) if done and tricks[s] == best])


def following_deal(options: Options, names: list[str], dealer: int, deal_number: int,
                   last: Mapping[str, Any], seed: int) -> State:
    raise ValueError("the match is over")
