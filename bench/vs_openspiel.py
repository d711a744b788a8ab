"""Our Spardame engine next to OpenSpiel's ``hearts``: speed side by side and a rules cross-check.

OpenSpiel is never a dependency of the project.  It lives in the benchmark's own environment:

    python3.12 -m venv bench/.venv-openspiel     # with pyenv: PYENV_VERSION=3.12.1 python3.12
    bench/.venv-openspiel/bin/pip install -r bench/requirements-openspiel.txt
    bench/.venv-openspiel/bin/python bench/vs_openspiel.py [--seconds 6] [--deals 1000]

It prints one line per speed comparison (``ours_deals_per_s``, ``openspiel_deals_per_s``,
``ratio``; with passing also the same loop on a game without rules, ``floor_deals_per_s``, and
what our rules cost per action against the most they may cost for a ratio of 2), a reference
rate of OpenSpiel driven the way its examples do it (sampling each chance node from
``chance_outcomes()``, several times slower than the plain loop, which is the
one compared), and one ``cross_check`` line per rule set; the exit status is 1 when the
engines disagree.

The repository root is put on sys.path so ``rules.engine`` (pure Python) imports from there.

Speed: both engines play uniformly random deals in the same process, in alternating slices so
that machine load hits both alike.  Each loop is the plain idiom of its library:
``rng.choice(state.legal_actions())`` then apply, in place on both sides (OpenSpiel's
``apply_action``, our ``apply_in_place``; neither asks for events).  With passing, OpenSpiel draws the pass
direction at a chance node (no pass, left, across, right, uniform); ours cycles the deal number
1-4, the same mix.  OpenSpiel's chance nodes (direction, 52 dealt cards) are uniform in hearts,
so choosing among ``legal_actions()`` samples them correctly.

Cross-check: OpenSpiel's hearts parameters and ours, set to the same rules:

| OpenSpiel parameter           | value | our rule / option                                       |
|-------------------------------|-------|---------------------------------------------------------|
| pass_cards                    | False | deal_number 4 (no passing); passing order differs (*)   |
| no_pts_on_first_trick         | True  | no_points_first_trick (S-T4) true                       |
| can_lead_any_club             | False | S-T1: the two of clubs leads                            |
| jd_bonus                      | False | no jack-of-diamonds bonus in Spardame                   |
| avoid_all_tricks_bonus        | False | no such bonus in Spardame                               |
| qs_breaks_hearts              | True  | qs_breaks_hearts true (our default is false)            |
| must_break_hearts             | True  | S-T3 hearts must be broken before they are led          |
| can_lead_hearts_instead_of_qs | False | S-T3: only a hand of nothing but hearts may lead one    |

(*) OpenSpiel passes one card at a time per player; ours passes three at once in seat order,
so the pass phase is not compared move by move.  Shooting the moon is always on in
OpenSpiel (26 to each opponent), like our default ``moon`` with standard values.
OpenSpiel's returns are 26 minus the points taken (after the moon), so points = 26 - return.

The check runs with OpenSpiel's defaults above, then again with ``qs_breaks_hearts`` off on
both sides (our default) and with the first-trick rule off on both sides.

Both engines get the same deal (ours from a seed; OpenSpiel's chance nodes are fed the same
cards: its n-th dealt card goes to player n mod 4, seats N E S W = our seats 0-3, clockwise),
and at every step the two sets of legal moves must be equal; a random one of them is played in
both.  At the end the points must agree.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import pyspiel

from rules.engine import spardame as sp
from rules.engine.cards import code
from rules.engine.options import build_options

NAMES = ["N", "E", "S", "W"]
CROSS_PARAMS = {
    "pass_cards": False,
    "no_pts_on_first_trick": True,
    "can_lead_any_club": False,
    "jd_bonus": False,
    "avoid_all_tricks_bonus": False,
    "qs_breaks_hearts": True,
    "must_break_hearts": True,
    "can_lead_hearts_instead_of_qs": False,
}


def card_maps(game) -> tuple[dict[int, int], dict[int, int]]:
    """Our card int <-> OpenSpiel action id, matched through the printed names ("2C", "TH")."""
    state = game.new_initial_state()
    state.apply_action(state.legal_actions()[0])  # the pass-direction chance node
    ours_to_os = {}
    for a in range(52):
        name = state.action_to_string(a)
        ours_to_os[_parse(name)] = a
    assert len(ours_to_os) == 52
    return ours_to_os, {v: k for k, v in ours_to_os.items()}


def _parse(name: str) -> int:
    from rules.engine.cards import parse
    return parse(name)


# -- speed ------------------------------------------------------------------------------------
def ours_deals(options, seconds: float, seed: int, passing: bool) -> tuple[int, float]:
    rng = random.Random(seed)
    choice = rng.choice
    new_game = sp.new_game
    deals = 0
    start = time.perf_counter()
    deadline = start + seconds
    while time.perf_counter() < deadline:
        for _ in range(20):
            deal = {"deal_number": deals % 4 + 1 if passing else 4}
            state = new_game(options, NAMES, 3, seed + deals, deal)
            while not state.over:
                state.apply_in_place(choice(state.legal_actions()))
            deals += 1
    return deals, time.perf_counter() - start


def openspiel_deals(game, seconds: float, seed: int) -> tuple[int, float]:
    rng = random.Random(seed)
    choice = rng.choice
    deals = 0
    start = time.perf_counter()
    deadline = start + seconds
    while time.perf_counter() < deadline:
        for _ in range(20):
            state = game.new_initial_state()
            while not state.is_terminal():
                state.apply_action(choice(state.legal_actions()))
            deals += 1
    return deals, time.perf_counter() - start


def openspiel_deals_sampled(game, seconds: float, seed: int) -> tuple[int, float]:
    """OpenSpiel's own example idiom: chance nodes sampled from ``chance_outcomes()``."""
    rng = random.Random(seed)
    choice = rng.choice
    deals = 0
    start = time.perf_counter()
    deadline = start + seconds
    while time.perf_counter() < deadline:
        for _ in range(20):
            state = game.new_initial_state()
            while not state.is_terminal():
                if state.is_chance_node():
                    actions, probs = zip(*state.chance_outcomes())
                    state.apply_action(rng.choices(actions, probs)[0])
                else:
                    state.apply_action(choice(state.legal_actions()))
            deals += 1
    return deals, time.perf_counter() - start


def floor(seconds: float, passing: bool) -> tuple[float, int]:
    """The plain loop of ``ours_deals`` on a game that knows no rules (bench/engine.py's
    NoRules), as many actions a deal as ours takes: what the loop itself costs."""
    from engine import NoRules  # bench/engine.py; bench/ is on sys.path as the script's folder

    options = build_options(sp.Options, sp.PRESETS, sp.DEFAULT_PRESET, {})
    rng = random.Random(0)
    actions = 0
    for k in range(400):
        state = sp.new_game(options, NAMES, 3, k, {"deal_number": k % 4 + 1 if passing else 4})
        while not state.over:
            state.apply_in_place(rng.choice(state.legal_actions()))
            actions += 1
    length = round(actions / 400)
    choice = rng.choice
    deals = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        state = NoRules(length, 4)
        while not state.over:
            state.apply_in_place(choice(state.legal_actions()))
        deals += 1
    return deals / (time.perf_counter() - start), length


def speed(seconds: float, passing: bool) -> tuple[float, float]:
    options = build_options(sp.Options, sp.PRESETS, sp.DEFAULT_PRESET, {})
    game = pyspiel.load_game("hearts", {"pass_cards": passing})
    slices = 6
    ours_n = os_n = 0
    ours_t = os_t = 0.0
    ours_deals(options, 0.2, 0, passing)  # warm-up
    openspiel_deals(game, 0.2, 0)
    for k in range(slices):
        n, t = ours_deals(options, seconds / slices / 2, 1000 * k, passing)
        ours_n, ours_t = ours_n + n, ours_t + t
        n, t = openspiel_deals(game, seconds / slices / 2, 1000 * k)
        os_n, os_t = os_n + n, os_t + t
    return ours_n / ours_t, os_n / os_t


# -- cross-check ------------------------------------------------------------------------------
def cross_check(deals: int, seed: int, qs_breaks_hearts: bool = True,
                no_points_first_trick: bool = True, verbose: int = 3) -> tuple[int, int, int]:
    options = build_options(sp.Options, sp.PRESETS, sp.DEFAULT_PRESET, {
        "qs_breaks_hearts": qs_breaks_hearts, "no_points_first_trick": no_points_first_trick})
    game = pyspiel.load_game("hearts", dict(CROSS_PARAMS, qs_breaks_hearts=qs_breaks_hearts,
                                            no_pts_on_first_trick=no_points_first_trick))
    to_os, from_os = card_maps(game)
    rng = random.Random(seed)
    disagreements = steps = 0
    for k in range(deals):
        ours = sp.new_game(options, NAMES, 3, seed + k, {"deal_number": 4})
        os_state = game.new_initial_state()
        assert os_state.legal_actions() == [0] and os_state.action_to_string(0) == "No Pass"
        os_state.apply_action(0)
        hands = [ours.hand(seat) for seat in range(4)]
        for i in range(13):
            for seat in range(4):
                os_state.apply_action(to_os[hands[seat][i]])
        problem = None
        while not ours.over:
            if os_state.is_terminal() or os_state.current_player() != ours.to_move:
                problem = f"player to move: ours {ours.to_move}, OpenSpiel " \
                          f"{'terminal' if os_state.is_terminal() else os_state.current_player()}"
                break
            legal = ours.legal_actions()
            ours_set = {to_os[a[2]] for a in legal}
            os_set = set(os_state.legal_actions())
            steps += 1
            if ours_set != os_set:
                problem = (f"trick {ours.tricks_done + 1}, seat {ours.to_move}: ours "
                           f"{sorted(code(from_os[a]) for a in ours_set)}, OpenSpiel "
                           f"{sorted(code(from_os[a]) for a in os_set)}")
                break
            action = legal[rng.randrange(len(legal))]
            ours, _ = ours.apply(action)
            os_state.apply_action(to_os[action[2]])
        if problem is None:
            ours_points = [int(x) for x in sp.outcome(ours)]
            os_points = [26 - int(r) for r in os_state.returns()]
            if not os_state.is_terminal() or ours_points != os_points:
                problem = f"points: ours {ours_points}, OpenSpiel {os_points}"
        if problem is not None:
            disagreements += 1
            if disagreements <= verbose:
                print(f"disagreement in deal {k} (seed {seed + k}): {problem}", file=sys.stderr)
    return deals, disagreements, steps


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=6.0, help="per speed comparison")
    parser.add_argument("--deals", type=int, default=1000, help="deals to cross-check")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)

    print(f"python={sys.version.split()[0]} open_spiel={_version()}")
    for passing in (True, False):
        ours, theirs = speed(args.seconds, passing)
        tag = "with_passing" if passing else "no_passing"
        print(f"{tag}: ours_deals_per_s={ours:.0f} openspiel_deals_per_s={theirs:.0f} "
              f"ratio={ours / theirs:.2f}")
        if passing:
            # What the rules cost per action, and the most they may cost for twice OpenSpiel's
            # rate: the loop's own cost is outside any engine's reach.
            rate, length = floor(min(3.0, args.seconds / 2), passing)
            spent = (1 / ours - 1 / rate) / length * 1e6
            budget = (1 / (2 * theirs) - 1 / rate) / length * 1e6
            print(f"{tag}: floor_deals_per_s={rate:.0f} actions_per_deal={length} "
                  f"rules_us_per_action={spent:.2f} rules_us_per_action_for_2x={budget:.2f}")
    # For reference: the slower loop of OpenSpiel's examples (probabilities of chance nodes).
    game = pyspiel.load_game("hearts")
    n, t = openspiel_deals_sampled(game, args.seconds / 3, 7)
    print(f"reference: openspiel_chance_outcomes_loop_deals_per_s={n / t:.0f}")
    failed = 0
    # OpenSpiel's defaults first, then our defaults and the first-trick option turned off.
    for qs, first in ((True, True), (False, True), (True, False)):
        deals, disagreements, steps = cross_check(args.deals, args.seed, qs, first)
        failed += disagreements
        print(f"cross_check qs_breaks_hearts={qs} no_points_first_trick={first}: "
              f"deals_compared={deals} decisions_compared={steps} "
              f"disagreements={disagreements}")
    return 0 if failed == 0 else 1


def _version() -> str:
    try:
        from importlib.metadata import version
        return version("open_spiel")
    except Exception:  # noqa: BLE001
        return "unknown"


if __name__ == "__main__":
    sys.exit(main())
