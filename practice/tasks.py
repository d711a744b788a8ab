"""The coach's work as tasks (Django's Tasks framework, ``django.tasks``), off the request path.

A page that wants a hint or a review enqueues one of these (``request_hint`` /
``request_review`` below, once per record version) and polls; a worker (``manage.py db_worker``, the
django-tasks-db backend: ``TASKS`` in the settings) runs it and stores the result in the
database, where the next poll finds it.  A task whose record has moved on since (a move, an
undo) does nothing: the page asks again for the new version.
"""

from __future__ import annotations

from django.core.cache import cache
from django.tasks import task

from . import service as P
from .models import PracticeGame


def _current(record_id: str, version: int) -> PracticeGame | None:
    record = PracticeGame.objects.filter(pk=record_id).first()
    if record is None or record.version != version:
        return None
    return record


@task
def analyse_decision(record_id: str, version: int) -> bool:
    """The analysis behind the hint at the record's current decision (service.hint)."""
    record = _current(record_id, version)
    if record is None:
        return False
    return P.hint(record, P.load(record)) is not None


@task
def review_deal(record_id: str, version: int) -> bool:
    """The review of a finished deal: every decision analysed (hints' analyses reused)."""
    record = _current(record_id, version)
    if record is None or record.result is None:
        return False
    return bool(P.review_step(record)["done"])


def _claim(kind: str, record: PracticeGame) -> bool:
    """Whether this request is the one to enqueue ``kind`` for the record as it stands."""
    return cache.add(f"practice-task:{kind}:{record.pk}:{record.version}", 1,
                     P.TASK_CLAIM_SECONDS)


def request_hint(record: PracticeGame) -> None:
    """Enqueue the analysis behind the hint, once."""
    if _claim("hint", record):
        analyse_decision.enqueue(str(record.pk), record.version)


def request_review(record: PracticeGame) -> None:
    """Enqueue the review of a finished deal, once."""
    if _claim("review", record):
        review_deal.enqueue(str(record.pk), record.version)
