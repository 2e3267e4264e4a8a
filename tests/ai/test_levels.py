"""Every level answers with a legal action, whatever the position, variant or table size."""

from __future__ import annotations

import pytest

from games.ctg.ai import LEVELS, decide
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
