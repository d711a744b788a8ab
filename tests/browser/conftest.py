import pytest
from django.core.management import call_command


@pytest.fixture(autouse=True)
def site_content(transactional_db):
    """Browser tests see the pages as a visitor would: with content and the shipped
    statistics (load_content loads rules/content/statistics.json too)."""
    call_command("load_content")
