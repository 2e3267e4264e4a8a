"""The command line, run as a separate process, as outside tooling runs it."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[3]


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "games.orc.engine", *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
    )


def random_record(tmp_path: Path, players: int = 5) -> tuple[dict[str, Any], Path]:
    out = run("random", "--players", str(players), "--seed", "5")
    assert out.returncode == 0, out.stderr
    record = json.loads(out.stdout)
    path = tmp_path / "game.json"
    path.write_text(json.dumps(record))
    return record, path


def test_it_prints_a_deterministic_random_record() -> None:
    first, second = (
        run("random", "--players", "6", "--seed", "9"),
        run("random", "--players", "6", "--seed", "9"),
    )
    assert first.returncode == 0 and first.stdout == second.stdout
    record = json.loads(first.stdout)
    assert record["format"] == "orc-record/1" and len(record["players"]) == 6
    assert run("random", "--players", "6", "--seed", "10").stdout != first.stdout


def test_it_replays_a_record_to_its_result(tmp_path: Path) -> None:
    _, path = random_record(tmp_path)
    out = run("replay", str(path))
    assert out.returncode == 0, out.stderr
    result = json.loads(out.stdout)
    assert set(result) == {"rounds", "totals", "placings"}


def test_it_replays_a_game_in_progress_as_unfinished(tmp_path: Path) -> None:
    record, path = random_record(tmp_path)
    record["rounds"] = record["rounds"][:1]
    path.write_text(json.dumps(record))
    out = run("replay", str(path))
    assert out.returncode == 0 and json.loads(out.stdout)["unfinished"] is True


def test_it_exits_2_with_one_line_on_an_illegal_action(tmp_path: Path) -> None:
    record, path = random_record(tmp_path)
    actions = record["rounds"][1]["actions"]
    # bob is round 2's wizard: he plays no player cards.
    actions.insert(2, "bob: desert P1 @79")
    path.write_text(json.dumps(record))
    out = run("replay", str(path))
    assert out.returncode == 2 and out.stdout == ""
    lines = out.stderr.strip().splitlines()
    assert len(lines) == 1
    line = lines[0]
    assert "round 2" in line and "action 3" in line and "bob: desert P1 @79" in line
    assert "§3.1" in line


def test_it_exits_3_on_a_malformed_record(tmp_path: Path) -> None:
    path = tmp_path / "bad.json"
    path.write_text('{"format": "chess"}')
    out = run("replay", str(path))
    assert out.returncode == 3 and "malformed" in out.stderr and out.stdout == ""
    path.write_text("not json")
    assert run("replay", str(path)).returncode == 3
    record, good = random_record(tmp_path)
    record["rounds"][0]["actions"][0] = "bob: dance"
    good.write_text(json.dumps(record))
    assert run("replay", str(good)).returncode == 3
    assert run("replay", str(tmp_path / "missing.json")).returncode == 3


def test_it_benchmarks() -> None:
    out = run("bench", "--players", "5", "--seconds", "0.3")
    assert out.returncode == 0 and out.stdout.split()[1] == "games/s"
    assert int(out.stdout.split()[0]) > 0
