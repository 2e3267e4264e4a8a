"""Round robins: the circle method for tables of 2, balanced meetings for larger tables."""

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field

from tournaments.pairing.errors import PairingError
from tournaments.pairing.grouping import arrange
from tournaments.pairing.swiss import seat_order
from tournaments.pairing.tables import PlayerId, SizeRule, Table, check_unique, table_sizes


@dataclass(frozen=True)
class RoundRobinRound:
    tables: list[Table]
    byes: list[PlayerId] = field(default_factory=list)


def round_robin(
    players: Sequence[PlayerId],
    *,
    table_size: int = 2,
    rounds: int | None = None,
    rule: SizeRule,
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
    table_sizes(len(players), max_size=table_size, rule=rule)  # validates the size
    count = rounds if rounds is not None else -(-(len(players) - 1) // (table_size - 1))
    return _balanced(list(players), table_size, count, rule)


def _circle(players: list[PlayerId], rounds: int | None) -> list[RoundRobinRound]:
    # With an odd count the empty seat takes the fixed slot: whoever faces it sits out.
    slots: list[PlayerId | None] = [None, *players] if len(players) % 2 else list(players)
    n = len(slots)
    cycle: list[RoundRobinRound] = []
    for turn in range(n - 1):
        # Slot 0 stays; the others move one position on each round, visiting every position.
        order = [slots[0], *(slots[1 + (i - turn) % (n - 1)] for i in range(n - 1))]
        tables: list[Table] = []
        byes: list[PlayerId] = []
        for i in range(n // 2):
            a, b = order[i], order[n - 1 - i]
            # The top row sits first, so everyone starts in about half of the games; the
            # fixed slot alternates instead.
            if i == 0 and turn % 2 == 1:
                a, b = b, a
            if a is None or b is None:
                byes.extend(p for p in (a, b) if p is not None)
            else:
                tables.append([a, b])
        cycle.append(RoundRobinRound(tables=tables, byes=byes))
    count = rounds if rounds is not None else len(cycle)
    schedule: list[RoundRobinRound] = []
    for r in range(count):
        base = cycle[r % len(cycle)]
        if (r // len(cycle)) % 2 == 1:
            # A further cycle repeats the first with seats swapped.
            base = RoundRobinRound(tables=[[b, a] for a, b in base.tables], byes=list(base.byes))
        schedule.append(base)
    return schedule


def _balanced(
    players: list[PlayerId], table_size: int, count: int, rule: SizeRule
) -> list[RoundRobinRound]:
    n = len(players)
    sizes = table_sizes(n, max_size=table_size, rule=rule)
    rank = {p: i for i, p in enumerate(players)}
    meetings = [[0] * n for _ in range(n)]
    starts: Counter[PlayerId] = Counter()
    schedule: list[RoundRobinRound] = []
    for _ in range(count):
        # Squared counts: a third meeting of one pair costs more than second meetings of two.
        penalty = [[c * c for c in row] for row in meetings]
        groups = sorted(arrange(sizes, penalty, spread=False), key=min)
        tables = [seat_order([players[i] for i in g], rank, starts) for g in groups]
        for group in groups:
            for i, a in enumerate(group):
                for b in group[i + 1 :]:
                    meetings[a][b] += 1
                    meetings[b][a] += 1
        starts.update(t[0] for t in tables)
        schedule.append(RoundRobinRound(tables=tables))
    return schedule
