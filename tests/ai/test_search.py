"""The search level keeps to its iteration and time budgets."""

from __future__ import annotations

import time

from games.ai import decide, ismcts
from games.engine import view

from .helpers import random_position


def deciding_view(players: int = 2, seed: int = 11) -> dict:  # type: ignore[type-arg]
    for s in range(seed, seed + 50):
        state = random_position(players, 1, frozenset(), s)
        seat = state.decider
        assert seat is not None
        v = view(state, seat)
        if len(v["legal_texts"]) > 1:
            return v
    raise AssertionError("no position with a choice")


def test_it_runs_exactly_its_iteration_budget() -> None:
    v = deciding_view()
    for n in (1, 37, 200):
        decide("search", v, seed=3, iterations=n)
        assert ismcts.LAST.iterations == n


def test_it_stops_at_its_time_budget() -> None:
    v = deciding_view(4)
    t0 = time.perf_counter()
    decide("search", v, seed=3, iterations=10**9, time_budget=0.15)
    elapsed = time.perf_counter() - t0
    assert elapsed < 0.6
    assert 0 < ismcts.LAST.iterations < 10**9


def test_it_decides_the_same_for_the_same_seed() -> None:
    v = deciding_view(3, seed=20)
    a = decide("search", v, seed=5, iterations=150)
    assert all(decide("search", v, seed=5, iterations=150) == a for _ in range(2))
