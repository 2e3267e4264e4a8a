import random

from hypothesis import given
from hypothesis import strategies as st

from tournaments.pairing import qualification_marks


def test_it_marks_the_cut_after_the_last_but_one_round() -> None:
    points = {1: 12.0, 2: 10.0, 3: 8.0, 4: 6.5, 5: 3.0}
    marks = qualification_marks(points, cut=2, rounds_left=1, max_per_round=3)
    assert marks == {1: "qualified", 2: "open", 3: "open", 4: "eliminated", 5: "eliminated"}


def test_it_leaves_a_reachable_tie_open() -> None:
    # 4 can draw level with 2 (7 + 3 = 10) and might win the tie-break.
    points = {1: 12.0, 2: 10.0, 3: 8.0, 4: 7.0}
    marks = qualification_marks(points, cut=2, rounds_left=1, max_per_round=3)
    assert marks[4] == "open"


def test_it_leaves_a_final_tie_across_the_cut_to_the_tie_breaks() -> None:
    points = {1: 6.0, 2: 6.0, 3: 6.0, 4: 0.0}
    marks = qualification_marks(points, cut=2, rounds_left=0, max_per_round=3)
    assert marks == {1: "open", 2: "open", 3: "open", 4: "eliminated"}
    assert qualification_marks(points, cut=4, rounds_left=3, max_per_round=3) == dict.fromkeys(
        points, "qualified"
    )


@given(
    st.lists(st.integers(0, 24), min_size=2, max_size=12),
    st.integers(1, 6),
    st.integers(0, 3),
    st.integers(0, 2**32),
)
def test_it_never_marks_wrongly(halves: list[int], cut: int, rounds_left: int, seed: int) -> None:
    points = {p: h / 2 for p, h in enumerate(halves)}
    marks = qualification_marks(points, cut=cut, rounds_left=rounds_left, max_per_round=3)
    rng = random.Random(seed)
    for _ in range(20):
        final = {
            p: v + sum(rng.choice([0, 1, 1.5, 2, 3]) for _ in range(rounds_left))
            for p, v in points.items()
        }
        for p, mark in marks.items():
            level_or_above = sum(1 for q in final if q != p and final[q] >= final[p])
            above = sum(1 for q in final if q != p and final[q] > final[p])
            if mark == "qualified":
                assert level_or_above < cut
            if mark == "eliminated":
                assert above >= cut
