"""How much a hand is worth: people strengths, mercenary power and expected battle points.

`expected_points` is the strong level's model of a round: each people's battle goes to
the strongest army, mercenaries can tip any one battle, and nobody knows yet which battles
will pay 2. Every seat's chance in a battle is a softmax of its strength there, so that a
card's worth depends on who it goes to: a veteran is worth little to a player with no
chance in that people and a lot to one fighting for the lead.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from games.orc.engine.cards import CG, FM, GI, GR, N_CODES, SP1, SP4, TR, WM

# A rough worth of each card on its own, in strength points (the simple levels).
FLAT: tuple[float, ...] = (
    (2.0, 6.0, 5.0) * 4  # a chief doubles; alone in a hand it is worth about a veteran
    + (1.5, 10.0, 5.0, 6.0, 4.0, 3.0)
    + (3.0,) * 4
)
TAU = 4.0  # strength that turns a battle from even to about 3:1 between two players
MERC_SHARE = 0.35  # mercenaries count this much in every people's battle
POINTS_PER_BATTLE = 1.5  # battles 1 and 4 pay 2, 2 and 3 pay 1; which is which is not known


def people_strength(h: Sequence[int], p: int) -> int:
    """§4.5: a people's part of an army (one chief doubles it, two make the army worth 0)."""
    base = 3 * p
    if h[base + 2] >= 2:
        return 0
    own = 2 * h[base] + 6 * h[base + 1]
    return 2 * own if h[base + 2] == 1 else own


def merc_power(h: Sequence[int]) -> float:
    """What the mercenaries of a hand add over the round, giants in twos being set aside."""
    gi = h[GI] if h[GI] < 2 else 0
    gr = h[GR]
    power = 10.0 * gi + 5.0 * h[TR] + gr + 9.0 * min(h[WM], gr)
    if h[FM]:
        power += 5.0 if gr > h[WM] else 2.0
    power += 3.0 * h[CG] + 2.5 * sum(h[SP1 : SP4 + 1])
    return power


def flat_value(h: Sequence[int]) -> float:
    """The simple levels' worth of a hand: card by card, minding chiefs and giants in twos."""
    v = sum(FLAT[c] * h[c] for c in range(N_CODES))
    for p in range(4):
        if h[3 * p + 2] >= 2:
            v -= FLAT[3 * p + 2] * h[3 * p + 2] + 2 * h[3 * p] + 6 * h[3 * p + 1]
    if h[GI] >= 2:
        v -= 10.0 * h[GI]
    return v


def strengths(hands: Sequence[Sequence[int]], fighters: Sequence[int]) -> list[list[float]]:
    """Per people, per fighter (in `fighters` order): people strength plus a mercenary share."""
    merc = [MERC_SHARE * merc_power(hands[s]) for s in fighters]
    return [
        [people_strength(hands[s], p) + merc[i] for i, s in enumerate(fighters)] for p in range(4)
    ]


def expected_points(
    hands: Sequence[Sequence[int]], fighters: Sequence[int], fought: Sequence[bool] = (False,) * 4
) -> list[float]:
    """Expected points of each fighter (in `fighters` order) from the battles not fought."""
    table = strengths(hands, fighters)
    out = [0.0] * len(fighters)
    for p in range(4):
        if fought[p]:
            continue
        row = table[p]
        top = max(row)
        w = [math.exp((x - top) / TAU) for x in row]
        total = sum(w)
        for i, x in enumerate(w):
            out[i] += POINTS_PER_BATTLE * x / total
    return out
