"""Reactions in the real-time deal (§3, §6): whether to slap a deserter or a shield now, where,
and after how long.

A reaction answers the latest event (a card dealt or a player card put down) as the seat's
view shows it; the site puts the card down after `delay` seconds if it is still legal.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from games.orc.engine.cards import N_CARDS

from .knowledge import Table, pile_hands
from .value import FLAT, expected_points, flat_value

MIN_DELAY = 0.3
LAST_DESERTER_AT = N_CARDS - 1
# Reaction times per level: (shortest, mean extra, longest), in seconds.
DELAYS: dict[str, tuple[float, float, float]] = {
    "random": (0.5, 0.6, 3.0),
    "beginner": (0.9, 0.8, 4.0),
    "heuristic": (0.5, 0.3, 2.0),
    "expert": (0.3, 0.15, 1.2),
}
FUTURE_CARD = 0.1  # expected points a card still to come brings to its pile's owner
DENIAL = 0.5  # how much a pile a rival would take instead counts against this seat


@dataclass(frozen=True, slots=True)
class Reaction:
    """Put a `verb` ("desert" or "shield") on pile `pile` (1..P) after `delay` seconds."""

    verb: str
    pile: int
    delay: float
    seen: int = 0  # cards on the pile when decided

    def text(self, at: int) -> str:
        """§8 notation once it lands with `at` army cards dealt."""
        return f"{self.verb} P{self.pile} @{at}"


def still_wanted(t: Table, r: Reaction) -> bool:
    """Whether the seat would still put the card down, seeing the table as `t` shows it.

    A shield is not put on a pile someone has claimed meanwhile, nor a deserter on a pile
    that changed (another deserter may already have removed that card).
    """
    pile = t.piles[r.pile - 1]
    if r.verb == "shield":
        return pile.owner < 0
    return len(pile.entries) == r.seen


def delay_for(level: str, rng: random.Random) -> float:
    lo, mean, hi = DELAYS[level]
    return max(MIN_DELAY, min(hi, lo + rng.expovariate(1.0 / mean)))


def may_desert(t: Table) -> bool:
    return t.deserters[t.me] > 0 and 1 <= t.dealt <= LAST_DESERTER_AT


def may_shield(t: Table) -> bool:
    return t.shields[t.me] > 0 and t.started


def unclaimed(t: Table) -> list[int]:
    return [i for i, p in enumerate(t.piles) if p.owner < 0]


def placing(t: Table) -> bool:
    """The placing step: the deal is over and a shield must go down (§3.6)."""
    return t.dealt == N_CARDS and t.shields[t.me] > 0


# ------------------------------------------------------------------ random


def random_reaction(t: Table, rng: random.Random) -> tuple[str, int] | None:
    if placing(t) or (may_shield(t) and rng.random() < 0.1):
        return ("shield", rng.randrange(len(t.piles)))
    if may_desert(t) and rng.random() < 0.03:
        return ("desert", rng.randrange(len(t.piles)))
    return None


# ------------------------------------------------------------------ beginner


def beginner_reaction(t: Table, rng: random.Random) -> tuple[str, int] | None:
    """Shields on big piles now and then; a deserter on a rival's pile on a whim."""
    free = unclaimed(t)
    if placing(t) or (may_shield(t) and rng.random() < 0.25):
        if free and rng.random() < 0.7:
            return ("shield", max(free, key=lambda i: (sum(t.piles[i].kept), rng.random())))
        return ("shield", rng.randrange(len(t.piles)))
    if may_desert(t) and t.started and rng.random() < 0.05:
        rivals = [i for i, p in enumerate(t.piles) if p.owner not in (-1, t.me) and p.top >= 0]
        if rivals:
            return ("desert", rng.choice(rivals))
    return None


# ------------------------------------------------------------------ heuristic


def heuristic_reaction(t: Table, rng: random.Random) -> tuple[str, int] | None:
    """Card values: claim the best pile for this hand, spoil rivals' strong cards."""
    me = t.me
    mine = pile_hands(t)[me]
    base = flat_value(mine)
    if may_shield(t) or placing(t):
        free = unclaimed(t)
        if free:
            scores = {
                i: flat_value([a + b for a, b in zip(mine, t.piles[i].kept, strict=True)]) - base
                for i in free
            }
            best = max(free, key=lambda i: scores[i])
            scarce = len(free) <= sum(t.shields[s] for s in t.fighters)
            first = t.shields[me] == 2
            if placing(t) or first or scarce or t.dealt >= 70 or scores[best] >= 14:
                return ("shield", best)
        elif placing(t):
            return ("shield", 0)
    if may_desert(t) and t.started:
        best_i, best_v = -1, 0.0
        for i, p in enumerate(t.piles):
            if p.top < 0 or p.owner < 0:
                continue
            if p.owner == me:
                less = mine[:]
                less[p.top] -= 1
                v = flat_value(less) - base
            else:
                v = FLAT[p.top]
            if v > best_v:
                best_i, best_v = i, v
        if best_i >= 0 and (best_v >= 6 or (t.dealt >= 66 and best_v >= 2)):
            return ("desert", best_i)
    return None


# ------------------------------------------------------------------ expert


def expert_reaction(t: Table, rng: random.Random) -> tuple[str, int] | None:
    """What each pile is worth to whom: expected battle points with and without it."""
    me = t.me
    fighters = t.fighters
    hands = pile_hands(t)
    idx = fighters.index(me)
    ep0 = expected_points(hands, fighters)
    if may_shield(t) or placing(t):
        free = unclaimed(t)
        if not free:
            if placing(t):
                return ("shield", 0)
        else:
            rivals = [s for s in fighters if s != me and t.shields[s] > 0]
            scores: dict[int, float] = {}
            for i in free:
                kept = t.piles[i].kept
                fut = FUTURE_CARD * t.piles[i].future
                mine = hands[me]
                hands[me] = [a + b for a, b in zip(mine, kept, strict=True)]
                gain = expected_points(hands, fighters)[idx] - ep0[idx] + fut
                hands[me] = mine
                deny = 0.0
                for s in rivals:
                    theirs = hands[s]
                    hands[s] = [a + b for a, b in zip(theirs, kept, strict=True)]
                    loss = ep0[idx] - expected_points(hands, fighters)[idx]
                    hands[s] = theirs
                    deny = max(deny, loss)
                scores[i] = gain + DENIAL * deny
            best = max(free, key=lambda i: scores[i])
            ranked = sorted(scores.values(), reverse=True)
            # Waiting shows more of every pile, but the best one goes to whoever is fastest.
            outstanding = sum(t.shields[s] for s in fighters)
            scarce = len(free) <= outstanding
            standout = (
                len(ranked) < 2 or ranked[0] - ranked[min(len(ranked) - 1, outstanding)] > 0.15
            )
            if placing(t) or t.shields[me] == 2 or scarce or standout or t.dealt >= 68:
                return ("shield", best)
    if may_desert(t) and t.started:
        best_i, best_v = -1, 0.0
        lead = max(t.totals)
        for i, p in enumerate(t.piles):
            o = p.owner
            if p.top < 0 or o < 0:
                continue
            had = hands[o]
            less = had[:]
            less[p.top] -= 1
            hands[o] = less
            ep1 = expected_points(hands, fighters)
            hands[o] = had
            v = ep1[idx] - ep0[idx]
            if o != me:
                # Hurting the leader in the game is worth more than hurting anyone else.
                weight = 0.3 + 0.4 * (t.totals[o] >= lead)
                v += weight * (ep0[fighters.index(o)] - ep1[fighters.index(o)])
            if v > best_v:
                best_i, best_v = i, v
        left = (LAST_DESERTER_AT - t.dealt) / LAST_DESERTER_AT
        if best_i >= 0 and best_v >= 0.02 + 0.12 * left:
            return ("desert", best_i)
    return None
