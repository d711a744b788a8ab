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

import hashlib
import json
import math
import secrets
import uuid
from dataclasses import dataclass, field
from typing import Any

from django.core.cache import cache
from django.core.exceptions import ValidationError
from django.db import IntegrityError, connection, transaction
from django.utils.translation import get_language, gettext_lazy
from django.utils.translation import gettext as _

from games import registry
from games import replay as stored
from games.adapters import ADAPTERS, adapter
from games.adapters.base import winners_text
from games.reasons import reason_text
from games.registry import GAMES
from rules.engine import scenario as scn
from rules.engine.bots import coach, strong
from rules.engine.errors import IllegalAction, ScenarioError
from rules.engine.match import Standing
from rules.engine.options import build_options
from web.errors import Refusal

from .models import Analysis, PracticeGame

OWNER_KEY = "practice_owner"
CACHE_SECONDS = 60 * 60
LEVELS = ("easy", "normal", "strong")

# Bot names that fit each page language (names, not phrases: they are not translated).
BOT_NAMES = {
    "sv": ["Anna", "Bo", "Cilla", "Dan", "Eva", "Fredrik", "Greta", "Hugo"],
    "fi": ["Aino", "Eero", "Helmi", "Juha", "Kaisa", "Lauri", "Maija", "Oskari"],
    "nb": ["Ingrid", "Ola", "Kari", "Per", "Sigrid", "Lars", "Astrid", "Nils"],
    "en": ["Alice", "Ben", "Clara", "David", "Emma", "Frank", "Grace", "Henry"],
}




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
def options_for(game: str, rules: dict[str, Any]) -> Any:
    module = adapter(game).engine
    return build_options(module.Options, module.PRESETS, module.DEFAULT_PRESET, rules)


def bot_names(language: str, human: str, count: int) -> list[str]:
    pool = [n for n in BOT_NAMES.get(language, BOT_NAMES["en"]) if n != human]
    return pool[:count]


def new_seeds() -> tuple[int, int]:
    """A fresh deal's random source (128 bits) and the bots' and hints' (63 bits, apart)."""
    return secrets.randbits(128), secrets.randbits(63)


def save_new(owner: str, game: str, rules: dict[str, Any], names: list[str], dealer: int,
              human_seat: int, level: str, memory_aid: bool, series: uuid.UUID,
              deal_number: int, dealt: Any, seed: int, bot_seed: int) -> PracticeGame:
    return PracticeGame.objects.create(
        owner=owner, game=game, rules=rules, names=names, dealer=dealer, human_seat=human_seat,
        level=level, memory_aid=memory_aid, seed=str(seed), bot_seed=bot_seed,
        deal=adapter(game).explicit_deal(dealt), series=series, deal_number=deal_number)


def create_game(owner: str, game: str, rules: dict[str, Any], players: int, level: str,
                human_name: str, language: str, memory_aid: bool = True) -> PracticeGame:
    """A new first deal; the human is seat 0 and the dealer the last seat (D-S4, H-T1)."""
    if game not in ADAPTERS or level not in LEVELS:
        raise Refusal(_("Unknown game or bot level."))
    try:
        options = options_for(game, rules)
    except ScenarioError:
        raise Refusal(_("That combination of rules is not possible.")) from None
    module = adapter(game).engine
    lo, hi = module.player_range(options)
    if not lo <= players <= hi:
        raise Refusal(_("These rules allow %(lo)d to %(hi)d players.") % {
            "lo": lo, "hi": hi})
    names = [human_name] + bot_names(language, human_name, players - 1)
    seed, bot_seed = new_seeds()
    dealer = players - 1
    # Bots move one at a time through step_bot, so the page can narrate each move.
    return save_new(owner, game, rules, names, dealer, 0, level, memory_aid, uuid.uuid4(), 1,
                     module.new_game(options, names, dealer, seed, None), seed, bot_seed)


# --------------------------------------------------------------------------- replaying
@dataclass
class Derived:
    state: Any
    # Per action: the events of a replay (a position loaded from the cache has none; the page's
    # narration comes from ``log_entries``) and the acting seat.
    events: list[list[dict[str, Any]]] = field(default_factory=list)
    seats: list[int] = field(default_factory=list)


def _cache_key(record: PracticeGame) -> str:
    return f"practice:{record.pk}:{record.version}"


def scenario_of(record: PracticeGame, upto: int | None = None) -> scn.Scenario:
    moves = record.actions if upto is None else record.actions[:upto]
    data = {"format": scn.FORMAT, "game": record.game, "rules": record.rules,
            "players": record.names, "dealer": record.names[record.dealer],
            "seed": int(record.seed),
            "deal": record.deal, "steps": [{"do": m} for m in moves]}
    return scn.parse(data)


def _derived(record: PracticeGame, frames: list[stored.Frame]) -> Derived:
    steps = [f.step for f in frames[1:] if f.step is not None]  # every frame but the deal's
    return Derived(frames[-1].state, [f.events for f in frames[1:]],
                   [record.names.index(step.move.split()[0]) for step in steps])


def replay(record: PracticeGame, upto: int | None = None) -> Derived:
    """The record replayed through the engine (games/replay.py), up to move ``upto``."""
    return _derived(record, stored.frames(scenario_of(record, upto)))


def replay_shared(record: PracticeGame, upto: int) -> Derived:
    """``replay`` for the read-only replay link: the whole record's frames are cached (keyed
    on its content), so stepping through them replays it once."""
    found = stored.replay(export(record))
    if found is None:  # not a legal game: fail as a fresh replay does
        return replay(record, upto)
    return _derived(record, found.frames[:upto + 1])


# What the cache keeps of a game (Redis in production), so that its size grows by what a move
# adds, never by the whole history again:
# - ``practice:<id>:state``: the position after the record's latest version, with that version
#   (overwritten at each move: one key per game; a stale one is replayed over);
# - ``practice:<id>:move:<n>:<prefix>``: move n's events and its narration, told once in each
#   language a page asked for (the move's own key: the hash of the moves up to it, which
#   decide its events, so an undone move's entry is never taken for another's).
def _state_key(record: PracticeGame) -> str:
    return f"practice:{record.pk}:state"


def load(record: PracticeGame) -> Derived:
    """The record's current position: from the cache when it holds this version, else replayed
    (and kept)."""
    hit = cache.get(_state_key(record))
    if hit is not None and hit.get("version") == record.version:
        module = adapter(record.game).engine
        return Derived(module.state_from_json(hit["state"]), seats=seats_of(record))
    derived = replay(record)
    store_position(record, derived)
    return derived


def store_position(record: PracticeGame, derived: Derived) -> None:
    cache.set(_state_key(record), {"version": record.version, "state": derived.state.to_json()},
              CACHE_SECONDS)


def seats_of(record: PracticeGame) -> list[int]:
    """The seat that made each move, read from the moves' notation."""
    index = {name: seat for seat, name in enumerate(record.names)}
    return [index[m.split(" ", 1)[0]] for m in record.actions]


def _move_keys(record: PracticeGame, upto: int, start: int = 0) -> list[str]:
    """The cache keys of moves ``start`` to ``upto`` (exclusive)."""
    # The moves before ``start`` are hashed in one call (the same digest as one update per
    # move): a page asks for its last few keys, and a key per earlier move made the page's
    # time grow with the game's length.
    digest = hashlib.sha256(f"{record.pk}".encode())
    digest.update("".join("\n" + m for m in record.actions[:start]).encode())
    keys = []
    for n, move in enumerate(record.actions[start:upto], start=start):
        digest.update(b"\n" + move.encode())
        keys.append(f"practice:{record.pk}:move:{n}:{digest.hexdigest()[:20]}")
    return keys


def _narrate(record: PracticeGame, events: list[dict[str, Any]]) -> list[str]:
    return adapter(record.game).narrate(events, record.names, record.human_seat,
                                        you=record.human_seat)


def _remember_move(record: PracticeGame, seat: int, events: list[dict[str, Any]]) -> None:
    """A move just made, narrated once in the page language, kept with its events."""
    n = len(record.actions) - 1
    cache.set(_move_keys(record, n + 1, n)[0],
              {"seat": seat, "events": events,
               "lines": {get_language(): _narrate(record, events)}}, CACHE_SECONDS)


def log_entries(record: PracticeGame, start: int = 0) -> list[dict[str, Any]]:
    """Moves ``start`` on, each with its narration in the page language, from the human seat's
    point of view: what the cache kept; a move it has not (kept before a restart, or in
    another language) is told now and kept."""
    total = len(record.actions)
    keys = _move_keys(record, total, start)
    found = cache.get_many(keys)
    language = get_language()
    missing = [k for k in keys if k not in found]
    if missing:  # the cache lost them: the record replayed once tells them all
        derived = replay(record)
        for n, key in enumerate(keys, start=start):
            if key not in found:
                found[key] = {"seat": derived.seats[n], "events": derived.events[n], "lines": {}}
    told = {}
    for key in keys:
        entry = found[key]
        if language not in entry["lines"]:
            entry["lines"][language] = _narrate(record, entry["events"])
            told[key] = entry
    if told:
        cache.set_many(told, CACHE_SECONDS)
    return [{"number": n, "seat": found[k]["seat"], "mine": found[k]["seat"] == record.human_seat,
             "lines": found[k]["lines"][language]} for n, k in enumerate(keys, start=start + 1)]


def latest_lines(record: PracticeGame) -> list[str]:
    """What happened since the player's last decision: their move, then each bot reply as it
    is shown (one more line per bot step)."""
    prefix = record.names[record.human_seat] + " "
    # From the end: the lines since the last decision, whatever the game's length.
    since = next((i for i in range(len(record.actions) - 1, -1, -1)
                  if record.actions[i].startswith(prefix)), 0)
    return [line for entry in log_entries(record, since) for line in entry["lines"]]


def result_of(game: str, state: Any) -> dict[str, Any] | None:
    return adapter(game).engine.deal_result(state) if state.over else None


def _append(record: PracticeGame, version: int, derived: Derived, seat: int, action: Any
            ) -> Derived:
    module = adapter(record.game).engine
    state = derived.state
    new_state, events = state.apply(action)
    move = f"{record.names[seat]} {module.format_action(action)}"
    actions = record.actions + [move]
    result = result_of(record.game, new_state)
    updated = PracticeGame.objects.filter(pk=record.pk, version=version).update(
        actions=actions, version=version + 1, result=result)
    if not updated:
        raise Refusal(str(STALE), status=409)
    record.actions = actions
    record.version = version + 1
    record.result = result
    new = Derived(new_state, seats=derived.seats + [seat])
    store_position(record, new)
    _remember_move(record, seat, events)
    return new


def check_version(record: PracticeGame, version: Any) -> int:
    try:
        v = int(version)
    except (TypeError, ValueError):
        raise Refusal(_("The form was incomplete; nothing was changed.")) from None
    if v != record.version:
        raise Refusal(str(STALE), status=409)
    return v


# --------------------------------------------------------------------------- moves
def human_move(record: PracticeGame, version: Any, words: list[str]) -> Derived:
    v = check_version(record, version)
    derived = load(record)
    module = adapter(record.game).engine
    seat = record.human_seat
    try:
        action = module.parse_action(derived.state, seat, words)
        return _append(record, v, derived, seat, action)
    except IllegalAction as exc:
        raise Refusal(reason_text(exc.reason, visible_cards(exc.cards), record.game)
                            ) from None


def visible_cards(cards) -> list[int]:
    return [c for c in cards if isinstance(c, int) and 0 <= c < 52]


def make_bot(record: PracticeGame, seat: int) -> Any:
    seed = (record.bot_seed * 1_000_003 + len(record.actions) * 31 + seat) & 0x7FFFFFFF
    if record.level == "strong":
        return strong.StrongBot(seed)
    return adapter(record.game).bots[record.level](seed)


def is_bot_turn(record: PracticeGame, state: Any) -> bool:
    return not state.over and state.to_move is not None and state.to_move != record.human_seat


def step_bot(record: PracticeGame, version: Any) -> Derived:
    """One bot move (the page shows each with its narration)."""
    v = check_version(record, version)
    derived = load(record)
    state = derived.state
    if not is_bot_turn(record, state):
        raise Refusal(str(NOT_YOUR_TURN_BOT), status=409)
    seat = state.to_move
    action = make_bot(record, seat).act(state, seat)
    return _append(record, v, derived, seat, action)


def undo(record: PracticeGame, version: Any) -> None:
    """Back to the player's previous decision: drop their last move and everything after."""
    v = check_version(record, version)
    prefix = record.names[record.human_seat] + " "
    last = max((i for i, m in enumerate(record.actions)
                if m.startswith(prefix) and i >= record.puzzle_from), default=None)
    if last is None:
        raise Refusal(str(NOTHING_TO_UNDO))
    actions = record.actions[:last]
    updated = PracticeGame.objects.filter(pk=record.pk, version=v).update(
        actions=actions, version=v + 1, result=None)
    if not updated:
        raise Refusal(str(STALE), status=409)
    record.actions, record.version, record.result = actions, v + 1, None


# --------------------------------------------------------------------------- the coach
# One analysis per decision (rules/engine/bots/coach.py): the hint shows its best move and the
# review judges the played move by the same analysis, stored in the database (``Analysis``)
# under the record, the decision's index and a digest of the moves before it.  Its seed comes
# from the record's bot seed and the index, so it is the same whoever computes it first.  The
# work runs as tasks (practice/tasks.py): a request only reads what is stored, or enqueues.

# Bump when the analysis changes (its algorithm or the games' numbers): stored ones then no
# longer match.
# 2: Spardame races twins once; 3: the race settles at half the floor; 4: Dam races twin beats
# once, and the analysis keeps to a CPU budget; 5: the bots of a playout share its random
# generator (other simulated deals from the same seed).
ANALYSIS_REVISION = 5
# A hint's figure is shown only when both moves it compares rest on this many playouts (the
# analysis stops early when one move is clearly ahead, so the figure then rests on fewer).
FIGURE_MIN_PLAYOUTS = 64
# How long an enqueued hint or review keeps others from enqueueing the same work again: longer
# than a review takes, so that only a worker that died delays it (then it is enqueued anew).
TASK_CLAIM_SECONDS = 120
NOT_OVER = gettext_lazy("You can review the deal once it is over.")
# Seconds of CPU an analysis may take before its race stops (coach.analyse's budget), less
# than the 150 ms a hint may cost in all, to leave room for storing it and writing its reason.
# The games' caps are sized to end first on a machine as fast as the ones they were measured
# on; on a slower machine the budget ends the race, with fewer playouts, so a hint still
# answers in time.  None: a fixed amount of work (the caps) whatever the machine.
ANALYSIS_CPU_SECONDS: float | None = 0.135
# The games' numbers (games/registry.py), here so that tests can make the work small.
ANALYSIS_PLAYOUTS = {g.key: g.analysis_playouts for g in GAMES}
MISTAKE_FLOOR = {g.key: g.mistake_floor for g in GAMES}


def _playouts(game: str) -> int:
    return ANALYSIS_PLAYOUTS.get(game) or registry.get(game).analysis_playouts


def _floor(game: str) -> float:
    found = MISTAKE_FLOOR.get(game)
    return registry.get(game).mistake_floor if found is None else found


@dataclass
class Hint:
    action: Any
    text: str
    reason: str
    figure: str
    fields: dict[str, Any]


def _digest(record: PracticeGame, index: int) -> str:
    """What the analysis of decision ``index`` depends on: the deal, the seeds, the seat and
    every move before it."""
    key = [ANALYSIS_REVISION, record.game, record.rules, record.names, record.dealer, record.seed,
           record.deal, record.bot_seed, record.human_seat, record.actions[:index],
           _playouts(record.game), _floor(record.game)]
    return hashlib.sha256(json.dumps(key, sort_keys=True).encode()).hexdigest()


def _analysis_seed(record: PracticeGame, index: int) -> int:
    return (record.bot_seed * 7919 + index) & 0x7FFFFFFFFFFF


def _estimates_json(module: Any, ranked: list[strong.Estimate]) -> list[dict[str, Any]]:
    return [{"action": module.format_action(e.action),
             "mean": e.mean if math.isfinite(e.mean) else None, "playouts": e.playouts,
             "behind": e.behind, "se": e.behind_se} for e in ranked]


def stored_analysis(record: PracticeGame, index: int) -> Analysis | None:
    return Analysis.objects.filter(record=record, index=index,
                                   digest=_digest(record, index)).first()


def analysis(record: PracticeGame, state: Any, index: int) -> Analysis:
    """The analysis of the player's decision ``index`` (``state`` is the position before it):
    the stored one, or computed now and stored."""
    found = stored_analysis(record, index)
    if found is not None:
        return found
    ranked = coach.analyse(state, record.human_seat, _analysis_seed(record, index),
                           _playouts(record.game), _floor(record.game), ANALYSIS_CPU_SECONDS)
    module = adapter(record.game).engine
    try:
        with transaction.atomic():
            return Analysis.objects.create(record=record, index=index,
                                           digest=_digest(record, index),
                                           ranked=_estimates_json(module, ranked))
    except IntegrityError:  # another worker stored the same analysis meanwhile
        found = stored_analysis(record, index)
        assert found is not None
        return found


def _ranked(record: PracticeGame, state: Any, items: list[dict[str, Any]]
            ) -> list[strong.Estimate]:
    module = adapter(record.game).engine
    return [strong.Estimate(module.parse_action(state, record.human_seat, e["action"].split()),
                            math.inf if e["mean"] is None else e["mean"], e["playouts"],
                            e["behind"], e["se"]) for e in items]


def hint(record: PracticeGame, derived: Derived, compute: bool = True) -> Hint | None:
    """The coach's move for the player, a reason in words (the tactic, from the player's view),
    and a figure only when it rests on enough simulated play.  ``compute=False`` (a request)
    only reads a stored analysis: None while there is none."""
    state = derived.state
    seat = record.human_seat
    if state.over or state.to_move != seat:
        return None
    index = len(record.actions)
    found = analysis(record, state, index) if compute else stored_analysis(record, index)
    if found is None:
        return None
    ranked = _ranked(record, state, found.ranked)
    action = ranked[0].action
    game = adapter(record.game)
    return Hint(action, game.describe(action, record.names),
                game.reason(state.view(seat), action, record.names),
                game.hint_figure(ranked, FIGURE_MIN_PLAYOUTS, record.names),
                game.form_fields(action))


def game_log(record: PracticeGame, derived: Derived) -> list[dict[str, Any]]:
    """Every move of a replayed position (``derived``, the replay link's) with its narration,
    from the human seat's point of view."""
    game = adapter(record.game)
    log = []
    for i, (seat, events) in enumerate(zip(derived.seats, derived.events), start=1):
        log.append({"number": i, "seat": seat, "mine": seat == record.human_seat,
                    "lines": game.narrate(events, record.names, record.human_seat,
                                          you=record.human_seat)})
    return log


# --------------------------------------------------------------------------- review
# How long one worker may hold a deal's review (it lets go when it is done): longer than a
# review takes, so that a worker that died holding it delays the review only.
REVIEW_LOCK_SECONDS = 120


def _frames(record: PracticeGame) -> list[stored.Frame]:
    found = stored.replay(export(record))
    if found is None:
        return stored.frames(scenario_of(record))
    return found.frames


def _decisions(record: PracticeGame, frames: list[stored.Frame]) -> list[int]:
    """The indices of the player's moves that were a choice (more than one legal move),
    from the puzzle's start on."""
    prefix = record.names[record.human_seat] + " "
    return [i for i, m in enumerate(record.actions)
            if i >= record.puzzle_from and m.startswith(prefix)
            and len(frames[i].state.legal_actions()) > 1]


def _review_one(record: PracticeGame, frames: list[stored.Frame], index: int
                ) -> dict[str, Any]:
    """The review of decision ``index`` from its analysis (the hint's, when one was asked):
    the played move's paired difference to the best; when the analysis never tried the played
    move, the two raced alone (stored with the analysis)."""
    module = adapter(record.game).engine
    state = frames[index].state
    seat = record.human_seat
    played_text = module.format_action(
        module.parse_action(state, seat, record.actions[index].split()[1:]))
    found = analysis(record, state, index)
    items = found.ranked
    mine = next((e for e in items if e["action"] == played_text), None)
    if mine is None:
        if found.compared is None:
            best = module.parse_action(state, seat, items[0]["action"].split())
            played = module.parse_action(state, seat, played_text.split())
            compared = coach.compare(state, seat, _analysis_seed(record, index) ^ 0x5EED, best,
                                     played, _playouts(record.game), ANALYSIS_CPU_SECONDS)
            found.compared = _estimates_json(module, compared)
            found.save(update_fields=["compared"])
        items = found.compared
        mine = next(e for e in items if e["action"] == played_text)
    first = items[0]
    cost = max(mine["behind"], 0.0)
    return {"index": index, "cost": cost, "se": mine["se"],
            "playouts": min(mine["playouts"], first["playouts"]), "best": first["action"],
            "flagged": coach.is_mistake(cost, mine["se"], _floor(record.game))}


def _review_of(record: PracticeGame) -> dict[str, Any] | None:
    review = record.review
    if review and review.get("version") == record.version and review.get("done"):
        return review
    return None


def review_progress(record: PracticeGame) -> dict[str, Any]:
    """How far the review of a finished deal is, from what is stored (no analysis here): the
    decisions analysed so far and, once the review is done, its items."""
    if record.result is None:
        raise Refusal(str(NOT_OVER), status=409)
    review = _review_of(record)
    if review is not None:
        n = len(review["items"])
        return {"done": True, "analysed": n, "total": n, "items": review["items"]}
    frames = _frames(record)
    todo = _decisions(record, frames)
    digests = {_digest(record, i) for i in todo}
    analysed = Analysis.objects.filter(record=record, index__in=todo,
                                       digest__in=digests).count()
    return {"done": False, "analysed": min(analysed, len(todo)), "total": len(todo),
            "items": []}


def review_step(record: PracticeGame) -> dict[str, Any]:
    """Analyse every decision of a finished deal not analysed yet (reusing every hint's
    analysis), then store the review's items in the record; the review.  The work of a task
    (practice/tasks.py): one worker at a time reviews a deal (a lock in the cache), another
    answers with the progress stored so far."""
    if record.result is None:
        raise Refusal(str(NOT_OVER), status=409)
    review = _review_of(record)
    if review is not None:
        return review_progress(record)
    lock = f"practice-review:{record.pk}:{record.version}"
    if not cache.add(lock, 1, REVIEW_LOCK_SECONDS):
        return review_progress(record)
    try:
        frames = _frames(record)
        items = [_review_one(record, frames, index) for index in _decisions(record, frames)]
        review = {"version": record.version, "done": True, "items": items}
        PracticeGame.objects.filter(pk=record.pk, version=record.version).update(review=review)
        record.review = review
    finally:
        cache.delete(lock)
    return review_progress(record)


def review_costliest(record: PracticeGame, progress: dict[str, Any], count: int = 3
                     ) -> list[dict[str, Any]]:
    """The ``count`` costliest clear mistakes (items ``flagged`` by the coach's rule), as the
    page lists them: the move number, what the player did and what the strong bot prefers, the
    cost and its certainty in words, and a reason in words, all from what the player could see
    at the time.  Empty when the review found no clear mistake."""
    game = adapter(record.game)
    module = game.engine
    items = sorted((i for i in progress["items"] if review_flagged(record, i)),
                   key=lambda i: (-i["cost"], i["index"]))[:count]
    if not items:
        return []
    frames = _frames(record)
    seat = record.human_seat
    choices = _decisions(record, frames)
    out = []
    for item in items:
        index = item["index"]
        state = frames[index].state
        played = module.parse_action(state, seat, record.actions[index].split()[1:])
        best = module.parse_action(state, seat, item["best"].split())
        view = state.view(seat)
        out.append({
            "index": index,
            "decision": choices.index(index) + 1,  # counted as the review counts them
            "played": game.describe(played, record.names),
            "best": game.describe(best, record.names),
            "cost": game.cost_text(item["cost"]),
            "certainty": game.certainty(item["cost"], item["se"]),
            "playouts": item["playouts"],
            "reason": game.reason(view, best, record.names),
        })
    return out


def review_flagged(record: PracticeGame, item: dict[str, Any]) -> bool:
    """Whether an analysed decision is worth showing: its own ``flagged`` when the analysis
    says, otherwise a cost of at least the game's mistake floor."""
    flagged = item.get("flagged")
    if flagged is None:
        return bool(item["cost"] >= _floor(record.game))
    return bool(flagged)


@dataclass
class ReviewWalk:
    """What the review's step pages show (``review_walk``)."""

    frames: list[stored.Frame]  # every position: frames[n] after n moves
    decisions: list[int]  # the player's decisions (move indices), as the review counts them
    analysed: dict[int, dict[str, Any]]  # the stored analysis so far, by move index
    flagged: list[dict[str, Any]]  # review_costliest's entries of the flagged ones, in order

    @property
    def done(self) -> bool:
        return len(self.analysed) >= len(self.decisions)


def review_walk(record: PracticeGame) -> ReviewWalk:
    """The finished deal for the review's step pages, with the analysis stored so far (they
    analyse nothing themselves: ``review_step`` does, for the review page): every position,
    the player's decisions, and the flagged ones in the words of ``review_costliest``.
    Refused before the deal is over."""
    if record.result is None:
        raise Refusal(str(NOT_OVER), status=409)
    frames = _frames(record)
    decisions = _decisions(record, frames)
    review = record.review
    items = review.get("items", []) if review and review.get("version") == record.version else []
    analysed = {item["index"]: item for item in items if item["index"] in decisions}
    marked = [item for item in analysed.values() if review_flagged(record, item)]
    progress = {"done": len(analysed) >= len(decisions), "analysed": len(analysed),
                "total": len(decisions), "items": marked}
    flagged = sorted(review_costliest(record, progress, len(marked)) if marked else [],
                     key=lambda entry: entry["index"])
    return ReviewWalk(frames, decisions, analysed, flagged)


def review_moves(record: PracticeGame, walk: ReviewWalk, index: int
                 ) -> tuple[Any, Any | None]:
    """The player's move at decision ``index`` and the strong bot's choice there (None while
    that decision is not analysed), as actions of the position before the move."""
    module = adapter(record.game).engine
    state = walk.frames[index].state
    seat = record.human_seat
    played = module.parse_action(state, seat, record.actions[index].split()[1:])
    item = walk.analysed.get(index)
    best = module.parse_action(state, seat, item["best"].split()) if item else None
    return played, best


def make_puzzle(record: PracticeGame, index: Any) -> PracticeGame:
    """The position before the player's move ``index`` as a new practice game against the same
    bots (same deal, seeds and level): made once per position, a repeated request gets it."""
    try:
        at = int(index)
    except (TypeError, ValueError):
        raise Refusal(_("That position cannot be opened as a puzzle.")) from None
    frames = _frames(record)
    if record.result is None or at not in _decisions(record, frames):
        raise Refusal(_("That position cannot be opened as a puzzle."), status=404)
    existing = PracticeGame.objects.filter(puzzle_of=record, puzzle_from=at, owner=record.owner,
                                           result__isnull=True).order_by("created").first()
    if existing is not None:
        return existing
    return PracticeGame.objects.create(
        owner=record.owner, game=record.game, rules=record.rules, names=record.names,
        dealer=record.dealer, human_seat=record.human_seat, level=record.level,
        memory_aid=record.memory_aid, seed=record.seed, bot_seed=record.bot_seed,
        deal=record.deal, series=uuid.uuid4(), deal_number=record.deal_number,
        actions=record.actions[:at], puzzle_of=record, puzzle_from=at)


# --------------------------------------------------------------------------- series
def page_stamp(game: str, game_id: Any, owner: str) -> tuple[int, int, str] | None:
    """What the kept game page is known by (``views.play``): the record's version, its
    series' stamp and its replay link; None when this owner has no such game.  The stamp is
    the sum of (version + 1) over the series' deals: a move, an undo, a result or a new deal
    anywhere in the series raises it (each raises a version, or adds a deal of version 0), so
    the page's standing and its "Next deal" are never an older series' either.  One
    statement written out: the ORM spent three times as long building it as the database
    spent answering, on every request of a page that is otherwise kept."""
    table = connection.ops.quote_name(PracticeGame._meta.db_table)
    pk = PracticeGame._meta.pk
    assert pk is not None
    try:
        key = pk.get_db_prep_value(pk.to_python(game_id), connection)
    except ValidationError:
        return None
    with connection.cursor() as cursor:
        cursor.execute(
            f"SELECT g.version, g.share_token, (SELECT SUM(s.version + 1) FROM {table} s"
            f" WHERE s.series = g.series AND s.owner = g.owner)"
            f" FROM {table} g WHERE g.id = %s AND g.game = %s AND g.owner = %s",
            [key, game, owner])
        row = cursor.fetchone()
    if row is None:
        return None
    share = PracticeGame._meta.get_field("share_token").to_python(row[1])
    return row[0], row[2], str(share or "")


def series_games(record: PracticeGame) -> list[PracticeGame]:
    """The series' deals in order, ``record`` itself among them as the caller holds it.  Only
    what the series' standing reads is loaded of the others (their moves and deals, JSON that
    grows with each deal's length, are left in the database)."""
    games = PracticeGame.objects.filter(series=record.series, owner=record.owner).only(
        "id", "series", "owner", "deal_number", "result").order_by("deal_number")
    return [record if g.pk == record.pk else g for g in games]


def standing(record: PracticeGame, games: list[PracticeGame] | None = None) -> Standing:
    """The series so far, by the game's own rule (D-E3, H-E3, S-C3 in the engine)."""
    games = series_games(record) if games is None else games
    return adapter(record.game).standing(len(record.names),
                                         [g.result for g in games if g.result is not None])


def series_summary(record: PracticeGame, games: list[PracticeGame] | None = None
                   ) -> dict[str, Any]:
    """The series as the page shows it: a heading, a column and a row per player (``games``:
    the series' records, when the caller has them)."""
    games = series_games(record) if games is None else games
    game = adapter(record.game)
    now = standing(record, games)
    names = record.names
    summary: dict[str, Any] = {
        "deals": len(games), "finished": sum(g.result is not None for g in games),
        "title": game.summary_title(now, options_for(record.game, record.rules)),
        "column": game.summary_column,
        "rows": [{"name": names[s], "value": v} for s, v in enumerate(now.values)],
        "match_over": now.over, "winners": [names[s] for s in now.winners],
        "result": winners_text(names, now.winners, record.human_seat) if now.winners else ""}
    return summary


def can_deal_again(record: PracticeGame, games: list[PracticeGame] | None = None) -> bool:
    if record.result is None or record.puzzle_of_id is not None:
        return False  # a puzzle is one position of a deal, not part of a series
    games = series_games(record) if games is None else games
    if not games or games[-1].pk != record.pk:  # not the series' latest deal
        return False
    return not standing(record, games).over


def next_deal(record: PracticeGame, version: Any) -> PracticeGame:
    """The series' following deal.  Create-once: a repeated request (a double click) gets the
    record the first one made, never a second deal with the same number."""
    check_version(record, version)

    def made() -> PracticeGame | None:
        return PracticeGame.objects.filter(series=record.series, owner=record.owner,
                                           deal_number=record.deal_number + 1).first()

    existing = made()
    if existing is not None:
        return existing
    if not can_deal_again(record):
        # The other request of a double click may have made the deal since the look above.
        existing = made()
        if existing is not None:
            return existing
        raise Refusal(_("A new deal cannot be started from here."), status=409)
    game = adapter(record.game)
    options = options_for(record.game, record.rules)
    seed, bot_seed = new_seeds()
    dealt = game.engine.following_deal(options, record.names, record.dealer, record.deal_number,
                                       record.result, seed)
    try:
        with transaction.atomic():
            return save_new(record.owner, record.game, record.rules, record.names,
                             (record.dealer + 1) % len(record.names), record.human_seat,
                             record.level, record.memory_aid, record.series,
                             record.deal_number + 1, dealt, seed, bot_seed)
    except IntegrityError:
        # The other request of a double click made it first (unique series and deal number).
        return PracticeGame.objects.get(series=record.series, owner=record.owner,
                                        deal_number=record.deal_number + 1)


# --------------------------------------------------------------------------- export
def export(record: PracticeGame) -> dict[str, Any]:
    """The record as a ``dam-scenario/1`` object (the deal written out card by card)."""
    return scenario_of(record).to_dict()


def share(record: PracticeGame) -> uuid.UUID:
    """The record's replay link, made once: a second request at the same moment gets the
    token the first one stored (a conditional update, then a read)."""
    if record.share_token is None:
        PracticeGame.objects.filter(pk=record.pk, share_token__isnull=True).update(
            share_token=uuid.uuid4())
        record.share_token = PracticeGame.objects.values_list("share_token", flat=True).get(
            pk=record.pk)
    assert record.share_token is not None  # set above, by this request or a concurrent one
    return record.share_token
