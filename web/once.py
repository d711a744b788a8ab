"""One record per form submission: a form sent twice (a double click, a POST sent again) makes
its record once, and the second request is answered with the record the first one made.

A submission is known by its address and its whole body, files included.  The CSRF token in
every form Django renders is masked afresh for each rendering, so two sends of one rendered form
are the same submission, while the same form filled in alike but rendered again is a new one;
and the token belongs to one browser.  A request without the token in its body (the test
client, a script) is never taken for a repeat.

The first request claims the submission in the cache (``cache.add``, atomic in Redis and in
local memory, so the claim holds across app servers) and leaves there what it made; a repeat
waits for that, at most ``WAIT`` seconds, and is answered by the view's ``again``, which also
gives the repeat's session what the first request gave its own: a new visitor's two sends carry
two new sessions, and the browser keeps the cookie of whichever answer it shows.  A refused
submission (the view marked nothing as made) can be sent again and is judged again.
"""

from __future__ import annotations

import hashlib
import time
from collections.abc import Callable
from functools import wraps

from django.core.cache import cache
from django.http import HttpRequest, HttpResponse

KEY_PREFIX = "once:"
PENDING = "\0pending"
KEEP = 60  # seconds a submission's record answers its repeats (double clicks, resent forms)
WAIT = 10.0  # seconds a repeat waits for the first request to make its record
POLL = 0.05
HASHED_BYTES = 1 << 20  # of an uploaded file (the import takes far less)

Again = Callable[[HttpRequest, str], HttpResponse | None]


def submission(request: HttpRequest) -> str | None:
    """The cache key of the submission ``request`` carries, or None without a CSRF token."""
    if request.method != "POST" or not request.POST.get("csrfmiddlewaretoken"):
        return None
    digest = hashlib.sha256(request.path.encode("utf-8", "replace"))
    for name in sorted(request.POST):
        for value in request.POST.getlist(name):
            digest.update(b"\0f" + name.encode("utf-8", "replace")
                          + b"\0" + value.encode("utf-8", "replace"))
    for name in sorted(request.FILES):
        for upload in request.FILES.getlist(name):
            digest.update(b"\0u" + name.encode("utf-8", "replace")
                          + b"\0" + (upload.name or "").encode("utf-8", "replace")
                          + b"\0" + str(upload.size).encode())
            read = 0
            for chunk in upload.chunks():  # the start tells two files of one size apart
                digest.update(chunk[:HASHED_BYTES - read])
                read += len(chunk)
                if read >= HASHED_BYTES:
                    break
            upload.seek(0)
    return KEY_PREFIX + digest.hexdigest()


def made(response: HttpResponse, record: str) -> HttpResponse:
    """Mark ``response`` as the answer to a submission that made ``record`` (text the view's
    ``again`` understands)."""
    response.once_made = record  # type: ignore[attr-defined]
    return response


def once(again: Again) -> Callable:
    """View decorator: a repeat of a submission whose first request made a record is answered
    by ``again(request, record)``; when that gives None (the record is gone or no longer the
    answer), or the first request made nothing or is still at work after ``WAIT`` seconds,
    the repeat runs the view as any request."""
    def decorator(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
        @wraps(view)
        def wrapper(request: HttpRequest, *args, **kwargs) -> HttpResponse:
            key = submission(request)
            deadline = time.monotonic() + WAIT
            while key is not None and not cache.add(key, PENDING, KEEP):
                record = cache.get(key)
                if record is not None and record != PENDING:
                    response = again(request, record)
                    if response is not None:
                        return response
                    key = None  # the view's answer this time is not the submission's
                elif time.monotonic() >= deadline:
                    key = None
                else:
                    time.sleep(POLL)
            try:
                response = view(request, *args, **kwargs)
            except BaseException:
                if key is not None:
                    cache.delete(key)
                raise
            if key is not None:
                record = getattr(response, "once_made", None)
                if record is None:
                    cache.delete(key)
                else:
                    cache.set(key, record, KEEP)
            return response
        return wrapper
    return decorator
