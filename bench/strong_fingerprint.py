"""A behaviour fingerprint of the strong bot (rules/engine/bots/strong.py): one hash per game
over seeded decisions.

Run it before and after a change to the strong bot or a game's search pieces (resampling,
search parameters, playout values); the hashes must not move unless the change means to
change the bot's play.

    .venv/bin/python bench/strong_fingerprint.py [--game dam|dolda|spardame] [--decisions 300]

For each game it plays seeded deals (every preset in turn, 3 to 5 players, the dealer and the
strong bot's seat rotating) with ``StrongBot`` at its usual playouts in one seat and the
heuristic bot in the others, until the strong bot has made ``--decisions`` decisions.  It
hashes every decision, and at every fifth one also the whole ranking of ``evaluate`` (each
candidate's action, mean, playouts and paired difference, floats exactly) from a seeded
random source with a few playouts, keeping the last legal action as the move under review
(as the post-game review does).  A Spardame deal starts in the passing phase, so the pass
decisions are in it too.

It prints, per game, the decision count and the hash.
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

from rules.engine.bots import strong
from rules.engine.games import GAME_NAMES, game_module
from rules.engine.options import build_options

NAMES = ["A", "B", "C", "D", "E"]
MOVE_CAP = 1500  # a bot-only Dam endgame can circle; the cut is part of the hash


def _dump(x: object) -> bytes:
    return json.dumps(x, sort_keys=True, default=repr).encode()


def run(game: str, decisions: int) -> tuple[int, str]:
    module = game_module(game)
    heuristic = __import__(f"rules.engine.bots.{game}", fromlist=["BOTS"]).BOTS["heuristic"]
    presets = sorted(module.PRESETS)
    h = hashlib.sha256()
    made = 0
    deal = 0
    while made < decisions:
        preset = presets[deal % len(presets)]
        options = build_options(module.Options, module.PRESETS, module.DEFAULT_PRESET,
                                {"preset": preset})
        lo, hi = module.player_range(options)
        n = max(lo, min(hi, 3 + deal % 3))
        names = NAMES[:n]
        me = deal % n
        state = module.new_game(options, names, (deal // n) % n, 1000 + deal, None)
        bot = strong.StrongBot(7919 * deal + 1)
        others = [heuristic(deal * 10 + s) for s in range(n)]
        h.update(_dump(["deal", game, deal, preset, n, me]))
        moves = 0
        while not state.over and made < decisions:
            if moves >= MOVE_CAP:
                h.update(_dump(["cut", moves]))
                break
            seat = state.to_move
            if seat == me:
                action = bot.act(state, seat)
                h.update(_dump(["act", made, action]))
                if made % 5 == 0 and len(state.legal_actions()) > 1:
                    legal = state.legal_actions()
                    ranked = strong.evaluate(state, seat, random.Random(made), 24,
                                             keep=legal[len(legal) - 1])
                    h.update(_dump(["evaluate", made, [
                        [e.action, e.mean.hex(), e.playouts, e.behind.hex(), e.behind_se.hex()]
                        for e in ranked]]))
                made += 1
            else:
                action = others[seat].act(state, seat)
            state.apply_in_place(action)
            moves += 1
        deal += 1
    return made, h.hexdigest()


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--game", choices=GAME_NAMES, action="append")
    ap.add_argument("--decisions", type=int, default=300)
    args = ap.parse_args(argv)
    for game in args.game or GAME_NAMES:
        start = time.perf_counter()
        made, digest = run(game, args.decisions)
        print(f"game={game} decisions={made} seconds={time.perf_counter() - start:.1f} "
              f"fingerprint={digest}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
