"""Table sizes, snake dealing and meeting counts shared by every format."""

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from itertools import combinations

from tournaments.pairing.errors import PairingError

PlayerId = int
Table = list[PlayerId]

MIN_TABLE = 2
MAX_TABLE = 4


def table_sizes(players: int, *, max_size: int = MAX_TABLE) -> list[int]:
    """Split `players` into tables of 2–`max_size`, largest first.

    Fewest tables of 2 first (a table of 2 only when nothing else fits), then as many tables
    of `max_size` as possible: 13 → [4, 3, 3, 3], 6 → [3, 3], 5 → [3, 2], 2 → [2].
    """
    if not MIN_TABLE <= max_size <= MAX_TABLE:
        raise PairingError("bad-table-size", f"tables hold 2 to 4 players, not {max_size}")
    if players < MIN_TABLE:
        raise PairingError("too-few-players", f"{players} player(s) cannot fill a table")
    fours_allowed = max_size >= 4
    threes_allowed = max_size >= 3
    for twos in range(players // 2 + 1):
        rest = players - 2 * twos
        for fours in range(rest // 4 if fours_allowed else 0, -1, -1):
            threes, left = divmod(rest - 4 * fours, 3)
            if left == 0 and (threes == 0 or threes_allowed):
                return [4] * fours + [3] * threes + [2] * twos
    raise PairingError(
        "needs-bye", f"{players} players cannot all be seated at tables of {max_size}"
    )


def snake_deal(
    order: Sequence[PlayerId], sizes: Sequence[int], *, snake: bool = True
) -> list[Table]:
    """Deal `order` across tables of `sizes` row by row, reversing every other row if `snake`.

    With snake dealing table 1 gets seeds 1, 2T, 2T+1, …: every table gets a balanced mix.
    Without it (a slide) table 1 gets seeds 1, T+1, 2T+1, ….
    """
    if sum(sizes) != len(order):
        raise PairingError("bad-table-size", "table sizes do not add up to the players")
    tables: list[Table] = [[] for _ in sizes]
    position = 0
    for row in range(max(sizes, default=0)):
        indices = [t for t, size in enumerate(sizes) if size > row]
        if snake and row % 2 == 1:
            indices.reverse()
        for t in indices:
            tables[t].append(order[position])
            position += 1
    return tables


def meeting_counts(tables: Iterable[Sequence[PlayerId]]) -> Counter[tuple[PlayerId, PlayerId]]:
    """How often each pair (smaller id first) sat at the same table."""
    counts: Counter[tuple[PlayerId, PlayerId]] = Counter()
    for table in tables:
        for a, b in combinations(sorted(table), 2):
            counts[a, b] += 1
    return counts


def repeat_count(
    tables: Iterable[Sequence[PlayerId]], past: Mapping[tuple[PlayerId, PlayerId], int]
) -> int:
    """Total earlier meetings of the pairs seated together at `tables` (0 = no rematch)."""
    return sum(past.get((a, b), 0) for table in tables for a, b in combinations(sorted(table), 2))


def start_counts(tables: Iterable[Sequence[PlayerId]]) -> Counter[PlayerId]:
    """How often each player had the first seat (and so started the game)."""
    return Counter(table[0] for table in tables if table)


def check_unique(players: Sequence[PlayerId]) -> None:
    if len(set(players)) != len(players):
        raise PairingError("duplicate-player", "a player is listed twice")
