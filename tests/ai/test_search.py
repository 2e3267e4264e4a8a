"""The search level keeps to its iteration and time budgets."""

from __future__ import annotations

import random
import time

from games.ctg.ai import decide, ismcts
from games.ctg.ai.determinize import Sampler
from games.ctg.ai.knowledge import read_view
from games.ctg.ai.rollout import policy_action, task_weights
from games.ctg.engine import Options, new_game, view
from games.ctg.engine.state import NEED_DECK

from .helpers import NAMES, random_position


def deciding_view(players: int = 2, seed: int = 11) -> dict:  # type: ignore[type-arg]
    for s in range(seed, seed + 50):
        state = random_position(players, 1, frozenset(), s)
        seat = state.decider
        assert seat is not None
        v = view(state, seat)
        if len(v["legal_texts"]) > 1:
            return v
    raise AssertionError("no position with a choice")


def test_it_runs_its_iteration_budget_unless_the_answer_is_settled() -> None:
    v = deciding_view()
    for n in (1, 37, 200):
        ismcts.search(v, read_view(v), random.Random(3), n, None, settle=False)
        assert ismcts.LAST.iterations == n
        decide("search", v, seed=3, iterations=n)
        assert ismcts.LAST.iterations <= n


def test_settling_early_gives_the_whole_budget_s_answer_sooner() -> None:
    saved = 0
    for players in (2, 3, 4):
        for seed in range(30, 36):
            v = deciding_view(players, seed)
            k = read_view(v)
            full = ismcts.search(v, k, random.Random(seed), 600, None, settle=False)
            assert ismcts.LAST.iterations == 600
            settled = ismcts.search(v, k, random.Random(seed), 600, None)
            assert settled == full
            saved += 600 - ismcts.LAST.iterations
    assert saved > 0


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


def test_a_draw_pile_is_one_option_judged_over_every_card_it_may_show() -> None:
    # Were each card a draw pile may show its own option, the search would pick the pile
    # whenever the sampled card is good: a blind draw would look better than it is.
    v = next(
        w
        for s in range(40, 200)
        if (w := deciding_view(4, s))["pending"] == "draw" and len(w["legal_actions"]) > 2
    )
    root = ismcts.grow(v, read_view(v), random.Random(1), 3000, None, settle=False)
    assert set(root.children) <= set(v["legal_actions"])
    assert sum(c.visits for c in root.children.values()) == 3000
    pile = root.children[0]  # D1
    shown = {key - ismcts.CHANCE for key in pile.children}
    assert len(shown) > 1
    assert shown <= set(range(9))


def test_a_round_that_ends_in_the_tree_before_the_last_is_not_judged_as_the_game_s_end() -> None:
    # The third round of four ends inside the search's own moves in a sampled world: the
    # leader has not won yet, nor have the others lost; one round is still to come.
    judged = 0
    for seed in range(60):
        rng = random.Random(seed)
        state = new_game(Options(4, 4, frozenset()), list(NAMES), seed=seed)
        while state.round < 3 or state.decider is None:
            state.apply(rng.choice(state.legal_actions()))
        v = view(state, state.decider)
        world = Sampler(v, read_view(v)).sample(rng)
        tw = task_weights(world)
        while world.phase < NEED_DECK:
            world._do(policy_action(world, rng.random, tw))
            world.apply_forced()
        assert len(world.history) == 3
        ranked = sorted(range(4), key=lambda p: world.totals[p])
        if world.totals[ranked[-1]] - world.totals[ranked[-2]] >= 10:
            continue
        reward = ismcts.playout(world, rng.random, tw)
        assert 0.5 <= reward[ranked[-1]] < 0.65
        assert 0.35 < reward[ranked[-2]] <= 0.5
        judged += 1
    assert judged >= 5
