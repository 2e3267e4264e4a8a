"""The card-counting heuristic: it reasons only from what the seat has seen.

Every card seen (own hand, sets on the table, both discard piles in full, cards known to be
in other hands) is counted, so the rest (``unseen``) is what may still come out of unknown
hand slots and draw piles. From that it estimates, for each set it could lay, how likely an
opponent outbids it before the round ends; it lays safe or valuable sets, keeps pairs,
discards what helps the others least, takes discard tops that build its sets, plays the
round-end tempo (leader hurries the end, trailer drags it out) and knows both variants.
"""

from __future__ import annotations

import math
import random

from games.ctg.engine import actions as A
from games.ctg.engine.cards import N_TYPES, NINJA_TYPE, TASK_BONUS, THREE_DOT_TYPES, VALUES

from .knowledge import Knowledge

MINIATURE_WORTH = 5.0


class Heuristic:
    """One decision's worth of evaluations over a Knowledge."""

    def __init__(self, k: Knowledge) -> None:
        self.k = k
        n = k.n
        self.pool = max(1, sum(k.unseen))
        # Turns left in the round, counted over all seats: each turn usually takes one card
        # from each draw pile.
        self.turns_left = max(1, min(k.draw))
        self.types = [k.ntypes(s) for s in range(n)]
        # The types condition usually ends a round long before the draw piles run out.
        by_types = 2 * (k.need_types - max(self.types)) + 1
        self.my_turns = max(1, min(self.turns_left // n, by_types))
        self.opp_close = max(self.types[s] for s in range(n) if s != k.me) >= k.need_types - 1
        self.lo = [3 if n >= 3 and t in THREE_DOT_TYPES else 2 for t in range(N_TYPES)]
        scores = k.round_scores()
        self.standing = [k.totals[s] + scores[s] for s in range(n)]
        best_other = max(self.standing[s] for s in range(n) if s != k.me)
        self.lead = self.standing[k.me] - best_other
        self.next_seat = (k.me + 1) % n
        self.in_discards = [0] * N_TYPES
        for pile in k.xp:
            for t in pile:
                self.in_discards[t] += 1
        self.last_round = k.round == k.rounds

    # ------------------------------------------------------------------ estimates

    def opp_reach(self, t: int, seat: int) -> tuple[float, int]:
        """Expected and largest number of cards of t that `seat` may hold before the end."""
        k = self.k
        draws = k.unknown_slots(seat) + 2 * self.my_turns
        expected = k.known[seat][t] + k.unseen[t] * min(1.0, draws / self.pool)
        expected += 0.5 * self.in_discards[t] * min(1.0, self.my_turns / 3)
        largest = k.known[seat][t] + min(k.unseen[t], draws) + self.in_discards[t]
        return expected, largest

    def outbid_risk(self, t: int, count: int) -> float:
        """Chance-like measure that an opponent lays more than `count` cards of t this round."""
        k = self.k
        worst = 0.0
        for s in range(k.n):
            if s == k.me:
                continue
            expected, largest = self.opp_reach(t, s)
            if largest <= count:
                continue
            r = 1.0 / (1.0 + math.exp(-2.0 * (expected + 0.7 - (count + 1))))
            worst = max(worst, r)
        return worst

    def keep_value(self, t: int, c: int) -> float:
        """How much holding c cards of type t is worth to the seat."""
        if c <= 0:
            return 0.0
        k = self.k
        o = k.owner[t]
        if o == k.me:
            # Spares of an own set: useful only to re-lay bigger when it is threatened.
            return 0.5 * c
        if o >= 0 and c + k.unseen[t] + self.in_discards[t] <= k.size[t]:
            return 0.0  # can never outbid that set
        need = max(self.lo[t], k.size[t] + 1 if o >= 0 else 0)
        v = VALUES[t] + k.task_weight(t) * c
        closeness = min(c, need) / need
        chance = min(1.0, (k.unseen[t] + 1) / 6)
        return 4.0 * c * c + v * closeness * (0.5 + chance) / 2

    def help_to(self, seat: int, t: int) -> float:
        """How much a card of t on top of a discard pile helps `seat`."""
        k = self.k
        h = VALUES[t] / 20.0
        kn = k.known[seat][t]
        if kn:
            h += VALUES[t] / 4.0 + 2.0 * kn
        if k.owner[t] == k.me:
            h += VALUES[t] / 3.0
        elif k.owner[t] == seat:
            h *= 0.5
        return h

    def help_opponents(self, t: int) -> float:
        k = self.k
        h = 0.0
        for i in range(1, k.n):
            s = (k.me + i) % k.n
            h += self.help_to(s, t) * (1.0 if i == 1 else 0.4)
        return h

    # ------------------------------------------------------------------ decisions

    def choose(self, rng: random.Random) -> int:
        k = self.k
        p = k.pending
        if k.ninja_on:
            ninja = self.choose_ninja()
            if ninja is not None:
                return ninja
        if p in ("draw", "second-draw"):
            return self.choose_draw()
        if p == "action":
            return self.choose_action2()
        if p == "bury":
            return self.choose_pile([a for a in k.legal if A.DECODE[a][0] == A.K_BURY], A.BURY)
        if p == "reveal":
            return self.choose_reveal()
        if A.END in k.legal:
            return A.END
        return k.legal[0]

    def choose_draw(self) -> int:
        k = self.k
        draws = [a for a in k.legal if a < A.LAY]
        best, best_v = draws[0], -1e9
        # A random draw is worth roughly the average keep gain of one unseen card.
        d_value = 0.0
        for t in range(N_TYPES):
            if k.unseen[t]:
                c = k.hand[t]
                d_value += k.unseen[t] * (self.keep_value(t, c + 1) - self.keep_value(t, c))
        d_value /= self.pool
        for a in draws:
            if a < 2:
                v = d_value
                # Tempo: the leader draws from the smaller pile to hurry the end.
                other = k.draw[1 - a]
                mine = k.draw[a]
                if mine != other:
                    smaller = mine < other
                    v += 0.3 if (smaller == (self.lead > 0)) else -0.3
            else:
                t = k.xp[a - 2][-1]
                c = k.hand[t]
                v = self.keep_value(t, c + 1) - self.keep_value(t, c) - 0.5
                v += 0.3 * self.help_to(self.next_seat, t)
            if v > best_v:
                best, best_v = a, v
        return best

    def lay_value(self, t: int, count: int) -> float:
        k = self.k
        o = k.owner[t]
        v = float(VALUES[t])
        if o == k.me:
            v = 0.0  # re-laying an own set only protects it
        elif o >= 0:
            # Taking a set from a rival also costs him its value.
            v += VALUES[t] * (1.0 if k.n == 2 else 0.6)
        v += k.task_weight(t) * count
        if t == NINJA_TYPE and k.ninja_on and k.supply:
            v += MINIATURE_WORTH
        return v

    def choose_action2(self) -> int:
        k = self.k
        lays: list[tuple[float, int]] = []
        my_types = k.ntypes(k.me)
        nowned = sum(1 for o in k.owner if o >= 0)
        cur_risk = [0.0] * N_TYPES
        for t in range(N_TYPES):
            if k.owner[t] == k.me:
                cur_risk[t] = self.outbid_risk(t, k.size[t])
        urgent = self.my_turns <= 2 or self.opp_close
        for a in k.legal:
            kind, t, count = A.DECODE[a]
            if kind != A.K_LAY or count != k.hand[t]:
                continue
            risk = self.outbid_risk(t, count)
            gain = self.lay_value(t, count)
            if k.owner[t] == k.me:
                gain = (VALUES[t] + k.task_weight(t) * count) * max(0.0, cur_risk[t] - risk)
                gain += k.task_weight(t) * (count - k.size[t])
            score = gain * (1.0 - risk)
            ends = False
            if k.owner[t] != k.me:
                ends = (my_types + 1 >= k.need_types) or (k.owner[t] < 0 and nowned + 1 == 9)
            if ends:
                # A lay that ends the round banks the scores at once.
                after = self.lead + VALUES[t] + (VALUES[t] if k.owner[t] >= 0 else 0)
                score = gain + (15.0 if after > 0 else -15.0 - max(0, -after))
            elif risk < 0.35 or urgent or (k.owner[t] >= 0 and k.owner[t] != k.me):
                score += 5.0
            else:
                score -= 6.0 * risk
            lays.append((score, a))
        if lays:
            score, a = max(lays)
            if score > 0:
                return a
        return self.choose_discard()

    def choose_discard(self) -> int:
        k = self.k
        best: tuple[float, int] | None = None
        for t in range(N_TYPES):
            c = k.hand[t]
            if not c:
                continue
            cost = self.keep_value(t, c) - self.keep_value(t, c - 1) + self.help_opponents(t)
            if best is None or cost < best[0]:
                best = (cost, t)
        assert best is not None
        t = best[1]
        options = [a for a in k.legal if A.DECODE[a][0] == A.K_DISCARD and A.DECODE[a][1] == t]
        return self.choose_pile(options, A.DISCARD + 2 * t)

    def choose_pile(self, options: list[int], base: int) -> int:
        """Between the allowed piles, cover the top card that helps the next seat most."""
        if len(options) == 1:
            return options[0]
        k = self.k
        tops = [self.help_to(self.next_seat, p[-1]) if p else -1.0 for p in k.xp]
        x = 0 if tops[0] >= tops[1] else 1
        return base + x if base + x in options else options[0]

    def choose_reveal(self) -> int:
        k = self.k
        more = not self.last_round

        def value(a: int) -> float:
            _, d, t = A.DECODE[a]
            o = k.owner[t]
            now = 0.0
            if o >= 0:
                g = TASK_BONUS[d] * k.size[t]
                now = g if o == k.me else -g / (k.n - 1)
            return now - (0.5 * TASK_BONUS[d] if more else 0.0)

        return max(k.legal, key=lambda a: (value(a), -a))

    def choose_ninja(self) -> int | None:
        k = self.k
        ninjas = [a for a in k.legal if A.DECODE[a][0] == A.K_NINJA]
        if not ninjas:
            return None
        best: tuple[float, int] | None = None
        for a in ninjas:
            t = A.DECODE[a][2]
            s = k.size[t]
            v = 0.0
            if s == 1:
                v = VALUES[t] + 0.5 * TASK_BONUS[0]
            elif k.pending == "action" and k.hand[t] >= max(self.lo[t], s):
                # Shrinking the set lets the seat take it with the cards it holds.
                v = VALUES[t] * 0.8
            elif self.last_round and self.my_turns <= 1:
                v = VALUES[t] * 0.2 * s / (s + 2)
            if v > 0 and (best is None or v > best[0]):
                best = (v, a)
        return best[1] if best else None


def heuristic_action(k: Knowledge, rng: random.Random) -> int:
    return Heuristic(k).choose(rng)
