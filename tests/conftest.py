import asyncio
import contextlib
import glob
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


@contextlib.contextmanager
def loop_set_aside():
    """No running event loop in this thread while inside; the one there was is back after."""
    loop = asyncio._get_running_loop()
    if loop is None:
        yield
        return
    asyncio._set_running_loop(None)
    try:
        yield
    finally:
        asyncio._set_running_loop(loop)


@pytest.fixture(autouse=True)
def _no_browser_loop(request):
    """From the first browser test on, Playwright's loop counts as running in the worker's
    thread (the session's ``playwright`` fixture keeps it).  With work stealing, a test that is
    not a browser test may come after it in the same worker, and there ``async_to_sync`` (the
    test client calling an async view: the live streams) refuses to run; such a test runs
    with the loop set aside."""
    if request.node.get_closest_marker("browser"):
        yield
        return
    with loop_set_aside():
        yield


@pytest.fixture(autouse=True)
def _pages_rendered_afresh():
    """Each test renders the kept pages (web/pagecache.py) afresh: a page kept by an earlier
    test could otherwise show content that test made and rolled back, or spare a test the
    queries the PostgreSQL pass below must see."""
    from django.core.cache import caches

    caches["pages"].clear()
    yield


# ------------------------------------------------------------------ CI's PostgreSQL pass
# CI runs the suite on SQLite with ``--record-queries=PATH``: every test that sent SQL to the
# database while it was set up or ran (in any thread: the live server's too), and every test
# that was skipped, is written down.  The PostgreSQL pass then runs with
# ``--recorded-only=PATH``: only those.  A test that sent no SQL took a path that never asked
# the database anything, and nothing in the site chooses a path by the database behind it
# before a query (reference/search.py picks its query by vendor, and both branches query), so its
# result cannot differ on PostgreSQL; a test that was skipped on SQLite may be one that needs
# PostgreSQL (tests/reference/test_search.py).  Transaction bookkeeping (BEGIN, savepoints) is not
# a question to the database and is not counted.  The tests that start servers in subprocesses
# (tests/hardening/servers.py) make PostgreSQL databases of their own in both passes.
BOOKKEEPING = ("BEGIN", "SAVEPOINT", "RELEASE SAVEPOINT", "ROLLBACK TO SAVEPOINT")
_recording: dict[str, object] = {"on": False, "queried": False}


def pytest_addoption(parser):
    parser.addoption("--record-queries", metavar="PATH", default=None,
                     help="write down the tests that query the database (CI's SQLite pass)")
    parser.addoption("--recorded-only", metavar="PATH", default=None,
                     help="run only the tests written down by --record-queries=PATH")


def _recorded_file(path: str, config) -> str:
    worker = getattr(config, "workerinput", {}).get("workerid", "main")
    return f"{path}.{worker}"


def pytest_configure(config):
    path = config.getoption("--record-queries")
    if path is None:
        return
    from django.db.backends import utils

    execute = utils.CursorWrapper._execute_with_wrappers

    def noting(self, sql, params, many, executor):
        if _recording["on"] and not str(sql).lstrip().upper().startswith(BOOKKEEPING):
            _recording["queried"] = True
        return execute(self, sql, params, many, executor)

    utils.CursorWrapper._execute_with_wrappers = noting
    config._recorded = []


@pytest.fixture(scope="session")
def unrecorded():
    """``with unrecorded():`` around a set-up whose queries do not make the test need
    PostgreSQL: one that many tests share and that runs on PostgreSQL in the second pass
    anyway, such as the browser tests' load_content (``make setup`` runs it there, and so does
    every browser test whose pages ask the database).  Such a test is then recorded by what it
    and the pages it loads ask, not by its set-up."""
    @contextlib.contextmanager
    def pause():
        was, _recording["on"] = _recording["on"], False
        try:
            yield
        finally:
            _recording["on"] = was
    return pause


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_setup(item):
    _recording["on"], _recording["queried"] = True, False
    yield


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_teardown(item):
    _recording["on"] = False  # the flush after a transactional test asks nothing of the test
    yield


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    report = (yield).get_result()
    recorded = getattr(item.config, "_recorded", None)
    # Setup and call together: a fixture's queries count for the test that asked for it.
    if recorded is not None and (report.skipped or (call.when == "call" and _recording["queried"])):
        recorded.append(item.nodeid)


def pytest_sessionfinish(session):
    recorded = getattr(session.config, "_recorded", None)
    if recorded is not None:
        path = _recorded_file(session.config.getoption("--record-queries"), session.config)
        with open(path, "w") as f:
            f.writelines(f"{nodeid}\n" for nodeid in dict.fromkeys(recorded))


def pytest_collection_modifyitems(config, items):
    path = config.getoption("--recorded-only")
    if path is None:
        return
    files = glob.glob(glob.escape(path) + ".*")
    if not files:
        raise pytest.UsageError(f"--recorded-only: nothing recorded at {path}.*")
    wanted = set()
    for name in files:
        with open(name) as f:
            wanted.update(line.rstrip("\n") for line in f)
    keep, drop = [], []
    for item in items:
        (keep if item.nodeid in wanted else drop).append(item)
    if drop:
        config.hook.pytest_deselected(items=drop)
        items[:] = keep


@pytest.fixture
def worker_in_test(monkeypatch):
    """Run django-tasks-db's db_worker inside a test: a real worker is a process of its own,
    and its close_old_connections() between tasks would close the test's connection, which
    is inside the test's transaction (PostgreSQL then answers "the connection is closed";
    SQLite's in-memory test database is never closed)."""
    monkeypatch.setattr("django_tasks_db.management.commands.db_worker.close_old_connections",
                        lambda: None)
