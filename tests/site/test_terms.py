"""One term per concept and language (locale/terms.json): no forbidden alternative in any
catalogue, FAQ or glossary text or scenario narration, and every listed term in use."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from pathlib import Path

import polib
import pytest

ROOT = Path(__file__).resolve().parents[2]
TERMS = json.loads((ROOT / "locale" / "terms.json").read_text(encoding="utf-8"))
LANGS = ("sv", "fi", "nb", "en")
GAMES = ("dam", "dolda", "spardame")
GAME_IN_PATH = re.compile(r"(?:^|/)(dam|dolda|spardame)(?:\.py|\.html|/)")


@dataclass(frozen=True)
class Text:
    lang: str
    text: str
    where: str
    game: str | None  # the game the text is about, when its place says so
    synonyms: bool = False  # a glossary headword may name the alternatives a reader searches


def _po_game(entry: polib.POEntry) -> str | None:
    games = {m.group(1) if (m := GAME_IN_PATH.search(path)) else None
             for path, _line in entry.occurrences}
    return games.pop() if len(games) == 1 else None


def po_texts() -> list[Text]:
    out = []
    for lang in LANGS:
        for e in polib.pofile(str(ROOT / "locale" / lang / "LC_MESSAGES" / "django.po")):
            if e.obsolete or "fuzzy" in e.flags:
                continue
            where = f"{lang}.po {e.msgid[:40]!r}"
            if lang == "en":
                texts = [e.msgid, e.msgid_plural or ""]
            else:
                texts = [e.msgstr, *e.msgstr_plural.values()]
            out += [Text(lang, t, where, _po_game(e)) for t in texts if t]
    return out


def content_texts() -> list[Text]:
    out = []
    for name in ("faq.json", "glossary.json"):
        for e in json.loads((ROOT / "reference" / "content" / name).read_text(encoding="utf-8")):
            game = e.get("game") if e.get("game") in GAMES else None
            for key, value in e.items():
                lang = key.rsplit("_", 1)[-1]
                if lang in LANGS and key.split("_")[0] in ("question", "answer", "term",
                                                           "definition"):
                    out.append(Text(lang, value, f"{name} {e['slug']} {key}", game,
                                    synonyms=key.startswith("term_")))
    return out


def scenario_texts() -> list[Text]:
    out = []
    for folder in ("rules/scenarios", "tutorials/scenarios"):  # the lessons' own text is in .po
        for path in sorted((ROOT / folder).glob("*/*.json")):
            data = json.loads(path.read_text(encoding="utf-8"))
            for n, step in enumerate(data.get("steps", []), start=1):
                for lang, text in (step.get("say") or {}).items():
                    if lang in LANGS and text:
                        out.append(Text(lang, text, f"{folder}/{path.parent.name}/{path.name} "
                                                    f"step {n}", path.parent.name))
    return out


ALL = po_texts() + content_texts() + scenario_texts()


def _rx(rule: dict) -> re.Pattern:
    return re.compile(rule["pattern"], 0 if rule.get("case") else re.IGNORECASE)


def _rules(lang: str):
    for concept, by_lang in TERMS.items():
        if concept.startswith("_") or lang not in by_lang:
            continue
        yield concept, by_lang[lang]


def forbidden_uses(texts, lang: str) -> list[str]:
    found = []
    for concept, entry in _rules(lang):
        for rule in entry.get("forbidden", ()):
            rx, games = _rx(rule), rule.get("games")
            for t in texts:
                if t.lang != lang or t.synonyms or (games and t.game not in games):
                    continue
                if m := rx.search(t.text):
                    found.append(f"{concept}: {m.group(0)!r} in {t.where}")
    return found


def test_the_term_list_covers_the_concepts_the_issue_names():
    for concept in ("discard pile", "stock", "dealer", "deal", "row", "trump", "to beat"):
        assert set(TERMS[concept]) == set(LANGS), concept


def test_the_texts_come_from_catalogues_content_and_narration_in_every_language():
    places = {t.where.split(" ")[0].split("/")[0] for t in ALL}
    assert {"sv.po", "fi.po", "nb.po", "en.po", "faq.json", "glossary.json", "rules"} <= places
    assert {t.game for t in ALL} >= {None, *GAMES}


@pytest.mark.parametrize("lang", LANGS)
def test_no_text_uses_a_forbidden_alternative_of_a_term(lang):
    found = forbidden_uses(ALL, lang)
    assert not found, "\n".join(found)


@pytest.mark.parametrize("lang", LANGS)
def test_every_listed_term_is_in_use(lang):
    unused = [concept for concept, entry in _rules(lang)
              if not any(re.search(entry["term"], t.text, re.IGNORECASE)
                         for t in ALL if t.lang == lang)]
    assert not unused


def test_a_forbidden_alternative_is_found_and_a_game_limit_is_kept():
    texts = [Text("nb", "Ta fra kaststokken.", "x", None),
             Text("sv", "Lägg kortet i kasthögen.", "dam scenario", "dam"),
             Text("sv", "Lägg kortet i kasthögen.", "dolda scenario", "dolda")]
    assert len(forbidden_uses(texts, "nb")) == 1
    assert [f.split(" in ")[1] for f in forbidden_uses(texts, "sv")] == ["dolda scenario"]
