import random
from collections.abc import Iterator, Sequence
from itertools import combinations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.tournaments.pairing.sizes import CALL_TO_GLORY
from tournaments.pairing import (
    PairingError,
    meeting_counts,
    repeat_count,
    seat_first_round,
    seat_swiss_round,
    start_counts,
    table_sizes,
)


def chunk(order: Sequence[int], sizes: Sequence[int]) -> list[list[int]]:
    tables, position = [], 0
    for size in sizes:
        tables.append(list(order[position : position + size]))
        position += size
    return tables


def partitions(players: list[int], sizes: list[int]) -> Iterator[list[list[int]]]:
    """Every split of `players` into unordered tables with the multiset `sizes`."""
    if not players:
        yield []
        return
    first, rest = players[0], players[1:]
    for size in sorted(set(sizes)):
        left = list(sizes)
        left.remove(size)
        for others in combinations(rest, size - 1):
            remaining = [p for p in rest if p not in others]
            for tail in partitions(remaining, left):
                yield [[first, *others], *tail]


def assert_seated_once(tables: list[list[int]], players: Sequence[int], cap: int = 4) -> None:
    seated = [p for t in tables for p in t]
    assert sorted(seated) == sorted(players)
    assert sorted((len(t) for t in tables), reverse=True) == table_sizes(
        len(players), max_size=cap, rule=CALL_TO_GLORY
    )


fields = st.lists(st.integers(1, 10_000), min_size=2, max_size=80, unique=True)


@given(fields, st.integers(0, 2**32), st.sampled_from([3, 4]))
def test_it_seats_every_player_once_in_round_one(players: list[int], seed: int, cap: int) -> None:
    ratings = {p: float((p * 7919) % 3001) for p in players}
    for seeding in ("snake", "slide"):
        tables = seat_first_round(
            players, ratings=ratings, seeding=seeding, max_size=cap, rule=CALL_TO_GLORY
        )
        assert_seated_once(tables, players, cap)
    tables = seat_first_round(
        players, seeding="random", seed=seed, max_size=cap, rule=CALL_TO_GLORY
    )
    assert_seated_once(tables, players, cap)
    shuffled = list(reversed(players))
    again = seat_first_round(
        shuffled, seeding="random", seed=seed, max_size=cap, rule=CALL_TO_GLORY
    )
    assert again == tables


def test_it_needs_a_seed_or_ratings() -> None:
    with pytest.raises(PairingError) as random_error:
        seat_first_round([1, 2, 3], seeding="random", rule=CALL_TO_GLORY)
    assert random_error.value.code == "seed-required"
    with pytest.raises(PairingError) as rating_error:
        seat_first_round([1, 2, 3], ratings={1: 1500.0, 2: 1400.0}, rule=CALL_TO_GLORY)
    assert rating_error.value.code == "ratings-required"
    with pytest.raises(PairingError) as twice:
        seat_swiss_round([1, 2, 1], [], rule=CALL_TO_GLORY)
    assert twice.value.code == "duplicate-player"


def test_it_snakes_round_one_by_rating() -> None:
    ratings = {p: 2000.0 - p for p in range(1, 9)}  # player 1 is the best
    tables = seat_first_round(list(range(1, 9)), ratings=ratings, rule=CALL_TO_GLORY)
    # Table 1 gets seeds 1, 4, 5, 8; the lowest seed starts.
    assert tables == [[8, 5, 4, 1], [7, 6, 3, 2]]
    slide = seat_first_round(
        list(range(1, 9)), ratings=ratings, seeding="slide", rule=CALL_TO_GLORY
    )
    assert slide == [[7, 5, 3, 1], [8, 6, 4, 2]]


@settings(max_examples=60, deadline=None)
@given(
    st.integers(2, 120),
    st.integers(0, 4),
    st.integers(0, 2**32),
    st.sampled_from([3, 4]),
)
def test_it_seats_later_rounds_deterministically(
    count: int, rounds: int, seed: int, cap: int
) -> None:
    rng = random.Random(seed)
    players = rng.sample(range(1, 1000), count)
    past: list[list[int]] = []
    for _ in range(rounds):
        rng.shuffle(players)
        past.extend(chunk(players, table_sizes(count, max_size=cap, rule=CALL_TO_GLORY)))
    standing = rng.sample(players, count)
    tables = seat_swiss_round(standing, past, max_size=cap, rule=CALL_TO_GLORY)
    assert_seated_once(tables, standing, cap)
    assert seat_swiss_round(standing, past, max_size=cap, rule=CALL_TO_GLORY) == tables
    # Never worse than consecutive groups of the standing.
    naive = chunk(standing, table_sizes(count, max_size=cap, rule=CALL_TO_GLORY))
    met = meeting_counts(past)
    assert repeat_count(tables, met) <= repeat_count(naive, met)
    # The player who started least sits first, at every table.
    starts = start_counts(past)
    for table in tables:
        assert starts[table[0]] == min(starts[p] for p in table)


@settings(max_examples=40, deadline=None)
@given(st.integers(6, 9), st.integers(0, 2**32), st.sampled_from([3, 4]))
def test_it_matches_the_brute_force_minimum_of_repeats(count: int, seed: int, cap: int) -> None:
    rng = random.Random(seed)
    players = list(range(1, count + 1))
    sizes = table_sizes(count, max_size=cap, rule=CALL_TO_GLORY)
    past: list[list[int]] = []
    for _ in range(2):
        rng.shuffle(players)
        past.extend(chunk(players, sizes))
    standing = rng.sample(players, count)
    met = meeting_counts(past)
    optimum = min(repeat_count(p, met) for p in partitions(sorted(players), sizes))
    tables = seat_swiss_round(standing, past, max_size=cap, rule=CALL_TO_GLORY)
    assert repeat_count(tables, met) == optimum


def test_it_keeps_standings_together_when_there_are_no_repeats() -> None:
    standing = list(range(1, 13))
    assert seat_swiss_round(standing, [], rule=CALL_TO_GLORY) == [
        [4, 3, 2, 1],
        [8, 7, 6, 5],
        [12, 11, 10, 9],
    ]


def test_it_moves_the_nearest_player_to_avoid_a_rematch() -> None:
    standing = list(range(1, 13))
    # 1 and 2 met; swapping 2 with 5 (the closest possible) removes the only repeat.
    tables = seat_swiss_round(standing, [[1, 2]], rule=CALL_TO_GLORY)
    met = meeting_counts([[1, 2]])
    assert repeat_count(tables, met) == 0
    assert [sorted(t) for t in tables] == [[1, 3, 4, 5], [2, 6, 7, 8], [9, 10, 11, 12]]


def test_it_avoids_rematches_in_a_large_field() -> None:
    rng = random.Random(7)
    players = list(range(1, 201))
    past: list[list[int]] = []
    for _ in range(3):
        standing = rng.sample(players, len(players))
        past.extend(seat_swiss_round(standing, past, rule=CALL_TO_GLORY))
    tables = seat_swiss_round(sorted(players), past, rule=CALL_TO_GLORY)
    assert repeat_count(tables, meeting_counts(past)) == 0


def test_it_rotates_the_start() -> None:
    # Four players at one table for four rounds: each starts exactly once.
    past: list[list[int]] = []
    for _ in range(4):
        past.extend(seat_swiss_round([1, 2, 3, 4], past, rule=CALL_TO_GLORY))
    assert sorted(start_counts(past).values()) == [1, 1, 1, 1]
    # The first start goes to the player lowest in the standing.
    assert past[0][0] == 4
