"""`manage.py analyse RECORD.json --seat NAME` prints the documented analysis of a seat."""

from __future__ import annotations

import json
from io import StringIO
from pathlib import Path

import pytest
from django.core.management import CommandError, call_command

from .positions import (
    CTG_AFTER_BLUNDER,
    CTG_BLUNDER,
    CTG_SCRIPT,
    ORC_BLUNDER,
    ORC_DEAL,
    ctg_record,
    orc_record,
)

KEYS = ["seat", "accuracy", "decisions", "seconds"]
DECISION_KEYS = ["index", "round", "played", "best", "loss", "error", "mark", "options"]


def _run(tmp_path: Path, record: dict, *args: str) -> str:
    path = tmp_path / "record.json"
    path.write_text(json.dumps(record), encoding="utf-8")
    out = StringIO()
    call_command("analyse", str(path), *args, stdout=out)
    return out.getvalue()


@pytest.mark.parametrize(
    ("record", "seat", "blunder"),
    [
        (ctg_record([*CTG_SCRIPT, f"ann: {CTG_BLUNDER}", *CTG_AFTER_BLUNDER]), "ann", CTG_BLUNDER),
        (orc_record([*ORC_DEAL, f"bob: {ORC_BLUNDER}"]), "bob", ORC_BLUNDER),
    ],
    ids=["ctg", "orc"],
)
def test_it_prints_the_documented_json(
    tmp_path: Path, record: dict, seat: str, blunder: str
) -> None:
    out = json.loads(_run(tmp_path, record, "--seat", seat, "--format", "json", "--samples", "30"))
    assert list(out)[:4] == KEYS
    assert out["seat"] == seat
    assert 0 <= out["accuracy"] <= 100
    assert isinstance(out["seconds"], float)
    decisions = out["decisions"]
    assert [d["index"] for d in decisions] == list(range(len(decisions)))
    for d in decisions:
        assert list(d)[:8] == DECISION_KEYS
        assert all(list(o)[:2] == ["option", "value"] for o in d["options"])
        assert d["played"] in [o["option"] for o in d["options"]]
        assert d["best"] in [o["option"] for o in d["options"]]
    last = decisions[-1]
    assert (last["played"], last["mark"]) == (blunder, "??")


def test_it_prints_a_summary_for_people(tmp_path: Path) -> None:
    record = orc_record([*ORC_DEAL, f"bob: {ORC_BLUNDER}"])
    out = _run(tmp_path, record, "--seat", "bob", "--format", "text", "--samples", "30")
    assert "bob: accuracy" in out
    assert "1 blunders (??)" in out
    assert f"{ORC_BLUNDER} ??" in out
    assert "Round 1 deal: shields P1 @40 taken" in out


def test_it_names_what_is_wrong_with_its_input(tmp_path: Path) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text("{not json", encoding="utf-8")
    with pytest.raises(CommandError, match="is not JSON"):
        call_command("analyse", str(bad), "--seat", "ann")
    with pytest.raises(CommandError, match="cannot read"):
        call_command("analyse", str(tmp_path / "missing.json"), "--seat", "ann")
    with pytest.raises(CommandError, match="no game here analyses records of format 'chess'"):
        _run(tmp_path, {"format": "chess"}, "--seat", "ann")
    with pytest.raises(CommandError, match="'zed' is not a player"):
        _run(tmp_path, ctg_record(CTG_SCRIPT), "--seat", "zed")
    with pytest.raises(CommandError, match="round 1, action 3"):
        _run(
            tmp_path, ctg_record(["ann: draw D1", "ann: draw D2", "ann: lay 9 2"]), "--seat", "ann"
        )
