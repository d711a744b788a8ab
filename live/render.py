"""The live classroom's partials as the pages and the event streams send them (both the
views and the streams render them, so they live beside both)."""

from __future__ import annotations

from typing import Any

from django.template.loader import render_to_string

from . import service as S
from .models import LiveSession


def render_follow(ctx: dict[str, Any], answer_url: str) -> str:
    """The ``follow`` partial as the stream sends it (no request: no CSRF token in it; the
    page's own header carries the token for the answer buttons)."""
    return render_to_string("live/follow.html#follow", {**ctx, "answer_url": answer_url})


def render_panel(obj: LiveSession) -> str:
    return render_to_string("live/projector.html#panel", {"panel": S.panel_context(obj),
                                                          "running": S.is_running(obj)})
