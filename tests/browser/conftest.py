import pytest
from django.core.management import call_command


@pytest.fixture(autouse=True)
def site_content(transactional_db, unrecorded):
    """Browser tests see the pages as a visitor would: with content and the shipped
    statistics (load_content loads reference/content/statistics.json too).  For CI's PostgreSQL
    pass a browser test counts as querying only if it or its pages ask the database: the
    content can only matter to a page that asks for it."""
    with unrecorded():
        call_command("load_content")


@pytest.fixture(autouse=True)
def one_at_a_time(monkeypatch):
    """The live server's threads take turns with the in-memory SQLite database
    (tests/browser/turns.py) in every browser test: requests, and the streams' readings
    outside a request.  Where a test left one stream out, a teacher's click read the database
    while a stream did, the shared connection answered "bad parameter or other API misuse"
    and the click got a 500 (test_live.py's axe test failed once in a full run)."""
    from live import service as live_service
    from live import stream as live_stream
    from tables import class_views
    from tables import stream as table_stream
    from tests.browser.turns import take_turns

    take_turns(monkeypatch, [(table_stream, ("_render", "_opened", "_closed", "_present")),
                             (class_views, ("_render",)),
                             (live_stream, ("_render_follow", "_render_panel")),
                             (live_service, ("load_snapshot",))])


# How many times faster than a learner's the animations run where a test asks for quick_motion.
QUICK_MOTION = 10


@pytest.fixture
def quick_motion(page, context):
    """The page's animations (static/js/flip.js, the deal) run QUICK_MOTION times faster, for
    tests that check where things end up rather than how they get there: the same code runs,
    ghosts and all, without waiting out every journey.  Chromium keeps the rate for the page
    across navigations.  The tests of the motion itself (test_tutorials.py, test_table_ux.py)
    watch it at the real speed."""
    context.new_cdp_session(page).send("Animation.setPlaybackRate", {"playbackRate": QUICK_MOTION})
    return page
