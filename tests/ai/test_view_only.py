"""Bots see only their seat's view: hidden cards they cannot see do not change a decision."""

from __future__ import annotations

import random

import pytest

from games.ctg.ai import LEVELS, decide
from games.ctg.engine import State, view
from games.ctg.engine.cards import N_TYPES

from .helpers import CONFIGS, random_position


def hidden_twin(state: State, seat: int, rng: random.Random) -> State | None:
    """A copy of `state` that differs only in what `seat` cannot see: one unknown card of
    another hand swapped with a draw pile card of another type, and both draw piles'
    remaining order shuffled."""
    twin = state.clone()
    deck = list(twin.decks[twin.rnd])
    piles = [list(range(twin.dpos[i], twin.dend[i])) for i in (0, 1)]
    for pos in piles:
        order = [deck[i] for i in pos]
        rng.shuffle(order)
        for i, t in zip(pos, order, strict=True):
            deck[i] = t
    swapped = False
    for other in range(twin.n):
        if other == seat:
            continue
        hand, known = twin.hands[other], twin.known[other]
        for t in range(N_TYPES):
            if hand[t] > known[t]:
                for i in piles[0] + piles[1]:
                    u = deck[i]
                    if u != t:
                        hand[t] -= 1
                        hand[u] += 1
                        deck[i] = t
                        swapped = True
                        break
            if swapped:
                break
        if swapped:
            break
    if not swapped:
        return None
    twin.decks = (*twin.decks[: twin.rnd], tuple(deck), *twin.decks[twin.rnd + 1 :])
    return twin


@pytest.mark.parametrize("level", list(LEVELS))
def test_it_decides_the_same_on_positions_that_look_the_same(level: str) -> None:
    tried = 0
    for players, rounds, variants in CONFIGS:
        for seed in range(3):
            state = random_position(players, rounds, variants, 50 + seed)
            seat = state.decider
            assert seat is not None
            twin = hidden_twin(state, seat, random.Random(seed))
            if twin is None:
                continue
            assert twin.signature() != state.signature()
            v1, v2 = view(state, seat), view(twin, seat)
            assert v1 == v2
            a = decide(level, v1, seed=seed, iterations=40)
            b = decide(level, v2, seed=seed, iterations=40)
            assert a == b
            tried += 1
    assert tried >= 12
