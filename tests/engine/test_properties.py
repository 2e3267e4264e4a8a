"""Hypothesis properties of the engine and a stateful machine that plays whole games."""

from __future__ import annotations

import json
import random
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, precondition, rule

from games.ctg.engine import (
    N_ACTIONS,
    IllegalAction,
    Options,
    State,
    determinize,
    from_record,
    new_game,
    public_view,
    random_game,
    random_playout,
    to_record,
    view,
)
from games.ctg.engine.state import NEED_DECK

from .helpers import NAMES, cards_in_play

COMBOS = [
    (players, variants)
    for players in (2, 3, 4)
    for variants in ((), ("ninja",), ("imperial-tasks",), ("imperial-tasks", "ninja"))
]
FAST = settings(max_examples=12, deadline=None)


def options_of(players: int, variants: tuple[str, ...], quick: bool = False) -> Options:
    rounds = 3 if "imperial-tasks" in variants else (1 if quick else 4)
    return Options(players, rounds, frozenset(variants))


combos = st.sampled_from(COMBOS)
seeds = st.integers(0, 2**32 - 1)


def check_invariants(s: State) -> None:
    if s.phase != NEED_DECK:
        assert cards_in_play(s) == 110
    assert all(s.size[t] > 0 for t in range(9) if s.owner[t] >= 0)
    assert all(s.size[t] == 0 for t in range(9) if s.owner[t] < 0)
    # Each type lies in front of at most one player: the per-seat type counts agree.
    assert s.ntypes == [s.owner.count(seat) for seat in range(s.n)]
    assert s.nowned == sum(s.ntypes)
    for seat in range(s.n):
        assert s.hsize[seat] == sum(s.hands[seat])
        assert all(0 <= k <= h for k, h in zip(s.known[seat], s.hands[seat], strict=True))
    if s.ninja_on:
        assert s.supply + sum(s.minis) == 4 and s.supply >= 0


def play(s: State, rng: random.Random, steps: int | None = None) -> None:
    """Random legal actions through the validating `apply`, checking invariants each time."""
    while not s.game_over and (steps is None or steps > 0):
        acts = s.legal_actions()
        s.apply(acts[rng.randrange(len(acts))], seat=s.decider)
        check_invariants(s)
        if steps is not None:
            steps -= 1


@FAST
@given(combos, seeds)
def test_it_conserves_cards_and_keeps_each_type_with_one_player(
    combo: tuple[int, tuple[str, ...]], seed: int
) -> None:
    s = new_game(options_of(*combo, quick=True), NAMES[: combo[0]], seed=seed)
    check_invariants(s)
    play(s, random.Random(seed))
    assert s.game_over


@FAST
@given(combos, seeds, seeds)
def test_it_applies_every_listed_action_and_refuses_every_other(
    combo: tuple[int, tuple[str, ...]], seed: int, sample_seed: int
) -> None:
    sampler = random.Random(sample_seed)
    s = new_game(options_of(*combo, quick=True), NAMES[: combo[0]], seed=seed)
    rng = random.Random(seed)
    while not s.game_over:
        acts = s.legal_actions()
        if rng.random() < 0.05:
            for a in acts:
                s.clone().apply(a)
            before = s.signature()
            listed = set(acts)
            others = [a for a in range(-2, N_ACTIONS + 2) if a not in listed]
            for a in sampler.sample(others, 25):
                try:
                    s.apply(a)
                except IllegalAction as e:
                    assert e.code and e.message
                else:
                    raise AssertionError(f"unlisted action {a} was applied")
                assert s.signature() == before
        s.apply(acts[rng.randrange(len(acts))])


@FAST
@given(combos, seeds, st.floats(0, 1))
def test_it_exports_imports_and_exports_the_same_record(
    combo: tuple[int, tuple[str, ...]], seed: int, cut: float
) -> None:
    record = to_record(random_game(options_of(*combo), seed, list(NAMES[: combo[0]])))
    assert to_record(from_record(record)) == record
    # A cut anywhere is a position that round-trips too.
    flat = [(r, i) for r, rnd in enumerate(record["rounds"]) for i in range(len(rnd["actions"]))]
    r, i = flat[int(cut * (len(flat) - 1))]
    partial = json.loads(json.dumps(record))
    partial["rounds"] = partial["rounds"][: r + 1]
    partial["rounds"][r]["actions"] = partial["rounds"][r]["actions"][:i]
    state = from_record(partial)
    again = to_record(state)
    # Forced decisions right after the cut are applied on load and written out.
    assert again["rounds"][:r] == partial["rounds"][:r]
    assert again["rounds"][r]["actions"][:i] == partial["rounds"][r]["actions"]
    assert to_record(from_record(again)) == again
    assert from_record(partial).signature() == state.signature()  # replay is deterministic


@FAST
@given(combos, seeds, st.integers(0, 400), seeds)
def test_it_shows_a_seat_only_what_it_may_know(
    combo: tuple[int, tuple[str, ...]], seed: int, steps: int, other_seed: int
) -> None:
    rng = random.Random(other_seed)
    s = new_game(options_of(*combo), NAMES[: combo[0]], seed=seed)
    play(s, random.Random(seed), steps)
    for seat in range(s.n):
        v = view(s, seat)
        assert json.loads(json.dumps(v)) == v
        assert sum(v["hand"].values()) == s.hsize[seat]
        # Anything hidden from `seat` can change without changing its view.
        assert view(determinize(s, seat, rng), seat) == v
    p = public_view(s)
    assert "hand" not in p and "tasks" not in p and "legal_actions" not in p
    assert public_view(determinize(s, -1, rng)) == p
    for seat in range(s.n):
        other = determinize(s, seat, rng)
        check_invariants(other)
        random_playout(other, rng)
        assert other.game_over or other.phase == NEED_DECK
    assert {"D1", "D2"} == set(p["draw_piles"]) and all(
        isinstance(x, int) for x in p["draw_piles"].values()
    )


class WholeGames(RuleBasedStateMachine):
    """Plays whole games of every size and variant through `apply`, with clones and records."""

    state: State
    rng: random.Random

    @initialize(combo=combos, seed=seeds)
    def start(self, combo: tuple[int, tuple[str, ...]], seed: int) -> None:
        self.state = new_game(options_of(*combo), NAMES[: combo[0]], seed=seed)
        self.rng = random.Random(seed)

    @precondition(lambda self: not self.state.game_over)
    @rule(steps=st.integers(1, 80))
    def play_some(self, steps: int) -> None:
        play(self.state, self.rng, steps)

    @precondition(lambda self: not self.state.game_over)
    @rule()
    def play_a_clone(self) -> None:
        before = self.state.signature()
        play(self.state.clone(), random.Random(1), 30)
        assert self.state.signature() == before

    @rule()
    def round_trip_the_record(self) -> None:
        record: dict[str, Any] = to_record(self.state)
        again = from_record(record)
        assert again.signature() == self.state.signature()
        assert to_record(again) == record

    @invariant()
    def invariants_hold(self) -> None:
        check_invariants(self.state)

    def teardown(self) -> None:
        # Finish the game so every example covers a whole one.
        play(self.state, self.rng)
        assert self.state.game_over and len(self.state.history) == self.state.options.rounds


TestWholeGames = WholeGames.TestCase
TestWholeGames.settings = settings(max_examples=12, stateful_step_count=20, deadline=None)
