"""Single-observer ISMCTS (work in progress)."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(slots=True)
class Stats:
    iterations: int = 0
    seconds: float = 0.0

    def reset(self) -> None:
        self.iterations = 0
        self.seconds = 0.0


# Statistics of the last search in this process (for the arena).
LAST = Stats()
