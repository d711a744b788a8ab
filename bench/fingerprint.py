"""A behaviour fingerprint of a game engine (Dam, Dam med dolda kort, Spardame): one hash over
seeded games.

Run it before and after a change to an engine's insides; the hash must not move.

    python bench/fingerprint.py --game dam|dolda|spardame [--games 3000] [--quick]
    python bench/fingerprint.py --game dolda --games 3000 --quick   # the recorded runs
    python bench/fingerprint.py --game dam --games 300               # deep checks at every step

Dam and Dam med dolda kort: every game draws from its seed the
player count (every count the options allow, 8 in Dam with ``max_players_8``), a preset and
random changes to every option, sometimes a scenario deal (named hands or rows, a short or
empty stock, the rest to the stock or the discard pile, a turned card, trump, who starts), and
its bots (random, heuristic or both at one table).  At every step it hashes:

- the legal actions, as tuples and in scenario notation (``attack 5C 9C``, ``steal 2 Bo 3``);
- ``view(seat)`` for every seat and the raw events (Dam med dolda kort: also
  ``public_event`` of each event for every seat);
- ``to_json()``;
- the deep checks, at every step (with ``--quick`` at about one step in seven): the state
  rebuilt by ``state_from_json`` (its JSON and legal actions), ``check_expect`` answers for
  every key of the game (true and false ones), and illegal attempts through ``apply`` (raw
  tuples, malformed ones too) and through the scenario notation (``scenario.apply_move``):
  the reason code, the cards and the detail, or the accepted action and its events and
  JSON; and that neither a refused nor an applied move changed the state it was asked of;
- at the end ``outcome`` (and the loser or the scores).

When the state has ``clone`` and ``apply_in_place``, every played move is also checked (not
hashed, so the hash is comparable with engines that lack them) to give the same JSON and
events in place, with and without an events list, as ``apply``.

Spardame (the walk that was bench/fingerprint_spardame.py; its hashes are unchanged): every
game draws its player count (3-6), deal number (every pass direction), options (all of them,
both presets) and starting scores (so some deals end the match) from its seed, and is played
by random or heuristic bots, sometimes on into the next deal of the match (``following_deal``, as practice plays it).  At
every step it hashes the legal actions (tuples and notation), the raw events, ``to_json()``,
``view(seat)`` and ``visible_events(events, seat)`` for every seat, and the same deep checks
(``state_from_json``, every ``check_expect`` key, refused and accepted attempts through
``apply`` and ``scenario.apply_move``); at the end ``outcome`` and the result.

It prints the game count, the step count and the hash.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from rules.engine import scenario
from rules.engine import spardame as sp
from rules.engine.bots import spardame as sp_bots
from rules.engine.cards import SUITS, code
from rules.engine.errors import IllegalAction, ScenarioError
from rules.engine.games import game_module
from rules.engine.options import build_options, option_choices

NAMES = ["Anna", "Bo", "Cilla", "Dag", "Eva", "Frode", "Gun", "Hugo"]


def _dump(x) -> bytes:
    return json.dumps(x, sort_keys=True, default=repr).encode()


def refusal(exc: IllegalAction) -> list:
    return [exc.reason, list(exc.cards), exc.detail]


def game_options(mod, rng: random.Random):
    rules: dict = {"preset": rng.choice(list(mod.PRESETS))}
    for key, values in option_choices(mod.Options).items():
        if rng.random() < 0.35:
            rules[key] = rng.choice(values)
    try:
        return build_options(mod.Options, mod.PRESETS, mod.DEFAULT_PRESET, rules)
    except (ScenarioError, ValueError):
        return build_options(mod.Options, mod.PRESETS, mod.DEFAULT_PRESET,
                             {"preset": rules["preset"]})


# -- Dam ----------------------------------------------------------------------------------
def dam_deal(mod, options, names: list[str], rng: random.Random) -> dict:
    deck = list(range(52))
    rng.shuffle(deck)
    hand = rng.choice([options.hand_size, options.hand_size, 1, 2, 4])
    deal: dict = {"hands": {}}
    for name in names:
        deal["hands"][name] = [code(deck.pop()) for _ in range(hand)]
    if rng.random() < 0.5:
        deal["stock"] = [code(deck.pop()) for _ in range(rng.randrange(0, 4))]
    if rng.random() < 0.3:
        deal["discard"] = [code(deck.pop()) for _ in range(rng.randrange(0, 6))]
    deal["rest"] = rng.choice(["stock", "discard", "discard"])
    if options.trump == "turned" and rng.random() < 0.4:
        c = deck.pop()
        if c // 13 != 3 or options.spades_can_be_trump:
            deal["turned"] = code(c)
            deal["trump"] = SUITS[c // 13]
    elif rng.random() < 0.4:
        deal["trump"] = (SUITS[rng.randrange(4)] if options.trump != "fixed"
                         else options.fixed_trump_suit)
    if rng.random() < 0.5:
        deal["attacker"] = rng.choice(names)
    return deal


def dam_raw_attempts(mod, state, rng: random.Random) -> list:
    n = len(state.names)
    seat = state.to_move if state.to_move is not None else 0
    other = (seat + 1) % n
    hand = state.view(seat)["hand"]
    table = list(state.table)
    some = rng.sample(hand, min(len(hand), rng.randint(1, 3))) if hand else [0]
    suit_cards = [c for c in hand if c // 13 == some[0] // 13]
    tries = [
        ("attack", seat, tuple(some)), ("attack", seat, tuple(suit_cards)),
        ("attack", seat, tuple(sorted(suit_cards, reverse=True))),
        ("attack", seat, list(suit_cards)), ("attack", seat, ()),
        ("attack", seat, (some[0], some[0])), ("attack", other, tuple(some)),
        ("attack", seat, (rng.randrange(52),)), ("attack", seat, (52,)), ("attack", seat, ("x",)),
        ("attack", seat, 5), ("attack", seat),
        ("beat", seat, rng.randrange(52), rng.randrange(52)),
        ("beat", seat, table[0] if table else 0, rng.choice(hand) if hand else 0),
        ("beat", seat, rng.choice(hand) if hand else 0, rng.choice(hand) if hand else 0),
        ("beat", seat, table[-1] if table else 0, 49), ("beat", seat, 49, some[0]),
        ("beat", seat, 60, 1), ("beat", seat, table[0] if table else 1, -1), ("beat", seat, 1),
        ("take", seat), ("take", other), ("take", seat, 1),
        ("announce", seat, rng.randrange(4)), ("announce", seat, 7), ("announce", seat),
        ("slap", seat), ("wait", seat), ("done", seat), ("slap", seat, 1),
        ("add", seat, tuple(suit_cards[:1])), ("add", seat, tuple(some)), ("add", seat, ()),
        ("jump", seat), (3, seat), ("take",), (), None, 7, "attack",
    ]
    if state.beaten:
        tries.append(("beat", seat, state.beaten[0][0], rng.choice(hand) if hand else 0))
    return tries


def dam_text_attempts(mod, state, rng: random.Random) -> list[str]:
    n = len(state.names)
    seat = state.to_move if state.to_move is not None else rng.randrange(n)
    name = state.names[seat]
    hand = [code(c) for c in state.view(seat)["hand"]]
    pick = rng.sample(hand, min(3, len(hand))) if hand else ["2C"]
    table = [code(c) for c in state.table] or ["2C"]
    return [
        f"{name} attack {' '.join(pick)}", f"{name} attack {pick[0]}",
        f"{name} ATTACK {pick[0].lower()}", f"{name} attack", f"{name} attack ZZ",
        f"{name} attack {code(rng.randrange(52))}",
        f"{name} beat {table[0]} {pick[0]}", f"{name} beat {table[-1]} {code(rng.randrange(52))}",
        f"{name} beat {table[0]}", f"{name} beat QS {pick[0]}",
        f"{name} take", f"{name} take {pick[0]}", f"{name} announce {rng.choice('CDHSX')}",
        f"{name} announce", f"{name} slap", f"{name} wait", f"{name} done",
        f"{name} add {pick[0]}", f"{name} add", f"{name} jump",
        f"{state.names[(seat + 1) % n]} take", "Nobody take", f"{name}",
    ]


def dam_probes(mod, state, rng: random.Random) -> list:
    names = state.names
    a, b = names[0], names[-1]
    return [
        ("to_move", a), ("to_move", None), ("over", False), ("over", True),
        ("hand", {a: [code(c) for c in state.view(0)["hand"]]}), ("hand", {b: ["2C", "AS"]}),
        ("hand_count", {a: 6, b: state.hand_count(len(names) - 1)}),
        ("stock_count", len(state.stock)), ("stock_count", 3), ("discard_count", 0),
        ("trump", rng.choice(["C", "d", None])), ("attacker", a), ("defender", b),
        ("table", [code(c) for c in state.table]), ("table", ["2C"]), ("out", []),
        ("out", [a]), ("loser", None), ("loser", b), ("hand", {"Nobody": []}), ("hand", 3),
        ("score", 1),
    ]


def dam_final(mod, state) -> list:
    return [mod.outcome(state), state.loser, list(state.out)]


# -- Dam med dolda kort -------------------------------------------------------------------
def dolda_deal(mod, options, names: list[str], rng: random.Random) -> dict:
    deck = list(range(52))
    rng.shuffle(deck)
    length = mod.row_length(options)
    deal: dict = {"rows": {name: [code(deck.pop()) for _ in range(length)] for name in names}}
    if options.secret_card:
        deal["secret"] = {name: code(deck.pop()) for name in names}
    if rng.random() < 0.6:
        deal["stock"] = [code(deck.pop()) for _ in range(rng.randrange(0, 5))]
    if rng.random() < 0.5:
        deal["discard"] = [code(deck.pop()) for _ in range(rng.randrange(0, 4))]
    deal["rest"] = rng.choice(["stock", "discard", "discard"])
    if rng.random() < 0.5:
        deal["to_move"] = rng.choice(names)
    return deal


def dolda_raw_attempts(mod, state, rng: random.Random) -> list:
    A = mod.Action
    n = len(state.names)
    seat = state.to_move if state.to_move is not None else 0
    other = (seat + 1) % n
    length = len(state.rows[0])
    p, q = rng.randrange(length), rng.randrange(length)
    return [
        A(seat, "draw", "stock"), A(seat, "draw", "discard"), A(other, "draw", "stock"),
        A(seat, "draw", "hand"), A(seat, "draw", "stock", (1,)), A(seat, "draw", "stock", (), 1),
        A(seat, "swap"), A(seat, "discard"), A(seat, "swap", "stock"), A(seat, "discard", "", (1,)),
        A(seat, "discard", "", (), 0),
        A(seat, "shield", positions=(p,)), A(seat, "shield", positions=(p, q)),
        A(seat, "shield", positions=(p, p)), A(seat, "shield", positions=()),
        A(seat, "shield", positions=(0, 1, 2)), A(seat, "shield", positions=(length,)),
        A(seat, "shield", "stock", (p,)), A(seat, "shield", positions=(p,), victim=other),
        A(seat, "steal", positions=(p, q), victim=other, victim_name=state.names[other]),
        A(seat, "steal", positions=(p, q), victim=seat, victim_name=state.names[seat]),
        A(seat, "steal", positions=(p, q), victim=other, victim_name="Nobody"),
        A(seat, "steal", positions=(p, length), victim=other, victim_name=state.names[other]),
        A(seat, "steal", positions=(p,), victim=other, victim_name=state.names[other]),
        A(seat, "steal", positions=(p, q), victim=n, victim_name="x"),
        A(seat, "steal", "stock", (p, q), other, state.names[other]),
        A(seat, "jump"), ("draw", seat, "stock"), (seat, "draw", "stock"), None, 7,
    ]


def dolda_text_attempts(mod, state, rng: random.Random) -> list[str]:
    n = len(state.names)
    seat = state.to_move if state.to_move is not None else rng.randrange(n)
    name = state.names[seat]
    other = state.names[(seat + 1) % n]
    length = len(state.rows[0])
    p, q = rng.randint(0, length + 1), rng.randint(1, length)
    return [
        f"{name} draw stock", f"{name} draw discard", f"{name} DRAW Stock", f"{name} draw",
        f"{name} draw hand", f"{name} swap", f"{name} discard", f"{name} swap 1",
        f"{name} shield {p}", f"{name} shield {p} {q}", f"{name} shield", f"{name} shield x",
        f"{name} shield 1 2 3", f"{name} steal {p} {other} {q}", f"{name} steal {q} {name} {p}",
        f"{name} steal {q} Nobody {p}", f"{name} steal {q} {other}", f"{name} steal a {other} 1",
        f"{name} jump", f"{other} draw stock", "Nobody draw stock", f"{name}",
    ]


def dolda_probes(mod, state, rng: random.Random) -> list:
    names = state.names
    a, b = names[0], names[-1]
    held = [code(state.held)] if state.held >= 0 else []
    return [
        ("to_move", a), ("to_move", None), ("over", False), ("over", True),
        ("hand", {a: held}), ("hand", {b: []}), ("hand_count", {a: 1, b: 0}),
        ("stock_count", len(state.stock)), ("stock_count", 5), ("discard_count", 0),
        ("discard_top", None), ("discard_top", "2C"),
        ("row", {a: [code(c) for c in state.rows[0]]}), ("row", {b: ["2C"]}),
        ("scores", {a: 10}), ("winner", [a]), ("winner", []), ("winner", ["Nobody"]),
        ("hand", {"Nobody": []}), ("loser", a),
    ]


def dolda_final(mod, state) -> list:
    return [mod.outcome(state), list(state.scores), mod.winners(state)]


# -- Spardame ------------------------------------------------------------------------------
# Its own walk (the Dam walk below came later); kept as it was so that its hash stays put.
SP_EXPECT_PROBES = {
    "to_move": "Anna", "over": False, "hand": {"Anna": ["2C"]}, "hand_count": {"Bo": 13},
    "pass_direction": "left", "hearts_broken": False, "trick": [], "tricks_won": {"Anna": 0},
    "deal_points": {"Bo": 0}, "scores": {"Anna": 0}, "winner": [],
}


def sp_game_options(rng: random.Random):
    preset = rng.choice(list(sp.PRESETS))
    rules = {"preset": preset}
    for key in ("no_points_first_trick", "qs_breaks_hearts", "high_values", "moon",
                "moon_fixed_26"):
        if rng.random() < 0.5:
            rules[key] = rng.random() < 0.5
    if rng.random() < 0.3:
        rules["limit"] = rng.choice([100, 500])
    return build_options(sp.Options, sp.PRESETS, sp.DEFAULT_PRESET, rules)


def sp_raw_attempts(state: sp.State, rng: random.Random) -> list:
    n = len(state.names)
    seat = state.to_move if state.to_move is not None else 0
    other = (seat + 1) % n
    cards = list(range(52))
    hand = state.hand(seat)
    tries = [
        ("play", seat, rng.choice(cards)),
        ("play", other, rng.choice(cards)),
        ("pass", seat, *rng.sample(cards, 3)),
        ("pass", seat, *sorted(rng.sample(hand, min(3, len(hand))))),
        ("pass", seat, *(rng.sample(hand, min(2, len(hand))))),
        ("play", seat, rng.choice(hand)) if hand else ("play", seat, 0),
        ("play", seat, 52), ("play", seat, "x"), ("play",), ("jump", seat, 3), 7, None,
        ("pass", seat, hand[0], hand[0], hand[-1]) if hand else ("pass", seat),
        ("play", seat, *hand[:2]),
    ]
    return tries


def sp_text_attempts(state: sp.State, rng: random.Random) -> list[str]:
    n = len(state.names)
    seat = state.to_move if state.to_move is not None else rng.randrange(n)
    name = state.names[seat]
    hand = state.hand(seat)
    pick = [code(c) for c in rng.sample(hand, min(3, len(hand)))]
    any3 = [code(c) for c in rng.sample(range(52), 3)]
    return [
        f"{name} play {code(rng.randrange(52))}",
        f"{name} play {pick[0] if pick else '2C'}",
        f"{name} pass {' '.join(pick)}",
        f"{name} pass {' '.join(any3)}",
        f"{name} PASS {' '.join(p.lower() for p in pick)}",
        f"{state.names[(seat + 1) % n]} play {pick[0] if pick else '2C'}",
        f"{name} play {' '.join(pick[:2])}",
        f"{name} jump",
        f"{name} play ZZ",
        f"{name} pass {pick[0] if pick else '2C'} 10H",
        "Nobody play 2C",
        f"{name}",
    ]


def sp_step_hash(h, state: sp.State, events: list, rng: random.Random, deep: bool) -> None:
    n = len(state.names)
    legal = state.legal_actions()
    data = state.to_json()
    rec: list = [[list(a) for a in legal], [sp.format_action(a) for a in legal], events, data,
                 [state.view(seat) for seat in range(n)],
                 [sp.visible_events(events, seat) for seat in range(n)]]
    if deep:
        back = sp.state_from_json(json.loads(json.dumps(data)))
        rec.append([back.to_json(), [list(a) for a in back.legal_actions()]])
        rec.append([[key, sp.check_expect(state, key, value)]
                    for key, value in SP_EXPECT_PROBES.items()])
        for action in sp_raw_attempts(state, rng):
            try:
                new, ev = state.apply(action)
            except IllegalAction as exc:
                rec.append(["refused", repr(action), refusal(exc)])
            else:
                rec.append(["applied", repr(action), ev, new.to_json()])
            check_unchanged(state, data, f"apply({action!r})")
        for move in sp_text_attempts(state, rng):
            try:
                new, ev = scenario.apply_move(sp, state, state.names, move)
            except IllegalAction as exc:
                rec.append(["refused", move, refusal(exc)])
            else:
                rec.append(["applied", move, ev, new.to_json()])
            check_unchanged(state, data, f"apply_move({move!r})")
    h.update(_dump(rec))


def sp_play_game(h, k: int, quick: bool) -> int:
    rng = random.Random(f"fingerprint-{k}")
    n = rng.choice([3, 4, 4, 5, 6])
    options = sp_game_options(rng)
    names = NAMES[:n]
    deal: dict = {"deal_number": rng.randint(1, 4)}
    if rng.random() < 0.3:
        # Scores near the limit, so this deal may end the match (S-C3).
        deal["scores"] = {name: rng.randrange(max(1, options.limit - 40), options.limit)
                          for name in names}
    state = sp.new_game(options, names, rng.randrange(n), rng.randrange(10**6), deal)
    kind = rng.choice(["random", "heuristic", "mixed"])
    seats = [(sp_bots.RandomBot if kind == "random" or (kind == "mixed" and s % 2)
              else sp_bots.HeuristicBot)(rng.randrange(10**6)) for s in range(n)]
    steps = 0
    deals_left = rng.choice([0, 0, 1])
    events: list = []
    while True:
        deep = not quick or rng.random() < 0.15
        sp_step_hash(h, state, events, rng, deep)
        steps += 1
        if state.over:
            h.update(_dump([sp.outcome(state), state.result]))
            if deals_left and not state.result["winners"]:
                deals_left -= 1
                d = state.d
                state = sp.following_deal(d.options, list(d.names), d.dealer, d.deal_number,
                                          sp.deal_result(state), rng.randrange(10**6))
                events = []
                continue
            return steps
        seat = state.to_move
        action = seats[seat].act(state, seat)
        before = state.to_json() if deep else None
        state_new, events = state.apply(action)
        if before is not None:
            check_unchanged(state, before, "a legal apply")
        state = state_new


GAMES = {
    "dam": (dam_deal, dam_raw_attempts, dam_text_attempts, dam_probes, dam_final),
    "dolda": (dolda_deal, dolda_raw_attempts, dolda_text_attempts, dolda_probes, dolda_final),
}


# -- the walk -----------------------------------------------------------------------------
def check_unchanged(state, before: dict, what: str) -> None:
    if state.to_json() != before:
        raise AssertionError(f"{what} changed the state it was asked of")


def try_call(rec: list, fn):
    try:
        rec.append(["ok", fn()])
    except ScenarioError as exc:
        rec.append(["ScenarioError", exc.code, repr(exc.params)])
    except Exception as exc:  # noqa: BLE001 - an odd probe's failure is behaviour too
        rec.append([type(exc).__name__, str(exc)])


def step_hash(h, game: str, mod, state, events: list, rng: random.Random, deep: bool) -> None:
    _deal, raw_attempts, text_attempts, probes, _final = GAMES[game]
    n = len(state.names)
    legal = state.legal_actions()
    data = state.to_json()
    rec: list = [[list(a) for a in legal], [mod.format_action(a) for a in legal], events, data,
                 [state.view(seat) for seat in range(n)], state.to_move, state.over]
    if game == "dolda":
        rec.append([[mod.public_event(e, seat) for e in events] for seat in (*range(n), None)])
    if deep:
        back = mod.state_from_json(json.loads(json.dumps(data)))
        rec.append([back.to_json(), [list(a) for a in back.legal_actions()]])
        for key, value in probes(mod, state, rng):
            try_call(rec, lambda key=key, value=value: mod.check_expect(state, key, value))
        for action in raw_attempts(mod, state, rng):
            try:
                new, ev = state.apply(action)
            except IllegalAction as exc:
                rec.append(["refused", repr(action), refusal(exc)])
            else:
                rec.append(["applied", repr(action), ev, new.to_json()])
            check_unchanged(state, data, f"apply({action!r})")
        for move in text_attempts(mod, state, rng):
            try:
                new, ev = scenario.apply_move(mod, state, state.names, move)
            except IllegalAction as exc:
                rec.append(["refused", move, refusal(exc)])
            else:
                rec.append(["applied", move, ev, new.to_json()])
            check_unchanged(state, data, f"apply_move({move!r})")
    h.update(_dump(rec))


def check_in_place(state, action, new, events) -> None:
    """Not hashed: clone + apply_in_place must do what apply does (with and without events)."""
    if not hasattr(state, "apply_in_place"):
        return
    want = new.to_json()
    a = state.clone()
    ev: list = []
    a.apply_in_place(action, ev)
    b = state.clone()
    b.apply_in_place(action)
    if a.to_json() != want or b.to_json() != want or ev != events:
        raise AssertionError(f"apply_in_place({action!r}) differs from apply")


def play_game(h, game: str, mod, bots, k: int, quick: bool) -> int:
    deal_fn, _raw, _text, _probes, final = GAMES[game]
    rng = random.Random(f"fingerprint-{game}-{k}")
    options = game_options(mod, rng)
    lo, hi = mod.player_range(options)
    n = rng.randint(lo, hi)
    names = NAMES[:n]
    deal = deal_fn(mod, options, names, rng) if rng.random() < 0.15 else None
    try:
        state = mod.new_game(options, names, rng.randrange(n), rng.randrange(10**6), deal)
    except ScenarioError as exc:
        h.update(_dump(["deal refused", exc.code, repr(exc.params)]))
        return 0
    kind = rng.choice(["random", "heuristic", "mixed"])
    seats = [(bots.RandomBot if kind == "random" or (kind == "mixed" and s % 2)
              else bots.HeuristicBot)(rng.randrange(10**6)) for s in range(n)]
    steps = 0
    events: list = []
    while True:
        deep = not quick or rng.random() < 0.15
        step_hash(h, game, mod, state, events, rng, deep)
        steps += 1
        if state.over:
            h.update(_dump(final(mod, state)))
            return steps
        if steps > 3000:  # a bot-only Dam endgame can circle; the cut is part of the hash
            h.update(_dump(["cut", steps]))
            return steps
        seat = state.to_move
        action = seats[seat].act(state, seat)
        before = state.to_json() if deep else None
        state_new, events = state.apply(action)
        if before is not None:
            check_unchanged(state, before, "a legal apply")
            check_in_place(state, action, state_new, events)
        state = state_new


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--game", choices=[*sorted(GAMES), "spardame"], required=True)
    ap.add_argument("--games", type=int, default=3000)
    ap.add_argument("--quick", action="store_true",
                    help="the deep checks at about one step in seven (the default: every step)")
    args = ap.parse_args(argv)
    h = hashlib.sha256()
    start = time.perf_counter()
    if args.game == "spardame":
        steps = sum(sp_play_game(h, k, args.quick) for k in range(args.games))
    else:
        mod = game_module(args.game)
        bots = __import__(f"rules.engine.bots.{args.game}", fromlist=["BOTS"])
        steps = sum(play_game(h, args.game, mod, bots, k, args.quick) for k in range(args.games))
    print(f"game={args.game} games={args.games} steps={steps} quick={args.quick} "
          f"seconds={time.perf_counter() - start:.1f}")
    print(f"fingerprint={h.hexdigest()}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
