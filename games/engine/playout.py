"""Random playouts (for bots and the benchmark) and random legal games."""

from __future__ import annotations

import random
import time

from .state import OVER, Options, State, new_game


def random_playout(state: State, rng: random.Random) -> State:
    """Play `state` to the end choosing uniformly among the legal actions at every decision.

    Forced decisions are just decisions with one option, so this follows exactly the path
    `apply` would; it skips re-validating actions it took from `legal_actions`. Mutates and
    returns `state` (clone first to keep the original). Stops early if the game waits for
    a deck.
    """
    legal = state.legal_actions
    do = state._do
    rand = rng.random
    while state.phase < OVER:
        acts = legal()
        if not acts:
            break
        do(acts[int(rand() * len(acts))])
    return state


def random_game(options: Options, seed: int, names: list[str] | None = None) -> State:
    """A finished random legal game, deterministic per seed."""
    state = new_game(options, names, seed=seed)
    return random_playout(state, random.Random(seed))


def bench(players: int, seconds: float, rounds: int = 4) -> tuple[int, float]:
    """Play random full games for about `seconds`; return (games, elapsed seconds)."""
    options = Options(players, rounds)
    rng = random.Random(1)
    games = 0
    t0 = time.perf_counter()
    deadline = t0 + seconds
    while True:
        state = new_game(options, seed=rng.getrandbits(32))
        random_playout(state, rng)
        games += 1
        if games % 16 == 0 and time.perf_counter() >= deadline:
            break
    return games, time.perf_counter() - t0
