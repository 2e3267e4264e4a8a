"""Cheap playouts to the end of the round, for the search.

The policy plays the card counter's rules (``games.ctg.ai.heuristic``) cut down to what is cheap
and to what the deciding player could know (its own hand, the table, the discard piles and
the cards known to be in other hands; never the other sampled hands, else the search would
value positions as if every player could see through the others' cards): take a discard top
that matches the hand, lay the set worth most after the chance of being outbid (a set that
ends the round when it leaves the player in front), otherwise discard the card whose loss
costs least and helps the others least, covering the top card the next player wants most;
draw from the smaller pile when leading and the larger when not. A few decisions
(``EPSILON``) are random. Miniatures are not used in playouts.
Whole turns run on the state's lists directly, without the engine's checks.
"""

from __future__ import annotations

import math
from collections.abc import Callable

from games.ctg.engine import actions as A
from games.ctg.engine.cards import (
    N_CARDS,
    N_TYPES,
    TASK_BONUS,
    THREE_DOT_TYPES,
    TYPES_TO_END,
    VALUES,
)
from games.ctg.engine.state import ACT, AFTER, BURY, DRAW1, DRAW2, REVEAL, State

_LO2 = (2,) * N_TYPES
_LO3 = tuple(3 if t in THREE_DOT_TYPES else 2 for t in range(N_TYPES))
_RANGE = range(N_TYPES)
EPSILON = 0.06
_V20 = tuple(v / 20.0 for v in VALUES)
_V4 = tuple(v / 4.0 for v in VALUES)
_V3 = tuple(v / 3.0 for v in VALUES)
# Per player count and seat: the other seats in turn order, the next one weighted fully.
_OTHERS = {
    n: [tuple(((cur + i) % n, 1.0 if i == 1 else 0.4) for i in range(1, n)) for cur in range(n)]
    for n in (2, 3, 4)
}


def task_weights(s: State) -> list[list[int]]:
    """Per seat and type, the bonus per card its unrevealed task cards promise."""
    w = [[0] * N_TYPES for _ in range(s.n)]
    if s.options.tasks:
        for seat, cards in enumerate(s.tasks):
            for c in cards:
                d, t = divmod(c, N_TYPES)
                w[seat][t] += TASK_BONUS[d]
    return w


def reveal_choice(s: State, seat: int) -> int:
    """The task card whose reveal gives `seat` the most (or costs it the least) now."""
    best, best_v = -1, -(10**9)
    for c in s.tasks[seat]:
        d, t = divmod(c, N_TYPES)
        o = s.owner[t]
        v = 0
        if o >= 0:
            g = TASK_BONUS[d] * s.size[t]
            v = g if o == seat else -g
        v = 4 * v - TASK_BONUS[d]
        if v > best_v:
            best, best_v = c, v
    return A.REVEAL + best


def _help_to(s: State, cur: int, seat: int, t: int) -> float:
    """How much a card of t on top of a discard pile helps `seat`, as `cur` judges it."""
    kn = s.known[seat][t]
    h = _V20[t] + _V4[t] + 2.0 * kn if kn else _V20[t]
    o = s.owner[t]
    if o == cur:
        h += _V3[t]
    elif o == seat:
        h *= 0.5
    return h


def _pile_counts(s: State) -> list[int]:
    """Per type, the cards of it in the two discard piles."""
    xc = [0] * N_TYPES
    for pile in s.xp:
        for t in pile:
            xc[t] += 1
    return xc


def _discard_type(s: State, cur: int, lo: tuple[int, ...], tw: list[int], xc: list[int]) -> int:
    """The card the heuristic would discard: the least keep value lost plus help to others.

    The card-counting heuristic's rule (``Heuristic.choose_discard``) on what `cur` can
    know: its hand, the table, the piles (`xc` counts them by type) and the cards known to
    be in other hands.
    """
    hand = s.hands[cur]
    owner = s.owner
    size = s.size
    known = s.known
    others = _OTHERS[s.n][cur]
    best_t, best_k = -1, 1e18
    for t in _RANGE:
        c = hand[t]
        if not c:
            continue
        o = owner[t]
        # What the others may take from the pile, weighted by seat order.
        k = 0.0
        for seat, w in others:
            kn = known[seat][t]
            h = _V20[t] + _V4[t] + 2.0 * kn if kn else _V20[t]
            if o == cur:
                h += _V3[t]
            elif o == seat:
                h *= 0.5
            k += w * h
        if o == cur:
            k += 0.5
        else:
            xt = xc[t]
            unseen = VALUES[t] - c - size[t] - xt
            for seat, _ in others:
                unseen -= known[seat][t]
            if o < 0 or c + unseen + xt > size[t]:
                need = lo[t] if o < 0 or size[t] < lo[t] else size[t] + 1
                u = (unseen + 1) / 6
                chance = 1.5 if u >= 1.0 else 0.5 + u
                v = VALUES[t] + tw[t] * c
                gain = v * (c if c < need else need)
                if c > 1:
                    gain -= (v - tw[t]) * (c - 1 if c - 1 < need else need)
                k += 4.0 * (2 * c - 1) + gain / need * chance / 2
        if k < best_k:
            best_t, best_k = t, k
    return best_t


def _cover(s: State, cur: int) -> int:
    """Of two open piles, the one whose top card helps the next player more."""
    x0, x1 = s.xp
    if not x0:
        return 0
    nxt = cur + 1 if cur + 1 < s.n else 0
    return 0 if _help_to(s, cur, nxt, x0[-1]) >= _help_to(s, cur, nxt, x1[-1]) else 1


def _lay_type(
    s: State, cur: int, lo: tuple[int, ...], tw: list[int], nowned: int, xc: list[int]
) -> int:
    """The type to lay (all cards of it), or -1 to discard.

    The card-counting heuristic's rule (``Heuristic.choose_action2``, no re-lays) on what
    `cur` can know: each set is weighed by the chance that another player outbids it before
    the round ends; a lay that ends the round is made when it leaves `cur` in front. `xc`
    counts the cards of each type in the discard piles.
    """
    hand = s.hands[cur]
    owner = s.owner
    size = s.size
    cands = [
        t
        for t in _RANGE
        if hand[t] >= lo[t] and owner[t] != cur and (owner[t] < 0 or hand[t] > size[t])
    ]
    if not cands:
        return -1
    n = s.n
    known = s.known
    hands = s.hands
    ntypes = s.ntypes
    others = _OTHERS[n][cur]
    need_types = TYPES_TO_END[n]
    turns = max(1, min(s.dend[0] - s.dpos[0], s.dend[1] - s.dpos[1]))
    mt = max(ntypes)
    my_turns = max(1, min(turns // n, 2 * (need_types - mt) + 1))
    seen = sum(hand) + sum(size) + sum(xc)
    # Per other seat: its known cards and the most cards of a type it may hold by the end.
    rivals = []
    for seat, _ in others:
        seat_known = known[seat]
        nk = sum(seat_known)
        seen += nk
        rivals.append((seat_known, sum(hands[seat]) - nk + 2 * my_turns))
    pool = max(1, N_CARDS - seen)
    urgent = my_turns <= 2 or max(ntypes[seat] for seat, _ in others) >= need_types - 1
    frac = min(1.0, my_turns / 3) / 2
    best_t, best_v = -1, 0.0
    for t in cands:
        c = hand[t]
        o = owner[t]
        v = VALUES[t]
        xt = xc[t]
        unseen = v - c - size[t] - xt
        for kns, _ in rivals:
            unseen -= kns[t]
        risk = 0.0
        for kns, draws in rivals:
            kn = kns[t]
            if kn + min(unseen, draws) + xt <= c:
                continue
            e = kn + unseen * min(1.0, draws / pool) + xt * frac
            r = 1.0 / (1.0 + math.exp(-2.0 * (e - 0.3 - c)))
            if r > risk:
                risk = r
        gain = v + (v if n == 2 else 0.6 * v) * (o >= 0) + tw[t] * c
        if ntypes[cur] + 1 >= need_types or (o < 0 and nowned + 1 == N_TYPES):
            # A lay that ends the round banks the scores at once.
            sc = [0] * n
            for u in _RANGE:
                if owner[u] >= 0:
                    sc[owner[u]] += VALUES[u]
            tot = s.totals
            lead = tot[cur] + sc[cur] - max(tot[p] + sc[p] for p, _ in others)
            after = lead + v + (v if o >= 0 else 0)
            score = gain + (15.0 if after > 0 else -15.0 + after)
        else:
            score = gain * (1.0 - risk)
            if risk < 0.35 or urgent or o >= 0:
                score += 5.0
            else:
                score -= 6.0 * risk
        if score > best_v:
            best_t, best_v = t, score
    return best_t


def _tempo_pile(s: State, cur: int) -> int:
    """The draw pile of the round-end tempo: the leader takes from the smaller pile to hurry
    the end, the others from the larger one."""
    r0 = s.dend[0] - s.dpos[0]
    r1 = s.dend[1] - s.dpos[1]
    if r0 == r1:
        return 0
    st = s.totals[:]
    owner = s.owner
    for t in _RANGE:
        if owner[t] >= 0:
            st[owner[t]] += VALUES[t]
    mine = st[cur]
    st[cur] = -(1 << 30)
    smaller = 0 if r0 < r1 else 1
    return smaller if mine > max(st) else 1 - smaller


def policy_action(s: State, rand: Callable[[], float], tw: list[list[int]]) -> int:
    """One decision of the playout policy through the engine's legal actions."""
    ph = s.phase
    if ph == REVEAL:
        seat = s.decider
        assert seat is not None
        return reveal_choice(s, seat)
    if ph == AFTER:
        return A.END
    if ph == BURY or rand() < EPSILON:
        cand = [a for a in s.legal_actions() if a < A.NINJA]
        return cand[int(rand() * len(cand))]
    cur = s.cur
    hand = s.hands[cur]
    if ph in (DRAW1, DRAW2):
        acts = s.legal_actions()
        best, best_v = -1, 0
        for a in acts:
            if a in (2, 3):
                t = s.xp[a - 2][-1]
                if hand[t] and s.owner[t] != cur:
                    v = VALUES[t] + 10 * hand[t]
                    if v > best_v:
                        best, best_v = a, v
        if best >= 0:
            return best
        draws = [a for a in acts if a < 2]
        if len(draws) == 2:
            return _tempo_pile(s, cur)
        return draws[0] if draws else acts[0]
    assert ph == ACT
    lo = _LO3 if s.n >= 3 else _LO2
    xc = _pile_counts(s)
    t = _lay_type(s, cur, lo, tw[cur], s.nowned, xc)
    if t >= 0:
        return A.lay(t, hand[t])
    t = _discard_type(s, cur, lo, tw[cur], xc)
    piles = s.allowed_discard_piles()
    x = piles[0] if len(piles) == 1 else _cover(s, cur)
    return A.discard(t, x)


def fast_round(s: State, rand: Callable[[], float], tw: list[list[int]]) -> None:
    """Play whole turns from the start of a turn until the round ends.

    Updates the hands, table and piles of `s` (the rest of it is left stale: only the
    table matters afterwards).
    """
    n = s.n
    deck = s.decks[s.rnd]
    dpos = s.dpos
    dend0, dend1 = s.dend
    x0, x1 = s.xp
    xps = (x0, x1)
    hands = s.hands
    known = s.known
    owner = s.owner
    size = s.size
    ntypes = s.ntypes
    nowned = s.nowned
    xs = s.xstarted
    xc = _pile_counts(s)
    lo = _LO3 if n >= 3 else _LO2
    need = TYPES_TO_END[n]
    cur = s.cur
    while True:
        hand = hands[cur]
        used = -1
        for _ in (0, 1):
            pick = -1
            if rand() < EPSILON:
                opts = [p for p in (0, 1) if p != used]
                opts += [p for p in (2, 3) if p != used and xps[p - 2]]
                pick = opts[int(rand() * len(opts))]
            else:
                best_v = 0
                for p in (2, 3):
                    if p == used:
                        continue
                    pile = xps[p - 2]
                    if pile:
                        t = pile[-1]
                        if hand[t] and owner[t] != cur:
                            v = VALUES[t] + 10 * hand[t]
                            if v > best_v:
                                pick, best_v = p, v
                if pick < 0:
                    if used == 0:
                        pick = 1
                    elif used == 1:
                        pick = 0
                    else:
                        pick = _tempo_pile(s, cur)
            if pick < 2:
                t = deck[dpos[pick]]
                dpos[pick] += 1
            else:
                t = xps[pick - 2].pop()
                xc[t] -= 1
                known[cur][t] += 1
            hand[t] += 1
            used = pick
        # Action 2.
        if rand() < EPSILON:
            t = int(rand() * N_TYPES)
            while not hand[t]:
                t = int(rand() * N_TYPES)
            o = owner[t]
            lay = hand[t] >= lo[t] and o != cur and (o < 0 or hand[t] > size[t])
            if not lay:
                t = -1
                dt = int(rand() * N_TYPES)
                while not hand[dt]:
                    dt = int(rand() * N_TYPES)
            else:
                dt = -1
        else:
            t = _lay_type(s, cur, lo, tw[cur], nowned, xc)
            dt = _discard_type(s, cur, lo, tw[cur], xc) if t < 0 else -1
        if xs == 0:
            x = 0
        elif xs == 1:
            x = 1
        elif (not x0) != (not x1):
            x = 0 if not x0 else 1
        else:
            x = _cover(s, cur)
        if t >= 0:
            k = hand[t]
            hand[t] = 0
            known[cur][t] = 0
            old = owner[t]
            old_k = size[t]
            owner[t] = cur
            size[t] = k
            ntypes[cur] += 1
            if old >= 0:
                ntypes[old] -= 1
                xps[x].extend([t] * old_k)
                xc[t] += old_k
                if xs < 2:
                    xs += 1
            else:
                nowned += 1
            if ntypes[cur] >= need or nowned == N_TYPES:
                break
        else:
            hand[dt] -= 1
            if known[cur][dt]:
                known[cur][dt] -= 1
            xps[x].append(dt)
            xc[dt] += 1
            if xs < 2:
                xs += 1
        if dpos[0] == dend0 or dpos[1] == dend1:
            break
        cur = (cur + 1) % n
    s.nowned = nowned


def round_scores(s: State) -> list[int]:
    """Scores of the round as the table stands, task cards revealed by `reveal_choice`."""
    n = s.n
    sc = [0] * n
    if s.options.tasks:
        start = s.start
        for i in range(n):
            seat = (start + i) % n
            if not s.tasks[seat]:
                continue
            c = reveal_choice(s, seat) - A.REVEAL
            s.tasks[seat].remove(c)
            d, t = divmod(c, N_TYPES)
            o = s.owner[t]
            if o >= 0:
                sc[o] += TASK_BONUS[d] * s.size[t]
    for t, o in enumerate(s.owner):
        if o >= 0:
            sc[o] += VALUES[t]
    return sc
