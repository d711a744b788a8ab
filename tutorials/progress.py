"""Tutorial progress, remembered per browser in cookies (no account, no database).

- ``tutorials_done``: the tutorials finished (their last step reached);
- ``tutorials_stars``: the best stars earned on each "your move" step (3 without help, 2 after
  the nudge, 1 after being shown the move);
- ``tutorials_help``: the hint level asked for on a step not solved since, so that a solution
  earns the stars that are left.

Values are ``game:slug:step:number`` entries joined by dots; anything else is ignored, so a
tampered cookie only loses what it garbled.
"""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse

from .lessons import TUTORIALS

COOKIE = "tutorials_done"
STARS_COOKIE = "tutorials_stars"
HELP_COOKIE = "tutorials_help"
MAX_AGE = 365 * 24 * 3600
_KNOWN = {t.key for t in TUTORIALS.values()}
# The "your move" steps, the only ones that earn stars or take hints.
_MOVES = {(t.key, i) for t in TUTORIALS.values() for i, s in enumerate(t.steps, 1)
          if s.your_move}


def _set(request: HttpRequest, response: HttpResponse, name: str, value: str) -> None:
    if not value:
        response.delete_cookie(name, samesite="Lax")
        return
    response.set_cookie(name, value, max_age=MAX_AGE, samesite="Lax", httponly=True,
                        secure=request.is_secure())


def finished(request: HttpRequest) -> set[str]:
    """Keys (``game:slug``) of the tutorials this browser finished; unknown values are ignored."""
    raw = request.COOKIES.get(COOKIE, "")
    return {k for k in raw.split(".") if k in _KNOWN}


def mark_finished(request: HttpRequest, response: HttpResponse, key: str) -> None:
    done = finished(request)
    if key in done or key not in _KNOWN:
        return
    done.add(key)
    _set(request, response, COOKIE, ".".join(sorted(done)))


def _read(request: HttpRequest, name: str, low: int, high: int) -> dict[tuple[str, int], int]:
    found: dict[tuple[str, int], int] = {}
    for entry in request.COOKIES.get(name, "").split("."):
        game, _, rest = entry.partition(":")
        slug, _, rest = rest.partition(":")
        step, _, value = rest.partition(":")
        if not (step.isdigit() and value.isdigit() and len(step) < 4 and len(value) == 1):
            continue
        where = (f"{game}:{slug}", int(step))
        if where in _MOVES and low <= int(value) <= high:
            found[where] = int(value)
    return found


def _write(request: HttpRequest, response: HttpResponse, name: str,
           values: dict[tuple[str, int], int]) -> None:
    _set(request, response, name,
         ".".join(f"{key}:{step}:{v}" for (key, step), v in sorted(values.items())))


def stars(request: HttpRequest) -> dict[tuple[str, int], int]:
    """The best stars per ("game:slug", step) this browser earned."""
    return _read(request, STARS_COOKIE, 1, 3)


def help_level(request: HttpRequest, key: str, step: int) -> int:
    return _read(request, HELP_COOKIE, 1, 2).get((key, step), 0)


def record_help(request: HttpRequest, response: HttpResponse, key: str, step: int,
                level: int) -> None:
    helped = _read(request, HELP_COOKIE, 1, 2)
    if (key, step) in _MOVES and level > helped.get((key, step), 0):
        helped[(key, step)] = level
        _write(request, response, HELP_COOKIE, helped)


def record_stars(request: HttpRequest, response: HttpResponse, key: str, step: int,
                 earned: int) -> None:
    """Keep the best stars for a solved step; the next try starts without help again."""
    if (key, step) not in _MOVES:
        return
    best = stars(request)
    if earned > best.get((key, step), 0):
        best[(key, step)] = earned
        _write(request, response, STARS_COOKIE, best)
    helped = _read(request, HELP_COOKIE, 1, 2)
    if helped.pop((key, step), None) is not None:
        _write(request, response, HELP_COOKIE, helped)


def reset(response: HttpResponse) -> None:
    for name in (COOKIE, STARS_COOKIE, HELP_COOKIE):
        response.delete_cookie(name, samesite="Lax")
