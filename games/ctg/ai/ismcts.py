"""Single-observer information-set Monte Carlo tree search (SO-ISMCTS).

One tree over the observer's information sets. Each iteration samples a full state
consistent with the observer's view (``determinize``) and walks the tree: the observer
chooses by UCB among the actions available in that sample (a child's ``avail`` counts the
iterations in which it could have been chosen); the others play the cheap policy of
``rollout`` on their sampled hands, so the tree spends its visits on the observer's own
choices and meets replies made with a hand in mind. The walk adds one node, plays the
round out with the same policy and backs up the observer's reward. The tree is keyed by
what the observer sees: a draw from a draw pile is one option, judged over every card it may
show, and the tree goes on under it with one child per card seen; the others' draws are not
told apart.

The search stops at the end of the current round. The observer's reward is its chance-like
standing against the best other total: in the last round win (1), tie (1/2) or loss (0)
with a little of the margin; earlier, a logistic of the margin scaled by the rounds left.

Move pruning: lays only of all cards of a type; below the root, no re-lay of an own set,
one discard pile per type (covering the more valuable top card) and miniatures only at
Action 2 or after it.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable
from dataclasses import dataclass
from math import log, sqrt
from typing import Any

from games.ctg.engine import actions as A
from games.ctg.engine.cards import VALUES
from games.ctg.engine.state import ACT, AFTER, DRAW1, NEED_DECK, State

from .determinize import Sampler
from .knowledge import Knowledge
from .rollout import fast_round, policy_action, round_scores, task_weights

UCB_C = 0.7
# Children keyed by a card seen on a draw pile, not by an action.
CHANCE = 1 << 16


@dataclass(slots=True)
class Stats:
    iterations: int = 0
    seconds: float = 0.0

    def reset(self) -> None:
        self.iterations = 0
        self.seconds = 0.0


# Statistics of the last search in this process (for the arena).
LAST = Stats()


class Node:
    __slots__ = ("avail", "children", "total", "visits")

    def __init__(self) -> None:
        self.children: dict[int, Node] = {}
        self.visits = 0
        self.total = 0.0
        self.avail = 1


def candidates(s: State, root: bool) -> list[int]:
    """The decider's legal actions worth searching."""
    acts = s.legal_actions()
    ph = s.phase
    if ph != ACT and (root or ph == AFTER or not s.ninja_on):
        return acts
    hand = s.hands[s.cur]
    cur = s.cur
    out: list[int] = []
    tops = [VALUES[p[-1]] if p else -1 for p in s.xp]
    cover = 0 if tops[0] >= tops[1] else 1
    decode = A.DECODE
    for a in acts:
        kind, p, q = decode[a]
        if kind == A.K_LAY:
            if q != hand[p] or (not root and s.owner[p] == cur):
                continue
        elif kind == A.K_DISCARD:
            if not root and q != cover and a ^ 1 in acts:
                continue
        elif kind == A.K_NINJA and not root and ph != ACT:
            continue
        out.append(a)
    return out or acts


def rewards(totals: list[int], left: int) -> list[float]:
    """Each seat's reward for the totals at the end of a round with `left` rounds to come."""
    n = len(totals)
    out = []
    for p in range(n):
        m = totals[p] - max(totals[q] for q in range(n) if q != p)
        if left == 0:
            win = 1.0 if m > 0 else (0.5 if m == 0 else 0.0)
            out.append(0.85 * win + 0.15 / (1.0 + math.exp(-m / 15.0)))
        else:
            out.append(1.0 / (1.0 + math.exp(-m / (20.0 * math.sqrt(left)))))
    return out


def playout(s: State, rand: Any, tw: list[list[int]]) -> list[float]:
    """Finish the round with the playout policy; each seat's reward."""
    while s.phase < NEED_DECK and s.phase != DRAW1:
        s._do(policy_action(s, rand, tw))
        s.apply_forced()
    # The history holds the rounds scored: this one too once it has ended.
    left = s.options.rounds - len(s.history)
    if s.phase >= NEED_DECK:
        return rewards(s.totals, left)
    fast_round(s, rand, tw)
    sc = round_scores(s)
    return rewards([s.totals[p] + sc[p] for p in range(s.n)], left - 1)


def descend(
    s: State,
    node: Node,
    me: int,
    rand: Callable[[], float],
    tw: list[list[int]],
    root: Node | None = None,
    first: Callable[[list[int]], int] | None = None,
) -> list[Node]:
    """One iteration's walk down the tree from `node`, played on `s`; the path of the
    observer's nodes, whose value the caller backs up.

    The others play the playout policy; the observer chooses by UCB among his candidates
    (the wider ones at `root`) until he meets an action not tried yet, whose new node ends
    the walk (`first` picks among several; by default one at random), or the round's
    decisions end. A draw from a pile goes on under one child per card seen.
    """
    path: list[Node] = []
    while s.phase < NEED_DECK:
        seat = s.decider
        assert seat is not None
        if seat != me:
            a = policy_action(s, rand, tw)
            s._do(a)
            s.apply_forced()
            child = node.children.get(a)
            if child is None:
                child = node.children[a] = Node()
            node = child
            continue
        children = node.children
        untried: list[int] = []
        best: Node | None = None
        best_a = -1
        best_v = -1.0
        for a in candidates(s, node is root):
            child = children.get(a)
            if child is None:
                untried.append(a)
                continue
            child.avail += 1
            v = child.total / child.visits + UCB_C * sqrt(log(child.avail) / child.visits)
            if v > best_v:
                best, best_a, best_v = child, a, v
        if untried:
            best_a = untried[int(rand() * len(untried))] if first is None else first(untried)
            best = children[best_a] = Node()
        assert best is not None
        path.append(best)
        node = best
        if best_a < 2:
            # A draw pile: the card it shows is chance, not choice; what follows depends on
            # it, so the tree goes on under one child per card seen.
            card = s.decks[s.rnd][s.dpos[best_a]]
            nxt = node.children.get(CHANCE + card)
            if nxt is None:
                nxt = node.children[CHANCE + card] = Node()
            node = nxt
        s._do(best_a)
        s.apply_forced()
        if untried:
            break
    return path


def search(
    view: dict[str, Any],
    k: Knowledge,
    rng: random.Random,
    iterations: int,
    seconds: float | None,
    settle: bool = True,
) -> int:
    """The most visited root action after `iterations` iterations or `seconds` seconds.

    With `settle`, the search also stops as soon as the iterations left (by count, or by time
    at the pace so far) could no longer change which root action is the most visited: the
    answer is the one the whole budget would give, sooner.
    """
    root = grow(view, k, rng, iterations, seconds, settle)
    return max(root.children.items(), key=lambda ac: (ac[1].visits, -ac[0]))[0]


def grow(
    view: dict[str, Any],
    k: Knowledge,
    rng: random.Random,
    iterations: int,
    seconds: float | None,
    settle: bool = True,
) -> Node:
    """The search tree; the root's children are the observer's options."""
    t0 = time.perf_counter()
    deadline = t0 + seconds if seconds is not None else math.inf
    sampler = Sampler(view, k)
    me = k.me
    root = Node()
    rand = rng.random
    it = 0
    iterations = max(1, iterations)
    while it < iterations:
        # The clock at every iteration (a playout takes milliseconds, the clock a tenth of a
        # microsecond): on a busy machine eight playouts overran a decision's time by a third.
        if it:
            now = time.perf_counter()
            if now >= deadline:
                break
            if settle and len(root.children) > 1 and it & 63 == 0:
                top = sorted(c.visits for c in root.children.values())
                # Iterations left: by count, or by time at the pace so far.
                left = min(iterations - it, it * (deadline - now) / (now - t0))
                if top[-1] - top[-2] > left:
                    break
        it += 1
        s = sampler.sample(rng)
        tw = task_weights(s)
        path = descend(s, root, me, rand, tw, root=root)
        r = playout(s, rand, tw)[me]
        for nd in path:
            nd.visits += 1
            nd.total += r
    LAST.iterations = it
    LAST.seconds = time.perf_counter() - t0
    return root


__all__ = ["LAST", "descend", "grow", "search"]
