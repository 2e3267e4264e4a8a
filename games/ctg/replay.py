"""Call to Glory's replay: a step is one action of the record (RULES.md §10)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from games.ctg import engine
from games.records import action_lines, first_actions
from games.registry import ReplayStep


def steps(record: dict[str, Any]) -> list[ReplayStep]:
    return [ReplayStep(i, line) for i, (_r, line) in enumerate(action_lines(record), 1)]


def position(record: dict[str, Any], actions: int) -> engine.State:
    """The state after the record's first ``actions`` actions; decks of later rounds come from
    the record.

    The engine applies forced decisions by itself, so a step that lands just before one shows
    it already applied: the replay never shows a position that could not be seen in play.
    """
    lines = action_lines(record)
    actions = max(0, min(actions, len(lines)))
    state = engine.from_record(first_actions(record, lines, actions))
    rounds = record["rounds"]
    while state.decider is None and not state.game_over and state.rnd < len(rounds):
        state.add_deck(rounds[state.rnd]["deck"])
    return state


def piles(board: Mapping[str, Any]) -> dict[str, list[dict[str, Any]]]:
    """The board's discard piles, top card first, as the replay lists them under it."""
    return {pile: cards[::-1] for pile, cards in board.get("discard_piles", {}).items()}
