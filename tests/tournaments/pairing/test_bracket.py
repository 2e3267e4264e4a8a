import pytest
from hypothesis import given
from hypothesis import strategies as st

from tests.tournaments.pairing.sizes import CALL_TO_GLORY
from tournaments.pairing import (
    Advancement,
    PairingError,
    advancing,
    first_stage,
    next_stage,
    seed_tables,
    table_sizes,
)


def test_it_snake_seeds_smaller_tables_first() -> None:
    tables = seed_tables(list(range(1, 14)), rule=CALL_TO_GLORY)
    # 13 players: three tables of 3 and one of 4, no table of 2; the lowest seed starts.
    assert [sorted(t) for t in tables] == [[1, 8, 9], [2, 7, 10], [3, 6, 11], [4, 5, 12, 13]]
    assert tables[0] == [9, 8, 1]


def test_it_seeds_a_final_table_of_four() -> None:
    assert first_stage([11, 12, 13, 14], rule=CALL_TO_GLORY).tables == [[14, 13, 12, 11]]


@given(st.integers(2, 120), st.sampled_from([3, 4]))
def test_it_seats_every_seed_once_without_needless_twos(count: int, cap: int) -> None:
    seeds = list(range(1, count + 1))
    tables = seed_tables(seeds, max_size=cap, rule=CALL_TO_GLORY)
    assert sorted(p for t in tables for p in t) == seeds
    assert sorted((len(t) for t in tables), reverse=True) == table_sizes(
        count, max_size=cap, rule=CALL_TO_GLORY
    )
    # Snake seeding: the best seed at each table is 1, 2, …, one per table.
    assert sorted(min(t) for t in tables) == list(range(1, len(tables) + 1))


def test_it_advances_the_top_k_of_each_table() -> None:
    stage = first_stage(list(range(1, 13)), max_size=3, rule=CALL_TO_GLORY)  # four tables of 3
    assert [sorted(t) for t in stage.tables] == [[1, 8, 9], [2, 7, 10], [3, 6, 11], [4, 5, 12]]
    places = {
        **{1: 2, 8: 1, 9: 3},
        **{2: 1, 7: 3, 10: 2},
        **{3: 1, 6: 2, 11: 3},
        **{4: 3, 5: 1, 12: 2},
    }
    stage2 = next_stage(stage, places, advance=2, max_size=4, rule=CALL_TO_GLORY)
    assert stage2.advanced == [
        Advancement(player=8, from_table=0, place=1, seed=1),
        Advancement(player=2, from_table=1, place=1, seed=2),
        Advancement(player=3, from_table=2, place=1, seed=3),
        Advancement(player=5, from_table=3, place=1, seed=4),
        Advancement(player=1, from_table=0, place=2, seed=5),
        Advancement(player=10, from_table=1, place=2, seed=6),
        Advancement(player=6, from_table=2, place=2, seed=7),
        Advancement(player=12, from_table=3, place=2, seed=8),
    ]
    # Seeds 1–8 snake into two tables of 4: 1, 4, 5, 8 and 2, 3, 6, 7.
    assert [sorted(t) for t in stage2.tables] == [[1, 5, 8, 12], [2, 3, 6, 10]]
    final = next_stage(
        stage2, {8: 2, 5: 1, 1: 3, 12: 4, 2: 1, 3: 2, 6: 3, 10: 4}, advance=2, rule=CALL_TO_GLORY
    )
    assert [a.player for a in final.advanced] == [5, 2, 8, 3]
    assert final.tables == [[3, 8, 2, 5]]
    with pytest.raises(PairingError) as done:
        next_stage(final, {3: 1, 8: 2, 2: 3, 5: 4}, advance=1, rule=CALL_TO_GLORY)
    assert done.value.code == "bracket-finished"


def test_it_lets_a_shared_place_inside_the_cut_through() -> None:
    through = advancing([[1, 2, 3, 4]], {1: 1, 2: 1, 3: 3, 4: 4}, advance=2)
    assert [(a.player, a.place) for a in through] == [(1, 1), (2, 1)]


def test_it_refuses_a_tie_across_the_cut() -> None:
    with pytest.raises(PairingError) as tie:
        advancing([[1, 2, 3, 4]], {1: 1, 2: 2, 3: 2, 4: 4}, advance=2)
    assert tie.value.code == "tie-at-cut"
    with pytest.raises(PairingError) as missing:
        advancing([[1, 2, 3]], {1: 1, 2: 2}, advance=1)
    assert missing.value.code == "missing-result"
    with pytest.raises(PairingError) as everyone:
        advancing([[1, 2, 3]], {1: 1, 2: 2, 3: 3}, advance=3)
    assert everyone.value.code == "bad-advance"
