"""Random playouts (for bots and the benchmark) and random legal games."""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Mapping, Sequence
from operator import sub

from .actions import BURY as A_BURY
from .actions import DISCARD as A_DISCARD
from .actions import LAY as A_LAY
from .actions import MAX_SET
from .cards import (
    DEFAULT_TASKS,
    N_TYPES,
    TASK_DECKS,
    THREE_DOT_TYPES,
    TYPE_OF_VALUE,
    TYPES_TO_END,
    task_code,
)
from .state import DRAW1, LOG_SHIFT, NEED_DECK, OVER, Options, State, new_game

# Smallest set per type, without and with the three-dots rule (§4 2a).
_LO2 = (2,) * N_TYPES
_LO3 = tuple(3 if t in THREE_DOT_TYPES else 2 for t in range(N_TYPES))
_LAY_STRIDE = MAX_SET + 1
# Number of lays of one type, indexed by (cards in hand - smallest legal set); negative
# indices (too few cards) give 0.
_LAYS = tuple(range(1, MAX_SET + 2)) + (0,) * (MAX_SET + 1)
_X1 = (0,)
_X2 = (1,)
_XBOTH = (0, 1)


def random_playout(state: State, rng: random.Random) -> State:
    """Play `state` to the end choosing uniformly among the legal actions at every decision.

    Mutates and returns `state` (clone first to keep the original); every action is logged
    as `apply` would log it, so the record of the result is a legal game. Whole turns of
    the base game (no miniatures) run in `_fast_turns`, which draws each choice uniformly
    from the same legal set `legal_actions` lists but counts the options instead of listing
    them; every other decision goes through `legal_actions`. Stops early if the game waits
    for a deck.
    """
    legal = state.legal_actions
    do = state._do
    rand = rng.random
    fast = not state.ninja_on
    while state.phase < OVER:
        if fast and state.phase == DRAW1 and state.first < 0:
            _fast_turns(state, rand)
            continue
        acts = legal()
        if not acts:
            break
        do(acts[int(rand() * len(acts))])
    return state


def _fast_turns(s: State, rand: Callable[[], float]) -> None:
    """Random whole turns from the start of a turn until the round ends (no miniatures).

    Uniform over the legal actions like `legal_actions`, but counted, not listed: lays
    per type from a table, discards as (present type, allowed pile) by rejection.
    """
    n = s.n
    rnd = s.rnd
    deck = s.decks[rnd]
    dpos = s.dpos
    dend0, dend1 = s.dend
    x0, x1 = s.xp
    hands = s.hands
    hsize = s.hsize
    known = s.known
    owner = s.owner
    size = s.size
    ntypes = s.ntypes
    nowned = s.nowned
    xs = s.xstarted
    base = _LO3 if n >= 3 else _LO2
    # Smallest legal set per type given the table; kept up to date on every lay.
    lo = [max(base[t], size[t] + 1) if owner[t] >= 0 else base[t] for t in range(N_TYPES)]
    need = TYPES_TO_END[n]
    # Lay options per seat, updated on every change of a hand or of `lo`.
    nlay = [sum(map(_LAYS.__getitem__, map(sub, h, lo))) for h in hands]
    codes: list[int] = []
    log = codes.append
    cur = s.cur
    while True:
        hand = hands[cur]
        kn = known[cur]
        # Action 1. Both draw piles are non-empty at the start of a turn.
        k = int(rand() * (2 + (1 if x0 else 0) + (1 if x1 else 0)))
        pile = k if k < 2 else (2 if k == 2 and x0 else 3)
        if pile < 2:
            t = deck[dpos[pile]]
            dpos[pile] += 1
            k = int(rand() * (1 + (1 if x0 else 0) + (1 if x1 else 0)))
            pile2 = 1 - pile if k == 0 else (2 if k == 1 and x0 else 3)
        else:
            t = (x0 if pile == 2 else x1).pop()
            kn[t] += 1
            k = int(rand() * (3 if (x1 if pile == 2 else x0) else 2))
            pile2 = k if k < 2 else 5 - pile
        hand[t] += 1
        nl = nlay[cur] + 1 if hand[t] >= lo[t] else nlay[cur]
        log(cur << LOG_SHIFT | pile)
        if pile2 < 2:
            t = deck[dpos[pile2]]
            dpos[pile2] += 1
        else:
            t = (x0 if pile2 == 2 else x1).pop()
            kn[t] += 1
        hand[t] += 1
        if hand[t] >= lo[t]:
            nl += 1
        log(cur << LOG_SHIFT | pile2)
        hsize[cur] += 2
        # Action 2.
        if xs == 0:
            piles: tuple[int, ...] = _X1
        elif xs == 1:
            piles = _X2
        elif (not x0) != (not x1):
            piles = _X1 if not x0 else _X2
        else:
            piles = _XBOTH
        r = int(rand() * (nl + (N_TYPES - hand.count(0)) * len(piles)))
        if r >= nl:
            t = int(rand() * N_TYPES)
            while not hand[t]:
                t = int(rand() * N_TYPES)
            x = piles[0] if len(piles) == 1 else (0 if rand() < 0.5 else 1)
            if hand[t] >= lo[t]:
                nl -= 1
            hand[t] -= 1
            hsize[cur] -= 1
            if kn[t]:
                kn[t] -= 1
            (x1 if x else x0).append(t)
            if xs < 2:
                xs += 1
            log(cur << LOG_SHIFT | A_DISCARD + 2 * t + x)
        else:
            t = 0
            while r >= _LAYS[hand[t] - lo[t]]:
                r -= _LAYS[hand[t] - lo[t]]
                t += 1
            k = lo[t] + r
            old_lo = lo[t]
            hand[t] -= k
            hsize[cur] -= k
            if kn[t]:
                kn[t] = max(0, kn[t] - k)
            log(cur << LOG_SHIFT | A_LAY + t * _LAY_STRIDE + k)
            old = owner[t]
            old_k = size[t]
            owner[t] = cur
            size[t] = k
            new_lo = lo[t] = k + 1
            for seat in range(n):
                c = hands[seat][t]
                if seat == cur:
                    nlay[seat] = nl - _LAYS[c + k - old_lo] + _LAYS[c - new_lo]
                else:
                    nlay[seat] += _LAYS[c - new_lo] - _LAYS[c - old_lo]
            ntypes[cur] += 1
            if old >= 0:
                ntypes[old] -= 1
                # The owner buries the displaced block on a pile of his choice.
                if xs == 0:
                    x = 0
                elif xs == 1:
                    x = 1
                elif (not x0) != (not x1):
                    x = 0 if not x0 else 1
                else:
                    x = 0 if rand() < 0.5 else 1
                (x1 if x else x0).extend([t] * old_k)
                if xs < 2:
                    xs += 1
                log(old << LOG_SHIFT | A_BURY + x)
            else:
                nowned += 1
            if ntypes[cur] >= need or nowned == N_TYPES:
                break
            nl = nlay[cur]
        nlay[cur] = nl
        if dpos[0] == dend0 or dpos[1] == dend1:
            break
        cur = (cur + 1) % n
    s.log = (s.log, rnd, tuple(codes))
    s.cur = cur
    s.first = -1
    s.nowned = nowned
    s.xstarted = xs
    s._end_turn()


def random_game(options: Options, seed: int, names: list[str] | None = None) -> State:
    """A finished random legal game, deterministic per seed."""
    state = new_game(options, names, seed=seed)
    return random_playout(state, random.Random(seed))


def bench(players: int, seconds: float, rounds: int = 4) -> tuple[int, float, float]:
    """Play random full games (new game included) for about `seconds`.

    Returns (games, wall seconds, CPU seconds of this process).
    """
    options = Options(players, rounds)
    rng = random.Random(1)
    games = 0
    t0 = time.perf_counter()
    c0 = time.process_time()
    deadline = t0 + seconds
    while True:
        random_playout(new_game(options, seed=rng.getrandbits(32)), rng)
        games += 1
        if games % 16 == 0 and time.perf_counter() >= deadline:
            break
    return games, time.perf_counter() - t0, time.process_time() - c0


def determinize(
    state: State,
    seat: int,
    rng: random.Random,
    task_distribution: Mapping[str, Sequence[int]] = DEFAULT_TASKS,
) -> State:
    """A copy of `state` with everything hidden from `seat` dealt afresh (for ISMCTS bots).

    Other hands keep their size and the cards known to be in them (§4: drawn face up);
    their other cards and both draw piles are reshuffled together. Other players'
    unrevealed task cards are drawn from the deck's cards `seat` has not seen (falling
    back to a reshuffle among their holders if the distribution does not fit). `seat` -1
    hides every hand (a spectator's view).
    """
    c = state.clone()
    if c.phase == NEED_DECK:
        return c
    deck = list(c.decks[c.rnd])
    hidden = [t for p in (0, 1) for t in deck[c.dpos[p] : c.dend[p]]]
    others = [s for s in range(c.n) if s != seat]
    for s in others:
        hand = c.hands[s]
        for t in range(N_TYPES):
            free = hand[t] - c.known[s][t]
            hidden += [t] * free
            hand[t] -= free
    rng.shuffle(hidden)
    for p in (0, 1):
        size = c.dend[p] - c.dpos[p]
        deck[c.dpos[p] : c.dend[p]] = hidden[:size]
        del hidden[:size]
    for s in others:
        for _ in range(c.hsize[s] - sum(c.hands[s])):
            c.hands[s][hidden.pop()] += 1
    c.decks = (*c.decks[: c.rnd], tuple(deck), *c.decks[c.rnd + 1 :])
    if c.options.tasks:
        _redeal_tasks(c, seat, rng, task_distribution)
    return c


def _redeal_tasks(
    c: State, seat: int, rng: random.Random, distribution: Mapping[str, Sequence[int]]
) -> None:
    seen = [code for _, _, code in c.revealed]
    if 0 <= seat < c.n:
        seen += c.tasks[seat]
    for d, letter in enumerate(TASK_DECKS):
        holders = [
            (s, code)
            for s in range(c.n)
            if s != seat
            for code in c.tasks[s]
            if code // N_TYPES == d
        ]
        pool = [task_code(d, TYPE_OF_VALUE[v]) for v in distribution.get(letter, ())]
        for code in seen:
            if code in pool:
                pool.remove(code)
        if len(pool) < len(holders) or not all(code in pool for _, code in holders):
            pool = [code for _, code in holders]
        picks = rng.sample(pool, len(holders))
        for (s, old), new in zip(holders, picks, strict=True):
            c.tasks[s][c.tasks[s].index(old)] = new
