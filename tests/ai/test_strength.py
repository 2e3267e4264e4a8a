"""Small seeded matches: fast checks that the levels are not broken, not benchmarks."""

from __future__ import annotations

from games.ctg.ai.arena import Budget, play
from games.ctg.engine import Options


def test_it_beats_random_with_the_heuristic() -> None:
    wins = 0.0
    games = 0
    for deal in range(6):
        for seat in range(2):
            seating = ["random", "random"]
            seating[seat] = "heuristic"
            r = play(Options(2, 1), deal, seating, [Budget(), Budget()], seat)
            wins += r.win
            games += 1
    assert wins / games >= 0.9


def test_it_beats_greedy_with_the_heuristic_more_often_than_not() -> None:
    wins = 0.0
    games = 0
    for deal in range(10):
        for seat in range(2):
            seating = ["greedy", "greedy"]
            seating[seat] = "heuristic"
            wins += play(Options(2, 1), 100 + deal, seating, [Budget(), Budget()], seat).win
            games += 1
    assert wins / games > 0.5
