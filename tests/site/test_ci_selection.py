"""CI's PostgreSQL pass runs what the SQLite pass saw query the database (tests/conftest.py)."""

from pathlib import Path

import pytest

pytest_plugins = ["pytester"]

ROOT = Path(__file__).resolve().parents[2]
INNER = '''
import pytest
from django.contrib.auth.models import User
from django.db import connection, transaction


@pytest.mark.django_db
def test_queries():
    assert User.objects.count() == 0


@pytest.mark.django_db
def test_only_opens_a_savepoint():
    with transaction.atomic():
        pass


def test_no_database():
    assert True


@pytest.fixture
def shared_content(db, unrecorded):
    with unrecorded():
        User.objects.count()


def test_only_a_shared_set_up_queries(shared_content):
    assert True


@pytest.mark.django_db
def test_skipped_here():
    pytest.skip("needs another database")
'''


@pytest.fixture
def inner(pytester, monkeypatch):
    monkeypatch.setenv("PYTHONPATH", str(ROOT))
    pytester.makeconftest((ROOT / "tests" / "conftest.py").read_text())
    pytester.makepyfile(test_inner=INNER)
    return pytester


def run(pytester, *args):
    return pytester.runpytest_subprocess("-p", "pytest_django", "--ds=dam_site.settings.test",
                                         "-p", "no:cacheprovider", "-q", *args)


def test_the_first_pass_writes_down_the_tests_that_query_or_were_skipped(inner):
    # Not the one whose only queries are a shared set-up under unrecorded().
    path = inner.path / "queried"
    run(inner, f"--record-queries={path}").assert_outcomes(passed=4, skipped=1)
    recorded = (inner.path / "queried.main").read_text().split()
    assert recorded == ["test_inner.py::test_queries", "test_inner.py::test_skipped_here"]


def test_the_second_pass_runs_only_those(inner):
    path = inner.path / "queried"
    run(inner, f"--record-queries={path}")
    result = run(inner, f"--recorded-only={path}", "-v")
    result.assert_outcomes(passed=1, skipped=1, deselected=3)


def test_the_second_pass_refuses_to_run_without_a_record(inner):
    result = run(inner, f"--recorded-only={inner.path / 'nothing'}")
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines(["*nothing recorded at*"])
