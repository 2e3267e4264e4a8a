"""The game state and every rule of RULES.md.

The state is count based: a hand is 9 counts, the table is each type's owner and set size,
draw piles are positions in the round's deck, discard piles are short lists of types.
Actions are ints (see `actions`); `apply` validates, `_do` mutates.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from games.enginekit.errors import IllegalAction

from . import actions as A
from .cards import (
    DEFAULT_TASKS,
    N_CARDS,
    N_MINIATURES,
    N_TYPES,
    NINJA_TYPE,
    TASK_BONUS,
    TASK_DECKS,
    THREE_DOT_TYPES,
    TYPE_OF_VALUE,
    TYPES_TO_END,
    VALUES,
    VARIANT_NINJA,
    VARIANT_TASKS,
    VARIANTS,
    full_deck,
    parse_task,
    task_code,
    task_text,
)

# Phases: who decides what.
DRAW1, DRAW2, ACT, AFTER, BURY, REVEAL, NEED_DECK, OVER = range(8)
PHASE_NAMES: tuple[str | None, ...] = (
    "draw",
    "second-draw",
    "action",
    "end-or-ninja",
    "bury",
    "reveal",
    None,
    None,
)
# Where play resumes after a bury caused by Action 2 (or by a miniature used after it).
POST_ACT = -1

X_ONLY1: tuple[int, ...] = (0,)
X_ONLY2: tuple[int, ...] = (1,)
X_BOTH: tuple[int, ...] = (0, 1)


@dataclass(frozen=True, slots=True)
class Options:
    """players: 2-4; rounds: 4 or 1 (quick), exactly 3 with imperial tasks; variants ⊆ VARIANTS."""

    players: int
    rounds: int = 4
    variants: frozenset[str] = field(default_factory=frozenset)

    def __post_init__(self) -> None:
        if self.players not in (2, 3, 4):
            raise ValueError("§2: Call to Glory is for 2, 3 or 4 players")
        unknown = set(self.variants) - VARIANTS
        if unknown:
            raise ValueError(f"unknown variant(s): {', '.join(sorted(unknown))}")
        if VARIANT_TASKS in self.variants:
            if self.rounds != 3:
                raise ValueError("§7: a game with imperial tasks lasts 3 rounds")
        elif self.rounds not in (1, 4):
            raise ValueError("§2: a game lasts 4 rounds, or 1 round (quick game)")

    @property
    def tasks(self) -> bool:
        return VARIANT_TASKS in self.variants

    @property
    def ninja(self) -> bool:
        return VARIANT_NINJA in self.variants


@dataclass(frozen=True, slots=True)
class RoundResult:
    start: int
    ended_by: str
    scores: tuple[int, ...]  # with the task bonus
    bonus: tuple[int, ...] = ()  # the Imperial Tasks part of each score
    # The table as the round ended: (owner, type index, cards) per set; and the draw piles
    # (0: D1, 1: D2) that were empty then. What the round shows, not what it counts.
    sets: tuple[tuple[int, int, int], ...] = field(default=(), compare=False)
    empty_piles: tuple[int, ...] = field(default=(), compare=False)


# The history is a linked list, so a clone shares it and appending costs one tuple:
# (previous entry, round index, seat << LOG_SHIFT | action), or a run of such codes as a
# tuple of ints (fast playouts log whole rounds at once; ints keep the GC out of it).
LOG_SHIFT = 9
LogEntry = tuple["LogEntry | None", int, "int | tuple[int, ...]"]


class State:
    """A position of one game. Mutable; `clone()` gives an independent copy cheaply."""

    __slots__ = (
        "after_bury",
        "bonus",
        "cur",
        "decks",
        "dend",
        "dpos",
        "drawn",
        "first",
        "fresh",
        "hands",
        "history",
        "hsize",
        "known",
        "log",
        "minis",
        "n",
        "names",
        "ninja_on",
        "nowned",
        "ntypes",
        "options",
        "owner",
        "pend_k",
        "pend_seat",
        "pend_t",
        "pending_end",
        "phase",
        "reveal_i",
        "revealed",
        "rnd",
        "size",
        "start",
        "supply",
        "task_deal",
        "tasks",
        "totals",
        "xp",
        "xstarted",
    )

    options: Options
    names: tuple[str, ...]
    n: int
    ninja_on: bool
    decks: tuple[tuple[int, ...], ...]
    task_deal: tuple[tuple[int, ...], ...]
    rnd: int
    start: int
    cur: int
    phase: int
    first: int
    # The types the player on turn has drawn in this turn, in order (what the view tells him).
    drawn: tuple[int, ...]
    hands: list[list[int]]
    hsize: list[int]
    known: list[list[int]]
    owner: list[int]
    size: list[int]
    ntypes: list[int]
    nowned: int
    dpos: list[int]
    dend: tuple[int, int]
    xp: list[list[int]]
    xstarted: int
    minis: list[int]
    supply: int
    fresh: int
    pend_seat: int
    pend_t: int
    pend_k: int
    after_bury: int
    pending_end: str
    reveal_i: int
    tasks: list[list[int]]
    revealed: tuple[tuple[int, int, int], ...]
    bonus: list[int]
    history: tuple[RoundResult, ...]
    totals: list[int]
    log: LogEntry | None

    # ------------------------------------------------------------------ queries

    @property
    def decider(self) -> int | None:
        """The seat that must decide now, or None (game over, or no deck for the next round)."""
        ph = self.phase
        if ph <= AFTER:
            return self.cur
        if ph == BURY:
            return self.pend_seat
        if ph == REVEAL:
            return (self.start + self.reveal_i) % self.n
        return None

    @property
    def game_over(self) -> bool:
        return self.phase == OVER

    @property
    def pending(self) -> str | None:
        """The kind of decision awaited: draw, second-draw, action, end-or-ninja, bury, reveal."""
        return PHASE_NAMES[self.phase]

    @property
    def round(self) -> int:
        """The current round, counted from 1."""
        return self.rnd + 1

    def draw_pile_sizes(self) -> tuple[int, int]:
        return self.dend[0] - self.dpos[0], self.dend[1] - self.dpos[1]

    def allowed_discard_piles(self) -> tuple[int, ...]:
        """Discard piles (0: X1, 1: X2) the next discard may go to: the empty-pile rule (§4)."""
        s = self.xstarted
        if s == 0:
            return X_ONLY1
        if s == 1:
            return X_ONLY2
        e1 = not self.xp[0]
        if e1 != (not self.xp[1]):
            return X_ONLY1 if e1 else X_ONLY2
        return X_BOTH

    def miniature_usable(self) -> bool:
        """The player on turn holds a miniature from an earlier turn and an opponent has a set."""
        if not self.ninja_on or self.minis[self.cur] <= self.fresh:
            return False
        cur = self.cur
        return any(o >= 0 and o != cur for o in self.owner)

    def legal_actions(self) -> list[int]:
        """Every legal action for the decider, in ascending code order."""
        ph = self.phase
        if ph == ACT:
            acts = self._lays_and_discards()
        elif ph <= DRAW2:
            acts = []
            first = self.first
            dpos = self.dpos
            dend = self.dend
            if first != 0 and dpos[0] < dend[0]:
                acts.append(0)
            if first != 1 and dpos[1] < dend[1]:
                acts.append(1)
            if first != 2 and self.xp[0]:
                acts.append(2)
            if first != 3 and self.xp[1]:
                acts.append(3)
        elif ph == BURY:
            return [A.BURY + x for x in self.allowed_discard_piles()]
        elif ph == AFTER:
            acts = self._ninja_actions()
            acts.append(A.END)
            return acts
        elif ph == REVEAL:
            return sorted(A.REVEAL + c for c in self.tasks[(self.start + self.reveal_i) % self.n])
        else:
            return []
        if self.ninja_on and self.minis[self.cur] > self.fresh:
            acts.extend(self._ninja_actions())
        return acts

    def _lays_and_discards(self) -> list[int]:
        acts: list[int] = []
        hand = self.hands[self.cur]
        owner = self.owner
        size = self.size
        dots = self.n >= 3
        types: list[int] = []
        for t in range(N_TYPES):
            c = hand[t]
            if not c:
                continue
            types.append(t)
            lo = 3 if dots and t in THREE_DOT_TYPES else 2
            if owner[t] >= 0 and size[t] >= lo:
                lo = size[t] + 1
            if c >= lo:
                base = A.LAY + t * (A.MAX_SET + 1)
                acts.extend(range(base + lo, base + c + 1))
        piles = self.allowed_discard_piles()
        if len(piles) == 2:
            for t in types:
                d = A.DISCARD + 2 * t
                acts.append(d)
                acts.append(d + 1)
        else:
            x = A.DISCARD + piles[0]
            for t in types:
                acts.append(x + 2 * t)
        return acts

    def _ninja_actions(self) -> list[int]:
        if not self.miniature_usable():
            return []
        cur = self.cur
        return sorted(
            A.NINJA + o * N_TYPES + t for t, o in enumerate(self.owner) if o >= 0 and o != cur
        )

    # ------------------------------------------------------------------ applying

    def apply(self, action: int, seat: int | None = None) -> list[tuple[int, int]]:
        """Apply a legal action of the decider (checked to be `seat` when given).

        Raises IllegalAction and leaves the state untouched on a rule breach. Afterwards
        every forced decision (exactly one legal option, §9) is applied too; those are
        returned as (seat, action) pairs and logged like any other action.
        """
        if seat is not None and seat != self.decider:
            raise self._wrong_player(seat)
        if action not in self.legal_actions():
            raise self.explain(action)
        self._do(action)
        return self.apply_forced()

    def apply_forced(self) -> list[tuple[int, int]]:
        """Apply decisions that have exactly one legal option (§9) until a real choice."""
        done: list[tuple[int, int]] = []
        while True:
            acts = self.legal_actions()
            if len(acts) != 1:
                return done
            seat = self.decider
            assert seat is not None
            done.append((seat, acts[0]))
            self._do(acts[0])

    def _do(self, a: int) -> None:
        """Apply an action known to be legal."""
        cur = self.cur
        ph = self.phase
        seat = (
            cur
            if ph <= AFTER
            else (self.pend_seat if ph == BURY else (self.start + self.reveal_i) % self.n)
        )
        self.log = (self.log, self.rnd, seat << LOG_SHIFT | a)
        if a < A.LAY:
            if a < 2:
                t = self.decks[self.rnd][self.dpos[a]]
                self.dpos[a] += 1
            else:
                t = self.xp[a - 2].pop()
                self.known[cur][t] += 1
            self.hands[cur][t] += 1
            self.hsize[cur] += 1
            if ph == DRAW1:
                self.first = a
                self.phase = DRAW2
                self.drawn = (t,)
            else:
                self.first = -1
                self.phase = ACT
                self.drawn = (*self.drawn, t)
            return
        kind, p, q = A.DECODE[a]
        if kind == A.K_LAY:
            self._lay(p, q)
        elif kind == A.K_DISCARD:
            self.hands[cur][p] -= 1
            self.hsize[cur] -= 1
            k = self.known[cur]
            if k[p]:
                k[p] -= 1
            self._to_pile(q, p, 1)
            self._after_action2()
        elif kind == A.K_BURY:
            self._to_pile(p, self.pend_t, self.pend_k)
            if self.after_bury == POST_ACT:
                self._after_action2()
            else:
                self.phase = self.after_bury
        elif kind == A.K_NINJA:
            self.minis[cur] -= 1
            self.supply += 1
            self.size[q] -= 1
            if not self.size[q]:
                self.owner[q] = -1
                self.ntypes[p] -= 1
                self.nowned -= 1
            self.after_bury = POST_ACT if ph == AFTER else ph
            self._bury(p, q, 1)
        elif kind == A.K_REVEAL:
            self._reveal(seat, p * N_TYPES + q)
        else:
            self._end_turn()

    def _lay(self, t: int, k: int) -> None:
        cur = self.cur
        self.hands[cur][t] -= k
        self.hsize[cur] -= k
        known = self.known[cur]
        if known[t]:
            # Others knew a lower bound; after k cards of the type leave, only this remains.
            known[t] = max(0, known[t] - k)
        old = self.owner[t]
        old_k = self.size[t]
        if old >= 0:
            self.ntypes[old] -= 1
        else:
            self.nowned += 1
        self.owner[t] = cur
        self.size[t] = k
        self.ntypes[cur] += 1
        if t == NINJA_TYPE and self.ninja_on and self.supply:
            self.supply -= 1
            self.minis[cur] += 1
            self.fresh += 1
        if old >= 0:
            self.after_bury = POST_ACT
            self._bury(old, t, old_k)
        else:
            self._after_action2()

    def _bury(self, seat: int, t: int, k: int) -> None:
        self.pend_seat = seat
        self.pend_t = t
        self.pend_k = k
        self.phase = BURY

    def _to_pile(self, x: int, t: int, k: int) -> None:
        pile = self.xp[x]
        if k == 1:
            pile.append(t)
        else:
            pile.extend([t] * k)
        if self.xstarted < 2:
            self.xstarted += 1

    def _after_action2(self) -> None:
        if self.miniature_usable():
            self.phase = AFTER
        else:
            self._end_turn()

    def _end_turn(self) -> None:
        self.fresh = 0
        self.drawn = ()
        need = TYPES_TO_END[self.n]
        for c in self.ntypes:
            if c >= need:
                self._end_round("types")
                return
        if self.nowned == N_TYPES:
            self._end_round("all-nine")
        elif self.dpos[0] == self.dend[0] or self.dpos[1] == self.dend[1]:
            self._end_round("draw-pile")
        else:
            self.cur = (self.cur + 1) % self.n
            self.phase = DRAW1

    def _end_round(self, ended_by: str) -> None:
        self.pending_end = ended_by
        self.bonus = [0] * self.n
        if self.options.tasks:
            self.phase = REVEAL
            self.reveal_i = 0
        else:
            self._score_round()

    def _reveal(self, seat: int, task: int) -> None:
        self.tasks[seat] = [c for c in self.tasks[seat] if c != task]
        self.revealed = (*self.revealed, (self.rnd, seat, task))
        d, t = divmod(task, N_TYPES)
        o = self.owner[t]
        if o >= 0:
            self.bonus[o] += TASK_BONUS[d] * self.size[t]
        self.reveal_i += 1
        if self.reveal_i == self.n:
            self._score_round()

    def _score_round(self) -> None:
        scores = list(self.bonus)
        for t, o in enumerate(self.owner):
            if o >= 0:
                scores[o] += VALUES[t]
        for s in range(self.n):
            self.totals[s] += scores[s]
        result = RoundResult(
            self.start,
            self.pending_end,
            tuple(scores),
            tuple(self.bonus),
            tuple((o, t, self.size[t]) for t, o in enumerate(self.owner) if o >= 0),
            tuple(i for i in (0, 1) if self.dpos[i] == self.dend[i]),
        )
        self.history = (*self.history, result)
        if self.rnd + 1 == self.options.rounds:
            self.phase = OVER
            return
        self._start_round(self.rnd + 1, next_start(self.totals, scores, self.start))

    def _start_round(self, rnd: int, start: int) -> None:
        n = self.n
        self.rnd = rnd
        self.start = start
        self.cur = start
        self.first = -1
        self.drawn = ()
        self.fresh = 0
        self.hands = [[0] * N_TYPES for _ in range(n)]
        self.known = [[0] * N_TYPES for _ in range(n)]
        self.hsize = [3] * n
        self.owner = [-1] * N_TYPES
        self.size = [0] * N_TYPES
        self.ntypes = [0] * n
        self.nowned = 0
        self.xp = [[], []]
        self.xstarted = 0
        if rnd >= len(self.decks):
            self.phase = NEED_DECK
            self.dpos = [0, 0]
            self.dend = (0, 0)
            return
        deck = self.decks[rnd]
        for i in range(3 * n):
            self.hands[(start + i) % n][deck[i]] += 1
        rest = N_CARDS - 3 * n
        mid = 3 * n + (rest + 1) // 2
        self.dpos = [3 * n, mid]
        self.dend = (mid, N_CARDS)
        self.phase = DRAW1

    def add_deck(self, deck: Sequence[int]) -> list[tuple[int, int]]:
        """Supply the shuffled deck (values, top first) of the round the game waits for."""
        if self.phase != NEED_DECK:
            raise ValueError("the game is not waiting for a deck")
        types = check_deck(deck)
        self.decks = (*self.decks, types)
        self._start_round(self.rnd, self.start)
        return self.apply_forced()

    # ------------------------------------------------------------------ copying

    def clone(self) -> State:
        s = State.__new__(State)
        s.options = self.options
        s.names = self.names
        s.n = self.n
        s.ninja_on = self.ninja_on
        s.decks = self.decks
        s.task_deal = self.task_deal
        s.rnd = self.rnd
        s.start = self.start
        s.cur = self.cur
        s.phase = self.phase
        s.first = self.first
        s.drawn = self.drawn
        s.hands = [h[:] for h in self.hands]
        s.hsize = self.hsize[:]
        s.known = [k[:] for k in self.known]
        s.owner = self.owner[:]
        s.size = self.size[:]
        s.ntypes = self.ntypes[:]
        s.nowned = self.nowned
        s.dpos = self.dpos[:]
        s.dend = self.dend
        s.xp = [self.xp[0][:], self.xp[1][:]]
        s.xstarted = self.xstarted
        s.minis = self.minis[:]
        s.supply = self.supply
        s.fresh = self.fresh
        s.pend_seat = self.pend_seat
        s.pend_t = self.pend_t
        s.pend_k = self.pend_k
        s.after_bury = self.after_bury
        s.pending_end = self.pending_end
        s.reveal_i = self.reveal_i
        s.tasks = [t[:] for t in self.tasks]
        s.revealed = self.revealed
        s.bonus = self.bonus[:]
        s.history = self.history
        s.totals = self.totals[:]
        s.log = self.log
        return s

    def signature(self) -> tuple[object, ...]:
        """Everything that defines the position (for tests and equality of replays)."""
        return (
            self.rnd,
            self.start,
            self.cur,
            self.phase,
            self.first,
            [h[:] for h in self.hands],
            self.hsize[:],
            [k[:] for k in self.known],
            self.owner[:],
            self.size[:],
            self.dpos[:],
            [x[:] for x in self.xp],
            self.xstarted,
            self.minis[:],
            self.supply,
            self.fresh,
            (self.pend_seat, self.pend_t, self.pend_k, self.after_bury)
            if self.phase == BURY
            else None,
            self.reveal_i if self.phase == REVEAL else None,
            [t[:] for t in self.tasks],
            self.revealed,
            self.history,
            self.totals[:],
            logged_actions(self),
        )

    # ------------------------------------------------------------------ errors

    def _wrong_player(self, seat: int) -> IllegalAction:
        d = self.decider
        if d is None:
            return self._no_decision()
        name = self.names[d]
        if self.phase == BURY:
            return IllegalAction(
                "not-your-decision", f"§9: {name} must choose the discard pile for his cards"
            )
        if self.phase == REVEAL:
            return IllegalAction("not-your-decision", f"§7: {name} must reveal a task card now")
        return IllegalAction("not-your-turn", f"§4: it is {name}'s turn")

    def _no_decision(self) -> IllegalAction:
        if self.phase == OVER:
            return IllegalAction("game-over", "§6: the game is over")
        return IllegalAction("no-deck", "§3: the next round has no deck yet")

    def explain(self, a: int) -> IllegalAction:
        """The rule an action breaks now (assumes it is not legal)."""
        ph = self.phase
        if ph >= NEED_DECK:
            return self._no_decision()
        if not 0 <= a < A.N_ACTIONS:
            return IllegalAction("unknown-action", f"no such action code: {a}")
        kind, p, q = A.DECODE[a]
        pile_names = A.PILES
        if ph == BURY and kind != A.K_BURY:
            return IllegalAction(
                "bury-pending",
                f"§9: {self.names[self.pend_seat]} must first choose the discard pile "
                f"for the discarded {VALUES[self.pend_t]}",
            )
        if ph == REVEAL and kind != A.K_REVEAL:
            return IllegalAction(
                "reveal-pending", "§7: the round is over; task cards must be revealed now"
            )
        if kind == A.K_DRAW:
            if ph not in (DRAW1, DRAW2):
                return IllegalAction(
                    "draw-done", "§4 Action 1: two cards have already been drawn this turn"
                )
            if p == self.first:
                return IllegalAction(
                    "draw-same-pile", "§4 Action 1: the two cards must come from different piles"
                )
            return IllegalAction("draw-empty-pile", f"§4 Action 1: pile {pile_names[p]} is empty")
        if kind in (A.K_LAY, A.K_DISCARD):
            if ph in (DRAW1, DRAW2):
                return IllegalAction(
                    "draw-first", "§4: Action 1 (draw two cards) comes before Action 2"
                )
            if ph == AFTER:
                return IllegalAction(
                    "action2-done", "§4: one lay or one discard per turn, and it is done"
                )
            have = self.hands[self.cur][p]
            v = VALUES[p]
            if kind == A.K_DISCARD:
                if not have:
                    return IllegalAction("not-in-hand", f"§4 2b: you hold no card of {v}")
                must = pile_names[2 + self.allowed_discard_piles()[0]]
                return IllegalAction(
                    "empty-pile-rule", f"§4 empty-pile rule: this discard must go onto {must}"
                )
            if q < 2:
                return IllegalAction("set-too-small", "§4 2a: a set needs at least 2 cards")
            if q < 3 and self.n >= 3 and p in THREE_DOT_TYPES:
                return IllegalAction(
                    "set-three-dots",
                    f"§4 2a: a set of {v} needs at least 3 cards with 3 or 4 players",
                )
            if self.owner[p] >= 0 and q <= self.size[p]:
                return IllegalAction(
                    "set-not-larger",
                    f"§4 2a: a set of {self.size[p]} × {v} lies on the table; "
                    f"lay more than {self.size[p]}",
                )
            return IllegalAction("not-in-hand", f"§4 2a: you hold only {have} × {v}")
        if kind == A.K_BURY:
            if ph != BURY:
                return IllegalAction(
                    "no-bury-pending", "§9: there is no displaced set or removed card to place"
                )
            must = pile_names[2 + self.allowed_discard_piles()[0]]
            return IllegalAction(
                "empty-pile-rule", f"§4 empty-pile rule: these cards must go onto {must}"
            )
        if kind == A.K_NINJA:
            if not self.ninja_on:
                return IllegalAction("ninja-off", "§8: the Ninja variant is not in play")
            if not self.minis[self.cur]:
                return IllegalAction("ninja-no-miniature", "§8: you hold no miniature")
            if self.minis[self.cur] <= self.fresh:
                return IllegalAction(
                    "ninja-same-turn",
                    "§8: a miniature can be used only on a turn later than the one it was taken",
                )
            if p == self.cur:
                return IllegalAction(
                    "ninja-own-set", "§8: a miniature removes a card from an opponent's set"
                )
            name = self.names[p] if p < self.n else f"seat {p + 1}"
            return IllegalAction("ninja-no-set", f"§8: {name} has no set of {VALUES[q]}")
        if kind == A.K_REVEAL:
            if ph != REVEAL:
                return IllegalAction(
                    "reveal-not-now", "§7: task cards are revealed only at the end of a round"
                )
            return IllegalAction(
                "task-not-held", f"§7: the player does not hold task card {task_text(a - A.REVEAL)}"
            )
        return IllegalAction(
            "end-not-now",
            "§8: 'end' ends a turn only after Action 2 while a miniature could still be used",
        )


def logged_actions(state: State) -> list[tuple[int, int, int]]:
    """Every action applied so far, forced ones included: (round index, seat, action)."""
    out: list[tuple[int, int, int]] = []
    mask = (1 << LOG_SHIFT) - 1
    entry = state.log
    while entry is not None:
        entry, rnd, codes = entry
        if isinstance(codes, int):
            out.append((rnd, codes >> LOG_SHIFT, codes & mask))
        else:
            out.extend((rnd, c >> LOG_SHIFT, c & mask) for c in reversed(codes))
    out.reverse()
    return out


def next_start(totals: Sequence[int], last: Sequence[int], prev_start: int) -> int:
    """Start player of the next round (§3): fewest total points, then fewest points in the
    round just played, then the first clockwise strictly after the previous start player."""
    n = len(totals)
    order = [(prev_start + i) % n for i in range(1, n + 1)]
    return min(order, key=lambda s: (totals[s], last[s]))


def placings(history: Sequence[RoundResult], totals: Sequence[int]) -> list[int]:
    """Final place per seat (§6): totals, then best round scores in turn; sport numbering."""

    def key(s: int) -> tuple[int, tuple[int, ...]]:
        return totals[s], tuple(sorted((r.scores[s] for r in history), reverse=True))

    keys = [key(s) for s in range(len(totals))]
    return [1 + sum(1 for other in keys if other > k) for k in keys]


def check_deck(deck: Sequence[int]) -> tuple[int, ...]:
    """Validate a deck of 110 values (top first) and return it as type indices."""
    if len(deck) != N_CARDS:
        raise ValueError(f"§3: a deck has {N_CARDS} cards, not {len(deck)}")
    try:
        types = tuple(TYPE_OF_VALUE[v] for v in deck)
    except (KeyError, TypeError):
        raise ValueError(
            "§1: a deck holds only the values 6, 7, 8, 9, 12, 14, 16, 18, 20"
        ) from None
    for t, v in enumerate(VALUES):
        if types.count(t) != v:
            raise ValueError(f"§1: a deck holds {v} cards of {v}, not {types.count(t)}")
    return types


def deal_tasks(
    n: int, rng: random.Random, distribution: Mapping[str, Sequence[int]] = DEFAULT_TASKS
) -> list[list[str]]:
    """Deal one card of each task deck to each of n players (§7)."""
    hands: list[list[str]] = [[] for _ in range(n)]
    for letter in TASK_DECKS:
        cards = list(distribution[letter])
        rng.shuffle(cards)
        for s in range(n):
            hands[s].append(f"{letter}{cards[s]}")
    return hands


def new_game(
    options: Options,
    names: Sequence[str] | None = None,
    *,
    seed: int | None = None,
    decks: Sequence[Sequence[int]] | None = None,
    tasks: Sequence[Sequence[str]] | None = None,
    task_distribution: Mapping[str, Sequence[int]] = DEFAULT_TASKS,
) -> State:
    """A new game, set up for round 1 with seat 0 starting (§3 [ruling]).

    Either `seed` (all decks and the task deal follow from it) or explicit `decks`: per
    round a list of 110 values, top first (fewer than the rounds is fine: the game then
    waits for `add_deck`). `tasks` (per seat, e.g. ["A7", "B12", "C18"]) overrides the
    deal; `task_distribution` is the printed card faces, A/B/C -> 4 values each.
    """
    n = options.players
    names = tuple(names) if names is not None else tuple(f"P{i + 1}" for i in range(n))
    check_names(names, n)
    rng = random.Random(seed)
    if decks is None:
        shuffled: list[tuple[int, ...]] = []
        rand = rng.random
        for _ in range(options.rounds):
            deck = full_deck()
            # Sorting by random keys is a uniform shuffle, and faster than rng.shuffle.
            deck.sort(key=lambda _: rand())
            shuffled.append(tuple(deck))
        deck_types = tuple(shuffled)
    else:
        if len(decks) > options.rounds:
            raise ValueError(f"more decks than rounds ({len(decks)} > {options.rounds})")
        deck_types = tuple(check_deck(d) for d in decks)
    task_deal: tuple[tuple[int, ...], ...] = ()
    if options.tasks:
        dealt = tasks if tasks is not None else deal_tasks(n, rng, task_distribution)
        task_deal = tuple(check_task_hand(h) for h in dealt)
        if len(task_deal) != n:
            raise ValueError("§7: one task hand per player")
    elif tasks:
        raise ValueError("task cards are dealt only with the imperial-tasks variant")
    s = State.__new__(State)
    s.options = options
    s.names = names
    s.n = n
    s.ninja_on = options.ninja
    s.decks = deck_types
    s.task_deal = task_deal
    s.tasks = [list(h) for h in task_deal] if task_deal else [[] for _ in range(n)]
    s.revealed = ()
    s.bonus = [0] * n
    s.history = ()
    s.totals = [0] * n
    s.minis = [0] * n
    s.supply = N_MINIATURES if options.ninja else 0
    s.log = None
    s.pend_seat = s.pend_t = s.pend_k = 0
    s.after_bury = POST_ACT
    s.pending_end = ""
    s.reveal_i = 0
    s._start_round(0, 0)
    s.apply_forced()
    return s


def check_names(names: Sequence[str], n: int) -> None:
    if len(names) != n:
        raise ValueError(f"{n} players need {n} names")
    for name in names:
        if not name or ":" in name or name != name.strip():
            raise ValueError(
                f"§10: player name {name!r} must be non-empty, without ':' and outer spaces"
            )
    if len(set(names)) != n:
        raise ValueError("§10: player names must be distinct")


def check_task_hand(cards: Sequence[str]) -> tuple[int, ...]:
    codes = tuple(parse_task(c) for c in cards)
    if sorted(c // N_TYPES for c in codes) != [0, 1, 2]:
        raise ValueError("§7: each player holds exactly one task card of each deck A, B, C")
    return codes


__all__ = ["Options", "RoundResult", "State", "new_game", "next_start", "placings", "task_code"]
