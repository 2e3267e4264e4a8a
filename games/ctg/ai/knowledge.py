"""What a seat knows, read from its view dict: the common input of every level.

Types are indices 0..8 into ``VALUES`` (as in the engine); ``unseen`` counts the cards of
each type the seat has not seen anywhere (they are in unknown hand slots or draw piles).
The view may carry the game's task card faces (``task_cards``, public like the rules);
without them the printed defaults are assumed.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from games.ctg.engine.actions import PILES
from games.ctg.engine.cards import (
    DEFAULT_TASKS,
    N_TYPES,
    NINJA_TYPE,
    TASK_BONUS,
    TYPE_OF_VALUE,
    TYPES_TO_END,
    VALUES,
    VARIANT_NINJA,
    VARIANT_TASKS,
    parse_task,
)


def _counts(d: dict[str, int]) -> list[int]:
    out = [0] * N_TYPES
    for v, c in d.items():
        out[TYPE_OF_VALUE[int(v)]] = c
    return out


@dataclass(slots=True)
class Knowledge:
    n: int
    me: int
    names: list[str]
    rounds: int
    round: int
    tasks_on: bool
    ninja_on: bool
    pending: str | None
    current: int
    start: int
    first: int  # pile of the first draw this turn (0..3), or -1
    hand: list[int]
    owner: list[int]
    size: list[int]
    xp: list[list[int]]  # discard piles, bottom first, as types
    allowed: tuple[int, ...]  # discard piles (0: X1, 1: X2) the next discard may use
    known: list[list[int]]  # per seat, cards known to be in the hand
    hsize: list[int]
    draw: tuple[int, int]
    unseen: list[int]
    totals: list[int]
    my_tasks: list[int]  # task codes (deck * 9 + type)
    revealed: list[tuple[int, int, int]]  # (round index, seat, task code)
    task_counts: list[int]
    task_cards: dict[str, list[int]]  # the game's task card faces: deck letter -> 4 values
    minis_held: list[int]
    minis_ready: list[int]
    supply: int
    bury: tuple[int, int, int] | None  # (seat, type, count)
    bury_then: str | None  # where play resumes after the bury: a pending name or after-action
    legal: list[int]

    @property
    def need_types(self) -> int:
        return TYPES_TO_END[self.n]

    def ntypes(self, seat: int) -> int:
        return sum(1 for o in self.owner if o == seat)

    def round_scores(self) -> list[int]:
        """The round's score per seat if it ended now (sets only, no task bonus)."""
        sc = [0] * self.n
        for t, o in enumerate(self.owner):
            if o >= 0:
                sc[o] += VALUES[t]
        return sc

    def task_weight(self, t: int) -> int:
        """Bonus per card of type t promised by the seat's own unrevealed task cards."""
        return sum(TASK_BONUS[c // N_TYPES] for c in self.my_tasks if c % N_TYPES == t)

    def unknown_slots(self, seat: int) -> int:
        return self.hsize[seat] - sum(self.known[seat])


def read_view(view: dict[str, Any]) -> Knowledge:
    n = view["players"] if isinstance(view["players"], int) else len(view["players"])
    me = view["seat"]
    hand = _counts(view["hand"])
    owner = [-1] * N_TYPES
    size = [0] * N_TYPES
    for s in view["table"]:
        t = TYPE_OF_VALUE[s["type"]]
        owner[t] = s["owner"]
        size[t] = s["size"]
    xp = [
        [TYPE_OF_VALUE[v] for v in view["discard_piles"]["X1"]],
        [TYPE_OF_VALUE[v] for v in view["discard_piles"]["X2"]],
    ]
    known = [_counts(k) for k in view["known"]]
    unseen = [VALUES[t] - hand[t] - size[t] for t in range(N_TYPES)]
    for pile in xp:
        for t in pile:
            unseen[t] -= 1
    for s in range(n):
        if s != me:
            for t in range(N_TYPES):
                unseen[t] -= known[s][t]
    bury = view.get("bury")
    if bury:  # cards waiting for their pile are public: in no hand, set or pile
        unseen[TYPE_OF_VALUE[bury["type"]]] -= bury["count"]
    variants = view["options"]["variants"]
    minis = view.get("miniatures") or {}
    return Knowledge(
        n=n,
        me=me,
        names=list(view["players"]),
        rounds=view["options"]["rounds"],
        round=view["round"],
        tasks_on=VARIANT_TASKS in variants,
        ninja_on=VARIANT_NINJA in variants,
        pending=view["pending"],
        current=view["current"],
        start=view["start"],
        first=PILES.index(view["first_draw"]) if view.get("first_draw") else -1,
        hand=hand,
        owner=owner,
        size=size,
        xp=xp,
        allowed=tuple(PILES.index(p) - 2 for p in view["allowed_discard_piles"]),
        known=known,
        hsize=list(view["hand_sizes"]),
        draw=(view["draw_piles"]["D1"], view["draw_piles"]["D2"]),
        unseen=unseen,
        totals=list(view["totals"]),
        my_tasks=[parse_task(c) for c in view.get("tasks") or []],
        revealed=[
            (r["round"] - 1, r["seat"], parse_task(r["card"])) for r in view["revealed_tasks"]
        ],
        task_counts=list(view.get("task_counts") or [0] * n),
        task_cards={d: list(vs) for d, vs in (view.get("task_cards") or DEFAULT_TASKS).items()},
        minis_held=list(minis.get("held", [0] * n)),
        minis_ready=list(minis.get("ready", [0] * n)),
        supply=minis.get("supply", 0),
        bury=(bury["seat"], TYPE_OF_VALUE[bury["type"]], bury["count"]) if bury else None,
        bury_then=bury["then"] if bury else None,
        legal=list(view["legal_actions"]),
    )


__all__ = ["NINJA_TYPE", "Knowledge", "read_view"]
