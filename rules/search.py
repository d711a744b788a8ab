"""FAQ and glossary search: every word of the query, in any order, ignoring case and (as far as
a simple approach allows) inflection.

Two matchers, and an entry is found when either finds it:

- word starts (everywhere): each word of four letters or more cut to about 60 % of its length
  and looked for inside the entry, so "players" finds "play" and "kortit" finds "kortti";
- PostgreSQL's full-text search (production): the entry's text in the page language against the
  query, both stemmed by PostgreSQL's own dictionary for that language ('swedish', 'finnish',
  'norwegian', 'english'), so "stopping" finds "stop", "trumfarnas" finds "trumf", "tyvene"
  finds "tyv".  SQLite has no such dictionaries, so there the word starts are all there is.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence

from django.contrib.postgres.search import SearchQuery, SearchVector
from django.db import connections
from django.db.models import Model, QuerySet

from rules.engine.scenario import CONTROL

# PostgreSQL's text search configurations, by site language (all ship with PostgreSQL).
CONFIGS = {"sv": "swedish", "fi": "finnish", "nb": "norwegian", "en": "english"}


def plain(query: str) -> str:
    """The query with its control characters read as spaces: nobody types them, and NUL is
    more than PostgreSQL takes in a string (its search would fail, not find nothing)."""
    return " ".join(CONTROL.sub(" ", query).split())


def search_words(query: str) -> list[str]:
    """The words a search looks for: each cut to its stem-like start (so "players" finds
    "play", "kortit" finds "kortti", "spelare" finds "spela"), short words such as "how" or
    "om" left out unless the query has nothing else."""
    words = re.findall(r"\w+", query.casefold())
    long = [w for w in words if len(w) >= 4]
    return [w[:max(4, round(len(w) * 0.6))] for w in long] or words


def matches(query: str, *texts: str) -> bool:
    # Every word somewhere in the entry, in any order ("how many players" finds "How many
    # people can play?", whose answer speaks of players).  casefold in Python so that ä, ö, å
    # and Finnish words match the same way on SQLite and PostgreSQL; the tables are small.
    haystack = " ".join((t or "") for t in texts).casefold()
    return all(w in haystack for w in search_words(query))


def full_text_ids(queryset: QuerySet, fields: Sequence[str], query: str, lang: str) -> set[int]:
    """The entries PostgreSQL's full-text search finds for every word of ``query`` in the
    ``fields`` of language ``lang`` (modeltranslation's ``<field>_<lang>`` columns); none
    on another database."""
    config = CONFIGS.get(lang)
    query = plain(query)
    if config is None or connections[queryset.db].vendor != "postgresql":
        return set()
    vector = SearchVector(*(f"{f}_{lang}" for f in fields), config=config)
    return set(queryset.annotate(search=vector)
               .filter(search=SearchQuery(query, config=config, search_type="plain"))
               .values_list("pk", flat=True))


def search[M: Model](queryset: QuerySet[M], query: str, lang: str, fields: Sequence[str],
                     texts: Iterable[str] = ()) -> list[M]:
    """The entries of ``queryset`` that ``query`` finds: by word starts in ``fields`` (the
    page language's text through modeltranslation) plus the extra attribute names ``texts``,
    or by PostgreSQL's full-text search in ``fields``."""
    query = plain(query)
    found = full_text_ids(queryset, fields, query, lang)
    names = (*fields, *texts)
    return [e for e in queryset
            if e.pk in found or matches(query, *(getattr(e, n) for n in names))]
