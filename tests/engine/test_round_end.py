"""What a round's end shows: the table as it ended, and the pile that ran out."""

from __future__ import annotations

import pytest

from games.ctg.engine import Options, from_record, public_view, to_record
from games.ctg.engine.cards import TYPES_TO_END, VALUES
from games.ctg.engine.playout import random_game

VARIANTS = [frozenset(), frozenset({"imperial-tasks"}), frozenset({"ninja"})]


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("variants", VARIANTS)
def test_it_keeps_each_rounds_sets_which_add_up_to_its_scores(players, variants) -> None:
    rounds = 3 if "imperial-tasks" in variants else 4
    for seed in range(1, 6):
        # The record is the truth: the sets come back when the game is rebuilt from it.
        state = from_record(to_record(random_game(Options(players, rounds, variants), seed)))
        for r in public_view(state)["round_scores"]:
            for seat in range(players):
                values = [s["type"] for s in r["sets"] if s["owner"] == seat]
                bonus = r["bonus"][seat] if r["bonus"] else 0
                assert sum(values) + bonus == r["scores"][seat]
            owners = [s["owner"] for s in r["sets"]]
            if r["ended_by"] == "types":
                assert max(owners.count(s) for s in range(players)) >= TYPES_TO_END[players]
            elif r["ended_by"] == "all-nine":
                assert sorted(s["type"] for s in r["sets"]) == sorted(VALUES)
            else:
                assert r["empty_piles"] and set(r["empty_piles"]) <= {"D1", "D2"}
