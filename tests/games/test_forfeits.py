"""Players who forfeited on time are placed after everyone who played to the end."""

import pytest

from games.registry import with_forfeits


@pytest.mark.parametrize(
    ("placings", "forfeited", "expected"),
    [
        ([1, 2, 3, 4], [False] * 4, [1, 2, 3, 4]),
        # The winner forfeited: everyone else moves up, he comes last.
        ([1, 2, 3, 4], [True, False, False, False], [4, 1, 2, 3]),
        # Ties stay ties within each group.
        ([1, 1, 3, 4], [False, False, True, False], [1, 1, 4, 3]),
        ([1, 2, 2, 4], [True, False, False, True], [3, 1, 1, 4]),
        # Two who forfeited with the same score share the place after the others.
        ([2, 1, 2, 4], [True, False, True, False], [3, 1, 3, 2]),
    ],
)
def test_it_places_forfeits_after_the_others(placings, forfeited, expected):
    assert with_forfeits(placings, forfeited) == expected
