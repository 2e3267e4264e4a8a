"""The error types of every engine."""

from __future__ import annotations


class IllegalAction(Exception):
    """A rule breach. `code` is stable and short; `message` names the rule (§ of the game's
    rules: RULES.md, ORC-RULES.md).

    Replaying a record fills `round` and `index` (both from 1) and `action` (the record text).
    """

    def __init__(
        self,
        code: str,
        message: str,
        *,
        round: int | None = None,
        index: int | None = None,
        action: str | None = None,
    ) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.round = round
        self.index = index
        self.action = action

    def __str__(self) -> str:
        if self.round is None:
            return f"{self.message} [{self.code}]"
        return (
            f"round {self.round}, action {self.index} ({self.action!r}): "
            f"{self.message} [{self.code}]"
        )


class RecordError(ValueError):
    """A game record that is not well formed (wrong shape, unknown names, a deck or the
    notation off, a round cut short)."""


class NotationError(ValueError):
    """Action text that is not the game's notation (§10 of Call to Glory's rules, §8 of De
    l'Orc's)."""
