"""Links from other pages into the tutorials.  A template tag, so that the rules pages (the
reference) link to the tutorials (the learning) without the rules app importing them."""

from __future__ import annotations

from typing import Any

from django import template
from django.urls import reverse

from games.presentation import open_to
from tutorials import lessons, progress

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


# The step of each game's first lesson whose position the home page pictures (a real position
# of the lesson, replayed by the engine: cards on the table and the hand of the one to move).
PICTURED_STEP = 3


def _picture(tutorial: lessons.Tutorial) -> dict[str, Any]:
    rp = lessons.replay(tutorial.game, tutorial.slug)
    step = tutorial.steps[min(PICTURED_STEP, len(tutorial.steps)) - 1]
    state = rp.states[step.at]
    seat = state.to_move if state.to_move is not None else 0
    view = state.view(seat)
    hand = sorted(view.get("hand") or ())[:6]
    table = sorted(open_to(view) - set(view.get("hand") or ()))[:6]
    return {"name": rp.scn.players[seat], "hand": hand, "table": table,
            "face_down": 0 if hand else 5}


@register.inclusion_tag("tutorials/_way_in.html", takes_context=True)
def way_in(context: template.Context) -> dict[str, Any]:
    """The home page's way in: each game's first lesson with a picture of a real position,
    and, for a visitor who has started, the next lesson to take (from the progress cookies)."""
    request = context.get("request")
    done = progress.finished(request) if request is not None else set()
    started = bool(done or (request is not None and progress.stars(request)))
    following = lessons.next_lesson(None, done) if started else None
    games = []
    for game, tutorials in lessons.BY_GAME.items():
        first = tutorials[0]
        games.append({"game": game, "title": lessons.GAME_TITLES[game],
                      "lesson": first.title,
                      "url": reverse(f"tutorial_step_{game}", kwargs={"slug": first.slug,
                                                                      "step": 1}),
                      "picture": _picture(first)})
    return {"games": games, "continue": {
        "title": following.title, "game": lessons.GAME_TITLES[following.game],
        "url": reverse(f"tutorial_step_{following.game}",
                       kwargs={"slug": following.slug, "step": 1})} if following else None}
