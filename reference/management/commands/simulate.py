"""``python manage.py simulate``: play deals per preset with the heuristic bots.

Three uses:

- ``simulate --write`` plays ``SHIPPED_DEALS`` deals of every preset (``--game`` / ``--preset``
  for only some; the others are kept) and writes ``reference/content/statistics.json``, the
  statistics the site ships, then loads it into the database.  The file is deterministic:
  deal number k always uses seed k and every sum is exact, so the same code writes the same
  bytes however many workers play.
- ``simulate --check`` plays the file's sample deals again and fails when the engine, the
  presets, the bots or the measures no longer give what the file says (``--full``: every
  deal).  The tests run it, so a rule change that makes the shipped data stale fails them.
- plain ``simulate`` adds deals to the database only, up to ``--games`` per preset, with a
  progress bar; a run that stops half-way (``--max-seconds``) is continued by the next one
  and the totals are the same as if it had never stopped.  ``load_content`` (so ``make
  setup``) puts the shipped figures back.
"""

from __future__ import annotations

import os
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError
from django.db import transaction

from games.registry import KEYS as GAME_NAMES
from reference import simulation
from reference.models import SimulationResult
from reference.simulation import PLAYERS, Sums, play_chunk
from rules.engine.games import game_module


class Command(BaseCommand):
    help = ("Simulate deals of every preset with heuristic bots: into the database, into the "
            "shipped statistics file (--write), or check that file (--check).")

    def add_arguments(self, parser):
        parser.add_argument("--games", type=int, default=None,
                            help="deals per preset (default 2000, with --write "
                                 f"{simulation.SHIPPED_DEALS})")
        parser.add_argument("--game", choices=GAME_NAMES, action="append",
                            help="only this game (may be repeated)")
        parser.add_argument("--preset", action="append", help="only this preset (may be repeated)")
        parser.add_argument("--workers", type=int, default=os.cpu_count() or 1)
        parser.add_argument("--chunk", type=int, default=50, help="deals per work unit")
        parser.add_argument("--reset", action="store_true", help="forget stored results first")
        parser.add_argument("--max-seconds", type=float, default=None,
                            help="stop between work units after this long; the next run resumes")
        mode = parser.add_mutually_exclusive_group()
        mode.add_argument("--write", action="store_true",
                          help=f"write {simulation.SHIPPED.name} and load it into the database")
        mode.add_argument("--check", action="store_true",
                          help=f"check {simulation.SHIPPED.name} against the engine, presets "
                               "and bots by playing its sample deals again")
        parser.add_argument("--full", action="store_true",
                            help="with --check: play every deal again, not only the sample")
        parser.add_argument("--file", default=str(simulation.SHIPPED),
                            help="the statistics file (default: the shipped one)")

    def handle(self, *args, games, game, preset, workers, chunk, reset, max_seconds, write,
               check, full, file, **options):
        if (games is not None and games < 1) or chunk < 1 or workers < 1:
            raise CommandError("--games, --chunk and --workers must be positive")
        path = Path(file)
        if check:
            return self.check_file(path, full, game)
        quiet = options["verbosity"] == 0
        targets = self.targets(game, preset)
        if write:
            return self.write_file(path, targets, games or simulation.SHIPPED_DEALS, workers, chunk,
                              quiet)
        self.deadline = time.monotonic() + max_seconds if max_seconds else None
        with ProcessPoolExecutor(max_workers=workers) as pool:
            for name, p in targets:
                self.run_one(pool, name, p, games or 2000, chunk, reset, quiet)
                if self.out_of_time():
                    break

    def targets(self, game, preset) -> list[tuple[str, str]]:
        unknown = set(preset or ()) - set().union(*(game_module(g).PRESETS for g in GAME_NAMES))
        if unknown:
            raise CommandError(f"unknown preset(s): {', '.join(sorted(unknown))}")
        return [(name, p) for name in game or GAME_NAMES for p in game_module(name).PRESETS
                if not preset or p in preset]

    # ------------------------------------------------------------------ the shipped file
    def check_file(self, path, full, games):
        try:
            data = simulation.read_shipped(path)
        except (OSError, ValueError) as exc:
            raise CommandError(f"{path}: {exc}. Regenerate with: {simulation.REGENERATE}") from exc
        problems = simulation.check_shipped(data, full=full, only=games)
        if problems:
            raise CommandError(f"{path} is stale:\n  " + "\n  ".join(problems)
                               + f"\nRegenerate it with: {simulation.REGENERATE}")
        self.stdout.write(f"{path.name} matches the engine, the presets and the bots "
                          + ("(every deal played again)." if full else
                             f"({simulation.SAMPLE_DEALS} sample deals per rule set played "
                             "again)."))

    def write_file(self, path, targets, deals, workers, chunk, quiet):
        started = time.monotonic()
        try:
            data = simulation.read_shipped(path)
        except (OSError, ValueError):
            data = {}
        if data.get("format") != simulation.FORMAT:
            data = {}
        stored = {g: dict(data.get("games", {}).get(g, {})) for g in GAME_NAMES}
        with ProcessPoolExecutor(max_workers=workers) as pool:
            for name, p in targets:
                sums = Sums()
                starts = list(range(1, deals + 1, chunk))
                futures = [pool.submit(play_chunk, name, p, s, min(chunk, deals + 1 - s))
                           for s in starts]
                self.progress(name, p, 0, deals, quiet)
                for future in futures:
                    sums.merge(Sums.from_json(future.result()))
                    self.progress(name, p, sums.games, deals, quiet)
                stored[name][p] = simulation.preset_record(name, p, sums)
                if not quiet:
                    sys.stderr.write("\n")
        # Presets that no longer exist are dropped; the others are kept as they were.
        data = {"format": simulation.FORMAT, "regenerate": simulation.REGENERATE,
                "sample_deals": simulation.SAMPLE_DEALS,
                "games": {g: {p: stored[g][p] for p in game_module(g).PRESETS if p in stored[g]}
                          for g in GAME_NAMES}}
        tmp = path.with_suffix(".tmp")
        tmp.write_text(simulation.dump(data), encoding="utf-8")
        tmp.replace(path)
        with transaction.atomic():
            count = SimulationResult.load(data)
        seconds = time.monotonic() - started
        self.stdout.write(f"Wrote {path} ({len(targets)} rule sets simulated, {deals} deals each, "
                          f"{seconds:.0f} s) and loaded {count} rule sets into the database.")

    # ------------------------------------------------------------------ the database only
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
