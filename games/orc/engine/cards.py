"""Card codes, counts and the numbers that depend on the player count (ORC-RULES.md §1, §2)."""

from __future__ import annotations

PEOPLES = ("B", "M", "S", "D")

# Index order matters: people p owns codes 3p (warrior), 3p+1 (veteran), 3p+2 (chief).
CODES: tuple[str, ...] = (
    "B2", "B6", "BC",
    "M2", "M6", "MC",
    "S2", "S6", "SC",
    "D2", "D6", "DC",
    "GR", "GI", "TR", "WM", "FM", "CG",
    "SP1", "SP2", "SP3", "SP4",
)  # fmt: skip
N_CODES = len(CODES)
INDEX: dict[str, int] = {c: i for i, c in enumerate(CODES)}
GR, GI, TR, WM, FM, CG, SP1, SP2, SP3, SP4 = range(12, 22)
SPIES = (SP1, SP2, SP3, SP4)
# What `send` may commit (§4.3); the flying machine and the commando have their own steps.
SENDABLE = (GI, TR, WM, GR)
COPIES: tuple[int, ...] = (7, 4, 2) * 4 + (8, 6, 4, 4, 1, 1, 1, 1, 1, 1)
N_CARDS = 80
MERCENARY = "mercenary"
PEOPLE_GROUP = "people"


def group_of(code: int) -> int:
    """The group shown on the card's back: people 0-3, or 4 for a mercenary."""
    return code // 3 if code < 12 else 4


def full_deck() -> list[int]:
    """The 80 army cards in code order."""
    return [c for c in range(N_CODES) for _ in range(COPIES[c])]


PILES = {4: 9, 5: 11, 6: 13, 7: 14}
DESERTERS = {4: 2, 5: 2, 6: 1, 7: 1}
TARGET = {4: 8, 5: 8, 6: 7, 7: 6}
SHIELDS = 2
BATTLE_POINTS = (2, 1, 1, 2)
START_MIN, START_MAX = 27, 53
PACES = (0.8, 1.2, 2.0)

assert sum(COPIES) == N_CARDS
