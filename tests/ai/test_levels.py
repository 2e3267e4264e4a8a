"""Every level answers with a legal action, whatever the position, variant or table size."""

from __future__ import annotations

import pytest

from games.ctg.ai import LEVELS, SHARE, budget, decide
from games.ctg.engine import view

from .helpers import CONFIGS, random_position

ALL_LEVELS = [*LEVELS, "random"]


@pytest.mark.parametrize("level", ALL_LEVELS)
@pytest.mark.parametrize(("players", "rounds", "variants"), CONFIGS)
def test_it_returns_a_legal_action(
    level: str, players: int, rounds: int, variants: frozenset[str]
) -> None:
    search = level.startswith("search")
    for seed in range(4 if search else 30):
        state = random_position(players, rounds, variants, seed)
        seat = state.decider
        assert seat is not None
        v = view(state, seat)
        text = decide(level, v, seed=seed, iterations=30)
        assert text in v["legal_texts"]


def test_it_refuses_a_view_without_a_decision() -> None:
    state = random_position(2, 1, frozenset(), 3)
    seat = state.decider
    assert seat is not None
    with pytest.raises(ValueError):
        decide("heuristic", view(state, 1 - seat), seed=1)


def test_it_refuses_an_unknown_level() -> None:
    state = random_position(2, 1, frozenset(), 4)
    seat = state.decider
    assert seat is not None
    v = view(state, seat)
    if len(v["legal_texts"]) > 1:
        with pytest.raises(ValueError):
            decide("grandmaster", v, seed=1)


def test_the_master_has_twice_the_tactician_s_budget_at_every_decision() -> None:
    # The same search with more iterations and time at each decision: never the weaker.
    for pending in SHARE:
        iterations, seconds = budget("search", pending)
        strong_iterations, strong_seconds = budget("search-strong", pending)
        assert strong_iterations >= 2 * iterations and strong_seconds >= 2 * seconds


def test_a_turn_s_budget_keeps_to_what_the_level_promises() -> None:
    # "About a second a turn", "up to two seconds a turn": two draws and an action, and a
    # rarer decision besides (a bury or a miniature), within it.
    for level, promised in (("search", 1.0), ("search-strong", 2.0)):
        for rare in ("end-or-ninja", "bury", "reveal"):
            turn = [budget(level, p)[1] for p in ("draw", "second-draw", "action", rare)]
            assert sum(turn) <= promised
