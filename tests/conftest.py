import os
import shutil

import pytest

# Playwright's sync API runs an event loop in the test thread; Django refuses database access
# from such a thread unless told that this is deliberate.
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_FLAGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
]


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args):
    if not shutil.which(CHROMIUM):
        message = f"Debian's Chromium is not installed at {CHROMIUM} (apt-get install chromium)"
        if os.environ.get("CI"):
            pytest.fail(message)
        pytest.skip(message)
    return {**browser_type_launch_args, "executable_path": CHROMIUM, "args": CHROMIUM_FLAGS}


# ------------------------------------------------------------------ CI's PostgreSQL pass
# ``--database-tests-only`` keeps the tests that may reach the database: those marked
# django_db, those whose fixtures reach it (db, transactional_db, live_server, anything built
# on django_db_setup) and those using a fixture of ours that unblocks it by hand
# (django_db_blocker).  Every other test runs with pytest-django's blocker on, which makes any
# query an error, so its outcome cannot depend on the database behind it: the SQLite pass has
# run it already.  (The tests that start servers in subprocesses, tests/hardening/servers.py,
# make PostgreSQL databases of their own in both passes; the other subprocesses run without
# DATABASE_URL or make no query.)
DATABASE_FIXTURES = {"django_db_setup", "db", "transactional_db", "live_server",
                     "django_db_reset_sequences", "django_db_serialized_rollback"}


def pytest_addoption(parser):
    parser.addoption("--database-tests-only", action="store_true",
                     help="run only the tests that may reach the database (CI's second pass)")


def reaches_database(item) -> bool:
    if item.get_closest_marker("django_db") is not None:
        return True
    if DATABASE_FIXTURES & set(getattr(item, "fixturenames", ())):
        return True
    # pytest-django's own autouse fixtures take django_db_blocker only to keep it blocked.
    info = getattr(item, "_fixtureinfo", None)
    for defs in (info.name2fixturedefs.values() if info is not None else ()):
        for fixturedef in defs:
            module = getattr(fixturedef.func, "__module__", "") or ""
            if "django_db_blocker" in fixturedef.argnames and not module.startswith("pytest_django"):
                return True
    return False


def pytest_collection_modifyitems(config, items):
    if not config.getoption("--database-tests-only"):
        return
    keep, drop = [], []
    for item in items:
        (keep if reaches_database(item) else drop).append(item)
    if drop:
        config.hook.pytest_deselected(items=drop)
        items[:] = keep
