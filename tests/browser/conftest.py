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
