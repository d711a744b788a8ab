import pytest
from django.core.management import call_command


@pytest.fixture(autouse=True)
def site_content(transactional_db, unrecorded):
    """Browser tests see the pages as a visitor would: with content and the shipped
    statistics (load_content loads rules/content/statistics.json too).  For CI's PostgreSQL
    pass a browser test counts as querying only if it or its pages ask the database: the
    content can only matter to a page that asks for it."""
    with unrecorded():
        call_command("load_content")

