"""Tables with friends: create a table, sit down, deal, move, let bots play the empty seats.

A table's deals are practice game records (owner ``table:<id>``), so every move goes through
the same guard as practice: the page sends the deal's ``version``; the move is applied only by
a conditional update on that version (``practice.service``), so of two taps on one position
exactly one is applied and the other is refused as stale.  Which seat a request moves for is
never read from the form: it is the seat whose ``player`` token is in the browser's session.

After every change the table's channel on the live bus (``live.bus``: Redis pub/sub in
production) gets a message; each open stream (``tables.stream``) then renders its own seat's
view and sends it.  Bots move one at a time through ``step``, so every bot move is published
and seen as it happens.

Bots move on the server, whether or not any page is open: every published change schedules
the next bot move, when a bot is to move, as a task of Django's Tasks framework
(``bot_move``, run by ``manage.py db_worker`` after the bots' pause; see ``schedule_bots``).
"""

from __future__ import annotations

import secrets
import threading
import time
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

from django.conf import settings
from django.core.cache import cache
from django.db import transaction
from django.tasks import task
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from games.adapters import ADAPTERS, adapter
from games.reasons import reason_text
from live import bus
from live.service import ALPHABET, CODE_LENGTH, normalise_code
from practice import service as P
from practice.forms import NAME_RE
from practice.models import PracticeGame
from rules.engine.errors import IllegalAction, ScenarioError
from web.errors import Refusal

from .models import Table

PLAYER_KEY = "table_player"  # a random token in the session: the browser's seat at any table

NOT_FOUND = gettext_lazy("There is no table with that code. Check the code: the table may "
                         "also have ended.")
ENDED = gettext_lazy("This table has ended: nobody moved for a while.")
NOT_YOURS = gettext_lazy("You have no seat at this table, so you cannot move here.")
NOT_YOUR_TURN = gettext_lazy("It is not your turn.")
HOST_ONLY = gettext_lazy("Only the host can do that.")
CLASS_TABLE = gettext_lazy("This is a class table: the teacher has given every seat to a "
                           "student of the class or to a bot.")


def grace_seconds() -> int:
    """How long a seat whose player left waits for them before a bot plays it."""
    return int(getattr(settings, "TABLE_GRACE_SECONDS", 60))


def idle_minutes() -> int:
    """A table ends when nobody has moved or sat down for this long."""
    return int(getattr(settings, "TABLE_IDLE_MINUTES", 120))


def channel(table: Table) -> str:
    return bus.channel(table.code, "table")


# --------------------------------------------------------------------------- players
def player_token(session: Any, create: bool = False) -> str | None:
    token = session.get(PLAYER_KEY)
    if token is None and create:
        token = secrets.token_urlsafe(24)
        session[PLAYER_KEY] = token
    return token


def seat_of(table: Table, token: str | None) -> int | None:
    if not token:
        return None
    for i, seat in enumerate(table.seats):
        if seat["player"] and secrets.compare_digest(seat["player"], token):
            return i
    return None


def is_host(table: Table, token: str | None) -> bool:
    return bool(token) and secrets.compare_digest(table.host, token or "")


def set_away(table: Table, seat: int, away: bool) -> None:
    """A seat's page closed (``away``) or opened again: a closed page counts as leaving (the
    seat waits the grace period for it, then a bot plays), an opened one as coming back.  A
    player who pressed "Leave" stays away until they press "Back to my seat"."""
    def mark(t: Table) -> None:
        entry = t.seats[seat]
        if not entry["player"]:
            return
        if away and entry.get("left") is None:
            entry["left"], entry["auto"] = time.time(), True
        elif not away and entry.get("auto"):
            entry["left"], entry["auto"] = None, False

    entry = table.seats[seat]
    if away == (entry.get("left") is not None) or (not away and not entry.get("auto")):
        return  # nothing to change
    try:
        _changed(table, mark)
    except Refusal:
        pass  # the table ended


def is_bot(table: Table, seat: int, now: float | None = None) -> bool:
    """Whether a bot plays ``seat`` now: nobody sits there, or its player left more than the
    grace period ago."""
    entry = table.seats[seat]
    if not entry["player"]:
        return True
    left = entry.get("left")
    return left is not None and (now or time.time()) - left >= grace_seconds()


def grace_left(table: Table, seat: int) -> int:
    """Seconds until a bot takes the seat of a player who left (0: not waiting)."""
    left = table.seats[seat].get("left")
    if left is None or not table.seats[seat]["player"]:
        return 0
    return max(0, int(left + grace_seconds() - time.time() + 0.999))


# --------------------------------------------------------------------------- tables
def ended(table: Table) -> bool:
    return timezone.now() - table.active > timedelta(minutes=idle_minutes())


def find(code: str) -> Table | None:
    code = normalise_code(code)
    return Table.objects.filter(code=code).select_related("deal").first() if code else None


def _new_code() -> str:
    while True:
        code = "".join(secrets.choice(ALPHABET) for _ in range(CODE_LENGTH))
        if not Table.objects.filter(code=code).exists():
            return code


def check_name(name: str) -> str:
    name = (name or "").strip()
    if not NAME_RE.match(name):
        raise Refusal(_("Use one word of up to 20 letters, without spaces."))
    return name


def create(token: str, game: str, rules: dict[str, Any], players: int, level: str,
           name: str, memory_aid: bool = True) -> Table:
    """A table waiting for players: the host in seat 1, the other seats empty."""
    if game not in ADAPTERS or level not in P.LEVELS:
        raise Refusal(_("Unknown game or bot level."))
    try:
        options = P.options_for(game, rules)
    except ScenarioError:
        raise Refusal(_("That combination of rules is not possible.")) from None
    lo, hi = adapter(game).engine.player_range(options)
    if not lo <= players <= hi:
        raise Refusal(_("These rules allow %(lo)d to %(hi)d players.") % {"lo": lo, "hi": hi})
    seats = [{"name": check_name(name), "player": token, "left": None}]
    seats += [{"name": "", "player": "", "left": None} for _seat in range(players - 1)]
    return Table.objects.create(code=_new_code(), game=game, rules=rules, level=level,
                                memory_aid=memory_aid, host=token, seats=seats,
                                active=timezone.now())


def _changed(table: Table, change: Any) -> Table:
    """Apply ``change(table)`` to the row under a lock (it may raise Refusal), raise the
    version, and tell the table's phones."""
    with transaction.atomic():
        fresh = Table.objects.select_for_update().get(pk=table.pk)
        if ended(fresh):
            raise Refusal(str(ENDED), status=410)
        change(fresh)
        fresh.version += 1
        fresh.active = timezone.now()
        fresh.save(update_fields=["seats", "deal", "version", "active"])
    table.__dict__.update({k: getattr(fresh, k) for k in ("seats", "deal_id", "version",
                                                          "active")})
    table._state.fields_cache.pop("deal", None)
    publish(table)
    return table


def class_channel(live_id: int) -> str:
    """The channel of a live session's class tables: the projector's progress follows it."""
    return bus.channel(str(live_id), "class")


def publish(table: Table) -> None:
    """Tell the table's phones (and a class table's projector), and schedule the next bot move
    if a bot is to move."""
    message = {"table": table.version, "deal": table.deal.version if table.deal else 0}
    bus.publish(channel(table), message)
    if table.live_id is not None:
        bus.publish(class_channel(table.live_id), message)
    schedule_bots(table)


# --------------------------------------------------------------------------- bots on the server
def bot_delay() -> float:
    """The pause before a bot's move, in seconds, so the players see each move land."""
    return int(getattr(settings, "PRACTICE_BOT_DELAY_MS", 700)) / 1000


def schedule_bots(table: Table) -> None:
    """Enqueue the next bot move of the table's deal, once per position: after the bots' pause
    when a bot is to move, at the end of the grace period when the player to move has left.
    Keyed by the deal's and the table's versions, so a change of seats (a player back, then
    gone again) schedules afresh; a task that finds the position moved on does nothing."""
    deal = table.deal
    if deal is None or deal.result is not None:
        return
    state = P.load(deal).state
    if state.over or state.to_move is None:
        return
    seat, now = state.to_move, time.time()
    backend = bot_move.get_backend()
    if is_bot(table, seat, now):
        due = now + bot_delay()
    elif table.seats[seat]["player"] and table.seats[seat].get("left") is not None:
        if not backend.supports_defer:
            return  # a backend that runs tasks at once cannot wait for the grace period
        due = table.seats[seat]["left"] + grace_seconds() + 0.5
    else:
        return
    claim = f"table-bot:{deal.pk}:{deal.version}:{table.version}"
    if not cache.add(claim, 1, int(due - now) + 300):
        return
    args = (str(table.pk), str(deal.pk), deal.version)
    if backend.supports_defer:
        bot_move.using(run_after=timezone.now() + timedelta(seconds=due - now)).enqueue(*args)
    else:
        _run_in_turn(args)


_here = threading.local()


def _run_in_turn(args: tuple[str, str, int]) -> None:
    """A backend that runs each task at once, inside ``enqueue`` (the tests' immediate one):
    the bot moves that follow one another run one after another in this loop, not each
    inside the previous one's call (a deal of bots only would go too deep)."""
    queue = getattr(_here, "queue", None)
    if queue is not None:
        queue.append(args)
        return
    _here.queue = [args]
    try:
        while _here.queue:
            bot_move.enqueue(*_here.queue.pop(0))
    finally:
        _here.queue = None


@task
def bot_move(table_id: str, deal_id: str, version: int) -> bool:
    """One bot move at the deal's ``version``: exactly one per version, however often this is
    run (the move is a conditional update on the version, as a person's is)."""
    table = Table.objects.filter(pk=table_id).select_related("deal").first()
    if (table is None or table.deal is None or str(table.deal.pk) != deal_id
            or table.deal.version != version):
        return False
    try:
        step(table, version)
    except Refusal:
        return False  # the position moved on, the player came back, or the table ended
    return True


def join(table: Table, token: str, name: str) -> int:
    """Sit down at the first free seat; the seat already held by ``token`` if any.  Once the
    cards are dealt a newcomer takes over a bot's seat, with its name."""
    held = seat_of(table, token)
    if held is not None:
        return held
    if table.live_id is not None:
        raise Refusal(str(CLASS_TABLE), status=403)
    wanted = check_name(name) if table.deal_id is None else ""
    seat: list[int] = []

    def sit(t: Table) -> None:
        if seat_of(t, token) is not None:
            seat.append(seat_of(t, token) or 0)
            return
        free = [i for i, s in enumerate(t.seats) if not s["player"]]
        if not free:
            raise Refusal(_("Every seat at this table is taken. You can watch the game."),
                          status=409)
        if wanted and any(s["name"] == wanted for s in t.seats):
            raise Refusal(_("Someone at this table already has that name. Choose another."))
        i = free[0]
        t.seats[i] = {"name": wanted or t.seats[i]["name"], "player": token, "left": None}
        seat.append(i)

    _changed(table, sit)
    return seat[0]


def leave(table: Table, token: str | None) -> None:
    def go(t: Table) -> None:
        i = seat_of(t, token)
        if i is None:
            raise Refusal(str(NOT_YOURS), status=403)
        if t.deal_id is None and not is_host(t, token):
            t.seats[i] = {"name": "", "player": "", "left": None}  # before the deal: stand up
        else:
            t.seats[i]["left"], t.seats[i]["auto"] = time.time(), False

    _changed(table, go)


def come_back(table: Table, token: str | None) -> None:
    def back(t: Table) -> None:
        i = seat_of(t, token)
        if i is None:
            raise Refusal(str(NOT_YOURS), status=403)
        t.seats[i]["left"], t.seats[i]["auto"] = None, False

    _changed(table, back)


def _names(table: Table, language: str) -> list[str]:
    """The seats' names for the deal: the players', and bot names for the empty seats."""
    taken = {s["name"] for s in table.seats if s["player"]}
    pool = [n for n in P.BOT_NAMES.get(language, P.BOT_NAMES["en"]) if n not in taken]
    pool += [f"Bot{i}" for i in range(1, 9)]
    names = []
    for s in table.seats:
        names.append(s["name"] if s["player"] else pool.pop(0))
    return names


def start(table: Table, token: str | None, language: str) -> None:
    """Deal the first cards (the host's button); a repeated press finds them dealt."""
    if not is_host(table, token):
        raise Refusal(str(HOST_ONLY), status=403)

    def deal(t: Table) -> None:
        if t.deal_id is None:
            deal_cards(t, language, *P.new_seeds())

    _changed(table, deal)


def deal_cards(t: Table, language: str, seed: int, bot_seed: int) -> None:
    """The first deal of ``t`` from ``seed`` (class tables share one: the same cards at every
    table), bots named for the empty seats.  The caller saves ``t``."""
    names = _names(t, language)
    for seat, name in zip(t.seats, names):
        seat["name"] = name
    module = adapter(t.game).engine
    options = P.options_for(t.game, t.rules)
    dealer = len(names) - 1
    t.deal = P.save_new(owner(t), t.game, t.rules, names, dealer, 0, t.level, t.memory_aid,
                         t.series, 1, module.new_game(options, names, dealer, seed, None),
                         seed, bot_seed)


def owner(table: Table) -> str:
    """The owner of the table's deal records (no browser's practice token has a colon)."""
    return f"table:{table.pk}"


def next_deal(table: Table, token: str | None, version: Any) -> None:
    """The match's next deal (the host's button once a deal is over)."""
    if not is_host(table, token):
        raise Refusal(str(HOST_ONLY), status=403)
    current = table.deal
    if current is None:
        raise Refusal(_("A new deal cannot be started from here."), status=409)
    new = P.next_deal(current, version)  # create-once; refused unless the deal is over

    def point(t: Table) -> None:
        if t.deal_id == current.pk:
            t.deal = new

    _changed(table, point)


# --------------------------------------------------------------------------- moves
def _events_key(deal: PracticeGame, n: int) -> str:
    return f"table-move:{deal.pk}:{n}"


def _apply(table: Table, deal: PracticeGame, version: int, derived: P.Derived, seat: int,
           action: Any) -> None:
    module = adapter(deal.game).engine
    new_state, events = derived.state.apply(action)
    actions = deal.actions + [f"{deal.names[seat]} {module.format_action(action)}"]
    result = P.result_of(deal.game, new_state)
    updated = PracticeGame.objects.filter(pk=deal.pk, version=version).update(
        actions=actions, version=version + 1, result=result)
    if not updated:
        raise Refusal(str(P.STALE), status=409)
    deal.actions, deal.version, deal.result = actions, version + 1, result
    P.store_position(deal, P.Derived(new_state, seats=derived.seats + [seat]))
    cache.set(_events_key(deal, len(actions) - 1), {"seat": seat, "events": events},
              P.CACHE_SECONDS)
    Table.objects.filter(pk=table.pk).update(active=timezone.now())
    publish(table)


def _open_deal(table: Table) -> PracticeGame:
    if ended(table):
        raise Refusal(str(ENDED), status=410)
    if table.deal is None:
        raise Refusal(_("The cards have not been dealt yet."), status=409)
    return table.deal


def move(table: Table, token: str | None, version: Any, words: list[str]) -> None:
    """A player's move for their own seat, at the version their page showed."""
    deal = _open_deal(table)
    seat = seat_of(table, token)
    if seat is None:
        raise Refusal(str(NOT_YOURS), status=403)
    v = P.check_version(deal, version)
    derived = P.load(deal)
    if derived.state.over or derived.state.to_move != seat:
        raise Refusal(str(NOT_YOUR_TURN), status=409)
    module = adapter(deal.game).engine
    try:
        # Applying checks what parsing does not (an attack with no cards): both are refused.
        action = module.parse_action(derived.state, seat, words)
        _apply(table, deal, v, derived, seat, action)
    except IllegalAction as exc:
        raise Refusal(reason_text(exc.reason, P.visible_cards(exc.cards), deal.game)
                      ) from None


def bot_to_move(table: Table, state: Any) -> bool:
    return not state.over and state.to_move is not None and is_bot(table, state.to_move)


def step(table: Table, version: Any) -> None:
    """One bot move: the task's (``bot_move``), or a phone's when no worker has made it (the
    first request wins)."""
    deal = _open_deal(table)
    v = P.check_version(deal, version)
    derived = P.load(deal)
    if not bot_to_move(table, derived.state):
        raise Refusal(str(P.NOT_YOUR_TURN_BOT), status=409)
    seat = derived.state.to_move
    action = P.make_bot(deal, seat).act(derived.state, seat)
    _apply(table, deal, v, derived, seat, action)


# --------------------------------------------------------------------------- narration
def _moves(deal: PracticeGame, start: int) -> list[dict[str, Any]]:
    """Moves ``start`` on with their events: from the cache, else the deal replayed once."""
    keys = [_events_key(deal, n) for n in range(start, len(deal.actions))]
    found = cache.get_many(keys)
    if len(found) < len(keys):
        derived = P.replay(deal)
        for n in range(start, len(deal.actions)):
            found.setdefault(_events_key(deal, n), {"seat": derived.seats[n],
                                                    "events": derived.events[n]})
    return [found[k] for k in keys]


def latest_lines(deal: PracticeGame, seat: int | None, most: int = 12) -> list[str]:
    """What happened since ``seat``'s last move (a spectator: the last few moves), each
    event as that seat may see it."""
    names = deal.names
    if seat is None:
        start = max(0, len(deal.actions) - 4)
    else:
        prefix = names[seat] + " "
        mine = [i for i, m in enumerate(deal.actions) if m.startswith(prefix)]
        start = mine[-1] if mine else 0
    start = max(start, len(deal.actions) - most)
    game = adapter(deal.game)
    return [line for m in _moves(deal, start)
            for line in game.narrate(m["events"], names, seat, you=seat)]


@dataclass
class Seen:
    """What a request knows of the table: the row, its deal and the deal's position."""

    table: Table
    deal: PracticeGame | None
    state: Any


def current(table: Table) -> Seen:
    deal = table.deal
    return Seen(table, deal, P.load(deal).state if deal is not None else None)


