"""Sampling full states consistent with one seat's view (determinization).

Everything the seat sees is copied exactly: its own hand and tasks, the table, both discard
piles, hand sizes, the cards known to be in other hands, draw pile sizes, miniatures,
revealed tasks and scores. The unseen cards (``Knowledge.unseen``) are dealt uniformly at
random to the other hands' unknown slots and to the two draw piles; other players'
unrevealed task cards are dealt from the game's task cards not accounted for.

A sampled State holds decks only up to the current round, so a game that goes on waits for
a deck (``decider is None``) once the round ends: searches stop at the end of the round.
"""

from __future__ import annotations

import random
from typing import Any

from games.ctg.engine import Options, RoundResult, State
from games.ctg.engine.actions import PILES
from games.ctg.engine.cards import (
    N_CARDS,
    N_TYPES,
    TASK_BONUS,
    TASK_DECKS,
    TYPE_OF_VALUE,
    task_code,
)
from games.ctg.engine.state import ACT, AFTER, BURY, DRAW1, DRAW2, POST_ACT, REVEAL

from .knowledge import Knowledge

PHASES = {
    "draw": DRAW1,
    "second-draw": DRAW2,
    "action": ACT,
    "end-or-ninja": AFTER,
    "bury": BURY,
    "reveal": REVEAL,
}


class Sampler:
    """Builds the public part of the state once; `sample(rng)` deals the hidden part."""

    def __init__(self, view: dict[str, Any], k: Knowledge) -> None:
        if k.pending not in PHASES:
            raise ValueError("the view has no decision pending")
        n = k.n
        self.k = k
        variants = frozenset(view["options"]["variants"])
        s = State.__new__(State)
        s.options = Options(n, k.rounds, variants)
        s.names = tuple(k.names)
        s.n = n
        s.ninja_on = k.ninja_on
        s.task_deal = ()
        s.decks = ()
        s.rnd = k.round - 1
        s.start = k.start
        s.cur = k.current
        s.phase = PHASES[k.pending]
        s.first = k.first
        s.drawn = tuple(TYPE_OF_VALUE[v] for v in view.get("drawn", ()))
        s.hands = [k.known[o][:] if o != k.me else k.hand[:] for o in range(n)]
        s.hsize = k.hsize[:]
        s.known = [kn[:] for kn in k.known]
        s.owner = k.owner[:]
        s.size = k.size[:]
        s.ntypes = [k.ntypes(o) for o in range(n)]
        s.nowned = sum(1 for o in k.owner if o >= 0)
        mid = 3 * n + (N_CARDS - 3 * n + 1) // 2
        s.dend = (mid, N_CARDS)
        s.dpos = [mid - k.draw[0], N_CARDS - k.draw[1]]
        s.xp = [k.xp[0][:], k.xp[1][:]]
        both_empty = not k.xp[0] and not k.xp[1]
        if both_empty and k.allowed == (0,):
            s.xstarted = 0
        elif both_empty and k.allowed == (1,):
            s.xstarted = 1
        else:
            s.xstarted = 2
        s.minis = k.minis_held[:]
        s.supply = k.supply
        s.fresh = k.minis_held[k.current] - k.minis_ready[k.current] if k.ninja_on else 0
        if k.bury is not None:
            s.pend_seat, s.pend_t, s.pend_k = k.bury
        else:
            s.pend_seat = s.pend_t = s.pend_k = 0
        s.after_bury = POST_ACT if k.bury_then in (None, "after-action") else PHASES[k.bury_then]
        s.pending_end = "types"
        this_round = [(r, o, c) for r, o, c in k.revealed if r == s.rnd]
        s.reveal_i = len(this_round) if s.phase == REVEAL else 0
        s.tasks = [[] for _ in range(n)]
        s.tasks[k.me] = k.my_tasks[:]
        s.revealed = tuple(k.revealed)
        s.bonus = [0] * n
        if s.phase == REVEAL:
            for _, _, c in this_round:
                d, t = divmod(c, N_TYPES)
                if k.owner[t] >= 0:
                    s.bonus[k.owner[t]] += TASK_BONUS[d] * k.size[t]
        s.history = tuple(
            RoundResult(
                r["start"],
                r["ended_by"],
                tuple(r["scores"]),
                tuple(r["bonus"]),
                tuple((x["owner"], TYPE_OF_VALUE[x["type"]], x["size"]) for x in r["sets"]),
                tuple(PILES.index(pile) for pile in r["empty_piles"]),
            )
            for r in view["round_scores"]
        )
        s.totals = k.totals[:]
        s.log = None
        self.template = s
        # Hidden cards: one entry per unseen card.
        self.pool = [t for t in range(N_TYPES) for _ in range(max(0, k.unseen[t]))]
        self.slots = [(o, k.unknown_slots(o)) for o in range(n) if o != k.me]
        self.d1 = range(s.dpos[0], mid)
        self.d2 = range(s.dpos[1], N_CARDS)
        self.prefix = tuple(((0,) * N_CARDS,) * s.rnd)
        # Unrevealed task cards of the others: per deck, the cards nobody has accounted for.
        self.task_pools: list[tuple[list[int], list[int]]] = []
        if k.tasks_on:
            for d, letter in enumerate(TASK_DECKS):
                used = {c for _, _, c in k.revealed if c // N_TYPES == d}
                used |= {c for c in k.my_tasks if c // N_TYPES == d}
                free = [
                    task_code(d, TYPE_OF_VALUE[v])
                    for v in k.task_cards.get(letter, ())
                    if task_code(d, TYPE_OF_VALUE[v]) not in used
                ]
                holders = [
                    o
                    for o in range(n)
                    if o != k.me
                    and not any(c // N_TYPES == d for _, so, c in k.revealed if so == o)
                ]
                self.task_pools.append((free, holders))

    def consistent(self) -> bool:
        """The unseen cards fill exactly the unknown hand slots and the draw piles."""
        need = sum(c for _, c in self.slots) + len(self.d1) + len(self.d2)
        return need == len(self.pool) and all(c >= 0 for _, c in self.slots)

    def sample(self, rng: random.Random) -> State:
        s = self.template.clone()
        pool = self.pool[:]
        rand = rng.random
        pool.sort(key=lambda _: rand())
        i = 0
        hands = s.hands
        for o, c in self.slots:
            h = hands[o]
            for t in pool[i : i + c]:
                h[t] += 1
            i += c
        deck = [0] * N_CARDS
        for p in self.d1:
            deck[p] = pool[i]
            i += 1
        for p in self.d2:
            deck[p] = pool[i]
            i += 1
        s.decks = (*self.prefix, tuple(deck))
        for free, holders in self.task_pools:
            if holders:
                cards = rng.sample(free, len(holders)) if len(free) >= len(holders) else free
                for o, c in zip(holders, cards, strict=False):
                    s.tasks[o].append(c)
        return s


__all__ = ["Sampler"]
