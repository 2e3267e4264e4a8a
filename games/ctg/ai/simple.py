"""The yardstick players: uniform random, and greedy (lays its most valuable legal set, else
discards its rarest card)."""

from __future__ import annotations

import random

from games.ctg.engine import actions as A
from games.ctg.engine.cards import TASK_BONUS, VALUES

from .knowledge import Knowledge


def random_action(k: Knowledge, rng: random.Random) -> int:
    return rng.choice(k.legal)


def reveal_gain(k: Knowledge, action: int, seat: int) -> int:
    """Bonus the reveal gives `seat` minus the most it gives another seat."""
    _, d, t = A.DECODE[action]
    o = k.owner[t]
    if o < 0:
        return 0
    gain = TASK_BONUS[d] * k.size[t]
    return gain if o == seat else -gain


def greedy_action(k: Knowledge, rng: random.Random) -> int:
    legal = k.legal
    kinds = [A.DECODE[a][0] for a in legal]
    if k.pending in ("draw", "second-draw"):
        draws = [a for a in legal if a < A.LAY]
        # Take a discard top that matches a card in hand, otherwise a draw pile.
        for a in draws:
            if a >= 2 and k.hand[k.xp[a - 2][-1]]:
                return a
        return next((a for a in draws if a < 2), draws[0])
    if k.pending == "action":
        lays = [a for a, kind in zip(legal, kinds, strict=True) if kind == A.K_LAY]
        if lays:
            return max(lays, key=lambda a: (VALUES[A.DECODE[a][1]], A.DECODE[a][2]))
        discards = [a for a, kind in zip(legal, kinds, strict=True) if kind == A.K_DISCARD]
        # Rarest: fewest in hand, then fewest copies in the deck (the lowest value).
        return min(discards, key=lambda a: (k.hand[A.DECODE[a][1]], VALUES[A.DECODE[a][1]], a))
    if k.pending == "reveal":
        return max(legal, key=lambda a: (reveal_gain(k, a, k.me), -a))
    if A.END in legal:
        return A.END
    return legal[0]
