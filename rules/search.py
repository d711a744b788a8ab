"""FAQ and glossary search: every word of the query, in any order, ignoring case and (as far as
a simple approach allows) inflection.

Two matchers, and an entry is found when either finds it:

- word starts (everywhere): each word of four letters or more cut to about 60 % of its length
  and looked for inside the entry, so "players" finds "play" and "kortit" finds "kortti";
- PostgreSQL's full-text search (production): the entry's text in the page language against the
  query, both stemmed by PostgreSQL's own dictionary for that language ('swedish', 'finnish',
  'norwegian', 'english'), so "stopping" finds "stop", "trumfarnas" finds "trumf", "tyvene"
  finds "tyv".  SQLite has no such dictionaries, so there the word starts are all there is.

On top of both: the words people use for the same thing (SYNONYMS: Finnish "kuinka monta" and
"montako", English "number of" and "how many"), so a query finds what another wording says, and
questions that answer one thing however it is asked (TOPICS: each game's player count), which a
query asking for that thing finds and puts first.  The entries found are ranked: a topic's
questions first, then by how many of the query's words the question holds, then the answer.
A real stemmer for every database (snowballstemmer) is not installed; the word starts stand in.
"""

from __future__ import annotations

import itertools
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


# Phrases that mean the same in a query, per language: each is tried in the other's place.
SYNONYMS: dict[str, list[tuple[str, ...]]] = {
    "en": [("how many", "number of"), ("players", "people")],
    "sv": [("hur många", "antal", "hur många kan"), ("spelare", "personer", "spela")],
    "fi": [("kuinka monta", "montako", "moniko", "kuinka moni", "pelaajien määrä"),
           ("pelaajaa", "pelaajia", "pelata")],
    "nb": [("hvor mange", "antall", "hvor mange kan"), ("spillere", "personer", "spille")],
}
# Questions that answer one thing however it is asked: a query made of one of the phrases (and
# perhaps a game's name) finds them all and shows them first.
TOPICS: list[tuple[frozenset[str], dict[str, tuple[str, ...]]]] = [
    (frozenset({"dam-how-many-players", "dolda-how-many-players", "spardame-players-and-cards"}),
     {"en": ("how many players", "number of players", "how many people", "how many can play"),
      "sv": ("hur många spelare", "antal spelare", "hur många kan spela"),
      "fi": ("kuinka monta pelaajaa", "montako pelaajaa", "pelaajien määrä",
             "kuinka monta voi pelata", "pelaajamäärä"),
      "nb": ("hvor mange spillere", "antall spillere", "hvor mange kan spille")}),
]
# A game's name beside a topic's phrase still asks for the topic ("how many players Spardame").
GAME_WORDS = ("dam", "svarta", "maja", "musta", "maija", "mustaa", "maijaa", "mustassa",
              "maijassa", "dolda", "kort", "med", "with", "hidden", "cards", "piilokortti",
              "spardame", "spardamessa", "spardameen", "game", "spel", "spelet", "peli",
              "spill", "spillet", "the", "in", "i", "ssa", "ssä", "of")


def variants(query: str, lang: str) -> list[str]:
    """The query and its rewordings with the language's synonyms."""
    text = " ".join(re.findall(r"\w+", query.casefold()))
    choices = []
    for group in SYNONYMS.get(lang, ()):
        used = next((p for p in group if re.search(rf"\b{re.escape(p)}\b", text)), None)
        if used:
            choices.append((used, group))
    out = [text]
    for combo in itertools.product(*(group for _used, group in choices)):
        version = text
        for (used, _group), phrase in zip(choices, combo, strict=True):
            version = re.sub(rf"\b{re.escape(used)}\b", phrase, version)
        if version not in out:
            out.append(version)
    return out


def _covers(words: Sequence[str], wanted: Sequence[str]) -> bool:
    return all(any(w.startswith(x) or x.startswith(w) for w in words) for x in wanted)


def topic_slugs(query: str, lang: str) -> frozenset[str]:
    """The entries of the topic the query asks for, if it is made of a topic's phrase (and
    perhaps a game's name)."""
    words = re.findall(r"\w+", query.casefold())
    rest = [w for w in words if w not in GAME_WORDS]
    for slugs, phrases in TOPICS:
        for phrase in phrases.get(lang, ()):
            wanted = re.findall(r"\w+", phrase)
            if rest and _covers(wanted, [w[:max(4, round(len(w) * 0.6))] for w in rest]) \
                    and _covers(rest, search_words(phrase)):
                return slugs
    return frozenset()


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
    """The entries of ``queryset`` that ``query`` (or a rewording with the language's
    synonyms) finds, best first: by word starts in ``fields`` (the page language's text
    through modeltranslation) plus the extra attribute names ``texts``, by PostgreSQL's
    full-text search in ``fields``, or as the topic the query asks for."""
    query = plain(query)
    tried = variants(query, lang)
    found: set[int] = set()
    for version in tried:
        found |= full_text_ids(queryset, fields, version, lang)
    topic = topic_slugs(query, lang)
    names = (*fields, *texts)
    hits = [e for e in queryset
            if e.pk in found or getattr(e, "slug", None) in topic
            or any(matches(v, *(getattr(e, n) for n in names)) for v in tried)]
    words = {w for v in tried for w in search_words(v)}

    def rank(entry: Model) -> tuple[int, int, int]:
        first = str(getattr(entry, fields[0]) or "").casefold()
        rest = " ".join(str(getattr(entry, n) or "") for n in names[1:]).casefold()
        return (-(getattr(entry, "slug", None) in topic), -sum(w in first for w in words),
                -sum(w in rest for w in words))

    return sorted(hits, key=rank)
