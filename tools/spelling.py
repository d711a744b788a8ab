"""Spelling gate: check every translated text of the site with Debian's dictionaries.

Checked texts:

- the English msgids (English is the source language) and every msgstr of the Swedish, Finnish
  and Norwegian Bokmål catalogues in ``locale/<lang>/LC_MESSAGES/django.po`` (fuzzy and
  obsolete entries are skipped: they are not shown to anybody);
- the translated database texts loaded from ``reference/content/faq.json`` (``question_xx``,
  ``answer_xx``) and ``reference/content/glossary.json`` (``term_xx``, ``definition_xx``);
- the narration (``say``) of every step of the shipped scenario files
  ``rules/scenarios/<game>/*.json``.

Swedish, Norwegian Bokmål and English are checked with hunspell (``sv_SE``, ``nb_NO``,
``en_GB``: the site writes British English), Finnish with Voikko through the ``libvoikko``
module of Debian's python3-libvoikko (a ctypes wrapper, loaded from the system's
dist-packages). Game terms and names the dictionaries cannot know are in the project word
lists ``locale/wordlists/<lang>.txt``. Before checking, the tokeniser drops HTML tags and
entities, placeholders (``%(name)s``, ``%s``, ``{{ x }}``, ``{x}``, ``{% tag %}``), card codes
(``QS``, ``10H``), code (``<code>…</code>``, ```x```, ``snake_case``, ``--option``), URLs,
slugs (``dam/variants/``) and anything containing a digit.

    .venv/bin/python tools/spelling.py          # prints "LANG: word (in: where)"; exit 1 if any
    .venv/bin/python tools/spelling.py --lang fi
    .venv/bin/python tools/spelling.py --sort-wordlists   # after adding words to a list

Exit status: 0 when every word is known, 1 when some word is unknown, 2 when a dictionary or
package is missing (the message names the Debian package to install).
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import re
import shutil
import subprocess
import sys
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
LOCALE = ROOT / "locale"
WORDLISTS = LOCALE / "wordlists"
CONTENT = ROOT / "reference" / "content"
LANGS = ("sv", "fi", "nb", "en")
SCENARIOS = ROOT / "rules" / "scenarios"
CONTENT_FILES = {"faq.json": ("question", "answer"), "glossary.json": ("term", "definition")}

HUNSPELL_DICTS = {"sv": "sv_SE", "nb": "nb_NO", "en": "en_GB"}
HUNSPELL_DIRS = (Path("/usr/share/hunspell"), Path("/usr/share/myspell/dicts"))
VOIKKO_MODULE = Path("/usr/lib/python3/dist-packages/libvoikko.py")
# What CI has to install (apt-get install ...), by what it provides.
PACKAGES = {
    "hunspell": "hunspell",
    "sv": "hunspell-sv",
    "nb": "hunspell-no",
    "en": "hunspell-en-gb",
    "fi": "libvoikko1 voikko-fi python3-libvoikko",
}
DEBIAN_PACKAGES = ("hunspell", "hunspell-sv", "hunspell-no", "hunspell-en-gb",
                   "libvoikko1", "voikko-fi", "python3-libvoikko")


class Unavailable(RuntimeError):
    """A spell checker or dictionary is not installed; the message says which package."""


@dataclass(frozen=True)
class Text:
    lang: str
    text: str
    where: str


@dataclass(frozen=True)
class Unknown:
    lang: str
    word: str
    where: tuple[str, ...]

    def __str__(self) -> str:
        return f"{self.lang}: {self.word} (in: {'; '.join(self.where)})"


# ---------------------------------------------------------------------------------------------
# Texts


def _short(text: str, width: int = 60) -> str:
    text = " ".join(text.split())
    return text if len(text) <= width else text[: width - 1] + "…"


def po_texts(langs: Iterable[str] = LANGS, locale: Path = LOCALE) -> Iterator[Text]:
    """English msgids (from the en catalogue) and the msgstrs of the other catalogues."""
    import polib

    for lang in langs:
        path = locale / lang / "LC_MESSAGES" / "django.po"
        for entry in polib.pofile(str(path)):
            if entry.obsolete or "fuzzy" in entry.flags:
                continue
            ref = f"{entry.occurrences[0][0]}:{entry.occurrences[0][1]}" if entry.occurrences else path.name
            where = f'msgid "{_short(entry.msgid)}" {ref}'
            if lang == "en":
                texts = [entry.msgid, entry.msgid_plural]
            else:
                texts = [entry.msgstr, *entry.msgstr_plural.values()]
            for text in texts:
                if text:
                    yield Text(lang, text, where)


def content_texts(langs: Iterable[str] = LANGS, content: Path = CONTENT) -> Iterator[Text]:
    """The translated fields of the FAQ and glossary rows."""
    for filename, fields in CONTENT_FILES.items():
        rows = json.loads((content / filename).read_text(encoding="utf-8"))
        for row in rows:
            for lang in langs:
                for field in fields:
                    text = row.get(f"{field}_{lang}")
                    if text:
                        yield Text(lang, text, f"{filename} {row.get('slug')} {field}_{lang}")


def scenario_texts(langs: Iterable[str] = LANGS, scenarios: Path = SCENARIOS) -> Iterator[Text]:
    """The narration (``say``) of every step of the shipped scenario files."""
    langs = tuple(langs)
    for path in sorted(scenarios.glob("*/*.json")):
        data = json.loads(path.read_text(encoding="utf-8"))
        for number, step in enumerate(data.get("steps", []), start=1):
            say = step.get("say") or {}
            for lang in langs:
                if say.get(lang):
                    yield Text(lang, say[lang], f"{path.parent.name}/{path.name} step {number}")


def all_texts(langs: Iterable[str] = LANGS) -> list[Text]:
    langs = tuple(langs)
    return [*po_texts(langs), *content_texts(langs), *scenario_texts(langs)]


# ---------------------------------------------------------------------------------------------
# Tokenising

_DROP = [re.compile(p, re.S) for p in (
    r"<code\b.*?</code>",                       # code
    r"`[^`]*`",
    r"[“”\"«»]\s*[\w./-]+\.py\b[^“”\"«»]*[“”\"«»]",  # a quoted command such as “manage.py simulate”
    r"\{%.*?%\}", r"\{\{.*?\}\}", r"\{[^{}\s]*\}",  # template tags, variables, format fields
    r"%\(\w+\)[#0 +-]*\d*(?:\.\d+)?[sdifr]", r"%[sdifr]", r"%%",   # printf placeholders
    r"<[^>]*>",                                 # HTML tags
    r"&(?:[a-zA-Z]+|#\d+|#x[0-9a-fA-F]+);",     # entities
    r"\b(?:https?://|www\.)\S+",                # URLs
    r"\b[\w-]+(?:\.[\w-]+)*\.(?:com|org|net|se|fi|no|nu|io)(?::?\w+)?(?!\w)",  # domains, pagat.comissa
    r"(?<!\S)[\w.-]+(?:/[\w.-]+)*/(?!\S)",      # slugs ending in "/"
    r"(?<![\w-])--[a-z][\w-]*",                 # --options
    r"\b\w+_\w+\b",                             # snake_case names
    r"\b(?:10|[2-9TJQKA])[SHDC]\b(?::\w+)?",     # card codes QS, 10H, 2C (and Finnish QS:n)
    r"\w*\d\w*(?::\w+)?",                        # numbers, anything with a digit, Finnish 9:n
)]
_WORD = re.compile(r"[^\W\d_]+(?:['’\-][^\W\d_]+)*")


def words(text: str) -> list[str]:
    """The words to check in one text, in order (single letters are not words to check)."""
    for pattern in _DROP:
        text = pattern.sub(" ", text)
    return [w.replace("’", "'") for w in _WORD.findall(text) if len(w) > 1]


# ---------------------------------------------------------------------------------------------
# Word lists


def wordlist_path(lang: str) -> Path:
    return WORDLISTS / f"{lang}.txt"


def wordlist_sections(lang: str) -> list[list[str]]:
    """The entries of a project word list, one list per section (a run of entries between
    comment or blank lines), in file order."""
    path = wordlist_path(lang)
    if not path.exists():
        return []
    sections: list[list[str]] = [[]]
    for line in path.read_text(encoding="utf-8").splitlines():
        line = line.strip()
        if not line or line.startswith("#"):
            if sections[-1]:
                sections.append([])
        else:
            sections[-1].append(line)
    return [section for section in sections if section]


def wordlist_entries(lang: str) -> list[str]:
    return [entry for section in wordlist_sections(lang) for entry in section]


def sort_key(word: str) -> tuple[str, str]:
    return (word.casefold(), word)


def sort_wordlist(lang: str) -> None:
    """Sort each section of a word list in place and drop duplicates, keeping the comments."""
    path = wordlist_path(lang)
    out: list[str] = []
    section: list[str] = []
    for line in [*path.read_text(encoding="utf-8").splitlines(), ""]:
        stripped = line.strip()
        if stripped and not stripped.startswith("#"):
            section.append(stripped)
            continue
        out.extend(sorted(set(section), key=sort_key))
        section = []
        out.append(line)
    path.write_text("\n".join(out).rstrip("\n") + "\n", encoding="utf-8")


class WordList:
    """Words the dictionary may not know. A word entry matches that exact form; an all-lowercase
    entry also matches the word capitalised or in capitals. An entry with spaces is a phrase
    (a name such as "Dam med dolda kort") that is taken out of the text before tokenising."""

    def __init__(self, entries: Iterable[str]):
        entries = set(entries)
        self.exact = {e for e in entries if " " not in e}
        self.lower = {e for e in self.exact if e == e.lower()}
        phrases = sorted((e for e in entries if " " in e), key=len, reverse=True)
        self.phrases = [
            re.compile(r"(?<!\w)" + re.escape(p) + r"(?!\w)", re.I if p == p.lower() else 0)
            for p in phrases
        ]

    def __contains__(self, word: str) -> bool:
        return word in self.exact or word.lower() in self.lower

    def without_phrases(self, text: str) -> str:
        for phrase in self.phrases:
            text = phrase.sub(" ", text)
        return text


# ---------------------------------------------------------------------------------------------
# Spell checkers: each takes a set of words and returns the ones the dictionary does not know.

Checker = Callable[[set[str]], set[str]]


def _hunspell_checker(lang: str) -> Checker:
    name = HUNSPELL_DICTS[lang]
    binary = shutil.which("hunspell")
    if not binary:
        raise Unavailable(f"hunspell is not installed (apt-get install {PACKAGES['hunspell']})")
    directory = next((d for d in HUNSPELL_DIRS if (d / f"{name}.dic").exists()), None)
    if directory is None:
        raise Unavailable(f"{lang}: hunspell dictionary {name} is missing (apt-get install {PACKAGES[lang]})")

    def check(candidates: set[str]) -> set[str]:
        if not candidates:
            return set()
        # With -L hunspell prints every input line that holds a word it does not know, and
        # computes no suggestions (which is what makes pipe mode, -a, slow). One word a line,
        # so the lines printed are exactly the unknown words; a hyphenated word is printed when
        # any of its parts is unknown.
        result = subprocess.run(
            [binary, "-L", "-i", "utf-8", "-d", str(directory / name)],
            input="\n".join(sorted(candidates)).encode("utf-8"), capture_output=True, check=True,
        )
        printed = set(result.stdout.decode("utf-8").splitlines())
        return candidates & printed

    return check


def _load_libvoikko():
    if not VOIKKO_MODULE.exists():
        raise Unavailable(f"fi: {VOIKKO_MODULE} is missing (apt-get install {PACKAGES['fi']})")
    spec = importlib.util.spec_from_file_location("libvoikko", VOIKKO_MODULE)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _voikko_checker() -> Checker:
    libvoikko = _load_libvoikko()
    try:
        voikko = libvoikko.Voikko("fi")
    except (OSError, libvoikko.VoikkoException) as exc:
        raise Unavailable(f"fi: Voikko cannot start ({exc}) (apt-get install {PACKAGES['fi']})") from exc

    def check(candidates: set[str]) -> set[str]:
        return {w for w in candidates if not voikko.spell(w)}

    return check


def checker(lang: str) -> Checker:
    """The dictionary check for one language; raises Unavailable when it is not installed."""
    return _voikko_checker() if lang == "fi" else _hunspell_checker(lang)


# ---------------------------------------------------------------------------------------------
# The gate


def _parts(word: str) -> list[str]:
    return [p for p in word.split("-") if len(p) > 1] if "-" in word else []


def unknown_words(texts: Iterable[Text], checkers: dict[str, Checker] | None = None) -> list[Unknown]:
    """Every word that neither the dictionary nor the project word list knows, with where it
    occurs. A hyphenated word passes when it is known whole or when each of its parts is."""
    lists: dict[str, WordList] = {}
    by_lang: dict[str, dict[str, list[str]]] = {}
    for t in texts:
        listed = lists.get(t.lang) or lists.setdefault(t.lang, WordList(wordlist_entries(t.lang)))
        places = by_lang.setdefault(t.lang, {})
        for w in words(listed.without_phrases(t.text)):
            where = places.setdefault(w, [])
            if t.where not in where:
                where.append(t.where)
    found: list[Unknown] = []
    for lang, places in sorted(by_lang.items()):
        listed = lists[lang]
        check = (checkers or {}).get(lang) or checker(lang)
        candidates = {w for w in places if w not in listed}
        parts = {p for w in candidates for p in _parts(w) if p not in listed}
        bad = check(candidates | parts)
        for word in sorted(candidates & bad, key=sort_key):
            split = _parts(word)
            if split and not any(p in bad for p in split if p not in listed):
                continue
            found.append(Unknown(lang, word, tuple(places[word])))
    return found


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--lang", action="append", choices=LANGS, help="only these languages")
    parser.add_argument("--sort-wordlists", action="store_true",
                        help="sort the sections of locale/wordlists/*.txt in place and stop")
    args = parser.parse_args(argv)
    langs = tuple(args.lang or LANGS)
    if args.sort_wordlists:
        for lang in langs:
            sort_wordlist(lang)
        return 0
    try:
        found = unknown_words(all_texts(langs))
    except Unavailable as exc:
        print(f"spelling: {exc}", file=sys.stderr)
        return 2
    for unknown in found:
        print(unknown)
    if found:
        print(f"{len(found)} unknown words. Fix the text, or add genuine game terms and names to "
              f"locale/wordlists/<lang>.txt.", file=sys.stderr)
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
