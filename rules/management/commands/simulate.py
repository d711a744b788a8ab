"""``python manage.py simulate``: play deals per preset with the heuristic bots and store sums.

Uses every core (one process per core), prints a progress bar, and resumes: deal number k
always uses seed k, so a run that stops half-way is continued by the next one and the totals
are the same as if it had never stopped.
"""

from __future__ import annotations

import os
import sys
import time
from concurrent.futures import ProcessPoolExecutor

from django.core.management.base import BaseCommand, CommandError
from django.db import transaction

from rules.engine.games import GAME_NAMES, game_module
from rules.models import SimulationResult
from rules.simulation import PLAYERS, Sums, play_chunk


class Command(BaseCommand):
    help = "Simulate deals of every preset with heuristic bots and store the statistics."

    def add_arguments(self, parser):
        parser.add_argument("--games", type=int, default=2000,
                            help="deals per preset to reach in total (default 2000)")
        parser.add_argument("--game", choices=GAME_NAMES, action="append",
                            help="only this game (may be repeated)")
        parser.add_argument("--preset", action="append", help="only this preset (may be repeated)")
        parser.add_argument("--workers", type=int, default=os.cpu_count() or 1)
        parser.add_argument("--chunk", type=int, default=50, help="deals per work unit")
        parser.add_argument("--reset", action="store_true", help="forget stored results first")
        parser.add_argument("--max-seconds", type=float, default=None,
                            help="stop between work units after this long; the next run resumes")

    def handle(self, *args, games, game, preset, workers, chunk, reset, max_seconds, **options):
        if games < 1 or chunk < 1 or workers < 1:
            raise CommandError("--games, --chunk and --workers must be positive")
        quiet = options["verbosity"] == 0
        targets = []
        for name in game or GAME_NAMES:
            presets = list(game_module(name).PRESETS)
            unknown = set(preset or ()) - set().union(*(game_module(g).PRESETS for g in GAME_NAMES))
            if unknown:
                raise CommandError(f"unknown preset(s): {', '.join(sorted(unknown))}")
            targets += [(name, p) for p in presets if not preset or p in preset]
        self.deadline = time.monotonic() + max_seconds if max_seconds else None
        with ProcessPoolExecutor(max_workers=workers) as pool:
            for name, p in targets:
                self.run_one(pool, name, p, games, chunk, reset, quiet)
                if self.out_of_time():
                    break

    def out_of_time(self) -> bool:
        return self.deadline is not None and time.monotonic() > self.deadline

    def run_one(self, pool, game, preset, target, chunk, reset, quiet):
        result, _ = SimulationResult.objects.get_or_create(
            game=game, preset=preset, players=PLAYERS[game])
        if reset:
            result.games, result.sums = 0, {}
            result.save()
        done = result.games
        sums = Sums.from_json(result.sums)
        starts = list(range(done + 1, target + 1, chunk))
        futures = [pool.submit(play_chunk, game, preset, s, min(chunk, target + 1 - s)) for s in starts]
        self.progress(game, preset, done, target, quiet)
        # In submission order, so the stored count always covers seeds 1..games without gaps.
        for future in futures:
            if self.out_of_time():
                for rest in futures:
                    rest.cancel()
                break
            part = Sums.from_json(future.result())
            sums.merge(part)
            with transaction.atomic():
                result.games = sums.games
                result.sums = sums.to_json()
                result.save(update_fields=["games", "sums", "updated"])
            self.progress(game, preset, sums.games, target, quiet)
        if not quiet:
            sys.stderr.write("\n")
            self.stdout.write(f"{game}/{preset}: {result.games} deals")

    def progress(self, game, preset, done, target, quiet):
        if quiet:
            return
        width = 30
        filled = int(width * min(done, target) / target)
        sys.stderr.write(f"\r{game}/{preset:<14} [{'#' * filled}{'.' * (width - filled)}] {done}/{target}")
        sys.stderr.flush()
