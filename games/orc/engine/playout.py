"""Random legal games: for the `random` command, the benchmark and the tests."""

from __future__ import annotations

import random
import time
from collections.abc import Sequence

from .actions import CHAMPION, COMMANDO, DESERT, FLY, PEOPLE, SEND, SHIELD, SPY, Action
from .cards import CODES, GI, GR, MERCENARY, N_CARDS, PEOPLE_GROUP, PEOPLES, SPIES, TR, WM
from .state import (
    CHOOSE_CHAMPION,
    CHOOSE_PEOPLE,
    COMMANDO_STEP,
    FLYING,
    LAST_DESERTER_AT,
    RECRUIT,
    SENDING,
    SPYING,
    State,
    new_game,
)

NAMES = ("ann", "bob", "cy", "dee", "eve", "fay", "gus")
SPYABLE = tuple(CODES[c] for c in range(len(CODES)) if c not in SPIES)
SENDABLE_CODES = ("GI", "TR", "WM", "GR")


def random_recruitment(state: State, rng: random.Random) -> list[Action]:
    """Every player card of the round at a random moment of the deal, in order of k.

    Each deserter is kept (and lost) one time in five, so that case comes up too.
    """
    # `random()` arithmetic instead of randint: this runs for every card of every game.
    r = rng.random
    npiles, start = state.npiles, state.start_after
    lo_d = max(state.dealt, 1)
    span_d = LAST_DESERTER_AT - lo_d + 1
    lo_s = max(state.dealt, start)
    span_s = N_CARDS - lo_s + 1
    timed: list[tuple[int, float, Action]] = []
    for s in state.others:
        for _ in range(state.des_left[s]):
            if r() < 0.8:
                k = lo_d + int(r() * span_d)
                timed.append((k, r(), Action(s, DESERT, 1 + int(r() * npiles), k)))
        for _ in range(state.sh_left[s]):
            k = lo_s + int(r() * span_s)
            timed.append((k, r(), Action(s, SHIELD, 1 + int(r() * npiles), k)))
    # Cards at the same k come in a random order: the float breaks the tie.
    timed.sort()
    return [a for _, _, a in timed]


def random_decision(state: State, rng: random.Random) -> Action:
    """A random legal option of the turn decision due (the deal excepted)."""
    ph = state.phase
    d = state.decider
    assert d is not None
    if ph == CHOOSE_CHAMPION:
        t = int(rng.random() * (state.n - 1))
        return Action(d, CHAMPION, target=t + (t >= d))
    if ph == SPYING:
        if rng.random() < 0.2:
            return Action(d, SPY, n=state.spy_n)
        t = rng.randrange(state.n - 1)
        t += t >= d
        # Naming a card the target holds half the time makes the spied-copy rule come up.
        held = [CODES[c] for c in range(len(CODES)) if state.hands[t][c] and c not in SPIES]
        code = rng.choice(held) if held and rng.random() < 0.5 else rng.choice(SPYABLE)
        return Action(d, SPY, n=state.spy_n, target=t, code=code)
    if ph == CHOOSE_PEOPLE:
        left = [PEOPLES[p] for p in range(4) if not state.fought[p]]
        return Action(d, PEOPLE, code=left[int(rng.random() * len(left))])
    if ph == SENDING:
        hand = state.hands[d]
        cards: list[str] = []
        for code, c in zip(SENDABLE_CODES, (GI, TR, WM, GR), strict=True):
            if hand[c]:
                cards += [code] * int(rng.random() * (hand[c] + 1))
        return Action(d, SEND, cards=tuple(cards))
    if ph == COMMANDO_STEP:
        options = [
            (t, g)
            for t in state.others
            if t != d
            for g, r in ((PEOPLE_GROUP, state.group_range(PEOPLE_GROUP)), (MERCENARY, None))
            if (sum(state.army[t][c] for c in r) if r else sum(state.army[t][12:]))
        ]
        if rng.random() < 0.3:
            return Action(d, COMMANDO)
        t, g = rng.choice(options)
        return Action(d, COMMANDO, target=t, group=g)
    assert ph == FLYING
    return Action(d, FLY, cards=("GR",) * rng.randint(0, state.hands[d][GR]))


def random_playout(state: State, rng: random.Random) -> None:
    """Play to the end (or until a deck is missing) with random legal decisions (mutates)."""
    while state.phase < 7:
        if state.phase == RECRUIT:
            for a in random_recruitment(state, rng):
                state.apply(a)
            if state.phase == RECRUIT:
                state.deal(N_CARDS)
            continue
        state.apply(random_decision(state, rng))


def random_game(players: int, seed: int, names: Sequence[str] | None = None) -> State:
    """A whole random game; the same seed gives the same game."""
    state = new_game(names or NAMES[:players], seed=seed)
    random_playout(state, random.Random(seed * 7919 + players))
    return state


def bench(players: int, seconds: float) -> tuple[int, float, float]:
    """Random full games (new game included) for about `seconds`: (games, wall s, cpu s)."""
    games = 0
    wall0, cpu0 = time.perf_counter(), time.process_time()
    while time.perf_counter() - wall0 < seconds:
        random_game(players, games)
        games += 1
    return games, time.perf_counter() - wall0, time.process_time() - cpu0
