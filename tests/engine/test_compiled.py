"""The engine compiled with mypyc (tools/build_engine.py, rules/engine/__init__.py): used where
it could be built, never when its sources changed since, and making the same moves as the
pure-Python modules."""

from __future__ import annotations

import importlib
import os
import re
import shutil
import subprocess
import sys
import sysconfig
from pathlib import Path

import pytest

import rules.engine
from tools import build_engine

ROOT = Path(__file__).resolve().parent.parent.parent


def test_where_it_can_be_built_the_engine_runs_compiled():
    if os.environ.get("DAM_ENGINE") == "python" or build_engine.missing():
        assert rules.engine.COMPILED_FROM is None
        return
    # make setup builds it; a failure would leave the pure-Python modules running silently.
    assert rules.engine.COMPILED_FROM == rules.engine.compiled_dir()
    suffix = sysconfig.get_config_var("EXT_SUFFIX")
    for name in rules.engine.COMPILED:
        assert importlib.import_module(name).__file__.endswith(suffix), name
    assert importlib.import_module("rules.engine.scenario").__file__.endswith(".py")


def test_an_edited_module_is_not_shadowed_by_an_old_build(tmp_path, monkeypatch):
    before = rules.engine.source_digest()
    copy = tmp_path / "rules" / "engine"
    shutil.copytree(ROOT / "rules" / "engine", copy)
    monkeypatch.setattr(rules.engine, "_ROOT", tmp_path)
    assert rules.engine.source_digest() == before
    bots = copy / "bots" / "dam.py"
    bots.write_text(bots.read_text() + "\n# an edit\n")
    assert rules.engine.source_digest() != before
    assert not (rules.engine.compiled_dir() / "BUILT").exists()


def test_without_a_c_compiler_nothing_is_built_and_setup_goes_on(tmp_path, monkeypatch, capsys):
    monkeypatch.setattr(build_engine.shutil, "which", lambda name: None)
    target = tmp_path / "engine" / "digest"
    monkeypatch.setattr(build_engine.engine, "compiled_dir", lambda: target)
    assert build_engine.missing().startswith("no C compiler")
    assert build_engine.main([]) == 0
    assert "not compiled (no C compiler" in capsys.readouterr().out
    assert not target.exists()


def _hashes(script: list[str], pure: bool) -> list[str]:
    env = {**os.environ, "DAM_ENGINE": "python"} if pure else {
        k: v for k, v in os.environ.items() if k != "DAM_ENGINE"}
    out = subprocess.run([sys.executable, *script], cwd=ROOT, env=env, capture_output=True,
                         text=True, check=True, timeout=300).stdout
    return re.findall(r"fingerprint=(\w+)", out)


@pytest.mark.parametrize("script", [
    ["bench/strong_fingerprint.py", "--decisions", "40"],
    ["bench/fingerprint.py", "--game", "dam", "--games", "40", "--quick"],
    ["bench/fingerprint.py", "--game", "dolda", "--games", "40", "--quick"],
    ["bench/fingerprint.py", "--game", "spardame", "--games", "40", "--quick"],
], ids=["strong-bot", "dam", "dolda", "spardame"])
def test_both_builds_make_the_same_moves_and_refusals(script):
    """The fingerprints hash every legal move list, view, event and refusal (reason codes of
    malformed moves too), and the strong bot's rankings with their floats exactly."""
    pure, compiled = _hashes(script, pure=True), _hashes(script, pure=False)
    assert pure and compiled == pure
