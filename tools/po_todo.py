"""Export the entries still untranslated or fuzzy in the sv, fi and nb catalogues to JSON, and
import translations back.  Used to hand new interface strings to translators in one file.

    .venv/bin/python tools/po_todo.py export todo.json
    .venv/bin/python tools/po_todo.py import done.json

The JSON maps a key (``msgctxt\\x04msgid`` or ``msgid``) to an object with ``msgid``,
``msgid_plural``, ``msgctxt``, ``references`` and, once translated, ``sv``/``fi``/``nb``
(a string, or a list of two strings for plural entries).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import polib

ROOT = Path(__file__).resolve().parent.parent
LANGS = ("sv", "fi", "nb")


def catalogue(lang: str) -> polib.POFile:
    return polib.pofile(str(ROOT / "locale" / lang / "LC_MESSAGES" / "django.po"), wrapwidth=79)


def key(entry: polib.POEntry) -> str:
    return f"{entry.msgctxt}\x04{entry.msgid}" if entry.msgctxt else entry.msgid


def export(path: str) -> None:
    todo: dict[str, dict] = {}
    for lang in LANGS:
        for e in catalogue(lang):
            if e.obsolete or (e.translated() and "fuzzy" not in e.flags):
                continue
            todo.setdefault(key(e), {"msgid": e.msgid, "msgid_plural": e.msgid_plural or None,
                                     "msgctxt": e.msgctxt, "references": [f"{f}:{n}" for f, n in e.occurrences][:3]})
    Path(path).write_text(json.dumps(todo, ensure_ascii=False, indent=1), encoding="utf-8")
    print(f"{len(todo)} entries to translate -> {path}")


def import_(path: str) -> None:
    done = json.loads(Path(path).read_text(encoding="utf-8"))
    for lang in LANGS:
        po = catalogue(lang)
        count = 0
        for e in po:
            item = done.get(key(e))
            if not item or lang not in item:
                continue
            value = item[lang]
            if e.msgid_plural:
                forms = value if isinstance(value, list) else [value, value]
                e.msgstr_plural = {0: forms[0], 1: forms[1]}
            else:
                e.msgstr = value
            if "fuzzy" in e.flags:
                e.flags.remove("fuzzy")
            e.previous_msgid = e.previous_msgid_plural = e.previous_msgctxt = None
            count += 1
        po.save()
        print(f"{lang}: {count} entries imported")


if __name__ == "__main__":
    {"export": export, "import": import_}[sys.argv[1]](sys.argv[2])
