"""Turn decisions (champion, spies, people, mercenaries, commando, flying machine).

Each level reads its seat's `Table` and returns one of the view's legal texts. The search
level builds `Round`s from the table, guessing the cards other players committed face
down from their holdings (a fresh guess per rollout), and plays every candidate out to
the end of the round with the heuristic policies.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable

from games.orc.engine.cards import CODES, GI, GR, N_CODES, PEOPLES, SP1, TR, WM

from .knowledge import Table, pile_hands
from .rounds import (
    COMMANDO,
    DONE,
    FLY,
    PEOPLE,
    SEND,
    SPY,
    Round,
    army_strength,
    cheapest_send,
    combos,
    heuristic_champion,
    heuristic_commando,
    heuristic_fly,
    heuristic_people,
    heuristic_send,
    heuristic_spy,
    known_strength,
    play_out,
)
from .value import flat_value

PHASES = {"spy": SPY, "people": PEOPLE, "send": SEND, "commando": COMMANDO, "fly": FLY}
SENDABLE = (GI, TR, WM, GR)

# A decision in `Round` terms: (kind, argument) -- champion seat; spy (target, code);
# people p; send counts (GI, TR, WM, GR); commando (target, people group?); fly gremlins.
Move = tuple[str, object]


def to_round(t: Table, rng: random.Random) -> Round:
    """A round consistent with what the seat knows; committed cards of others are guessed."""
    fighters = t.fighters
    hands = pile_hands(t) if t.pending == "champion" else [h[:] for h in t.holding]
    army = [[0] * N_CODES for _ in range(t.n)]
    phase = PHASES.get(t.pending or "", SPY)
    r = Round(
        t.n,
        t.wizard,
        t.champion,
        fighters,
        hands,
        army,
        [s[:] for s in t.spied],
        t.totals[:],
        t.target,
        phase,
        max(t.spy_n, 1),
        t.battle,
        t.fought[:],
        t.people,
        t.order[:],
    )
    if t.pending in ("send", "commando"):
        base = 3 * t.people
        for s in fighters:
            h, a = hands[s], army[s]
            for c in (base, base + 1, base + 2):
                a[c], h[c] = h[c], 0
            k = t.committed[s][1] if t.committed else 0
            if s == t.me:
                for c in SENDABLE:
                    a[c] = t.my_army[c]
                    h[c] -= a[c]
            elif k:
                pool = [c for c in SENDABLE for _ in range(h[c])]
                for c in rng.sample(pool, min(k, len(pool))):
                    h[c] -= 1
                    a[c] += 1
        if t.pending == "send":
            r.send_i = t.order.index(t.me)
    elif t.pending == "fly":
        r.army = [a[:] for a in t.revealed]
        r.strength = t.strength[:]
    return r


def legal_text(t: Table, m: Move) -> str:
    kind, arg = m
    name = t.names
    if kind == "champion":
        assert isinstance(arg, int)
        return f"champion {name[arg]}"
    if kind == "spy":
        assert isinstance(arg, tuple)
        target, code = arg
        return (
            f"spy {t.spy_n} pass" if target < 0 else f"spy {t.spy_n} {name[target]} {CODES[code]}"
        )
    if kind == "people":
        assert isinstance(arg, int)
        return f"people {PEOPLES[arg]}"
    if kind == "send":
        assert isinstance(arg, tuple)
        cards = [
            code for code, k in zip(("GI", "TR", "WM", "GR"), arg, strict=True) for _ in range(k)
        ]
        return " ".join(["send", *cards])
    if kind == "commando":
        assert isinstance(arg, tuple)
        target, people_group = arg
        if target < 0:
            return "commando pass"
        return f"commando {name[target]} {'people' if people_group else 'mercenary'}"
    assert isinstance(arg, int)
    return "fly " + " ".join(["GR"] * arg) if arg else "fly pass"


def apply_move(r: Round, m: Move, rng: random.Random) -> None:
    kind, arg = m
    if kind == "champion":
        assert isinstance(arg, int)
        r.champion = arg
        r.spy_n = 1
        r.next_spy()
    elif kind == "spy":
        assert isinstance(arg, tuple)
        r.spy(*arg)
    elif kind == "people":
        assert isinstance(arg, int)
        r.choose_people(arg)
    elif kind == "send":
        assert isinstance(arg, tuple)
        r.send(arg)
    elif kind == "commando":
        assert isinstance(arg, tuple)
        r.commando(arg[0], arg[1], rng)
    else:
        assert isinstance(arg, int)
        r.fly(arg)


def heuristic_move(t: Table, r: Round) -> Move:
    me = t.me
    p = t.pending
    if p == "champion":
        return ("champion", heuristic_champion(r))
    if p == "spy":
        return ("spy", heuristic_spy(r, me))
    if p == "people":
        return ("people", heuristic_people(r))
    if p == "send":
        return ("send", heuristic_send(r, me))
    if p == "commando":
        return ("commando", heuristic_commando(r, me))
    return ("fly", heuristic_fly(r, me))


def beginner_move(t: Table, r: Round, rng: random.Random) -> Move:
    """Plain habits: the biggest hand as champion, mercenaries on a whim, no planning."""
    me = t.me
    p = t.pending
    if p == "champion":
        return ("champion", max(r.fighters, key=lambda s: sum(r.hands[s])))
    if p == "spy":
        target = rng.choice([s for s in r.fighters if s != me])
        held = [c for c in range(SP1) if r.hands[target][c] > r.spied[target][c]]
        return ("spy", (target, rng.choice(held)) if held else (-1, -1))
    if p == "people":
        return ("people", rng.choice([q for q in range(4) if not t.fought[q]]))
    if p == "send":
        h = r.hands[me]
        if rng.random() < 0.5 or t.battle == 3:
            return ("send", (min(h[GI], 1), h[TR], min(h[WM], h[GR]), h[GR]))
        return ("send", (0, 0, 0, 0))
    if p == "commando":
        others = [s for s in r.fighters if s != me and any(r.army[s])]
        target = max(others, key=lambda s: sum(r.army[s]))
        base = 3 * t.people
        has_people = sum(r.army[target][base : base + 3]) > 0
        return ("commando", (target, has_people))
    return ("fly", r.hands[me][GR])


def candidates(t: Table, r: Round) -> list[Move]:
    """The moves worth a rollout: every option where few, a pruned set of sends."""
    me = t.me
    p = t.pending
    if p == "champion":
        return [("champion", s) for s in r.fighters]
    if p == "people":
        return [("people", q) for q in range(4) if not t.fought[q]]
    if p == "fly":
        return [("fly", g) for g in range(r.hands[me][GR] + 1)]
    if p == "commando":
        out: list[Move] = [("commando", (-1, False))]
        for s in r.fighters:
            if s == me or not t.committed:
                continue
            ppl, merc = t.committed[s]
            if ppl:
                out.append(("commando", (s, True)))
            if merc:
                out.append(("commando", (s, False)))
        return out
    if p == "spy":
        gains: list[tuple[float, Move]] = []
        mine = r.hands[me]
        base_v = flat_value(mine)
        for s in range(t.n):
            if s == me:
                continue
            for c in range(SP1):
                if r.hands[s][c] > r.spied[s][c]:
                    mine[c] += 1
                    g = flat_value(mine) - base_v
                    mine[c] -= 1
                    gains.append((g, ("spy", (s, c))))
        gains.sort(key=lambda x: -x[0])
        return [("spy", (-1, -1))] + [m for _, m in gains[:7]]
    # send: nothing, the heuristic's pick, and the cheapest sends reaching each rival's
    # guessed strength (to tie and to beat it), and everything.
    mine_s = float(army_strength(r.army[me], r.people))
    sends: list[tuple[int, int, int, int]] = [(0, 0, 0, 0), heuristic_send(r, me)]
    for s in r.fighters:
        if s == me:
            continue
        k = known_strength(r, s, me)
        for d in (0.0, 1.0, 6.0):
            pick = cheapest_send(r, me, k + d - mine_s)
            if pick is not None:
                sends.append(pick[1])
    all_combos = combos(r.hands[me])
    if all_combos:
        sends.append(all_combos[-1][1])
    seen: list[tuple[int, int, int, int]] = []
    for send in sends:
        if send not in seen:
            seen.append(send)
    return [("send", send) for send in seen]


def utility(r: Round, me: int) -> float:
    """My lead over the best other player after the round; a finished game weighs more."""
    others = max(x for s, x in enumerate(r.totals) if s != me)
    u = float(r.totals[me] - others)
    if max(r.totals) >= r.target:
        u += 4.0 if r.totals[me] > others else 1.0 if r.totals[me] == others else -2.0
    return u


def search_move(t: Table, rng: random.Random, iterations: int, seconds: float | None) -> Move:
    """Flat Monte Carlo: each candidate over the same guesses, the best mean utility wins."""
    r0 = to_round(t, rng)
    cands = candidates(t, r0)
    if len(cands) == 1:
        return cands[0]
    per = max(4, iterations // len(cands))
    totals = [0.0] * len(cands)
    start = time.perf_counter()
    seeds = [rng.getrandbits(32) for _ in range(per)]
    for i in range(per):
        for j, m in enumerate(cands):
            # The same guess and the same draws for every candidate: only the move differs.
            g = random.Random(seeds[i])
            r = to_round(t, g)
            apply_move(r, m, g)
            if r.phase != DONE:
                play_out(r, g)
            totals[j] += utility(r, t.me)
        if seconds is not None and time.perf_counter() - start > seconds:
            break
    best = max(range(len(cands)), key=lambda j: totals[j])
    return cands[best]


Policy = Callable[[Table, random.Random], str]


def decide_heuristic(t: Table, rng: random.Random) -> str:
    return legal_text(t, heuristic_move(t, to_round(t, rng)))


def decide_beginner(t: Table, rng: random.Random) -> str:
    return legal_text(t, beginner_move(t, to_round(t, rng), rng))


def decide_random(t: Table, rng: random.Random) -> str:
    return rng.choice(t.legal)


__all__ = ["decide_beginner", "decide_heuristic", "decide_random", "search_move", "to_round"]
