import json
import subprocess
import sys
from pathlib import Path

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

ROOT = Path(__file__).resolve().parents[2]
SHIPPED = sorted((ROOT / "rules" / "scenarios").glob("*/*.json"))


def run_check(*files: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "manage.py", "scenario", "check", *files], cwd=ROOT,
                          capture_output=True, text=True, timeout=120)


def test_there_are_shipped_scenarios_for_every_game():
    assert {p.parent.name for p in SHIPPED} == {"dam", "dolda", "spardame"}


def test_every_shipped_scenario_passes_scenario_check():
    result = run_check(*map(str, SHIPPED))
    assert result.returncode == 0, result.stdout + result.stderr
    assert f"{len(SHIPPED)} scenario file(s) ok" in result.stdout


@pytest.mark.parametrize("content,message", [
    ("{not json", "step 0: not valid JSON"),
    ("[1, 2]", "step 0: the file must hold a JSON object"),
    ('{"format": "dam-scenario/1", "game": "dam", "colour": 1}', "step 0: unknown field 'colour'"),
    ('{"format": "dam-scenario/2", "game": "dam"}', "step 0: 'format' must be 'dam-scenario/1'"),
    ('{"format": "dam-scenario/1", "game": "chess"}', "step 0: 'game' must be one of"),
])
def test_malformed_file_is_reported_as_file_step_and_exit_1(tmp_path, content, message):
    path = tmp_path / "bad.json"
    path.write_text(content)
    result = run_check(str(path))
    assert result.returncode == 1
    assert f"{path}: {message}" in result.stdout
    assert "Traceback" not in result.stdout + result.stderr


def test_unreadable_file_is_reported_not_raised(tmp_path):
    missing = tmp_path / "missing.json"
    result = run_check(str(missing))
    assert result.returncode == 1
    assert f"{missing}: step 0: cannot read the file" in result.stdout
    assert "Traceback" not in result.stderr


def test_a_failing_step_is_reported_with_its_number(tmp_path):
    data = json.loads(SHIPPED[0].read_text())
    data["steps"].append({"expect": {"over": "perhaps"}})
    path = tmp_path / "wrong.json"
    path.write_text(json.dumps(data))
    result = run_check(str(path))
    assert result.returncode == 1
    assert f"{path}: step {len(data['steps'])}:" in result.stdout


def test_one_bad_file_among_good_ones_fails_the_run(tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_text("{}")
    with pytest.raises(CommandError):
        call_command("scenario", "check", str(SHIPPED[0]), str(bad))
