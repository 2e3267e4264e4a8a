"""The arena carries a long match across runs through its results file."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from games.ctg.ai import arena

MATCH = ["--level", "heuristic", "--against", "greedy", "--rounds", "1", "--processes", "1"]


def test_it_resumes_a_match_from_its_results_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    results = tmp_path / "arena.jsonl"
    arena.main([*MATCH, "--games", "4", "--results", str(results)])
    first = results.read_text().splitlines()
    assert len(first) == 4

    arena.main([*MATCH, "--games", "8", "--results", str(results)])
    out = capsys.readouterr()
    lines = results.read_text().splitlines()
    assert lines[:4] == first and len(lines) == 8  # only the 4 new games were played
    assert len({(json.loads(x)["deal"], json.loads(x)["seat"]) for x in lines}) == 8
    assert "4 games of this match already in" in out.err
    assert "8 games (4 deals x 2 seatings)" in out.out

    arena.main([*MATCH, "--games", "4", "--seed", "2", "--results", str(results)])
    assert len(results.read_text().splitlines()) == 12  # another match is not mixed in


def test_it_tells_how_many_of_the_field_a_level_finished_ahead_of(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    results = tmp_path / "arena.jsonl"
    arena.main([*MATCH, "--players", "4", "--games", "8", "--quiet", "--results", str(results)])
    line = next(x for x in capsys.readouterr().out.splitlines() if "ahead of" in x)
    rows = [json.loads(x) for x in results.read_text().splitlines()]
    for row in rows:  # a sole winner is ahead of everybody; a last place of nobody
        assert row["win"] < 1 or row["ahead"] == 1
    assert any(0 < row["ahead"] < 1 for row in rows)
    assert float(line.split()[2]) == round(100 * sum(r["ahead"] for r in rows) / len(rows), 1)
    low, high = (float(x) for x in line.split("CI ")[1].rstrip(" %)").split(" - "))
    assert low <= float(line.split()[2]) <= high
