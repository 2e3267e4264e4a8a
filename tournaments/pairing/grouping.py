"""Split a ranked field into tables: fewest repeat meetings first, then closest standings.

Players are indices 0..n-1 in standing order. The cost of a table is
``weight * (earlier meetings of its pairs) + (rank distance of its pairs)``, with `weight`
larger than any total rank distance, so one fewer repeat always beats any standings change.
Small fields are solved exactly; larger ones start from consecutive groups and improve by
swapping two players between tables until no swap helps.
"""

from collections.abc import Iterable, Sequence
from itertools import combinations

# 12 players is at most 15 400 partitions: exact in a few milliseconds with pruning.
EXACT_LIMIT = 12
# Tables without repeats only look this far up and down for a closer-standings swap.
NEIGHBOURS = 2

Meetings = list[list[int]]


def arrange(sizes: Sequence[int], meetings: Meetings, *, spread: bool = True) -> list[list[int]]:
    """Tables of indices with `sizes` (in that order when searching locally)."""
    n = sum(sizes)
    weight = 2 * n * n + 1 if spread else 1
    distance = 1 if spread else 0
    if n <= EXACT_LIMIT:
        return _exact(n, sizes, meetings, weight, distance)
    return _local(sizes, meetings, weight, distance)


def _pair_cost(a: int, b: int, meetings: Meetings, weight: int, distance: int) -> int:
    return weight * meetings[a][b] + distance * abs(a - b)


def _exact(
    n: int, sizes: Sequence[int], meetings: Meetings, weight: int, distance: int
) -> list[list[int]]:
    remaining = {size: sizes.count(size) for size in set(sizes)}
    order = sorted(remaining, reverse=True)
    assigned = [False] * n
    current: list[tuple[int, ...]] = []
    best: list[tuple[int, ...]] = []
    best_cost = -1

    def table_cost(members: tuple[int, ...]) -> int:
        return sum(
            _pair_cost(a, b, meetings, weight, distance) for a, b in combinations(members, 2)
        )

    def search(cost: int) -> None:
        nonlocal best, best_cost
        if best_cost >= 0 and cost >= best_cost:
            return
        first = next((i for i in range(n) if not assigned[i]), None)
        if first is None:
            best, best_cost = list(current), cost
            return
        free = [i for i in range(first + 1, n) if not assigned[i]]
        for size in order:
            if remaining[size] == 0:
                continue
            remaining[size] -= 1
            for others in combinations(free, size - 1):
                members = (first, *others)
                for i in members:
                    assigned[i] = True
                current.append(members)
                search(cost + table_cost(members))
                current.pop()
                for i in members:
                    assigned[i] = False
            remaining[size] += 1

    search(0)
    return [list(members) for members in best]


def _local(sizes: Sequence[int], meetings: Meetings, weight: int, distance: int) -> list[list[int]]:
    tables: list[list[int]] = []
    start = 0
    for size in sizes:
        tables.append(list(range(start, start + size)))
        start += size
    count = len(tables)

    def repeats(table: list[int]) -> int:
        return sum(meetings[a][b] for a, b in combinations(table, 2))

    cost = [
        [weight * met + distance * abs(a - b) for b, met in enumerate(row)]
        for a, row in enumerate(meetings)
    ]

    def contribution(player: int, others: list[int]) -> int:
        return sum(map(cost[player].__getitem__, others))

    def best_swap(
        a: int, candidates: Iterable[int], movers: list[int]
    ) -> tuple[int, int, int, int]:
        """(delta, b, i, j) of the best swap of tables[a][i] (i in movers) with tables[b][j]."""
        best = (0, -1, -1, -1)
        table_a = tables[a]
        rests_a = {i: table_a[:i] + table_a[i + 1 :] for i in movers}
        own_a = {i: contribution(table_a[i], rests_a[i]) for i in movers}
        for b in candidates:
            table_b = tables[b]
            for j, y in enumerate(table_b):
                rest_b = table_b[:j] + table_b[j + 1 :]
                own_b = contribution(y, rest_b)
                for i in movers:
                    x = table_a[i]
                    delta = contribution(y, rests_a[i]) - own_a[i] + contribution(x, rest_b) - own_b
                    if delta < best[0]:
                        best = (delta, b, i, j)
        return best

    # Any swap that removes a repeat lowers the cost by about `weight`; spread changes are
    # far smaller, so a delta below -weight/2 means one fewer repeat.
    removes_repeat = -(weight // 2) if distance else 0
    table_repeats = [repeats(table) for table in tables]
    # Consecutive groups are already closest in standings: start from tables with repeats.
    pending = [a for a in reversed(range(count)) if table_repeats[a]]
    queued = set(pending)
    while pending:
        a = pending.pop()
        queued.discard(a)
        near = [b for b in range(a - NEIGHBOURS, a + NEIGHBOURS + 1) if 0 <= b < count and b != a]
        found = best_swap(a, near, list(range(len(tables[a]))))
        if table_repeats[a] and found[0] >= removes_repeat:
            # Look further out, ring by ring, moving only players who have met a tablemate.
            movers = [
                i
                for i, x in enumerate(tables[a])
                if any(meetings[x][y] for y in tables[a] if y != x)
            ]
            for ring in range(NEIGHBOURS + 1, count):
                far = [b for b in (a - ring, a + ring) if 0 <= b < count]
                if not far:
                    break
                wider = best_swap(a, far, movers)
                if wider[0] < found[0]:
                    found = wider
                if found[0] < removes_repeat:
                    break
        delta, b, i, j = found
        if delta < 0:
            tables[a][i], tables[b][j] = tables[b][j], tables[a][i]
            table_repeats[a] = repeats(tables[a])
            table_repeats[b] = repeats(tables[b])
            for t in (a, b):
                for u in range(t - NEIGHBOURS, t + NEIGHBOURS + 1):
                    if 0 <= u < count and u not in queued:
                        queued.add(u)
                        pending.append(u)
    return tables
