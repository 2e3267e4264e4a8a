"""Table sizes, snake dealing and meeting counts shared by every format."""

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from itertools import combinations

from tournaments.pairing.errors import PairingError

PlayerId = int
Table = list[PlayerId]


@dataclass(frozen=True)
class SizeRule:
    """A game's table sizes: how many may play (`seats`) and what it plays best (`preferred`).

    Every seating is given one: pairing assumes no game's sizes (a game states them, as
    `games.registry.Game.seats` and `preferred_seats`).
    """

    seats: range
    preferred: tuple[int, ...]


def table_sizes(players: int, *, rule: SizeRule, max_size: int | None = None) -> list[int]:
    """Split `players` into tables the game allows, of at most `max_size`, largest first.

    Tables as close to the preferred sizes as can be (fewest seats away from them in all),
    then fewest tables of the smallest size, then fewest tables. For Call to Glory (2–4,
    preferring 4) this is: fewest tables, a table of 2 only when nothing else fits, then as
    many tables of `max_size` as possible: 13 → [4, 3, 3, 3], 6 → [3, 3], 5 → [3, 2].
    Without `max_size`, the game's largest table is the cap.
    """
    low, high = rule.seats.start, rule.seats.stop - 1
    if max_size is None:
        max_size = high
    if not low <= max_size <= high:
        raise PairingError("bad-table-size", f"tables hold {low} to {high} players, not {max_size}")
    if players < low:
        raise PairingError("too-few-players", f"{players} player(s) cannot fill a table")
    near, far = min(rule.preferred), max(rule.preferred)

    def cost(size: int) -> tuple[int, int, int]:
        away = near - size if size < near else max(0, size - far)
        return (away, int(size == low), 1)

    # best[n]: the cheapest split of n players (costs add up, so each prefix is cheapest too).
    best: list[tuple[tuple[int, int, int], list[int]] | None] = [((0, 0, 0), [])]
    for n in range(1, players + 1):
        options = []
        for size in range(max_size, low - 1, -1):
            before = best[n - size] if n >= size else None
            if before is not None:
                (away, small, count), (more_away, more_small, more) = before[0], cost(size)
                key = (away + more_away, small + more_small, count + more)
                options.append((key, [*before[1], size]))
        best.append(min(options, key=lambda option: option[0]) if options else None)
    found = best[players]
    if found is None:
        raise PairingError(
            "needs-bye", f"{players} players cannot all be seated at tables of {max_size}"
        )
    return sorted(found[1], reverse=True)


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
