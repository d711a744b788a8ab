"""A new content version (reference.models.ContentVersion) whenever content the pages show from
the database is saved or deleted, wherever that happens (the admin, load_content, simulate)."""

from __future__ import annotations

from typing import Any

from django.db.models.signals import post_delete, post_save

from .models import ContentVersion, FaqEntry, GlossaryTerm, SimulationResult


def content_changed(sender: Any, **kwargs: Any) -> None:
    ContentVersion.bump()


for _model in (FaqEntry, GlossaryTerm, SimulationResult):
    post_save.connect(content_changed, sender=_model, dispatch_uid=f"content-{_model.__name__}")
    post_delete.connect(content_changed, sender=_model, dispatch_uid=f"content-{_model.__name__}-d")
