"""The engine's two error types."""

from __future__ import annotations


class IllegalAction(Exception):
    """A rule breach. `code` is stable and short; `message` names the rule (§ of RULES.md).

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
    """A game record that is not well formed (wrong shape, unknown names, a round cut short)."""


class NotationError(ValueError):
    """Action text that is not §10 notation."""
