"""Sampled worlds agree with everything the observer sees, and conserve the cards."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from games.ctg.ai.determinize import Sampler
from games.ctg.ai.knowledge import read_view
from games.ctg.engine import Options, State, new_game, view
from games.ctg.engine import actions as A
from games.ctg.engine.cards import N_TYPES, VALUES, task_text
from games.ctg.engine.state import ACT, BURY, DRAW1, DRAW2

from .helpers import CONFIGS, random_position


def cards_in(state) -> list[int]:  # type: ignore[no-untyped-def]
    counts = [0] * N_TYPES
    for hand in state.hands:
        for t, c in enumerate(hand):
            counts[t] += c
    for t in range(N_TYPES):
        counts[t] += state.size[t] if state.owner[t] >= 0 else 0
    for pile in state.xp:
        for t in pile:
            counts[t] += 1
    if state.phase == BURY:  # a displaced set waiting for its pile
        counts[state.pend_t] += state.pend_k
    deck = state.decks[state.rnd]
    for i in (0, 1):
        for p in range(state.dpos[i], state.dend[i]):
            counts[deck[p]] += 1
    return counts


@settings(max_examples=150, deadline=None)
@given(
    config=st.sampled_from(CONFIGS),
    seed=st.integers(0, 10**6),
    observer=st.integers(0, 3),
    sample_seed=st.integers(0, 10**6),
)
def test_it_samples_worlds_consistent_with_the_view(
    config: tuple[int, int, frozenset[str]], seed: int, observer: int, sample_seed: int
) -> None:
    state = random_position(*config, seed)
    seat = state.decider
    assert seat is not None
    observer %= state.n
    original = view(state, seat)
    sampler = Sampler(original, read_view(original))
    assert sampler.consistent()
    world = sampler.sample(random.Random(sample_seed))
    # The decider sees exactly the same position in the sampled world.
    assert view(world, seat) == original
    assert world.hsize == state.hsize
    assert world.draw_pile_sizes() == state.draw_pile_sizes()
    for o in range(state.n):
        assert sum(world.hands[o]) == state.hsize[o]
        assert all(h >= k for h, k in zip(world.hands[o], world.known[o], strict=True))
        if state.options.tasks:
            assert len(world.tasks[o]) == len(state.tasks[o])
    assert world.hands[seat] == state.hands[seat]
    assert cards_in(world) == list(VALUES)
    # Other seats' views of the world are shaped like theirs in the real game.
    other = view(world, (seat + 1 + observer) % state.n)
    real = view(state, (seat + 1 + observer) % state.n)
    assert sum(other["hand"].values()) == sum(real["hand"].values())


def test_it_deals_the_hidden_cards_differently_from_sample_to_sample() -> None:
    state = random_position(2, 1, frozenset(), 7)
    seat = state.decider
    assert seat is not None
    v = view(state, seat)
    sampler = Sampler(v, read_view(v))
    hands = {tuple(sampler.sample(random.Random(i)).hands[1 - seat]) for i in range(20)}
    assert len(hands) > 1


def test_it_deals_the_others_task_cards_from_the_game_s_own_faces() -> None:
    faces = {"A": [20, 18, 16, 14], "B": [12, 9, 8, 7], "C": [6, 7, 8, 9]}
    state = new_game(Options(3, 3, frozenset({"imperial-tasks"})), seed=5, task_distribution=faces)
    v = view(state, 0) | {"task_cards": faces}
    sampler = Sampler(v, read_view(v))
    dealt = set()
    for i in range(30):
        world = sampler.sample(random.Random(i))
        dealt |= {task_text(c) for seat in (1, 2) for c in world.tasks[seat]}
    assert dealt == {f"{d}{value}" for d, values in faces.items() for value in values} - set(
        v["tasks"]
    )


def miniature_before_action_2() -> tuple[State, str]:
    """A position where the player on turn just used a miniature before Action 2, and the
    decision that player was about to make."""
    for seed in range(500):
        state = random_position(2, 4, frozenset({"ninja"}), seed)
        rng = random.Random(seed)
        for _ in range(300):
            if state.game_over:
                break
            ninja = [a for a in state.legal_actions() if A.DECODE[a][0] == A.K_NINJA]
            if ninja and state.phase in (DRAW1, DRAW2, ACT):
                pending = state.pending
                state.apply(ninja[0])
                assert pending is not None
                return state, pending
            state.apply(rng.choice(state.legal_actions()))
    raise AssertionError("no miniature used before Action 2")


def test_it_resumes_where_the_view_says_after_a_miniature_s_bury() -> None:
    state, resume = miniature_before_action_2()
    turn, seat = state.cur, state.decider
    original = view(state, seat)
    assert original["bury"]["then"] == resume
    world = Sampler(original, read_view(original)).sample(random.Random(1))
    for s in (state, world):
        s.apply(s.legal_actions()[0])
        assert (s.cur, s.pending) == (turn, resume)
