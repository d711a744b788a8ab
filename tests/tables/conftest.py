import pytest
from django.core.cache import cache


@pytest.fixture(autouse=True)
def _a_fresh_cache():
    """Each table test starts from an empty default cache (positions, claims and counters of
    an earlier test in the same worker are not this one's)."""
    cache.clear()
    yield
