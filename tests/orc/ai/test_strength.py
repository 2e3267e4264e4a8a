"""Small seeded matches: each level ahead of the one below. Fast checks, not benchmarks.

Par is 20 % in a 5-player game; the arena's long matches give the real figures.
"""

from __future__ import annotations

from games.orc.ai.arena import Budget, play


def share(level: str, against: str, deals: range, iterations: int | None = None) -> float:
    wins = 0.0
    games = 0
    for deal in deals:
        for seat in range(5):
            seating = [against] * 5
            seating[seat] = level
            budgets = [Budget()] * 5
            budgets[seat] = Budget(iterations=iterations)
            wins += play(5, deal, seating, budgets, seat).win
            games += 1
    return wins / games


def test_it_beats_random_play_with_the_heuristic() -> None:
    assert share("heuristic", "random", range(4)) >= 0.5


def test_it_beats_the_beginner_with_the_heuristic() -> None:
    assert share("heuristic", "beginner", range(10, 16)) > 0.3


def test_it_beats_the_heuristic_with_the_expert() -> None:
    assert share("expert", "heuristic", range(20, 23), iterations=100) > 0.3
