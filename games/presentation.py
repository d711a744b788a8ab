"""What a scenario, a tutorial or a finished game shows at each step, and to whom: the one place
(with the engine's own ``view`` and ``visible_events``) that decides what each seat may see.

A step is shown either with every hand open (``seat`` None: the teacher's presenter, a
tutorial) or from one seat's eyes (``seat`` n: that player's own view, as the live classroom
shows it on the phones).  In one seat's view nothing names a card that seat cannot see: not the
table, not the narration (made from the events as that seat saw them, never the author's text,
which may name any card), not the note about the move just made or still to be made.

``Presentation`` is what the presenter and the live classroom step through; build one with
``scenario_presentation`` or ``tutorial_presentation``, once per request.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from django.utils.translation import get_language, gettext_lazy
from django.utils.translation import gettext as _

from games.adapters import adapter
from games.moves import cards_named
from games.reasons import reason_text
from games.replay import Frame, Replay
from games.table import event_cards, table_context
from rules.engine import scenario
from rules.engine.errors import IllegalAction


# --------------------------------------------------------------------------- what a seat sees
def open_to(view: Mapping[str, Any]) -> set[int]:
    """The cards a seat's view shows face up in its hand or on the table."""
    out = set(view.get("hand") or ()) | set(view.get("table") or ()) | set(view.get("trick") or ())
    for pair in view.get("beaten") or ():
        out |= set(pair)
    return out


def visible_cards(game: str, state: Any, seat: int | None) -> set[int]:
    """The cards face up in what ``table`` shows of ``state`` from ``seat`` (None: every hand
    open, as the game's adapter opens them)."""
    if seat is None:
        viewer = state.to_move if state.to_move is not None else 0
        view, reveal, _marker = adapter(game).open_view(state, viewer)
        shown = {c for cards in reveal.values() for c in cards}
    else:
        view, shown = state.view(seat), set()
    return shown | open_to(view)


def _face_up(table: Any) -> set[str]:
    """The codes of the cards a table context (``games.table.table_context``) shows face up:
    each is a card context (``games.templatetags.cards.card_context``)."""
    if isinstance(table, dict):
        if "code" in table and "rank" in table:
            return {table["code"]}
        return set().union(*(_face_up(v) for v in table.values()))
    if isinstance(table, list | tuple):
        return set().union(*(_face_up(v) for v in table))
    return set()


def brings_out(scn: scenario.Scenario, before: Any, after: Any) -> bool:
    """Whether a move puts a card face up on the all-hands-open table that was face down
    before it (drawn from the stock, dealt from it)."""
    def shown(state: Any) -> set[str]:
        return _face_up(table(scn, Frame(0, state), None))

    return bool(shown(after) - shown(before))


def table(scn: scenario.Scenario, frame: Frame, seat: int | None) -> dict[str, Any]:
    """The table of a frame: every hand open (``seat`` None) or one seat's own view only."""
    state = frame.state
    if seat is None:
        viewer = state.to_move if state.to_move is not None else 0
        view, reveal, marker = adapter(scn.game).open_view(state, viewer)
        marks = event_cards(frame.events, marker)
    else:
        view = state.view(seat)
        reveal = None
        marks = event_cards(frame.events, seat)
    return table_context(view, reveal=reveal, highlight=marks)


def narration(say: Mapping[str, str] | None) -> dict[str, str]:
    """A scenario step's own narration for the page: the page language, else another with its
    code (the author's text may name any card: only for every hand open)."""
    say = say or {}
    lang = (get_language() or "en").split("-")[0]
    if say.get(lang):
        return {"text": say[lang], "lang": ""}
    for other in scenario.LANGUAGES:
        if say.get(other):
            return {"text": say[other], "lang": other}
    return {"text": "", "lang": ""}


def seat_narration(game: str, events: list[Any], players: Sequence[str], seat: int
                   ) -> dict[str, str]:
    """One seat's narration, made from the engine's events as that seat may see them."""
    text = adapter(game).narrate(list(events or ()), players, seat)
    return {"text": " ".join(text), "lang": ""}


def describe_move(scn: scenario.Scenario, before: Any, move: str, seat: int | None = None
                  ) -> str:
    """A recorded move in words of the page language ("Anna: Attack with …").  In one seat's
    view, cards passed by another player stay unnamed (they are secret)."""
    words = move.split()
    try:
        mover = scn.players.index(words[0])
        action = scn.module.parse_action(before, mover, words[1:])
    except (IllegalAction, ValueError, IndexError):
        return ""
    if seat is not None and seat != mover and words[1:2] == ["pass"]:
        return _("%(name)s passes three cards.") % {"name": words[0]}
    return _("%(name)s: %(move)s") % {"name": words[0],
                                       "move": adapter(scn.game).describe(action, scn.players)}


# A move not made yet (the next one, or one the engine refuses) names cards that are still in
# the mover's hand: another seat's view names only the kind of move.
UNSEEN_MOVES = {
    "attack": gettext_lazy("%(name)s attacks."),
    "add": gettext_lazy("%(name)s adds cards to the attack."),
    "beat": gettext_lazy("%(name)s beats a card."),
    "announce": gettext_lazy("%(name)s announces a king and a queen."),
    "pass": gettext_lazy("%(name)s passes three cards."),
    "play": gettext_lazy("%(name)s plays a card."),
}


def unseen_move(scn: scenario.Scenario, before: Any, move: str, seat: int | None
                ) -> tuple[str, bool]:
    """A move still to be made (or refused), as ``seat`` may know it, and whether it is told
    in full: in full with every hand open, else only when every card it names is open to that
    seat (its own hand, the table) and, for another player's move, when it names no card of
    that player's hand; otherwise only the kind of move ("Anna attacks.").  ("", True) when
    the move names no player."""
    words = move.split()
    if not words or words[0] not in scn.players:
        return "", True
    mover = scn.players.index(words[0])
    kind = words[1] if len(words) > 1 else ""
    if seat is not None:
        named = cards_named(words[1:])
        if seat != mover:
            knows = not named and kind not in UNSEEN_MOVES
        else:
            knows = set(named) <= open_to(before.view(seat))
        if not knows:
            if kind in UNSEEN_MOVES:
                return str(UNSEEN_MOVES[kind]) % {"name": words[0]}, False
            return _("%(name)s makes a move.") % {"name": words[0]}, False
    return (describe_move(scn, before, move) or _("%(name)s makes a move.") % {"name": words[0]},
            True)


def refused_note(scn: scenario.Scenario, before: Any, move: str, reason: str,
                 seat: int | None) -> str:
    """A refused step in the page language, naming only cards ``seat`` may see.  The reason
    tells something about the cards tried ("the queen of spades cannot beat"), so a view that
    may not see them gets the kind of move only."""
    described, in_full = unseen_move(scn, before, move, seat)
    if not in_full:
        return _("Refused move: %(move)s") % {"move": described}
    said = reason_text(reason, (), scn.game)
    if described:
        return _("Refused: %(move)s %(reason)s") % {"move": described, "reason": said}
    return _("Refused: %(reason)s") % {"reason": said}


# --------------------------------------------------------------------------- steps
def scenario_show(title: str, rp: Replay, step: int, seat: int | None) -> dict[str, Any]:
    """What a scenario shows at step ``step`` from ``seat``'s eyes (None: every hand open), in
    the page language: title, game, table, narration and note."""
    scn, frames = rp.scn, rp.frames
    frame = frames[step]
    note = ""
    if frame.step is not None and frame.step.kind == "illegal":
        note = refused_note(scn, frames[step - 1].state, frame.step.move,
                            frame.refused or frame.step.reason, seat)
    elif frame.step is not None and frame.step.kind == "do":
        note = describe_move(scn, frames[step - 1].state, frame.step.move, seat)
    if seat is None:
        say = narration(frame.step.say if frame.step else None)
    else:
        say = seat_narration(scn.game, frame.events, scn.players, seat)
    return {"title": title, "game": scn.game, "table": table(scn, frame, seat), "say": say,
            "note": note}


class LessonStep(Protocol):
    """A tutorial's step as the presentation reads it (``tutorials.lessons.Step``)."""

    @property
    def at(self) -> int: ...
    @property
    def say(self) -> Any: ...
    @property
    def your_move(self) -> bool: ...
    @property
    def nudge(self) -> Any: ...
    @property
    def better(self) -> Any: ...


class Lesson(Protocol):
    """A tutorial as the presentation reads it (``tutorials.lessons.Tutorial``)."""

    @property
    def game(self) -> str: ...
    @property
    def slug(self) -> str: ...
    @property
    def title(self) -> Any: ...
    @property
    def steps(self) -> Sequence[LessonStep]: ...


def tutorial_show(tutorial: Lesson, rp: Replay, step: int, seat: int | None) -> dict[str, Any]:
    """What a tutorial shows at its step ``step`` (see ``scenario_show``)."""
    lesson = tutorial.steps[step - 1]
    if lesson.your_move:
        frame = Frame(step, rp.states[lesson.at - 1])
        note = _("Next move: %(move)s") % {
            "move": unseen_move(rp.scn, frame.state, rp.scn.steps[lesson.at - 1].move, seat)[0]}
    else:
        frame = Frame(step, rp.states[lesson.at], rp.events[lesson.at])
        note = ""
    # The lesson's text speaks of every hand: one seat's view narrates what that seat saw.
    say = ({"text": str(lesson.say), "lang": ""} if seat is None
           else seat_narration(tutorial.game, frame.events, rp.scn.players, seat))
    return {"title": str(tutorial.title), "game": tutorial.game,
            "table": table(rp.scn, frame, seat), "say": say, "note": note}


# --------------------------------------------------------------------------- presentations
@dataclass
class Decision:
    """A move still to be made at a step: the position, who moves and the lesson's move."""

    scn: scenario.Scenario
    state: Any
    mover: int
    move: str  # scenario notation with the player's name
    reason: Any  # text or lazy text, or a callable giving the text; may be ""
    # The position after the move when ``reason`` is the narration of the move itself, which
    # may name what the move brings to light (the card drawn from the stock).
    after: Any = None


@dataclass
class Presentation:
    """Steps ``first`` to ``last`` of a scenario or a tutorial, to show and to ask about."""

    kind: str  # "scenario" or "tutorial"
    ref: str  # a scenario's share code, a tutorial's "game/slug"
    first: int
    last: int
    players: list[str]
    game: str
    _show: Callable[[int, int | None], dict[str, Any]] = field(repr=False)
    _decision: Callable[[int], Decision | None] = field(repr=False)
    # Steps whose note names the move still to be made ("Next move: …"): live, it stays
    # hidden until the teacher shows the lesson's move.
    tells_next: frozenset[int] = frozenset()

    def show(self, step: int, seat: int | None) -> dict[str, Any]:
        return self._show(step, seat)

    def decision(self, step: int) -> Decision | None:
        return self._decision(step)


def scenario_presentation(code: str, title: str, rp: Replay) -> Presentation:
    scn, frames = rp.scn, rp.frames

    def decision(step: int) -> Decision | None:
        if not 0 <= step < len(frames) - 1:
            return None
        nxt = frames[step + 1].step
        if nxt is None or nxt.kind != "do":
            return None
        words = nxt.move.split()
        if not words or words[0] not in scn.players:
            return None
        return Decision(scn, frames[step].state, scn.players.index(words[0]), nxt.move,
                        lambda: narration(nxt.say)["text"], frames[step + 1].state)

    return Presentation("scenario", code, 0, len(frames) - 1, list(scn.players), scn.game,
                        lambda step, seat: scenario_show(title, rp, step, seat), decision)


def tutorial_presentation(tutorial: Lesson, rp: Replay) -> Presentation:
    def decision(step: int) -> Decision | None:
        if not 1 <= step <= len(tutorial.steps):
            return None
        lesson = tutorial.steps[step - 1]
        shown = lesson.at - 1 if lesson.your_move else lesson.at  # position shown
        if shown >= len(rp.scn.steps):
            return None
        nxt = rp.scn.steps[shown]
        words = nxt.move.split()
        if nxt.kind != "do" or not words or words[0] not in rp.scn.players:
            return None
        # The explanation: this step's own, else that of the step showing the move.
        reason: Any = ""
        after = None
        if lesson.your_move:
            reason = lesson.better or lesson.nudge or ""
        else:
            later = [s for s in tutorial.steps if s.at == shown + 1]
            asked = [s for s in later if s.your_move and s.at == shown + 1]
            if asked:
                reason = asked[0].better or asked[0].nudge or ""
            elif later:
                reason, after = later[0].say, rp.states[shown + 1]
        return Decision(rp.scn, rp.states[shown], rp.scn.players.index(words[0]), nxt.move,
                        reason, after)

    return Presentation("tutorial", f"{tutorial.game}/{tutorial.slug}", 1, len(tutorial.steps),
                        list(rp.scn.players), tutorial.game,
                        lambda step, seat: tutorial_show(tutorial, rp, step, seat), decision,
                        frozenset(n for n, s in enumerate(tutorial.steps, 1) if s.your_move))
