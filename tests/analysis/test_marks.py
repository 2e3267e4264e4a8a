"""Marks, accuracy and the summary of an analysed seat, against values worked out by hand."""

from __future__ import annotations

import math

import pytest

from games.analysis import (
    Decision,
    OptionValue,
    accuracy,
    counted,
    decision,
    mark,
    move_accuracy,
    placing_score,
    seat_analysis,
    summary,
)


@pytest.mark.parametrize(
    ("loss", "error", "expected"),
    [
        (0.0, 0.0, None),
        (4.99, 0.0, None),
        (5.0, 0.0, "?!"),
        (9.99, 1.0, "?!"),
        (10.0, 1.0, "?"),
        (14.9, 2.0, "?"),
        (15.0, 2.0, "??"),
        (40.0, 19.9, "??"),
        # Never above noise: the loss must be larger than twice its standard error.
        (15.0, 7.5, None),
        (20.0, 10.0, None),
        (6.0, 2.99, "?!"),
        (-3.0, 0.0, None),
    ],
)
def test_it_marks_a_loss_only_above_its_thresholds_and_its_noise(
    loss: float, error: float, expected: str | None
) -> None:
    assert mark(loss, error) == expected


def test_it_scores_a_move_on_lichess_curve() -> None:
    assert move_accuracy(0.0) == 100.0
    assert move_accuracy(-4.0) == 100.0
    # 103.1668 * e^(-0.4354) - 3.1669 = 103.1668 * 0.647006 - 3.1669
    assert move_accuracy(10.0) == pytest.approx(63.583, abs=0.01)
    # 103.1668 * e^(-0.8708) - 3.1669 = 103.1668 * 0.418617 - 3.1669
    assert move_accuracy(20.0) == pytest.approx(40.021, abs=0.01)
    # Clamped at 0: 103.1668 * e^(-4.354) = 1.33, less than 3.1669.
    assert move_accuracy(100.0) == 0.0


def test_it_averages_a_game_as_the_mean_of_a_weighted_and_a_harmonic_mean() -> None:
    a10 = 103.1668 * math.exp(-0.4354) - 3.1669
    # Equal weights: (100 + a10) / 2 and 2 / (1/100 + 1/a10), averaged.
    plain = ((100 + a10) / 2 + 2 / (1 / 100 + 1 / a10)) / 2
    assert accuracy([0.0, 10.0]) == pytest.approx(plain)
    assert plain == pytest.approx(79.76, abs=0.01)
    assert accuracy([]) is None
    assert accuracy([0.0, 0.0, 0.0]) == pytest.approx(100.0)


def test_it_weighs_each_move_by_the_volatility_around_it() -> None:
    # Three decisions: the series is the expected placings × 100 before each, then the last
    # one played: 50, 52, 90, 70. Windows of 2 points: sd 1, 19 (clamped to 12) and 10.
    a20 = 103.1668 * math.exp(-0.8708) - 3.1669
    weighted = (1 * 100 + 12 * 100 + 10 * a20) / (1 + 12 + 10)
    harmonic = 3 / (1 / 100 + 1 / 100 + 1 / a20)
    got = accuracy([0.0, 0.0, 20.0], [0.50, 0.52, 0.90])
    assert got == pytest.approx((weighted + harmonic) / 2)
    # The calm start weighs less than the swing the blunder came in: lower than unweighted.
    assert got is not None and got < accuracy([0.0, 0.0, 20.0])  # type: ignore[operator]


def test_it_measures_the_loss_on_the_same_samples() -> None:
    d = decision(
        3,
        2,
        "discard 9 X1",
        ["lay 20 2", "discard 9 X1"],
        [[1.0, 1.0, 1.0, 1.0], [0.8, 0.88, 0.8, 0.88]],
    )
    assert (d.index, d.round, d.best, d.played) == (3, 2, "lay 20 2", "discard 9 X1")
    assert d.loss == pytest.approx(16.0)
    # Paired differences 0.2, 0.12, 0.2, 0.12: sd sqrt(0.0064/3), over sqrt(4), × 100.
    assert d.error == pytest.approx(100 * math.sqrt(0.0064 / 3 / 4))
    assert d.mark == "??"
    assert d.expected == pytest.approx(1.0)
    assert [o.option for o in d.options] == ["lay 20 2", "discard 9 X1"]
    assert d.options[1].value == pytest.approx(0.84)
    assert not d.matched


def test_it_gives_the_best_option_no_loss_and_no_mark() -> None:
    d = decision(0, 1, "a", ["a", "b"], [[0.6, 0.4], [0.2, 0.1]])
    assert d.best == "a" and d.loss == 0.0 and d.mark is None and d.matched


def test_it_averages_shared_places() -> None:
    assert placing_score([1, 2, 3, 4], 0) == 1.0
    assert placing_score([1, 2, 3, 4], 3) == 0.0
    assert placing_score([1, 2, 3, 4], 1) == pytest.approx(2 / 3)
    # Two share first: each beat two and tied one, (2 + 1/2) / 3.
    assert placing_score([1, 1, 3, 4], 1) == pytest.approx(2.5 / 3)
    assert placing_score([1, 1, 1, 1], 2) == pytest.approx(0.5)


def _d(index: int, loss: float, mark_: str | None, played: str = "x") -> Decision:
    return Decision(index, 1, played, "x", loss, 0.5, mark_, (OptionValue("x", 0.5, 0.01),), 0.5)


def test_it_sums_up_a_seat() -> None:
    ds = [
        _d(0, 0.0, None),
        _d(1, 12.0, "?", "y"),
        _d(2, 30.0, "??", "y"),
        _d(3, 6.0, "?!", "y"),
        _d(4, 1.0, None, "y"),
        _d(5, 16.0, "??", "y"),
    ]
    s = summary(seat_analysis("ann", ds, 1.5))
    assert (s.matches, s.decisions) == (1, 6)
    assert (s.inaccuracies, s.mistakes, s.blunders) == (1, 1, 2)
    assert [d.index for d in s.costliest] == [2, 5, 1]


def test_it_prints_the_documented_shape() -> None:
    a = seat_analysis("ann", [_d(0, 12.0, "?", "y")], 2.345)
    out = a.as_json()
    assert list(out)[:4] == ["seat", "accuracy", "decisions", "seconds"]
    assert list(out["decisions"][0])[:8] == [
        "index",
        "round",
        "played",
        "best",
        "loss",
        "error",
        "mark",
        "options",
    ]
    assert list(out["decisions"][0]["options"][0])[:2] == ["option", "value"]
    assert out["seat"] == "ann" and out["seconds"] == 2.35
    # The loss beyond noise counts: 12 less twice its error 0.5.
    assert out["accuracy"] == pytest.approx(move_accuracy(11.0), abs=0.05)


def test_it_counts_in_the_accuracy_only_the_loss_beyond_noise() -> None:
    assert counted(_d(0, 12.0, "?")) == pytest.approx(11.0)
    noisy = Decision(1, 1, "y", "x", 3.0, 2.0, None, (OptionValue("x", 0.5, 0.01),), 0.5)
    assert counted(noisy) == 0.0
    # A perfect seat whose search was noisy is not marked down for it.
    assert seat_analysis("ann", [noisy, noisy], 1.0).accuracy == pytest.approx(100.0)
