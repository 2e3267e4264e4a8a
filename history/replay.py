"""Positions of a game at each step of its replay, rebuilt from the record by the engine.

A step is one action of the record. De l'Orc's deal is stepped card by card too: each army
card dealt is a step, and a slap (``@k``) comes right after the k-th card, where it landed.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass

from games.ctg import engine
from games.orc import engine as orc_engine
from games.orc.engine.cards import N_CARDS, PILES
from games.orc.engine.record import FORMAT as ORC_FORMAT


@dataclass(frozen=True)
class Step:
    """What a replay step shows: the record's first ``actions`` actions, and in a De l'Orc
    deal the round's first ``dealt`` army cards."""

    round: int  # the round's index
    actions: int
    text: str = ""  # the action this step takes; "" for an army card
    dealt: int | None = None  # De l'Orc, in a deal: army cards down
    card: str = ""  # the army card this step deals, and its pile
    pile: int = 0
    start: bool = False  # the start card shows after this army card

    @property
    def in_deal(self) -> bool:
        return self.dealt is not None


def action_lines(record: dict) -> list[tuple[int, str]]:
    """Every action of a record as (round index, text), in order."""
    return [
        (r, line)
        for r, rnd in enumerate(record.get("rounds", []))
        for line in rnd.get("actions", [])
    ]


def steps(record: dict) -> list[Step]:
    """Every step of a game's replay, in order; the position before the first is step 0."""
    if record.get("format") == ORC_FORMAT:
        return orc_steps(record)
    return [Step(r, i, line) for i, (r, line) in enumerate(action_lines(record), 1)]


def _slapped_at(line: str) -> int | None:
    """The ``@k`` of a slap (names hold no whitespace, so only a slap has " @")."""
    _rest, sep, at = line.rpartition(" @")
    return int(at) if sep and at.isdigit() else None


def orc_steps(record: dict) -> list[Step]:
    piles = PILES.get(len(record.get("players", [])), 0)
    rounds = record.get("rounds", [])
    out: list[Step] = []
    actions = 0
    for r, rnd in enumerate(rounds):
        deck, start, lines = rnd["deck"], rnd["start_after"], rnd["actions"]
        slaps = [_slapped_at(line) for line in lines]
        # A round the record has gone past, or whose decisions have begun, was dealt to its
        # end; a deal still running shows no card after its last slap: later ones may not
        # be down yet.
        ended = r < len(rounds) - 1 or None in slaps
        last = N_CARDS if ended else max((k for k in slaps if k is not None), default=0)
        dealt = 0
        for line, at in [*zip(lines, slaps, strict=True), ("", None)]:
            upto = last if at is None else at
            out += [
                Step(
                    r,
                    actions,
                    dealt=k,
                    card=deck[k - 1],
                    pile=(k - 1) % piles + 1,
                    start=k == start,
                )
                for k in range(dealt + 1, upto + 1)
            ]
            dealt = max(dealt, upto)
            if line:
                actions += 1
                out.append(Step(r, actions, line, dealt=dealt if at is not None else None))
    return out


def jumps(steps: list[Step], step: int) -> dict[str, int | None]:
    """Where a replay that steps through deals skips to from ``step``: the previous and the
    next action (past the army cards between them), and the last step of the deal under way
    (None outside a deal)."""
    actions = [i for i, s in enumerate(steps, 1) if s.text]
    following = steps[step] if step < len(steps) else None
    deal_end = None
    if following is not None and following.in_deal:
        deal_end = max(
            i for i, s in enumerate(steps, 1) if s.round == following.round and s.in_deal
        )
    return {
        "previous": max((i for i in actions if i < step), default=0),
        "next": min((i for i in actions if i > step), default=len(steps)),
        "deal_end": deal_end,
    }


def position(record: dict, step: int) -> engine.State | orc_engine.State:
    """The state at replay step ``step`` (0: the start); decks of later rounds come from the
    record.

    The engine applies forced decisions by itself, so a step that lands just before one shows
    it already applied: the replay never shows a position that could not be seen in play.
    """
    if record.get("format") == ORC_FORMAT:
        every = steps(record)
        step = max(0, min(step, len(every)))
        if not step:
            return orc_position(record, 0)
        at = every[step - 1]
        return orc_position(record, at.actions, at.dealt)
    lines = action_lines(record)
    step = max(0, min(step, len(lines)))
    state = engine.from_record(_first_actions(record, lines, step))
    rounds = record["rounds"]
    while state.decider is None and not state.game_over and state.rnd < len(rounds):
        state.add_deck(rounds[state.rnd]["deck"])
    return state


def _first_actions(record: dict, lines: list[tuple[int, str]], count: int) -> dict:
    """The record cut after its first ``count`` actions."""
    truncated = copy.deepcopy(record)
    last_round = lines[count - 1][0] if count else 0
    kept = truncated["rounds"][: last_round + 1]
    for rnd in kept:
        rnd["actions"] = []
    for r, line in lines[:count]:
        kept[r]["actions"].append(line)
    truncated["rounds"] = kept
    return truncated


def orc_position(record: dict, actions: int, dealt: int | None = None) -> orc_engine.State:
    """De l'Orc after the record's first ``actions`` actions. In the deal the piles hold the
    cards dealt when the last slap went down (its ``@k``), or ``dealt`` when given: never a
    card dealt after it."""
    lines = action_lines(record)
    actions = max(0, min(actions, len(lines)))
    state = orc_engine.from_record(_first_actions(record, lines, actions))
    rounds = record["rounds"]
    while state.pending is None and not state.game_over and state.rnd < len(rounds):
        state.add_round(rounds[state.rnd]["deck"], rounds[state.rnd]["start_after"])
    if dealt is not None and state.pending == "recruit" and state.dealt < dealt:
        state.deal(dealt)
    return state
