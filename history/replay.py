"""Stepping through a table's replay: its game's replay part gives the steps and the position
at each (`Replay.steps`, `Replay.position`); history moves between them."""

from __future__ import annotations

from games.registry import Replay, ReplayStep


def position[S](replay: Replay[S], record: dict, steps: list[ReplayStep], step: int) -> S:
    """The position at replay step ``step`` of ``steps`` (0: the start)."""
    step = max(0, min(step, len(steps)))
    return replay.position(record, steps[step - 1] if step else None)


def skips(steps: list[ReplayStep]) -> bool:
    """Whether the replay has steps that take no action (De l'Orc's army cards), which a
    player may skip."""
    return any(not s.text for s in steps)


def jumps(steps: list[ReplayStep], step: int) -> dict[str, int | None]:
    """Where a replay with steps that take no action skips to from ``step``: the previous and
    the next action (past the steps between them), and the last step of the stretch under
    way, such as a deal (None outside one)."""
    actions = [i for i, s in enumerate(steps, 1) if s.text]
    following = steps[step] if step < len(steps) else None
    stretch_end = None
    if following is not None and following.stretch is not None:
        stretch_end = max(i for i, s in enumerate(steps, 1) if s.stretch == following.stretch)
    return {
        "previous": max((i for i in actions if i < step), default=0),
        "next": min((i for i in actions if i > step), default=len(steps)),
        "deal_end": stretch_end,
    }
