"""Every rule id of docs/rules-spec.md has at least one test named after it."""

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def rule_ids() -> list[str]:
    spec = (ROOT / "docs" / "rules-spec.md").read_text(encoding="utf-8")
    return sorted(set(re.findall(r"^- ([DHS]-[A-Z]+\d+) ", spec, flags=re.MULTILINE)))


def collected_test_names() -> set[str]:
    names = set()
    for path in (ROOT / "tests").rglob("test_*.py"):
        names.update(re.findall(r"def (test_[A-Za-z0-9_]+)", path.read_text(encoding="utf-8")))
    return names


def test_the_spec_has_rule_ids():
    assert len(rule_ids()) > 40


def test_every_rule_id_has_a_test_named_after_it():
    names = collected_test_names()
    missing = [rid for rid in rule_ids()
               if not any(n.startswith("test_" + rid.replace("-", "_") + "_") for n in names)]
    assert missing == []
