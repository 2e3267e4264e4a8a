"""Card types, task decks and the per-player-count constants of the rules (RULES.md §1, §7)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

# A type is named by its value; internally types are indices 0..8 into VALUES.
VALUES: tuple[int, ...] = (6, 7, 8, 9, 12, 14, 16, 18, 20)
N_TYPES = 9
N_CARDS = 110
TYPE_OF_VALUE: dict[int, int] = {v: t for t, v in enumerate(VALUES)}
NINJA_TYPE = TYPE_OF_VALUE[14]
# The "three dots" types need at least 3 cards in a set with 3 or 4 players (§4 2a).
THREE_DOT_TYPES = frozenset(TYPE_OF_VALUE[v] for v in (12, 14, 16))

# Different types in front of one player that end the round (§4), by player count.
TYPES_TO_END: dict[int, int] = {2: 6, 3: 5, 4: 4}

TASK_DECKS = ("A", "B", "C")
TASK_BONUS: tuple[int, ...] = (5, 4, 3)
DEFAULT_TASKS: Mapping[str, Sequence[int]] = {
    "A": (6, 7, 8, 9),
    "B": (9, 12, 14, 16),
    "C": (14, 16, 18, 20),
}

VARIANT_TASKS = "imperial-tasks"
VARIANT_NINJA = "ninja"
VARIANTS = frozenset({VARIANT_TASKS, VARIANT_NINJA})
N_MINIATURES = 4


def full_deck() -> list[int]:
    """The 110 cards as type indices, in a fixed order."""
    return [t for t, v in enumerate(VALUES) for _ in range(v)]


def task_code(deck: int, type_: int) -> int:
    return deck * N_TYPES + type_


def task_text(code: int) -> str:
    deck, type_ = divmod(code, N_TYPES)
    return f"{TASK_DECKS[deck]}{VALUES[type_]}"


def parse_task(text: str) -> int:
    """'A7' -> task code; raises ValueError."""
    if len(text) < 2 or text[0] not in TASK_DECKS or not text[1:].isdigit():
        raise ValueError(f"not a task card: {text!r}")
    value = int(text[1:])
    if value not in TYPE_OF_VALUE:
        raise ValueError(f"not a card value: {value}")
    return task_code(TASK_DECKS.index(text[0]), TYPE_OF_VALUE[value])
