"""Random positions for the AI tests."""

from __future__ import annotations

import random

from games.ctg.engine import Options, State, new_game

NAMES = ("ann", "bob", "cy", "dee")

CONFIGS = [
    (2, 1, frozenset()),
    (2, 4, frozenset({"ninja"})),
    (3, 3, frozenset({"imperial-tasks"})),
    (3, 1, frozenset({"ninja"})),
    (4, 3, frozenset({"imperial-tasks", "ninja"})),
    (4, 4, frozenset()),
]


def random_position(players: int, rounds: int, variants: frozenset[str], seed: int) -> State:
    """A position some random number of random actions into a game, with a decision to make."""
    rng = random.Random(seed)
    state = new_game(Options(players, rounds, variants), NAMES[:players], seed=seed)
    steps = rng.randrange(0, 400)
    for _ in range(steps):
        acts = state.legal_actions()
        state.apply(rng.choice(acts))
        if state.game_over:
            return random_position(players, rounds, variants, seed + 10_000)
    return state
