import pytest
from hypothesis import given
from hypothesis import strategies as st

from tests.tournaments.pairing.sizes import CALL_TO_GLORY
from tournaments.pairing import PairingError, SizeRule, snake_deal, table_sizes


@pytest.mark.parametrize(
    ("players", "sizes"),
    [
        (2, [2]),
        (3, [3]),
        (4, [4]),
        (5, [3, 2]),
        (6, [3, 3]),
        (7, [4, 3]),
        (8, [4, 4]),
        (9, [3, 3, 3]),
        (10, [4, 3, 3]),
        (11, [4, 4, 3]),
        (13, [4, 3, 3, 3]),
        (14, [4, 4, 3, 3]),
    ],
)
def test_it_prefers_fours_then_threes(players: int, sizes: list[int]) -> None:
    assert table_sizes(players, rule=CALL_TO_GLORY) == sizes


@pytest.mark.parametrize(
    ("players", "sizes"),
    [(9, [3, 3, 3]), (10, [3, 3, 2, 2]), (8, [3, 3, 2]), (4, [2, 2]), (6, [2, 2, 2])],
)
def test_it_honours_a_cap(players: int, sizes: list[int]) -> None:
    assert table_sizes(players, max_size=sizes[0], rule=CALL_TO_GLORY) == sizes


def test_it_refuses_what_cannot_be_seated() -> None:
    with pytest.raises(PairingError) as one:
        table_sizes(1, rule=CALL_TO_GLORY)
    assert one.value.code == "too-few-players"
    with pytest.raises(PairingError) as odd:
        table_sizes(7, max_size=2, rule=CALL_TO_GLORY)
    assert odd.value.code == "needs-bye"
    with pytest.raises(PairingError) as big:
        table_sizes(10, max_size=5, rule=CALL_TO_GLORY)
    assert big.value.code == "bad-table-size"


@given(st.integers(2, 400), st.sampled_from([3, 4]))
def test_it_uses_a_table_of_two_only_when_nothing_else_fits(players: int, cap: int) -> None:
    sizes = table_sizes(players, max_size=cap, rule=CALL_TO_GLORY)
    assert sum(sizes) == players
    assert all(2 <= s <= cap for s in sizes)
    twos = sizes.count(2)
    if cap == 4:
        # Fours and threes make every count from 6 up, and 3 and 4 themselves.
        assert twos == (0 if players not in (2, 5) else 1)
        # Four tables of three would be better as three tables of four.
        assert sizes.count(3) <= 3
    else:
        assert twos == [0, 2, 1][players % 3]


def test_it_deals_in_a_snake() -> None:
    assert snake_deal(list(range(1, 9)), [4, 4]) == [[1, 4, 5, 8], [2, 3, 6, 7]]
    assert snake_deal(list(range(1, 9)), [4, 4], snake=False) == [[1, 3, 5, 7], [2, 4, 6, 8]]
    assert snake_deal(list(range(1, 8)), [3, 4]) == [[1, 4, 5], [2, 3, 6, 7]]


@pytest.mark.parametrize(
    ("players", "expected"),
    [
        (4, [4]),
        (8, [4, 4]),
        (9, [5, 4]),
        (11, [6, 5]),
        (12, [6, 6]),
        (14, [5, 5, 4]),
        (20, [5] * 4),
    ],
)
def test_it_seats_a_game_of_4_to_7_at_tables_of_5_and_6_where_it_can(players, expected):
    rule = SizeRule(seats=range(4, 8), preferred=(5, 6))
    assert table_sizes(players, max_size=7, rule=rule) == expected


def test_it_refuses_a_table_size_the_game_does_not_allow():
    with pytest.raises(PairingError):
        table_sizes(10, max_size=3, rule=SizeRule(seats=range(4, 8), preferred=(5, 6)))
