"""The command line, run as a separate process."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "games.ctg.engine", *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
    )


def random_record(tmp_path: Path, *extra: str) -> tuple[dict[str, object], Path]:
    out = run("random", "--players", "3", "--rounds", "4", "--seed", "5", *extra)
    assert out.returncode == 0, out.stderr
    record = json.loads(out.stdout)
    path = tmp_path / "game.json"
    path.write_text(json.dumps(record))
    return record, path


def test_it_prints_a_deterministic_random_record() -> None:
    args = (
        "random",
        "--players",
        "2",
        "--rounds",
        "3",
        "--variants",
        "imperial-tasks,ninja",
        "--seed",
        "9",
    )
    first, second = run(*args), run(*args)
    assert first.returncode == 0 and first.stdout == second.stdout
    record = json.loads(first.stdout)
    assert record["format"] == "ctg-record/1" and record["options"]["variants"] == [
        "imperial-tasks",
        "ninja",
    ]


def test_it_replays_a_record_to_its_result(tmp_path: Path) -> None:
    _, path = random_record(tmp_path)
    out = run("replay", str(path))
    assert out.returncode == 0, out.stderr
    result = json.loads(out.stdout)
    assert set(result) == {"rounds", "totals", "placings"}


def test_it_exits_2_with_one_line_on_an_illegal_action(tmp_path: Path) -> None:
    record, path = random_record(tmp_path)
    rounds = record["rounds"]
    assert isinstance(rounds, list)
    actions = rounds[0]["actions"]
    actions[2] = actions[2].split(":")[0] + ": lay 12 1"
    path.write_text(json.dumps(record))
    out = run("replay", str(path))
    assert out.returncode == 2 and out.stdout == ""
    lines = out.stderr.strip().splitlines()
    assert len(lines) == 1
    assert (
        "round 1" in lines[0]
        and "action 3" in lines[0]
        and "lay 12 1" in lines[0]
        and "§4 2a" in lines[0]
    )


def test_it_exits_3_on_a_malformed_record(tmp_path: Path) -> None:
    path = tmp_path / "bad.json"
    path.write_text('{"format": "chess"}')
    out = run("replay", str(path))
    assert out.returncode == 3 and "malformed" in out.stderr
    path.write_text("not json")
    assert run("replay", str(path)).returncode == 3


def test_it_exits_3_on_an_unfinished_record(tmp_path: Path) -> None:
    record, path = random_record(tmp_path)
    rounds = record["rounds"]
    assert isinstance(rounds, list)
    record["rounds"] = rounds[:1]
    path.write_text(json.dumps(record))
    out = run("replay", str(path))
    assert out.returncode == 3 and "unfinished" in out.stderr


def test_it_benchmarks() -> None:
    out = run("bench", "--players", "4", "--seconds", "0.3")
    assert out.returncode == 0 and "games/s" in out.stdout
