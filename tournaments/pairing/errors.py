"""Errors raised by the pairing algorithms; each carries a stable code for the caller."""


class PairingError(ValueError):
    """A request the algorithms cannot satisfy (too few players, a tie at a cut, …)."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
