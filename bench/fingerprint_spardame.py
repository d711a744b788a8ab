"""A behaviour fingerprint of the Spardame engine: one hash over thousands of seeded games.

Run it before and after a change to the engine's insides; the hash must not move.

    python bench/fingerprint_spardame.py [--games 3000] [--quick]
    python bench/fingerprint_spardame.py --games 3000 --quick  # the recorded run, ~1.5 min
    python bench/fingerprint_spardame.py --games 300           # deep checks at every step

Every game draws its player count (3-6), deal number (every pass direction), options (all of
them, both presets) and starting scores (so some deals end the match) from its seed, and is
played by random or heuristic bots, sometimes on into the next deal of the match.  At every
step it hashes:

- the legal actions, as tuples and in scenario notation (``pass QS AH AS``, ``play 2C``);
- ``view(seat)`` and ``visible_events(events, seat)`` for every seat, and the raw events;
- ``to_json()``;
- the deep checks, at every step (with ``--quick`` at about one step in seven): the state
  rebuilt by ``state_from_json`` (its JSON and legal actions), the ``check_expect`` answers
  of every spardame key, and illegal attempts through ``apply`` (raw tuples, malformed ones
  too) and through the scenario notation (``scenario.apply_move``): the reason code, the
  cards and the detail, or the accepted action; and that neither a refused nor an applied
  move changed the state it was asked of;
- at the end ``outcome`` and the result.

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

from rules.engine import scenario  # noqa: E402
from rules.engine import spardame as sp  # noqa: E402
from rules.engine.bots import spardame as bots  # noqa: E402
from rules.engine.cards import code  # noqa: E402
from rules.engine.errors import IllegalAction  # noqa: E402
from rules.engine.options import build_options  # noqa: E402

NAMES = ["Anna", "Bo", "Cilla", "Dag", "Eva", "Frode"]
EXPECT_PROBES = {
    "to_move": "Anna", "over": False, "hand": {"Anna": ["2C"]}, "hand_count": {"Bo": 13},
    "pass_direction": "left", "hearts_broken": False, "trick": [], "tricks_won": {"Anna": 0},
    "deal_points": {"Bo": 0}, "scores": {"Anna": 0}, "winner": [],
}


def _dump(x) -> bytes:
    return json.dumps(x, sort_keys=True, default=repr).encode()


def game_options(rng: random.Random):
    preset = rng.choice(list(sp.PRESETS))
    rules = {"preset": preset}
    for key in ("no_points_first_trick", "qs_breaks_hearts", "high_values", "moon",
                "moon_fixed_26"):
        if rng.random() < 0.5:
            rules[key] = rng.random() < 0.5
    if rng.random() < 0.3:
        rules["limit"] = rng.choice([100, 500])
    return build_options(sp.Options, sp.PRESETS, sp.DEFAULT_PRESET, rules)


def raw_attempts(state: sp.State, rng: random.Random) -> list:
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


def text_attempts(state: sp.State, rng: random.Random) -> list[str]:
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


def refusal(exc: IllegalAction) -> list:
    return [exc.reason, list(exc.cards), exc.detail]


def check_unchanged(state: sp.State, before: dict, what: str) -> None:
    if state.to_json() != before:
        raise AssertionError(f"{what} changed the state it was asked of")


def step_hash(h, state: sp.State, events: list, rng: random.Random, deep: bool) -> None:
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
                    for key, value in EXPECT_PROBES.items()])
        for action in raw_attempts(state, rng):
            try:
                new, ev = state.apply(action)
            except IllegalAction as exc:
                rec.append(["refused", repr(action), refusal(exc)])
            else:
                rec.append(["applied", repr(action), ev, new.to_json()])
            check_unchanged(state, data, f"apply({action!r})")
        for move in text_attempts(state, rng):
            try:
                new, ev = scenario.apply_move(sp, state, state.names, move)
            except IllegalAction as exc:
                rec.append(["refused", move, refusal(exc)])
            else:
                rec.append(["applied", move, ev, new.to_json()])
            check_unchanged(state, data, f"apply_move({move!r})")
    h.update(_dump(rec))


def play_game(h, k: int, quick: bool) -> int:
    rng = random.Random(f"fingerprint-{k}")
    n = rng.choice([3, 4, 4, 5, 6])
    options = game_options(rng)
    names = NAMES[:n]
    deal: dict = {"deal_number": rng.randint(1, 4)}
    if rng.random() < 0.3:
        # Scores near the limit, so this deal may end the match (S-C3).
        deal["scores"] = {name: rng.randrange(max(1, options.limit - 40), options.limit)
                          for name in names}
    state = sp.new_game(options, names, rng.randrange(n), rng.randrange(10**6), deal)
    kind = rng.choice(["random", "heuristic", "mixed"])
    seats = [(bots.RandomBot if kind == "random" or (kind == "mixed" and s % 2)
              else bots.HeuristicBot)(rng.randrange(10**6)) for s in range(n)]
    steps = 0
    deals_left = rng.choice([0, 0, 1])
    events: list = []
    while True:
        deep = not quick or rng.random() < 0.15
        step_hash(h, state, events, rng, deep)
        steps += 1
        if state.over:
            h.update(_dump([sp.outcome(state), state.result]))
            if deals_left and not state.result["winners"]:
                deals_left -= 1
                state = sp.next_deal(state, rng.randrange(10**6))
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


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=3000)
    ap.add_argument("--quick", action="store_true",
                    help="the deep checks at about one step in seven (the default: every step)")
    args = ap.parse_args(argv)
    h = hashlib.sha256()
    start = time.perf_counter()
    steps = sum(play_game(h, k, args.quick) for k in range(args.games))
    print(f"games={args.games} steps={steps} quick={args.quick} "
          f"seconds={time.perf_counter() - start:.1f}")
    print(f"fingerprint={h.hexdigest()}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
