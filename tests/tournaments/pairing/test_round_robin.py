from collections import Counter
from itertools import combinations

from hypothesis import given
from hypothesis import strategies as st

from tests.tournaments.pairing.sizes import CALL_TO_GLORY
from tournaments.pairing import meeting_counts, round_robin


@given(st.integers(2, 16))
def test_it_meets_every_pair_once_at_tables_of_two(count: int) -> None:
    players = list(range(101, 101 + count))
    schedule = round_robin(players, rule=CALL_TO_GLORY)
    assert len(schedule) == (count if count % 2 else count - 1)
    for rnd in schedule:
        seated = [p for t in rnd.tables for p in t] + rnd.byes
        assert sorted(seated) == players
        assert all(len(t) == 2 for t in rnd.tables)
    met = meeting_counts(t for rnd in schedule for t in rnd.tables)
    assert met == Counter(dict.fromkeys(combinations(players, 2), 1))
    byes = Counter(p for rnd in schedule for p in rnd.byes)
    assert byes == (Counter(players) if count % 2 else Counter())
    # Starts (first seat) are spread: nobody starts more than one game more than another.
    starts = Counter(t[0] for rnd in schedule for t in rnd.tables)
    assert max(starts[p] for p in players) - min(starts[p] for p in players) <= 1


def test_it_repeats_the_cycle_with_seats_swapped() -> None:
    schedule = round_robin([1, 2, 3, 4], rounds=6, rule=CALL_TO_GLORY)
    first = [t for rnd in schedule[:3] for t in rnd.tables]
    second = [t for rnd in schedule[3:] for t in rnd.tables]
    assert second == [list(reversed(t)) for t in first]


def test_it_meets_everyone_once_in_nine_at_tables_of_three() -> None:
    schedule = round_robin(list(range(1, 10)), table_size=3, rule=CALL_TO_GLORY)
    assert len(schedule) == 4
    met = meeting_counts(t for rnd in schedule for t in rnd.tables)
    assert met == Counter(dict.fromkeys(combinations(range(1, 10), 2), 1))
    starts = Counter(t[0] for rnd in schedule for t in rnd.tables)
    assert sum(starts.values()) == 12
    assert max(starts.values()) == 2


@given(st.integers(5, 14), st.sampled_from([3, 4]))
def test_it_balances_meetings_at_larger_tables(count: int, size: int) -> None:
    players = list(range(1, count + 1))
    schedule = round_robin(players, table_size=size, rule=CALL_TO_GLORY)
    for rnd in schedule:
        assert sorted(p for t in rnd.tables for p in t) == players
        assert not rnd.byes
    met = meeting_counts(t for rnd in schedule for t in rnd.tables)
    counts = [met[pair] for pair in combinations(players, 2)]
    assert max(counts) - min(counts) <= 2
