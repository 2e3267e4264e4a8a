"""Swiss rounds at a game's tables: seeded first round, then similar standings, few rematches."""

import random
from collections.abc import Iterable, Mapping, Sequence
from typing import Literal

from tournaments.pairing.errors import PairingError
from tournaments.pairing.grouping import arrange
from tournaments.pairing.tables import (
    PlayerId,
    SizeRule,
    Table,
    check_unique,
    snake_deal,
    start_counts,
    table_sizes,
)

Seeding = Literal["snake", "slide", "random"]


def seat_order(
    table: Sequence[PlayerId], rank: Mapping[PlayerId, int], starts: Mapping[PlayerId, int]
) -> Table:
    """Seat order for one table: the player who has started least sits first (and starts).

    Ties go to the player lower in the standing, as the game itself gives the start of later
    rounds to the player behind (RULES §3).
    """
    return sorted(table, key=lambda p: (starts.get(p, 0), -rank[p]))


def seat_first_round(
    players: Sequence[PlayerId],
    *,
    ratings: Mapping[PlayerId, float] | None = None,
    seeding: Seeding = "snake",
    seed: int | None = None,
    rule: SizeRule,
    max_size: int | None = None,
    starts: Mapping[PlayerId, int] | None = None,
) -> list[Table]:
    """Round 1: deal players by rating into tables, or shuffle them with `seed`.

    "snake" deals the rating order boustrophedon so each table gets a balanced mix (for tables
    of 2 this is the chess fold, 1 v n); "slide" deals every row the same way (1 v n/2+1);
    "random" shuffles with `seed` (required, so the draw can be repeated). The result does not
    depend on the order of `players`.
    """
    check_unique(players)
    sizes = table_sizes(len(players), max_size=max_size, rule=rule)
    if seeding == "random":
        if seed is None:
            raise PairingError("seed-required", "a random first round needs a seed")
        order = sorted(players)
        random.Random(seed).shuffle(order)
        tables: list[Table] = []
        position = 0
        for size in sizes:
            tables.append(order[position : position + size])
            position += size
        # A shuffled seat order is already fair; only earlier starts may reorder it.
        return [sorted(t, key=lambda p: (starts or {}).get(p, 0)) for t in tables]
    if ratings is None:
        raise PairingError("ratings-required", "seeding by rating needs every player's rating")
    missing = [p for p in players if p not in ratings]
    if missing:
        raise PairingError("ratings-required", f"no rating for players {sorted(missing)}")
    order = sorted(players, key=lambda p: (-ratings[p], p))
    rank = {p: i for i, p in enumerate(order)}
    tables = snake_deal(order, sizes, snake=seeding == "snake")
    return [seat_order(t, rank, starts or {}) for t in tables]


def seat_swiss_round(
    standing: Sequence[PlayerId],
    past_tables: Iterable[Sequence[PlayerId]],
    *,
    rule: SizeRule,
    max_size: int | None = None,
    starts: Mapping[PlayerId, int] | None = None,
) -> list[Table]:
    """A later round: consecutive groups of the standing, moved apart only to avoid rematches.

    `standing` lists the checked-in players best first; `past_tables` are the earlier tables
    of the event in seat order (players no longer present are ignored). The total number of
    earlier meetings among players seated together is the minimum reachable (exactly so up to
    12 players; by pairwise swaps between tables beyond that), and among equally good seatings
    players stay closest to their standing. Tables come top of the standing first; at each
    table the player who has started least sits first. `starts` overrides the start counts
    read from the first seats of `past_tables`.
    """
    check_unique(standing)
    sizes = table_sizes(len(standing), max_size=max_size, rule=rule)
    rank = {p: i for i, p in enumerate(standing)}
    n = len(standing)
    meetings = [[0] * n for _ in range(n)]
    past = list(past_tables)
    for table in past:
        present = [rank[p] for p in table if p in rank]
        for i, a in enumerate(present):
            for b in present[i + 1 :]:
                meetings[a][b] += 1
                meetings[b][a] += 1
    groups = arrange(sizes, meetings, spread=True)
    groups.sort(key=min)
    counts = starts if starts is not None else start_counts(past)
    return [seat_order([standing[i] for i in group], rank, counts) for group in groups]
