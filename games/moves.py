"""Reading moves: card words, the move buttons a position offers, a submitted lesson form as
scenario notation, and the canonical form two moves are compared in.  Which moves are legal is
the engine's business; how a game writes and orders its moves is its adapter's."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from django.utils.translation import gettext_lazy

from games.adapters import MOVE_LABELS as SITE_MOVE_LABELS
from games.adapters import adapter
from games.adapters.base import GameAdapter
from rules.engine import cards as C

# The move vocabulary of the scenario notation, as buttons (one list for the whole site).
# Which ones a step offers is the engine's business: those its legal actions use now.  The
# lessons' forms have no position pickers, so Dam med dolda kort's variant moves (shield,
# steal) are not among them.
MOVE_LABELS = {k: v for k, v in SITE_MOVE_LABELS.items() if k not in ("shield", "steal")}
# Kinds whose notation names cards of the player's hand: the page lets the learner pick them.
CARD_KINDS = frozenset({"attack", "announce", "beat", "add", "pass", "play"})


def cards_named(words: Iterable[str]) -> list[int]:
    """The cards among ``words`` (card codes), in order; other words are passed over."""
    out = []
    for word in words:
        try:
            out.append(C.parse(word))
        except (C.CardError, ValueError, KeyError, IndexError, AttributeError):
            continue
    return out


def move_kind(words: list[str]) -> str:
    """The button a move in scenario notation (without the player) belongs to."""
    if words and words[0] == "draw" and len(words) > 1:
        return f"draw_{words[1]}"
    return words[0] if words else ""


def legal_kinds(module: Any, state: Any) -> list[str]:
    """The buttons for the moves the engine allows now, in the page's order."""
    kinds = {move_kind(module.format_action(a).split()) for a in state.legal_actions()}
    return [k for k in MOVE_LABELS if k in kinds]


class BadInput(Exception):
    """A form the page never offers (unknown action, garbled cards): said plainly, nothing done."""


class NeedChoice(Exception):
    """A move button pressed without the cards it needs: the page says what to choose."""

    def __init__(self, code: str) -> None:
        super().__init__(code)
        self.code = code


NEED_TEXTS = {
    "need_beat": gettext_lazy("Choose one card of yours and the attack card it should beat."),
    "need_announce": gettext_lazy("Choose the king and queen of the suit you announce."),
    "need_cards": gettext_lazy("Choose the cards for this move first."),
}


def move_text(player: str, action: str, cards: list[str], target: str,
              allowed: list[str]) -> str:
    """The scenario-notation move for a submitted form (the engine judges it)."""
    if action not in allowed:
        raise BadInput
    if action not in CARD_KINDS:
        return " ".join([player, *action.split("_")])
    if action == "beat":
        if len(cards) != 1 or not target:
            raise NeedChoice("need_beat")
        return f"{player} beat {target} {cards[0]}"
    if action == "announce":
        suits = sorted({c[-1].upper() for c in cards})
        if len(suits) != 1:
            raise NeedChoice("need_announce")
        return f"{player} announce {suits[0]}"
    if not cards:
        raise NeedChoice("need_cards")
    return f"{player} {action} {' '.join(cards)}"


def canonical(module: Any, action: Any) -> tuple[str, ...]:
    """``action`` as words that are equal for the same move however its cards were ordered
    (the kinds whose cards come in no order are the game adapter's ``unordered_kinds``)."""
    words = module.format_action(action).split()
    if words and words[0] in adapter(module.NAME).unordered_kinds:
        return (words[0], *sorted(words[1:]))
    return tuple(words)


def lesson_cards(move: str) -> list[int]:
    """The cards a scenario move names (for an announcement: the king and queen shown)."""
    words = move.split()
    if len(words) == 3 and words[1] == "announce":
        words = words[:2] + [f"K{words[2]}", f"Q{words[2]}"]
    return cards_named(words[2:])


# --------------------------------------------------------------------------- a seat's choices
def form_pairs(fields: Mapping[str, Any]) -> list[tuple[str, str]]:
    """A move's form fields (``adapter.form_fields``) as (name, value) pairs for hidden inputs:
    a list value becomes one input per item."""
    out = []
    for k, v in fields.items():
        for item in (v if isinstance(v, list) else [v]):
            out.append((k, str(item)))
    return out


def move_choices(game_key: str, state: Any, view: Mapping[str, Any], seat: int,
                 names: Sequence[str]) -> dict[str, Any]:
    """What ``seat`` can do now, straight from ``legal_actions()``, as the game page offers it:
    a button per kind of move that needs a choice of cards or positions, one per move that
    needs none, and the cues on the hand (``cues``).  ``{"mine": False}`` when it is not the
    seat's turn."""
    if state.over or state.to_move != seat:
        return {"mine": False}
    game = adapter(game_key)
    legal = list(state.legal_actions())
    kinds: list[str] = []
    simple: list[dict[str, Any]] = []
    seen_simple = set()
    for a in legal:
        kind = game.kind(a)
        if kind in game.choice_kinds:
            if kind not in kinds:
                kinds.append(kind)
        else:
            label = game.describe(a, names)
            if label not in seen_simple:
                seen_simple.add(label)
                simple.append({"label": label, "fields": form_pairs(game.form_fields(a)),
                               "id": f"move-simple-{len(simple) + 1}", "tap": game.pile_tap(a)})
    # One tap on a card makes the move when it is the only kind of choice now (a Spardame
    # play): the card is the submit button, there is no separate one.
    one_tap = bool(kinds) and kinds == [game.one_tap_kind]
    buttons = [] if one_tap else [{"kind": k, "label": SITE_MOVE_LABELS[k]} for k in kinds]
    for i, entry in enumerate(simple, start=len(buttons) + 1):  # keys 1–9 (documented)
        entry["key"] = i if i <= 9 else None
    # One tap on the stock, the discard pile or the next place in your row makes that move.
    taps = {e["tap"]: {"form": e["id"], "label": e["label"]} for e in simple if e["tap"]}
    ctx: dict[str, Any] = {"mine": True, "buttons": buttons, "simple": simple, "taps": taps,
                           "selectable": game.picks_from_hand and bool(kinds),
                           "one_tap": game.one_tap_kind if one_tap else "", "choosing": bool(kinds)}
    ctx.update(game.choice_context(legal, view, seat, kinds))
    if ctx["selectable"]:
        ctx.update(cues(game, state, legal, view, seat, kinds))
    return ctx


def offered_choices(game_key: str, offered: Sequence[Any], names: Sequence[str]
                    ) -> dict[str, Any]:
    """A multiple choice among ``offered`` moves (a puzzle's choices, all legal now), as
    ``move_choices`` gives the moves that need no choice of cards: one button each, in the
    order given, keys 1–9; the hand is not selectable, since only these moves are offered."""
    game = adapter(game_key)
    simple = [{"label": game.describe(a, names), "fields": form_pairs(game.form_fields(a)),
               "id": f"move-simple-{i}", "tap": None, "key": i if i <= 9 else None}
              for i, a in enumerate(offered, start=1)]
    return {"mine": True, "buttons": [], "simple": simple, "taps": {}, "selectable": False,
            "one_tap": "", "choosing": False, "offered": True}


def cues(game: GameAdapter, state: Any, legal: Sequence[Any], view: Mapping[str, Any],
         seat: int, kinds: Sequence[str]) -> dict[str, Any]:
    """The legal-move cues, from the legal actions through the adapter: which hand cards take
    part in no legal move (and why), and for a pairing move which table cards each may take."""
    usable = {c for a in legal for c in game.hand_cards(a)}
    unplayable = {c: game.unplayable_reason(state, seat, c, kinds)
                  for c in view.get("hand", ()) if c not in usable}
    pair = game.pair_template() if "beat" in kinds else ""
    beats: dict[int, list[int]] | None = None
    if pair:
        beats = {}
        for a in legal:
            if game.kind(a) == "beat":
                own, target = game.hand_cards(a)[0], game.targets(a)
                beats.setdefault(own, []).extend(target)
    return {"unplayable": unplayable, "beats": beats, "pair_template": pair}


# What a tap on a card that takes part in no legal move says (static/js/practice.js shows it
# beside the card): the practice table and the tables with friends say the same.
DEAL_OVER = gettext_lazy("The deal is over; no more moves can be made.")
WAIT_FOR = gettext_lazy("%(name)s is to move now: wait for that move.")
OWN_IDLE = gettext_lazy("This card takes part in none of your moves now.")
OTHER_IDLE = gettext_lazy("%(name)s's cards take part in none of your moves.")
TABLE_IDLE = gettext_lazy("This card on the table takes part in none of your moves now.")
NO_KEY = gettext_lazy("No move has the key %(key)s now.")
MOVES_NOW = gettext_lazy("Your moves now: %(moves)s.")
HAND_NOW = gettext_lazy("Play one of the cards of your hand that are not dimmed.")


def idle_reasons(game_key: str, names: Sequence[str], state: Any, view: Mapping[str, Any],
                 actions: Mapping[str, Any], seat: int) -> dict[str, str]:
    """What a tap on a card that takes part in no legal move says, by where the card lies:
    the player's own ("own"), another player's ("other", with %(name)s for the seat's name,
    filled in by the page), on the table ("table"); and a number key no move button has
    ("key", with %(key)s).  ``actions`` is ``move_choices``'s answer for ``seat``."""
    if state.over:
        text = str(DEAL_OVER)
        return {"own": text, "other": text, "table": text, "key": text}
    if not actions["mine"]:
        text = str(WAIT_FOR % {"name": names[state.to_move]})
        return {"own": text, "other": text, "table": text, "key": text}
    moves = [str(b["label"]) for b in actions["buttons"]] + \
        [str(m["label"]).rstrip(".") for m in actions["simple"]]
    then = str(MOVES_NOW % {"moves": "; ".join(moves)}) if moves else str(HAND_NOW)
    own = adapter(game_key).idle_own_reason(view, seat) or str(OWN_IDLE)
    return {"own": f"{own} {then}", "other": f"{OTHER_IDLE} {then}",
            "table": f"{TABLE_IDLE} {then}", "key": f"{NO_KEY} {then}"}
