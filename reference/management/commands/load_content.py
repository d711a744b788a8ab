"""Load the reference content (FAQ, glossary, simulated statistics) from reference/content/*.json,
idempotently.

Rows are matched by slug: new ones are created, changed ones updated, so running it on every
``make setup`` is cheap and never duplicates anything. Edits made in the admin to a row that
the files also define are overwritten; rows that exist only in the database are left alone.
The statistics (``statistics.json``, written by ``simulate --write``) replace the database's
results of every rule set the file has, so the variant pages serve them at once.
"""

from __future__ import annotations

import json
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError
from django.db import transaction

from reference import simulation
from reference.models import FaqEntry, GlossaryTerm, SimulationResult

CONTENT = Path(__file__).resolve().parents[2] / "content"
FILES = {"faq.json": FaqEntry, "glossary.json": GlossaryTerm}


class Command(BaseCommand):
    help = "Create or update the FAQ, the glossary and the statistics from reference/content/."

    @transaction.atomic
    def handle(self, *args, **options):
        for filename, model in FILES.items():
            path = CONTENT / filename
            try:
                rows = json.loads(path.read_text(encoding="utf-8"))
            except (OSError, json.JSONDecodeError) as exc:
                raise CommandError(f"{path}: {exc}") from exc
            fields = {f.name for f in model._meta.get_fields()}
            created = updated = 0
            for row in rows:
                unknown = set(row) - fields
                if unknown:
                    raise CommandError(f"{path}: {row.get('slug')}: unknown fields {sorted(unknown)}")
                values = {k: v for k, v in row.items() if k != "slug"}
                _obj, was_created = model.objects.update_or_create(slug=row["slug"], defaults=values)
                created += was_created
                updated += not was_created
            if options["verbosity"] > 1:
                self.stdout.write(f"{filename}: {created} created, {updated} updated")
        try:
            statistics = simulation.read_shipped()
        except (OSError, json.JSONDecodeError) as exc:
            raise CommandError(f"{simulation.SHIPPED}: {exc}") from exc
        count = SimulationResult.load(statistics)
        if options["verbosity"] > 1:
            self.stdout.write(f"{simulation.SHIPPED.name}: {count} rule sets loaded")
