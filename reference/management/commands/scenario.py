"""``python manage.py scenario check FILE…``: replay scenario files through the engine."""

from __future__ import annotations

from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from rules.engine.scenario import check_text


class Command(BaseCommand):
    help = "Check dam-scenario/1 files by replaying every step through the rules engine."

    def add_arguments(self, parser):
        sub = parser.add_subparsers(dest="action", required=True)
        check = sub.add_parser("check", help="replay each FILE and report every step that fails")
        check.add_argument("files", nargs="+", metavar="FILE")

    def handle(self, *args, action, files, **options):
        failed = 0
        for name in files:
            try:
                data = Path(name).read_bytes()
            except OSError as exc:
                self.stdout.write(f"{name}: step 0: cannot read the file: {exc.strerror}")
                failed += 1
                continue
            problems = check_text(data)
            for problem in problems:
                self.stdout.write(f"{name}: {problem}")
            if problems:
                failed += 1
            elif options["verbosity"] > 1:
                self.stdout.write(f"{name}: ok")
        if failed:
            # A CommandError makes manage.py exit 1 without a traceback.
            raise CommandError(f"{failed} of {len(files)} scenario file(s) failed", returncode=1)
        if options["verbosity"] > 0:
            self.stdout.write(f"{len(files)} scenario file(s) ok")
