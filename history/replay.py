"""Positions of a game after its first N actions, rebuilt from the record by the engine."""

from __future__ import annotations

import copy

from games.ctg import engine
from games.orc import engine as orc_engine
from games.orc.engine.record import FORMAT as ORC_FORMAT


def action_lines(record: dict) -> list[tuple[int, str]]:
    """Every action of a record as (round index, text), in order."""
    return [
        (r, line)
        for r, rnd in enumerate(record.get("rounds", []))
        for line in rnd.get("actions", [])
    ]


def position(record: dict, step: int) -> engine.State | orc_engine.State:
    """The state after the first ``step`` actions; decks of later rounds come from the record.

    The engine applies forced decisions by itself, so a step that lands just before one shows
    it already applied: the replay never shows a position that could not be seen in play.
    """
    if record.get("format") == ORC_FORMAT:
        return orc_position(record, step)
    lines = action_lines(record)
    step = max(0, min(step, len(lines)))
    truncated = copy.deepcopy(record)
    last_round = lines[step - 1][0] if step else 0
    kept = truncated["rounds"][: last_round + 1]
    for rnd in kept:
        rnd["actions"] = []
    for r, line in lines[:step]:
        kept[r]["actions"].append(line)
    truncated["rounds"] = kept
    state = engine.from_record(truncated)
    rounds = record["rounds"]
    while state.decider is None and not state.game_over and state.rnd < len(rounds):
        state.add_deck(rounds[state.rnd]["deck"])
    return state


def orc_position(record: dict, step: int) -> orc_engine.State:
    """De l'Orc after its first ``step`` actions. In the deal the piles are shown as they were
    when that action went down (its ``@k``): never a card dealt after it."""
    lines = action_lines(record)
    step = max(0, min(step, len(lines)))
    truncated = copy.deepcopy(record)
    last_round = lines[step - 1][0] if step else 0
    kept = truncated["rounds"][: last_round + 1]
    for rnd in kept:
        rnd["actions"] = []
    for r, line in lines[:step]:
        kept[r]["actions"].append(line)
    truncated["rounds"] = kept
    state = orc_engine.from_record(truncated)
    rounds = record["rounds"]
    while state.pending is None and not state.game_over and state.rnd < len(rounds):
        state.add_round(rounds[state.rnd]["deck"], rounds[state.rnd]["start_after"])
    return state
