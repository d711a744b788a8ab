"""FAQ and glossary search: every word of the query, in any order, ignoring case and
inflection, with the same results on every database (the search runs in Python over the
entries, which are few).

Two matchers, and an entry is found when either finds it:

- stems: the query's words and the entry's words cut to their stems by the Snowball stemmer of
  the page language (snowballstemmer: 'swedish', 'finnish', 'norwegian', 'english'), a query
  stem matching a word of the entry that has the same stem or starts with it (compounds:
  "pelaajaa" finds "pelaajamäärä"), so "stopping" finds "stop", "trumfarnas" finds "trumf",
  "korteista" finds "kortin", "tyvene" finds "tyv";
- word starts: each word of four letters or more cut to about 60 % of its length and looked
  for inside the entry, so "players" finds "play" and a name in another language is found.

On top of both: the words people use for the same thing (SYNONYMS: Finnish "kuinka monta" and
"montako", English "number of" and "how many"), so a query finds what another wording says, and
questions that answer one thing however it is asked (TOPICS: each game's player count), which a
query asking for that thing finds and puts first.  The entries found are ranked: a topic's
questions first, then by how many of the query's words the question holds, then the answer.
"""

from __future__ import annotations

import functools
import itertools
import re
import threading
from collections.abc import Iterable, Sequence
from typing import Any

import snowballstemmer  # type: ignore[import-untyped]  # (it ships no type hints)
from django.db.models import Model, QuerySet

from rules.engine.scenario import CONTROL

# Snowball's stemmers, by site language.
STEMMERS = {"sv": "swedish", "fi": "finnish", "nb": "norwegian", "en": "english"}
_lock = threading.Lock()  # a Snowball stemmer object keeps state while it stems a word


@functools.cache
def _stemmer(lang: str) -> Any:
    return snowballstemmer.stemmer(STEMMERS.get(lang, "english"))


@functools.lru_cache(maxsize=65536)
def stem(word: str, lang: str) -> str:
    """``word`` (case-folded) cut to its stem in language ``lang``."""
    with _lock:
        return str(_stemmer(lang).stemWord(word))


def stems(text: str, lang: str) -> list[str]:
    return [stem(w, lang) for w in re.findall(r"\w+", text.casefold())]


def query_stems(query: str, lang: str) -> list[str]:
    """The stems a search looks for: of the query's words of four letters or more ("how",
    "om", "ja" left out) unless the query has nothing else."""
    words = re.findall(r"\w+", query.casefold())
    long = [w for w in words if len(w) >= 4] or words
    return [stem(w, lang) for w in long]


def _stem_in(wanted: str, have: Iterable[str]) -> bool:
    return any(h == wanted or (len(wanted) >= 3 and h.startswith(wanted)) for h in have)


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
    "en": [("how many", "number of"), ("players", "people"),
           ("queen of spades", "black maria", "black lady", "svarta maja"),
           ("shoot the moon", "shooting the moon", "take all the hearts"),
           ("hidden cards", "dolda")],
    "sv": [("hur många", "antal", "hur många kan"), ("spelare", "personer", "spela"),
           ("spader dam", "spaderdam", "spaderdamen", "svarta maja"),
           ("skjuta månen", "ta alla hjärter")],
    "fi": [("kuinka monta", "montako", "moniko", "kuinka moni", "pelaajien määrä"),
           ("pelaajaa", "pelaajia", "pelata"),
           ("patarouva", "pataakka", "musta maija"),
           ("kuun ampuminen", "ampua kuu", "kaikki hertat")],
    "nb": [("hvor mange", "antall", "hvor mange kan"), ("spillere", "personer", "spille"),
           ("spar dame", "spardamen", "svarte maja", "svarta maja"),
           ("skyte månen", "ta alle hjerter")],
}
# Questions that answer one thing however it is asked: a query made of one of the phrases (and
# perhaps a game's name) finds them all and shows them first.
TOPICS: list[tuple[frozenset[str], dict[str, tuple[str, ...]]]] = [
    (frozenset({"dam-how-many-players", "dolda-how-many-players", "spardame-players-and-cards"}),
     {"en": ("how many players", "number of players", "how many people", "how many can play",
             "how many people can play", "player count", "number of people", "players",
             "how many players are needed"),
      "sv": ("hur många spelare", "antal spelare", "hur många kan spela", "spelarantal",
             "antal personer", "hur många kan vara med", "hur många personer", "spelare"),
      "fi": ("kuinka monta pelaajaa", "montako pelaajaa", "pelaajien määrä",
             "kuinka monta voi pelata", "pelaajamäärä", "montako voi pelata",
             "kuinka monta pelaajaa tarvitaan", "montako pelaajaa tarvitaan", "pelaajat"),
      "nb": ("hvor mange spillere", "antall spillere", "hvor mange kan spille",
             "spillerantall", "antall personer", "hvor mange kan være med",
             "hvor mange personer", "spillere")}),
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


def stem_matches(query: str, lang: str, *texts: str) -> bool:
    """Every stem of the query among the stems of the entry (or starting one of them)."""
    have = set(stems(" ".join((t or "") for t in texts), lang))
    return all(_stem_in(w, have) for w in query_stems(query, lang))


def search[M: Model](queryset: QuerySet[M], query: str, lang: str, fields: Sequence[str],
                     texts: Iterable[str] = ()) -> list[M]:
    """The entries of ``queryset`` that ``query`` (or a rewording with the language's
    synonyms) finds, best first: by stems or word starts in ``fields`` (the page language's
    text through modeltranslation) plus the extra attribute names ``texts``, or as the topic
    the query asks for."""
    query = plain(query)
    tried = variants(query, lang)
    topic = topic_slugs(query, lang)
    names = (*fields, *texts)
    hits = []
    for entry in queryset:
        values = [str(getattr(entry, n) or "") for n in names]
        if getattr(entry, "slug", None) in topic or any(
                stem_matches(v, lang, *values) or matches(v, *values) for v in tried):
            hits.append(entry)
    wanted = {w for v in tried for w in query_stems(v, lang)}

    def rank(entry: Model) -> tuple[int, int, int]:
        first = set(stems(str(getattr(entry, fields[0]) or ""), lang))
        rest = set(stems(" ".join(str(getattr(entry, n) or "") for n in names[1:]), lang))
        return (-(getattr(entry, "slug", None) in topic),
                -sum(_stem_in(w, first) for w in wanted), -sum(_stem_in(w, rest) for w in wanted))

    return sorted(hits, key=rank)
