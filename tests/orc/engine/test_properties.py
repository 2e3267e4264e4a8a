"""Hypothesis properties of the engine and a stateful machine that plays whole games."""

from __future__ import annotations

import json
import random
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, precondition, rule

from games.orc.engine import (
    Action,
    IllegalAction,
    State,
    from_record,
    new_game,
    pile_outcome,
    public_view,
    random_game,
    to_record,
    view,
)
from games.orc.engine.cards import CODES, COPIES, PEOPLES, SENDABLE
from games.orc.engine.playout import random_decision
from games.orc.engine.views import hidden

from .helpers import NAMES

FAST = settings(max_examples=15, deadline=None)
players = st.sampled_from([4, 5, 6, 7])
seeds = st.integers(0, 2**32 - 1)


def step(s: State, rng: random.Random) -> None:
    """One random legal move through the validating `apply` (or a tick of the deal)."""
    if s.pending != "recruit":
        s.apply(random_decision(s, rng))
        return
    seats = s.deciders()
    if not seats or rng.random() < 0.25:
        s.deal(rng.randint(s.dealt, 80))
        return
    seat = rng.choice(seats)
    o = s.recruit_options(seat)
    kinds = [(k, f, u) for k, f, u in (("desert", o.desert_from, o.desert_until),
             ("shield", o.shield_from, o.shield_until)) if f is not None]  # fmt: skip
    verb, first, last = rng.choice(kinds)
    at = rng.randint(first, min(last, first + 10))
    s.apply(Action(seat, verb, pile=rng.randint(1, s.npiles), at=at))


def play(s: State, rng: random.Random, steps: int | None = None) -> None:
    while s.pending is not None and (steps is None or steps > 0):
        step(s, rng)
        assert s.card_counts() == list(COPIES)
        if steps is not None:
            steps -= 1


@FAST
@given(players, seeds)
def test_it_accounts_for_all_80_cards_after_every_action(n: int, seed: int) -> None:
    s = new_game(NAMES[:n], seed=seed)
    play(s, random.Random(seed))
    assert s.game_over and max(s.totals) >= s.target


def candidates(s: State, rng: random.Random) -> list[Action]:
    """Actions of every verb with arbitrary arguments, for the decider or a dealing seat."""
    seats = list(range(s.n))
    at = s.dealt
    out = []
    for _ in range(40):
        seat = rng.choice(seats)
        target = rng.choice([-1, *seats])
        code = rng.choice(CODES)
        mercs = rng.choices([CODES[c] for c in SENDABLE], k=rng.randint(0, 3))
        sent = tuple(c for c in ("GI", "TR", "WM", "GR") for m in mercs if m == c)
        group = rng.choice(["people", "mercenary"])
        out += [
            Action(seat, rng.choice(["desert", "shield"]), pile=rng.randint(0, 15), at=at),
            Action(seat, "champion", target=target),
            Action(seat, "people", code=rng.choice(PEOPLES)),
            Action(seat, "send", cards=sent),
            Action(seat, "fly", cards=("GR",) * rng.randint(0, 3)),
            # A pass carries no other argument.
            Action(seat, "spy", n=rng.randint(1, 4), target=target,
                   code=code if target >= 0 else ""),
            Action(seat, "commando", target=target, group=group if target >= 0 else ""),
        ]  # fmt: skip
    return out


@FAST
@given(players, seeds, seeds)
def test_it_applies_every_listed_action_and_refuses_every_other(
    n: int, seed: int, sample_seed: int
) -> None:
    sampler = random.Random(sample_seed)
    s = new_game(NAMES[:n], seed=seed)
    rng = random.Random(seed)
    while s.pending is not None:
        if rng.random() < 0.08:
            seats = s.deciders()
            listed = {a for seat in seats for a in s.legal_actions(seat)}
            for a in listed:
                s.clone().apply(a)
            before = s.signature()
            for a in candidates(s, sampler):
                if a in listed:
                    continue
                try:
                    s.apply(a)
                except IllegalAction as e:
                    assert e.code and e.message.startswith("§")
                else:
                    raise AssertionError(f"unlisted action {a} was applied")
                assert s.signature() == before
        step(s, rng)


@FAST
@given(players, seeds, st.floats(0, 1))
def test_it_exports_imports_and_exports_the_same_record(n: int, seed: int, cut: float) -> None:
    record = json.loads(json.dumps(to_record(random_game(n, seed))))
    assert to_record(from_record(record)) == record
    # A cut anywhere in the last round is a game in progress that round-trips too.
    last = record["rounds"][-1]["actions"]
    partial = json.loads(json.dumps(record))
    partial["rounds"][-1]["actions"] = last[: int(cut * len(last))]
    state = from_record(partial)
    again = to_record(state)
    assert to_record(from_record(again)) == again
    assert (
        again["rounds"][-1]["actions"][: len(partial["rounds"][-1]["actions"])]
        == (partial["rounds"][-1]["actions"])
    )


@FAST
@given(players, seeds)
def test_it_replays_deterministically(n: int, seed: int) -> None:
    first = to_record(random_game(n, seed))
    assert to_record(random_game(n, seed)) == first
    a, b = from_record(first), from_record(first)
    assert a.signature() == b.signature()
    assert json.dumps(public_view(a)) == json.dumps(public_view(b))


def swapped(s: State) -> State | None:
    """`s` with one committed mercenary exchanged for another one of the same player's hand."""
    for seat in s.others:
        for give in SENDABLE:
            for take in SENDABLE:
                if give != take and s.army[seat][give] and s.hands[seat][take]:
                    other = s.clone()
                    other.army[seat][give] -= 1
                    other.army[seat][take] += 1
                    other.hands[seat][take] -= 1
                    other.hands[seat][give] += 1
                    return other
    return None


@settings(max_examples=10, deadline=None)
@given(players, seeds)
def test_it_shows_the_same_views_whatever_was_committed_in_secret(n: int, seed: int) -> None:
    rng = random.Random(seed)
    checked = 0
    for _ in range(4):
        s = new_game(NAMES[:n], seed=rng.randrange(2**32))
        while s.pending is not None and checked < 3:
            step(s, rng)
            other = swapped(s) if hidden(s) else None
            if other is None:
                continue
            changed = next(x for x in s.others if s.army[x] != other.army[x])
            assert public_view(other) == public_view(s)
            for seat in range(n):
                if seat != changed:
                    assert view(other, seat) == view(s, seat)
            assert view(other, changed)["my_army"] != view(s, changed)["my_army"]
            checked += 1
    assert checked > 0


class WholeGames(RuleBasedStateMachine):
    """Plays whole games of 4 to 7 players through `apply`, with clones and records."""

    state: State
    rng: random.Random

    @initialize(n=players, seed=seeds)
    def start(self, n: int, seed: int) -> None:
        self.state = new_game(NAMES[:n], seed=seed)
        self.rng = random.Random(seed)

    @precondition(lambda self: not self.state.game_over)
    @rule(steps=st.integers(1, 60))
    def play_some(self, steps: int) -> None:
        play(self.state, self.rng, steps)

    @precondition(lambda self: not self.state.game_over)
    @rule()
    def play_a_clone(self) -> None:
        before = self.state.signature()
        play(self.state.clone(), random.Random(1), 40)
        assert self.state.signature() == before

    @rule()
    def round_trip_the_record(self) -> None:
        record: dict[str, Any] = json.loads(json.dumps(to_record(self.state)))
        again = from_record(record)
        assert to_record(again) == record
        assert again.totals == self.state.totals and again.hands == self.state.hands

    @rule()
    def look(self) -> None:
        s = self.state
        public = public_view(s)
        assert json.loads(json.dumps(public)) == public
        for seat in range(s.n):
            mine = view(s, seat)
            assert {k: v for k, v in mine.items() if k in public} == public
            assert bool(mine["legal"]) == (s.decider == seat)

    @invariant()
    def every_card_is_somewhere(self) -> None:
        assert self.state.card_counts() == list(COPIES)

    @invariant()
    def the_deciders_are_players_not_the_wizard(self) -> None:
        s = self.state
        for seat in s.deciders():
            assert s.pending in ("champion", "people") or seat != s.wizard

    def teardown(self) -> None:
        play(self.state, self.rng)
        s = self.state
        assert s.game_over and max(s.totals) >= s.target
        assert [r.wizard for r in s.history] == [r % s.n for r in range(len(s.history))]


TestWholeGames = WholeGames.TestCase
TestWholeGames.settings = settings(max_examples=16, stateful_step_count=25, deadline=None)


@FAST
@given(players, seeds)
def test_it_reads_each_pile_at_the_deals_end_as_the_round_then_resolves_it(
    n: int, seed: int
) -> None:
    # What the table shows on a pile (who takes it, which cards its deserters remove) is
    # what naming the champion then does to it.
    s = new_game(NAMES[:n], seed=seed)
    rng = random.Random(seed)
    while s.pending != "champion":
        step(s, rng)
    contents = public_view(s)["deal"]["piles"]
    shown = [pile_outcome(pile) for pile in contents]
    s.apply(random_decision(s, rng))
    for (taker, removed), pile, (owner, taken) in zip(
        shown, contents, s.history[-1].piles, strict=True
    ):
        assert taker == (s.names[owner] if owner >= 0 else None)
        kept = [code for i, code in enumerate(pile) if ":" not in code and i not in removed]
        assert sorted(kept if taker else []) == sorted(CODES[c] for c in taken)
