"""What Call to Glory's and De l'Orc's records share: each round keeps its actions as lines
of notation. Their replays cut records here; a game whose records look otherwise needs none
of it.
"""

from __future__ import annotations

import copy
from typing import Any


def action_lines(record: dict[str, Any]) -> list[tuple[int, str]]:
    """Every action of a record as (round index, text), in order."""
    return [
        (r, line)
        for r, rnd in enumerate(record.get("rounds", []))
        for line in rnd.get("actions", [])
    ]


def first_actions(record: dict[str, Any], lines: list[tuple[int, str]], count: int) -> dict:
    """The record cut after its first ``count`` actions (``lines``: its `action_lines`)."""
    truncated = copy.deepcopy(record)
    last_round = lines[count - 1][0] if count else 0
    kept = truncated["rounds"][: last_round + 1]
    for rnd in kept:
        rnd["actions"] = []
    for r, line in lines[:count]:
        kept[r]["actions"].append(line)
    truncated["rounds"] = kept
    return truncated
