"""Links from other pages into the tutorials.  A template tag, so that the rules pages (the
reference) link to the tutorials (the learning) without the rules app importing them."""

from __future__ import annotations

from typing import Any

from django import template
from django.urls import reverse

from tutorials import lessons

register = template.Library()


@register.simple_tag
def tutorial_steps(game: str) -> dict[str, list[dict[str, Any]]]:
    """For each rule id, the tutorial steps that show it (first step of each tutorial only):
    ``{% tutorial_steps game as steps %}``."""
    found: dict[str, list[dict[str, Any]]] = {}
    for tutorial in lessons.TUTORIALS.values():
        if tutorial.game != game:
            continue
        seen = set()
        for n, step in enumerate(tutorial.steps, start=1):
            if step.rule in seen:
                continue
            seen.add(step.rule)
            url = reverse(f"tutorial_step_{game}", kwargs={"slug": tutorial.slug, "step": n})
            found.setdefault(step.rule, []).append({"title": tutorial.title, "n": n, "url": url})
    return found
