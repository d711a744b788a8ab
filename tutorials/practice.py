"""Practice mode service layer: create games, replay records, apply moves, bots, undo, hints,
narration and export.

A practice game is a record (rules, players, dealer, seed, an explicit deal, the list of
moves in scenario notation).  Every screen is derived by replaying that record through the
engine; the derived state is cached in Django's cache under the game id and version, so any
number of app servers can serve the same game.  The deal is written out card by card when the
game is created, so the record is exactly a ``dam-scenario/1`` file and ``scenario check``
replays an export.
"""

from __future__ import annotations

import random
import secrets
import uuid
from dataclasses import dataclass, field
from typing import Any

from django.core.cache import cache
from django.db import transaction
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

from rules import replay as stored
from rules.cardnames import card_name, suit_name
from rules.engine import cards as C
from rules.engine import scenario as scn
from rules.engine.bots import dam as dam_bots
from rules.engine.bots import dolda as dolda_bots
from rules.engine.bots import spardame as spardame_bots
from rules.engine.bots import strong
from rules.engine.errors import IllegalAction, ScenarioError
from rules.engine.games import GAME_NAMES, game_module
from rules.engine.options import build_options
from rules.reasons import reason_text

from .models import PracticeGame

OWNER_KEY = "practice_owner"
CACHE_SECONDS = 60 * 60
LEVELS = ("easy", "normal", "strong")
BOT_CLASSES = {
    "dam": {"easy": dam_bots.RandomBot, "normal": dam_bots.HeuristicBot},
    "dolda": {"easy": dolda_bots.RandomBot, "normal": dolda_bots.HeuristicBot},
    "spardame": {"easy": spardame_bots.RandomBot, "normal": spardame_bots.HeuristicBot},
}

# Bot names that fit each page language (names, not phrases: they are not translated).
BOT_NAMES = {
    "sv": ["Anna", "Bo", "Cilla", "Dan", "Eva", "Fredrik", "Greta", "Hugo"],
    "fi": ["Aino", "Eero", "Helmi", "Juha", "Kaisa", "Lauri", "Maija", "Oskari"],
    "nb": ["Ingrid", "Ola", "Kari", "Per", "Sigrid", "Lars", "Astrid", "Nils"],
    "en": ["Alice", "Ben", "Clara", "David", "Emma", "Frank", "Grace", "Henry"],
}


class PracticeError(Exception):
    """A refused request; ``message`` is one translated sentence for the player."""

    def __init__(self, message: str, status: int = 400) -> None:
        super().__init__(message)
        self.message = message
        self.status = status


STALE = gettext_lazy("That move was already made or the game has changed since this page was "
                     "shown. The table below shows the current position.")
NOT_YOUR_TURN_BOT = gettext_lazy("It is not a bot's turn now.")
NOTHING_TO_UNDO = gettext_lazy("There is no move of yours to undo.")


# --------------------------------------------------------------------------- owners
def owner_token(session, create: bool = False) -> str | None:
    token = session.get(OWNER_KEY)
    if token is None and create:
        token = secrets.token_urlsafe(24)
        session[OWNER_KEY] = token
    return token


# --------------------------------------------------------------------------- creating
def options_for(game: str, rules: dict[str, Any]):
    module = game_module(game)
    return build_options(module.Options, module.PRESETS, module.DEFAULT_PRESET, rules)


def bot_names(language: str, human: str, count: int) -> list[str]:
    pool = [n for n in BOT_NAMES.get(language, BOT_NAMES["en"]) if n != human]
    return pool[:count]


def explicit_deal(game: str, state: Any) -> dict[str, Any]:
    """The deal of a freshly dealt state written out card by card (scenario ``deal``)."""
    j = state.to_json()
    names = j["names"]
    if game == "dam":
        return {"hands": {names[s]: C.codes(h) for s, h in enumerate(j["hands"])},
                "stock": C.codes(j["stock"])}
    if game == "dolda":
        deal: dict[str, Any] = {"rows": {names[s]: C.codes(r) for s, r in enumerate(j["rows"])},
                                "stock": C.codes(j["stock"])}
        if j["secret"] is not None:
            deal["secret"] = {names[s]: C.code(c) for s, c in enumerate(j["secret"])}
        return deal
    return {"hands": {names[s]: C.codes(sorted(h)) for s, h in enumerate(j["hands"])},
            "deal_number": j["deal_number"],
            "scores": dict(zip(names, j["scores_before"]))}


def _new_record(owner: str, game: str, rules: dict[str, Any], names: list[str], dealer: int,
                human_seat: int, level: str, memory_aid: bool, series: uuid.UUID | None,
                deal_number: int, scores: list[int] | None) -> PracticeGame:
    module = game_module(game)
    options = options_for(game, rules)
    seed = secrets.randbits(31)
    pre_deal = None
    if game == "spardame":
        pre_deal = {"deal_number": deal_number,
                    "scores": dict(zip(names, scores or [0] * len(names)))}
    dealt = module.new_game(options, names, dealer, seed, pre_deal)
    deal = explicit_deal(game, dealt)
    return PracticeGame.objects.create(
        owner=owner, game=game, rules=rules, names=names, dealer=dealer, human_seat=human_seat,
        level=level, memory_aid=memory_aid, seed=seed, deal=deal, series=series or uuid.uuid4(),
        deal_number=deal_number)


def create_game(owner: str, game: str, rules: dict[str, Any], players: int, level: str,
                human_name: str, language: str, memory_aid: bool = True) -> PracticeGame:
    """A new first deal; the human is seat 0 and the dealer the last seat (D-S4, H-T1)."""
    if game not in GAME_NAMES or level not in LEVELS:
        raise PracticeError(_("Unknown game or bot level."))
    try:
        options = options_for(game, rules)
    except ScenarioError:
        raise PracticeError(_("Those rules are not possible.")) from None
    lo, hi = game_module(game).player_range(options)
    if not lo <= players <= hi:
        raise PracticeError(_("That number of players is not possible with these rules."))
    names = [human_name] + bot_names(language, human_name, players - 1)
    # Bots move one at a time through step_bot, so the page can narrate each move.
    return _new_record(owner, game, rules, names, players - 1, 0, level, memory_aid, None, 1,
                       None)


# --------------------------------------------------------------------------- replaying
@dataclass
class Derived:
    state: Any
    events: list[list[dict[str, Any]]] = field(default_factory=list)  # per action
    seats: list[int] = field(default_factory=list)  # acting seat per action


def _cache_key(record: PracticeGame) -> str:
    return f"practice:{record.pk}:{record.version}"


def scenario_of(record: PracticeGame, upto: int | None = None) -> scn.Scenario:
    moves = record.actions if upto is None else record.actions[:upto]
    data = {"format": scn.FORMAT, "game": record.game, "rules": record.rules,
            "players": record.names, "dealer": record.names[record.dealer], "seed": record.seed,
            "deal": record.deal, "steps": [{"do": m} for m in moves]}
    return scn.parse(data)


def _derived(record: PracticeGame, frames: list[stored.Frame]) -> Derived:
    steps = frames[1:]
    return Derived(frames[-1].state, [f.events for f in steps],
                   [record.names.index(f.step.move.split()[0]) for f in steps])


def replay(record: PracticeGame, upto: int | None = None) -> Derived:
    """The record replayed through the engine (rules/replay.py), up to move ``upto``."""
    return _derived(record, stored.frames(scenario_of(record, upto)))


def replay_shared(record: PracticeGame, upto: int) -> Derived:
    """``replay`` for the read-only replay link: the whole record's frames are cached (keyed
    on its content), so stepping through them replays it once."""
    found = stored.cached_frames(export(record))
    if found is None:  # not a legal game: fail as a fresh replay does
        return replay(record, upto)
    return _derived(record, found[1][:upto + 1])


def load(record: PracticeGame) -> Derived:
    key = _cache_key(record)
    hit = cache.get(key)
    module = game_module(record.game)
    if hit is not None:
        return Derived(module.state_from_json(hit["state"]), hit["events"], hit["seats"])
    derived = replay(record)
    _store(record, derived)
    return derived


def _store(record: PracticeGame, derived: Derived) -> None:
    cache.set(_cache_key(record),
              {"state": derived.state.to_json(), "events": derived.events, "seats": derived.seats},
              CACHE_SECONDS)


def _result_of(game: str, state: Any) -> dict[str, Any] | None:
    if not state.over:
        return None
    if game == "dam":
        return {"loser": None if state.loser < 0 else state.loser}
    if game == "dolda":
        return {"scores": list(state.scores)}
    return {"scores": list(state.result["deal_scores"]), "totals": list(state.result["totals"]),
            "winners": list(state.result["winners"])}


def _append(record: PracticeGame, version: int, derived: Derived, seat: int, action: Any
            ) -> Derived:
    module = game_module(record.game)
    state = derived.state
    new_state, events = state.apply(action)
    move = f"{record.names[seat]} {module.format_action(action)}"
    actions = record.actions + [move]
    result = _result_of(record.game, new_state)
    updated = PracticeGame.objects.filter(pk=record.pk, version=version).update(
        actions=actions, version=version + 1, result=result)
    if not updated:
        raise PracticeError(str(STALE), status=409)
    record.actions = actions
    record.version = version + 1
    record.result = result
    new = Derived(new_state, derived.events + [events], derived.seats + [seat])
    _store(record, new)
    return new


def _check_version(record: PracticeGame, version: Any) -> int:
    try:
        v = int(version)
    except (TypeError, ValueError):
        raise PracticeError(_("The form was incomplete; nothing was changed.")) from None
    if v != record.version:
        raise PracticeError(str(STALE), status=409)
    return v


# --------------------------------------------------------------------------- moves
def human_move(record: PracticeGame, version: Any, words: list[str]) -> Derived:
    v = _check_version(record, version)
    derived = load(record)
    module = game_module(record.game)
    seat = record.human_seat
    try:
        action = module.parse_action(derived.state, seat, words)
        return _append(record, v, derived, seat, action)
    except IllegalAction as exc:
        raise PracticeError(reason_text(exc.reason, _visible_cards(exc.cards), record.game)
                            ) from None


def _visible_cards(cards) -> list[int]:
    return [c for c in cards if isinstance(c, int) and 0 <= c < 52]


def make_bot(record: PracticeGame, seat: int):
    seed = (record.seed * 1_000_003 + len(record.actions) * 31 + seat) & 0x7FFFFFFF
    if record.level == "strong":
        return strong.StrongBot(seed)
    return BOT_CLASSES[record.game][record.level](seed)


def is_bot_turn(record: PracticeGame, state: Any) -> bool:
    return not state.over and state.to_move is not None and state.to_move != record.human_seat


def step_bot(record: PracticeGame, version: Any) -> Derived:
    """One bot move (the page shows each with its narration)."""
    v = _check_version(record, version)
    derived = load(record)
    state = derived.state
    if not is_bot_turn(record, state):
        raise PracticeError(str(NOT_YOUR_TURN_BOT), status=409)
    seat = state.to_move
    action = make_bot(record, seat).act(state, seat)
    return _append(record, v, derived, seat, action)


def undo(record: PracticeGame, version: Any) -> None:
    """Back to the player's previous decision: drop their last move and everything after."""
    v = _check_version(record, version)
    prefix = record.names[record.human_seat] + " "
    last = max((i for i, m in enumerate(record.actions) if m.startswith(prefix)), default=None)
    if last is None:
        raise PracticeError(str(NOTHING_TO_UNDO))
    actions = record.actions[:last]
    updated = PracticeGame.objects.filter(pk=record.pk, version=v).update(
        actions=actions, version=v + 1, result=None)
    if not updated:
        raise PracticeError(str(STALE), status=409)
    record.actions, record.version, record.result = actions, v + 1, None


# --------------------------------------------------------------------------- hints
@dataclass
class Hint:
    action: Any
    text: str
    reason: str
    fields: dict[str, Any]


def hint(record: PracticeGame, derived: Derived) -> Hint | None:
    state = derived.state
    seat = record.human_seat
    if state.over or state.to_move != seat:
        return None
    rng = random.Random(record.seed + len(record.actions))
    ranked = strong.evaluate(state, seat, rng)
    action, value, rollouts = ranked[0]
    reason = _hint_reason(record.game, ranked)
    return Hint(action, describe_action(record.game, action, record.names), reason,
                form_fields(record.game, action, record.names))


def _hint_reason(game: str, ranked) -> str:
    """Why: the simulations behind the suggestion (strong.evaluate, best first)."""
    if len(ranked) == 1 or ranked[0][2] == 0:
        return _("A careful player usually chooses this here.")
    best, rollouts = ranked[0][1], ranked[0][2]
    if game == "dam":
        worst = max(r[1] for r in ranked)
        return ngettext(
            "In %(n)d simulated deal from here, dealt so that only the cards you can see are "
            "fixed, this move left you with Svarta Maja %(best)d%% of the time, and no other "
            "move did clearly better (the worst choice: %(worst)d%%).",
            "In %(n)d simulated deals from here, dealt so that only the cards you can see are "
            "fixed, this move left you with Svarta Maja %(best)d%% of the time, and no other "
            "move did clearly better (the worst choice: %(worst)d%%).", rollouts) % {
            "n": rollouts, "best": round(min(best, 1.0) * 100), "worst": round(min(worst, 1.0) * 100)}
    worst = max(r[1] for r in ranked)
    return ngettext(
        "In %(n)d simulated deal from here, dealt so that only the cards you can see are "
        "fixed, no other move did clearly better than this one; the worst choice cost about "
        "%(gap).1f points more.",
        "In %(n)d simulated deals from here, dealt so that only the cards you can see are "
        "fixed, no other move did clearly better than this one; the worst choice cost about "
        "%(gap).1f points more.", rollouts) % {"n": rollouts, "gap": max(worst - best, 0.0)}


def form_fields(game: str, action: Any, names: list[str]) -> dict[str, Any]:
    """The form values that make ``action`` (the hint's "play it" button)."""
    if game == "dam":
        kind = action[0]
        if kind in ("attack", "add"):
            return {"move": kind, "card": C.codes(action[2])}
        if kind == "beat":
            return {"move": kind, "target": C.code(action[2]), "card": [C.code(action[3])]}
        if kind == "announce":
            return {"move": kind, "suit": C.SUITS[action[2]]}
        return {"move": kind}
    if game == "dolda":
        if action.kind == "draw":
            return {"move": "draw", "source": action.source}
        if action.kind == "shield":
            return {"move": "shield", "position": [str(p + 1) for p in action.positions]}
        if action.kind == "steal":
            n, m = action.positions
            return {"move": "steal", "position": [str(n + 1)],
                    "target": f"{action.victim_name}:{m + 1}"}
        return {"move": action.kind}
    if action[0] == "pass":
        return {"move": "pass", "card": C.codes(action[2:])}
    return {"move": "play", "card": [C.code(action[2])]}


def _names(cards, game: str) -> str:
    return ", ".join(card_name(c, game) for c in cards)


def describe_action(game: str, action: Any, names: list[str]) -> str:
    """The move as an instruction for the player, in the page language."""
    if game == "dam":
        kind = action[0]
        if kind == "attack":
            return _("Attack with %(cards)s.") % {"cards": _names(action[2], game)}
        if kind == "add":
            return _("Add %(cards)s to the attack.") % {"cards": _names(action[2], game)}
        if kind == "beat":
            return _("Beat %(attack)s with %(card)s.") % {
                "attack": card_name(action[2], game), "card": card_name(action[3], game)}
        if kind == "announce":
            return _("Announce king and queen of %(suit)s.") % {"suit": suit_name(action[2])}
        return str(MOVE_LABELS.get(kind, kind))
    if game == "dolda":
        if action.kind == "draw":
            return str(_("Draw from the stock.") if action.source == "stock"
                       else _("Take the top card of the discard pile."))
        if action.kind == "swap":
            return _("Swap the card you hold into your row.")
        if action.kind == "discard":
            return _("Discard the card you hold.")
        if action.kind == "shield":
            return _("Shield position %(positions)s.") % {
                "positions": ", ".join(str(p + 1) for p in action.positions)}
        n, m = action.positions
        return _("Lay your thief on position %(n)d and steal %(victim)s's position %(m)d.") % {
            "n": n + 1, "victim": action.victim_name, "m": m + 1}
    if action[0] == "pass":
        return _("Pass %(cards)s.") % {"cards": _names(action[2:], game)}
    return _("Play %(card)s.") % {"card": card_name(action[2], game)}


MOVE_LABELS = {
    "attack": gettext_lazy("Attack"),
    "beat": gettext_lazy("Beat"),
    "take": gettext_lazy("Take the cards"),
    "announce": gettext_lazy("Announce"),
    "slap": gettext_lazy("Slap (close the attack)"),
    "wait": gettext_lazy("Wait (let the attacker add)"),
    "add": gettext_lazy("Add to the attack"),
    "done": gettext_lazy("Done adding"),
    "draw": gettext_lazy("Draw"),
    "swap": gettext_lazy("Swap into my row"),
    "discard": gettext_lazy("Discard"),
    "shield": gettext_lazy("Shield"),
    "steal": gettext_lazy("Steal"),
    "pass": gettext_lazy("Pass the three cards"),
    "play": gettext_lazy("Play the card"),
}


def action_kind(game: str, action: Any) -> str:
    return action.kind if game == "dolda" else action[0]


# --------------------------------------------------------------------------- narration
def visible(game: str, events: list[dict[str, Any]], seat: int) -> list[dict[str, Any]]:
    """The events as ``seat`` may see them (no private card of another seat)."""
    if game == "dolda":
        module = game_module("dolda")
        return [module.public_event(e, seat) for e in events]
    if game == "spardame":
        return game_module("spardame").visible_events(events, seat)
    return events


def narrate(game: str, events: list[dict[str, Any]], names: list[str], seat: int) -> list[str]:
    """One sentence per event, in the page language, from ``seat``'s point of view."""
    out = []
    for e in visible(game, events, seat):
        text = _narrate_one(game, e, names, seat)
        if text:
            out.append(text)
    return out


def _who(names: list[str], s: int | None) -> str:
    return names[s] if s is not None and 0 <= s < len(names) else "?"


def _narrate_one(game: str, e: dict[str, Any], names: list[str], seat: int) -> str | None:
    t = e.get("type")
    who = _who(names, e.get("seat"))
    if game == "dam":
        if t == "attack":
            return _("%(who)s attacks %(defender)s with %(cards)s.") % {
                "who": who, "defender": _who(names, e["defender"]),
                "cards": _names(e["cards"], game)}
        if t == "beat":
            return _("%(who)s beats %(attack)s with %(card)s.") % {
                "who": who, "attack": card_name(e["attack_card"], game),
                "card": card_name(e["card"], game)}
        if t == "take":
            return _("%(who)s takes %(cards)s.") % {"who": who, "cards": _names(e["cards"], game)}
        if t == "announce":
            return _("%(who)s announces king and queen of %(suit)s: %(suit)s are trump.") % {
                "who": who, "suit": suit_name(e["suit"])}
        if t == "slap":
            return _("%(who)s slaps: the attack is closed.") % {"who": who}
        if t == "wait":
            return _("%(who)s waits for more cards.") % {"who": who}
        if t == "add":
            return _("%(who)s adds %(cards)s.") % {"who": who, "cards": _names(e["cards"], game)}
        if t == "done":
            return _("%(who)s adds no more cards.") % {"who": who}
        if t == "trump_turned":
            if e.get("card") is None:
                return _("No trump can be turned: this deal has no trump.")
            return _("%(card)s is turned up: %(suit)s are trump.") % {
                "card": card_name(e["card"], game), "suit": suit_name(e["suit"])}
        if t == "spade_returned":
            return _("%(card)s was turned up, but spades cannot be trump; it goes back into the "
                     "stock.") % {"card": card_name(e["card"], game)}
        if t == "refill":
            return ngettext("%(who)s draws %(n)d card.", "%(who)s draws %(n)d cards.",
                            e["count"]) % {"who": who, "n": e["count"]}
        if t == "player_out":
            return _("%(who)s has no cards left and is out.") % {"who": who}
        if t == "overplay_penalty":
            return _("Too many cards! %(who)s takes the attack back and all of %(defender)s's "
                     "cards.") % {"who": who, "defender": _who(names, e["defender"])}
        if t == "deal_over":
            if e.get("loser") is None:
                return _("The deal is over; nobody is left with cards.")
            return _("The deal is over: %(who)s gets Svarta Maja.") % {
                "who": _who(names, e["loser"])}
        return None
    if game == "dolda":
        if t == "draw":
            if e["source"] == "discard":
                return _("%(who)s takes %(card)s from the discard pile.") % {
                    "who": who, "card": card_name(e["card"], game)}
            if "card" in e:
                return _("%(who)s draws %(card)s from the stock.") % {
                    "who": who, "card": card_name(e["card"], game)}
            return _("%(who)s draws from the stock.") % {"who": who}
        if t == "swap":
            if "card_out" in e:
                return _("%(who)s swaps it into position %(n)d and takes out %(card)s.") % {
                    "who": who, "n": e["position"], "card": card_name(e["card_out"], game)}
            return _("%(who)s swaps it into position %(n)d.") % {"who": who, "n": e["position"]}
        if t == "discard":
            return _("%(who)s discards %(card)s.") % {"who": who,
                                                      "card": card_name(e["card"], game)}
        if t == "deal_over":
            return _("The stock is empty: the rows are turned up.")
        if t == "shield":
            return _("%(who)s shields position %(positions)s.") % {
                "who": who, "positions": ", ".join(map(str, e["positions"]))}
        if t == "steal":
            if e.get("victim") is None:
                return _("%(who)s's thief finds nothing to steal.") % {"who": who}
            return _("%(who)s steals %(card)s from %(victim)s.") % {
                "who": who, "card": card_name(e["taken"], game),
                "victim": _who(names, e["victim"])}
        if t == "scored":
            parts = ", ".join(f"{names[s]} {p}" for s, p in enumerate(e["scores"]))
            return _("Scores of this deal: %(scores)s.") % {"scores": parts}
        return None
    if t == "pass":
        if "cards" in e:
            return _("%(who)s passes %(cards)s.") % {"who": who,
                                                     "cards": _names(e["cards"], game)}
        return _("%(who)s has chosen three cards to pass.") % {"who": who}
    if t == "cards_exchanged":
        got = e["received"][seat] if seat < len(e["received"]) else []
        if got:
            return _("The cards change hands. You get %(cards)s.") % {
                "cards": _names(got, game)}
        return _("The cards change hands.")
    if t == "card_played":
        return _("%(who)s plays %(card)s.") % {"who": who, "card": card_name(e["cards"][0], game)}
    if t == "hearts_broken":
        return _("Hearts are broken.")
    if t == "trick_won":
        return ngettext("%(who)s takes the trick (%(n)d point).",
                        "%(who)s takes the trick (%(n)d points).", e["points"]) % {
            "who": who, "n": e["points"]}
    if t == "moon_shot":
        return _("%(who)s shot the moon!") % {"who": who}
    if t == "deal_scored":
        parts = ", ".join(f"{names[s]} {p}" for s, p in enumerate(e["scores"]))
        return _("Points of this deal: %(scores)s.") % {"scores": parts}
    if t == "match_over":
        return _("The match is over. Winner: %(names)s.") % {
            "names": ", ".join(names[s] for s in e["winners"])}
    return None


def game_log(record: PracticeGame, derived: Derived) -> list[dict[str, Any]]:
    """Every move with its narration, from the human seat's point of view."""
    log = []
    for i, (seat, events) in enumerate(zip(derived.seats, derived.events), start=1):
        log.append({"number": i, "seat": seat, "mine": seat == record.human_seat,
                    "lines": narrate(record.game, events, record.names, record.human_seat)})
    return log


# --------------------------------------------------------------------------- series
def series_games(record: PracticeGame) -> list[PracticeGame]:
    return list(PracticeGame.objects.filter(series=record.series, owner=record.owner)
                .order_by("deal_number"))


def series_summary(record: PracticeGame) -> dict[str, Any]:
    """Dam: lost deals per player over the session (D-E3).  Dolda: running match totals, one
    deal per player (H-E3).  Spardame: match totals to the limit (S-C3)."""
    games = series_games(record)
    names = record.names
    n = len(names)
    finished = [g for g in games if g.result is not None]
    summary: dict[str, Any] = {"deals": len(games), "finished": len(finished)}
    if record.game == "dam":
        tally = [0] * n
        for g in finished:
            if g.result.get("loser") is not None:
                tally[g.result["loser"]] += 1
        summary["rows"] = [{"name": names[s], "value": tally[s]} for s in range(n)]
        summary["match_over"] = False
    elif record.game == "dolda":
        totals = [0] * n
        for g in finished:
            totals = [t + x for t, x in zip(totals, g.result["scores"])]
        summary["rows"] = [{"name": names[s], "value": totals[s]} for s in range(n)]
        over = len(finished) >= n and all(g.result for g in games)
        summary["match_over"] = over
        summary["deals_in_match"] = n
        if over:
            best = min(totals)
            summary["winners"] = [names[s] for s in range(n) if totals[s] == best]
    else:
        last = finished[-1] if finished else None
        totals = list(last.result["totals"]) if last else [0] * n
        summary["rows"] = [{"name": names[s], "value": totals[s]} for s in range(n)]
        winners = last.result["winners"] if last and last == games[-1] else []
        summary["match_over"] = bool(winners)
        if winners:
            summary["winners"] = [names[s] for s in winners]
    return summary


def can_deal_again(record: PracticeGame) -> bool:
    if record.result is None:
        return False
    latest = PracticeGame.objects.filter(series=record.series, owner=record.owner).order_by(
        "-deal_number").first()
    if latest is None or latest.pk != record.pk:
        return False
    return not series_summary(record)["match_over"]


def next_deal(record: PracticeGame, version: Any) -> PracticeGame:
    _check_version(record, version)
    with transaction.atomic():
        if not can_deal_again(record):
            raise PracticeError(_("A new deal cannot be started from here."), status=409)
        n = len(record.names)
        scores = None
        if record.game == "spardame":
            scores = list(record.result["totals"])
        return _new_record(record.owner, record.game, record.rules, record.names,
                           (record.dealer + 1) % n, record.human_seat, record.level,
                           record.memory_aid, record.series, record.deal_number + 1, scores)


# --------------------------------------------------------------------------- export
def export(record: PracticeGame) -> dict[str, Any]:
    """The record as a ``dam-scenario/1`` object (the deal written out card by card)."""
    return scenario_of(record).to_dict()


def share(record: PracticeGame) -> uuid.UUID:
    if record.share_token is None:
        record.share_token = uuid.uuid4()
        PracticeGame.objects.filter(pk=record.pk).update(share_token=record.share_token)
    return record.share_token
