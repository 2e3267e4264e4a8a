"""Round robins: the circle method for tables of 2, balanced meetings for larger tables."""

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field

from leagues.pairing.errors import PairingError
from leagues.pairing.grouping import arrange
from leagues.pairing.swiss import seat_order
from leagues.pairing.tables import PlayerId, Table, check_unique, table_sizes


@dataclass(frozen=True)
class RoundRobinRound:
    tables: list[Table]
    byes: list[PlayerId] = field(default_factory=list)


def round_robin(
    players: Sequence[PlayerId], *, table_size: int = 2, rounds: int | None = None
) -> list[RoundRobinRound]:
    """A schedule in which meetings are spread as evenly as the table size allows.

    Tables of 2: the circle method; every pair meets once in n-1 rounds (n rounds and one bye
    each when n is odd); further rounds repeat the cycle with seats swapped. Larger tables:
    each round is split to add as few repeat meetings as possible, by default
    ceil((n-1)/(table_size-1)) rounds, the fewest in which everyone could meet everyone.
    Players are seated so that starts rotate.
    """
    check_unique(players)
    if len(players) < 2:
        raise PairingError("too-few-players", "a round robin needs two players")
    if table_size == 2:
        return _circle(list(players), rounds)
    table_sizes(len(players), max_size=table_size)  # validates the size
    count = rounds if rounds is not None else -(-(len(players) - 1) // (table_size - 1))
    return _balanced(list(players), table_size, count)


def _circle(players: list[PlayerId], rounds: int | None) -> list[RoundRobinRound]:
    slots: list[PlayerId | None] = [*players, None] if len(players) % 2 else list(players)
    n = len(slots)
    cycle = n - 1
    count = rounds if rounds is not None else cycle
    schedule: list[RoundRobinRound] = []
    for r in range(count):
        turn = r % cycle
        # Slot 0 stays; the others rotate one place each round.
        order = [slots[0], *(slots[1 + (i - turn) % cycle] for i in range(cycle))]
        tables: list[Table] = []
        byes: list[PlayerId] = []
        for i in range(n // 2):
            a, b = order[i], order[n - 1 - i]
            # Alternate who sits first: the fixed slot by round, the others by position.
            if (i == 0 and turn % 2 == 1) or (i > 0 and i % 2 == 1):
                a, b = b, a
            if (r // cycle) % 2 == 1:
                a, b = b, a
            if a is None:
                if b is not None:
                    byes.append(b)
            elif b is None:
                byes.append(a)
            else:
                tables.append([a, b])
        schedule.append(RoundRobinRound(tables=tables, byes=byes))
    return schedule


def _balanced(players: list[PlayerId], table_size: int, count: int) -> list[RoundRobinRound]:
    n = len(players)
    sizes = table_sizes(n, max_size=table_size)
    rank = {p: i for i, p in enumerate(players)}
    meetings = [[0] * n for _ in range(n)]
    starts: Counter[PlayerId] = Counter()
    schedule: list[RoundRobinRound] = []
    for _ in range(count):
        groups = sorted(arrange(sizes, meetings, spread=False), key=min)
        tables = [seat_order([players[i] for i in g], rank, starts) for g in groups]
        for group in groups:
            for i, a in enumerate(group):
                for b in group[i + 1 :]:
                    meetings[a][b] += 1
                    meetings[b][a] += 1
        starts.update(t[0] for t in tables)
        schedule.append(RoundRobinRound(tables=tables))
    return schedule
