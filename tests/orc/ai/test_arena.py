"""The arena plays a small match, resumes it from its results file and stops when clear."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from games.orc.ai import arena

MATCH = ["--level", "heuristic", "--against", "random", "--players", "4", "--quiet"]


def summary(out: str) -> tuple[float, float, float]:
    line = next(x for x in out.splitlines() if "win share" in x)
    share = float(line.split()[2])
    low, high = (float(x) for x in line.split("CI ")[1].split(" %")[0].split(" - "))
    return share, low, high


def test_it_resumes_a_match_from_its_results_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    results = tmp_path / "orc-arena.jsonl"
    arena.main([*MATCH, "--games", "4", "--results", str(results)])
    capsys.readouterr()
    first = results.read_text().splitlines()
    assert len(first) == 4
    assert sorted(json.loads(x)["seat"] for x in first) == [0, 1, 2, 3]

    arena.main([*MATCH, "--games", "8", "--results", str(results)])
    out = capsys.readouterr()
    lines = results.read_text().splitlines()
    assert lines[:4] == first and len(lines) == 8  # only the 4 new games were played
    assert "4 games of this match already in" in out.err
    assert "8 games (2 deals x 4 seats)" in out.out
    share, low, high = summary(out.out)
    wins = [json.loads(x)["win"] for x in lines]
    assert share == round(100 * sum(wins) / 8, 1)
    assert low <= share <= high
    assert "heuristic reaction:" in out.out and "random decision (field):" in out.out

    arena.main([*MATCH, "--games", "4", "--seed", "2", "--results", str(results)])
    assert len(results.read_text().splitlines()) == 12  # another match is not mixed in


def test_it_stops_a_match_once_the_answer_is_clear(capsys: pytest.CaptureFixture[str]) -> None:
    arena.main([*MATCH, "--games", "200", "--min-games", "12"])
    out = capsys.readouterr().out
    played = int(out.split(" games (")[0].split()[-1])
    assert "stopped early" in out and played < 200
    share, low, _ = summary(out)
    assert share > low > 25.0  # par is 25 % with 4 players
