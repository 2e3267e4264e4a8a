"""The rest of a round after the deal, on card counts: for the turn heuristics and rollouts.

`Round` mirrors the engine's rules from the spies to the last battle (§3.9-§4.8) without
validation or records, fast enough for thousands of rollouts a second. The heuristic
policies below look only at what their seat could see at the table: other players'
holdings and how many cards they committed, never which.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, field

from games.orc.engine.cards import (
    BATTLE_POINTS,
    CG,
    FM,
    GI,
    GR,
    N_CODES,
    SP1,
    SPIES,
    TR,
    WM,
)

from .value import flat_value, merc_power, people_strength

SPY, PEOPLE, SEND, COMMANDO, FLY, DONE = range(6)
SEND_STRENGTH = (10, 5, 9, 1)  # GI TR WM GR, a war machine only with a gremlin


@dataclass(slots=True)
class Round:
    n: int
    wizard: int
    champion: int
    fighters: list[int]
    hands: list[list[int]]
    army: list[list[int]]
    spied: list[list[int]]
    totals: list[int]
    target: int
    phase: int = SPY
    spy_n: int = 1
    battle: int = 0
    fought: list[bool] = field(default_factory=lambda: [False] * 4)
    people: int = -1
    order: list[int] = field(default_factory=list)
    send_i: int = 0
    strength: list[int] = field(default_factory=list)

    def clone(self) -> Round:
        return Round(
            self.n,
            self.wizard,
            self.champion,
            self.fighters,
            [h[:] for h in self.hands],
            [a[:] for a in self.army],
            [s[:] for s in self.spied],
            self.totals[:],
            self.target,
            self.phase,
            self.spy_n,
            self.battle,
            self.fought[:],
            self.people,
            self.order[:],
            self.send_i,
            self.strength[:],
        )

    def holder(self, card: int) -> int:
        for s in self.fighters:
            if self.hands[s][card]:
                return s
        return -1

    def holding(self, s: int) -> list[int]:
        """Hand and committed cards together: what others know of `s` before the reveal."""
        return [a + b for a, b in zip(self.hands[s], self.army[s], strict=True)]

    def decider(self) -> int:
        if self.phase == SPY:
            return self.holder(SPIES[self.spy_n - 1])
        if self.phase == PEOPLE:
            return self.wizard
        if self.phase == SEND:
            return self.order[self.send_i]
        if self.phase == COMMANDO:
            return self.holder(CG)
        if self.phase == FLY:
            return self.holder(FM)
        return -1

    # ---------------------------------------------------------------- steps

    def next_spy(self) -> None:
        while self.spy_n <= 4:
            if self.holder(SPIES[self.spy_n - 1]) >= 0:
                self.phase = SPY
                return
            self.spy_n += 1
        for h in self.hands:
            for c in SPIES:
                h[c] = 0
            if h[GI] >= 2:
                h[GI] = 0
        self.phase = PEOPLE

    def spy(self, target: int, code: int) -> None:
        s = self.holder(SPIES[self.spy_n - 1])
        if target >= 0 and self.hands[target][code] > self.spied[target][code]:
            self.hands[target][code] -= 1
            self.hands[s][code] += 1
            self.spied[s][code] += 1
        self.spy_n += 1
        self.next_spy()

    def choose_people(self, p: int) -> None:
        self.people = p
        base = 3 * p
        for s in self.fighters:
            h, a = self.hands[s], self.army[s]
            for c in (base, base + 1, base + 2):
                a[c], h[c] = h[c], 0
        m = len(self.fighters)
        b = self.battle % m
        self.order = self.fighters[b:] + self.fighters[:b]
        self.send_i = 0
        self.phase = SEND
        self.skip_forced()

    def skip_forced(self) -> None:
        while self.phase == SEND:
            h = self.hands[self.order[self.send_i]]
            if h[GI] or h[TR] or h[WM] or h[GR]:
                return
            self.send_i += 1
            if self.send_i == len(self.order):
                self.after_sends()

    def send(self, counts: tuple[int, int, int, int]) -> None:
        s = self.order[self.send_i]
        h, a = self.hands[s], self.army[s]
        for c, k in zip((GI, TR, WM, GR), counts, strict=True):
            h[c] -= k
            a[c] += k
        self.send_i += 1
        if self.send_i == len(self.order):
            self.after_sends()
        else:
            self.skip_forced()

    def after_sends(self) -> None:
        h = self.holder(CG)
        if h >= 0 and any(sum(self.army[s]) for s in self.fighters if s != h):
            self.phase = COMMANDO
        else:
            self.reveal()

    def commando(self, target: int, people_group: bool, rng: random.Random) -> None:
        if target >= 0:
            base = 3 * self.people
            group = range(base, base + 3) if people_group else range(12, N_CODES)
            army = self.army[target]
            total = sum(army[c] for c in group)
            if total:
                pick = rng.randrange(total)
                for c in group:
                    pick -= army[c]
                    if pick < 0:
                        army[c] -= 1
                        break
                self.hands[self.holder(CG)][CG] -= 1
        self.reveal()

    def reveal(self) -> None:
        self.strength = [0] * self.n
        for s in self.fighters:
            self.strength[s] = army_strength(self.army[s], self.people)
        h = self.holder(FM)
        if h >= 0 and not self.army[h][WM] and self.hands[h][GR]:
            self.phase = FLY
        else:
            self.score()

    def fly(self, gremlins: int) -> None:
        if gremlins:
            s = self.holder(FM)
            self.hands[s][FM] -= 1
            self.hands[s][GR] -= gremlins
            self.strength[s] += 4 + gremlins
        self.score()

    def score(self) -> None:
        pts = BATTLE_POINTS[self.battle]
        best = max(self.strength[s] for s in self.fighters)
        if best > 0:
            for s in self.fighters:
                if self.strength[s] == best:
                    self.totals[s] += pts
                    if s == self.champion:
                        self.totals[self.wizard] += pts
        for s in self.fighters:
            self.army[s] = [0] * N_CODES
        self.fought[self.people] = True
        self.battle += 1
        self.phase = PEOPLE if self.battle < 4 else DONE


def army_strength(army: list[int], people: int) -> int:
    gr = army[GR]
    return people_strength(army, people) + 10 * army[GI] + 5 * army[TR] + gr + 9 * min(army[WM], gr)


# -------------------------------------------------------------------- heuristics


def known_strength(r: Round, seat: int, viewer: int) -> float:
    """`viewer`'s estimate of `seat`'s army in the battle under way.

    People cards are all committed, so they are known; mercenaries committed by others are
    guessed as their strongest ones (a cautious guess: they are rarely sent for nothing).
    """
    if seat == viewer or r.phase == FLY:
        return float(army_strength(r.army[seat], r.people))
    hold = r.holding(seat)
    k = sum(r.army[seat][12:])
    value = float(people_strength(hold, r.people))
    if k:
        pool = sorted(
            [10] * hold[GI] + [5] * hold[TR] + [5] * hold[WM] + [1] * hold[GR], reverse=True
        )
        value += sum(pool[:k])
    return value


def combos(h: list[int]) -> list[tuple[int, tuple[int, int, int, int]]]:
    """(strength, (GI, TR, WM, GR)) of every sensible send: no unserved war machine."""
    out = []
    for g in range(h[GI] + 1):
        for t in range(h[TR] + 1):
            for r in range(h[GR] + 1):
                for w in range(min(h[WM], r) + 1):
                    out.append((10 * g + 5 * t + r + 9 * w, (g, t, w, r)))
    out.sort()
    return out


def cheapest_send(r: Round, seat: int, need: float) -> tuple[int, tuple[int, int, int, int]] | None:
    """The weakest send that adds at least `need` strength."""
    for strength, c in combos(r.hands[seat]):
        if strength >= need:
            return strength, c
    return None


def heuristic_send(r: Round, seat: int) -> tuple[int, int, int, int]:
    """Win the battle if it is worth what it costs; keep the mercenaries otherwise."""
    mine = army_strength(r.army[seat], r.people)
    later = r.order[r.send_i + 1 :]
    best = 0.0
    for s in r.fighters:
        if s != seat:
            best = max(best, known_strength(r, s, seat))
    # A player still to send may answer; a small margin keeps ties from being stolen.
    aim = best + (1 if any(merc_power(r.hands[s]) > 0 for s in later) else 0)
    aim = max(aim, 1)
    if mine >= aim:
        return (0, 0, 0, 0)
    pick = cheapest_send(r, seat, aim - mine)
    if pick is None:
        return (0, 0, 0, 0)
    cost, c = pick
    pts = BATTLE_POINTS[r.battle]
    left = sum(BATTLE_POINTS[b] for b in range(r.battle, 4))
    power = 10 * min(r.hands[seat][GI], 1) + 5 * r.hands[seat][TR] + r.hands[seat][GR]
    power += 9 * min(r.hands[seat][WM], r.hands[seat][GR])
    if r.battle == 3 or cost <= 1.6 * power * pts / left:
        return c
    return (0, 0, 0, 0)


def heuristic_people(r: Round) -> int:
    """Put the champion's two best peoples in battles 1 and 4, the 2-point battles."""
    c = r.champion
    margins = []
    for p in range(4):
        if r.fought[p]:
            continue
        mine = people_strength(r.hands[c], p) + 0.5 * merc_power(r.hands[c])
        other = max(
            people_strength(r.hands[s], p) + 0.5 * merc_power(r.hands[s])
            for s in r.fighters
            if s != c
        )
        margins.append((mine - other, p))
    margins.sort()
    return margins[-1][1] if BATTLE_POINTS[r.battle] == 2 else margins[0][1]


def heuristic_commando(r: Round, seat: int) -> tuple[int, bool]:
    """Take a card from the army that beats this seat's, when that can turn the battle."""
    mine = army_strength(r.army[seat], r.people)
    est = {s: known_strength(r, s, seat) for s in r.fighters if s != seat and any(r.army[s])}
    if not est:
        return (-1, False)
    best_other = max(est.values())
    if mine >= best_other and r.battle < 3:
        return (-1, False)
    target = max(est, key=lambda s: est[s])
    base = 3 * r.people
    army = r.holding(target)
    people_cards = [c for c in range(base, base + 3) for _ in range(army[c])]
    # (expected strength taken away, from the people group?) per group it committed.
    options: list[tuple[float, bool]] = []
    if people_cards:
        full = people_strength(army, r.people)
        loss = 0.0
        for c in people_cards:
            rest = army[:]
            rest[c] -= 1
            # Taking one of two chiefs makes the army stronger: a negative loss.
            loss += full - people_strength(rest, r.people)
        options.append((loss / len(people_cards), True))
    k = sum(r.army[target][12:])
    if k:
        pool = sorted(
            [10] * army[GI] + [5] * army[TR] + [5] * army[WM] + [1] * army[GR], reverse=True
        )
        options.append((sum(pool[:k]) / k, False))
    if not options:
        return (-1, False)
    loss, people_group = max(options)
    if loss <= 0:
        return (-1, False)
    second = max([v for s, v in est.items() if s != target] + [0.0])
    if mine >= max(best_other - loss, second) or r.battle == 3:
        return (target, people_group)
    return (-1, False)


def heuristic_fly(r: Round, seat: int) -> int:
    """Play the flying machine with as few gremlins as win (or tie) the battle."""
    mine = r.strength[seat]
    best = max(r.strength[s] for s in r.fighters if s != seat)
    for g in range(1, r.hands[seat][GR] + 1):
        if mine + 4 + g >= max(best, 1):
            return g
    return 0


def heuristic_spy(r: Round, seat: int) -> tuple[int, int]:
    """Take the card worth most to this seat (and least left to its holder); pass if none."""
    me = r.hands[seat]
    base = flat_value(me)
    best, pick = 0.0, (-1, -1)
    for t in r.fighters:
        if t == seat:
            continue
        h = r.hands[t]
        tv = flat_value(h)
        for c in range(SP1):
            if h[c] > r.spied[t][c]:
                me[c] += 1
                gain = flat_value(me) - base
                me[c] -= 1
                h[c] -= 1
                gain += 0.5 * (tv - flat_value(h))
                h[c] += 1
                if gain > best:
                    best, pick = gain, (t, c)
    return pick


def heuristic_champion(r: Round) -> int:
    """The fighter with the most valuable hand."""
    return max(r.fighters, key=lambda s: flat_value(r.hands[s]))


def play_out(
    r: Round,
    rng: random.Random,
    explore: Callable[[Round, random.Random], None] | None = None,
    epsilon: float = 0.0,
) -> None:
    """Finish the round with the heuristic policies for every seat (mutates); with
    `explore`, each decision is instead made by it with chance `epsilon`."""
    while r.phase != DONE:
        if explore is not None and rng.random() < epsilon:
            explore(r, rng)
            continue
        ph = r.phase
        if ph == SPY:
            t, c = heuristic_spy(r, r.decider())
            r.spy(t, c)
        elif ph == PEOPLE:
            r.choose_people(heuristic_people(r))
        elif ph == SEND:
            r.send(heuristic_send(r, r.order[r.send_i]))
        elif ph == COMMANDO:
            t, g = heuristic_commando(r, r.decider())
            r.commando(t, g, rng)
        else:
            r.fly(heuristic_fly(r, r.decider()))


__all__ = ["Round", "army_strength", "play_out"]
