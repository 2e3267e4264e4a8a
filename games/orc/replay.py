"""De l'Orc's replay: each action of the record is a step, and its deal is stepped card by card
too: each army card dealt is a step, and a slap (``@k``) comes right after the k-th card,
where it landed (ORC-RULES.md §8). Each battle's reveal is a step of its own, after the
decision that ended the battle, as the table pauses on it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from games.orc import engine, names
from games.orc.engine.cards import N_CARDS, PILES
from games.records import action_lines, first_actions
from games.registry import ReplayStep


@dataclass(frozen=True)
class Step(ReplayStep):
    """In a deal (its round's stretch) also the round's first ``dealt`` army cards."""

    dealt: int | None = None  # in a deal: army cards down
    card: str = ""  # the army card this step deals, and its pile
    pile: int = 0
    start: bool = False  # the start card shows after this army card
    reveal: bool = False  # the battle the step's position fought last, face up


def _slapped_at(line: str) -> int | None:
    """The ``@k`` of a slap (names hold no whitespace, so only a slap has " @")."""
    _rest, sep, at = line.rpartition(" @")
    return int(at) if sep and at.isdigit() else None


def _battles_ended(record: dict[str, Any]) -> set[int]:
    """The indices (from 0) of the record's actions that ended a battle: a stored record
    writes out every decision, forced ones too, so its actions are the engine's log."""
    try:
        state = engine.from_record(record)
    except (engine.RecordError, engine.IllegalAction):
        return set()
    return {b.at for r in state.history for b in r.battles}


def steps(record: dict[str, Any]) -> list[ReplayStep]:
    piles = PILES.get(len(record.get("players", [])), 0)
    ended_battles = _battles_ended(record)
    rounds = record.get("rounds", [])
    out: list[ReplayStep] = []
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
                    actions,
                    stretch=r,
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
                in_deal = at is not None
                out.append(
                    Step(
                        actions,
                        line,
                        stretch=r if in_deal else None,
                        dealt=dealt if in_deal else None,
                    )
                )
                if actions - 1 in ended_battles:
                    out.append(Step(actions, reveal=True))
    return out


def position(record: dict[str, Any], actions: int, dealt: int | None = None) -> engine.State:
    """De l'Orc after the record's first ``actions`` actions. In the deal the piles hold the
    cards dealt when the last slap went down (its ``@k``), or ``dealt`` when given: never a
    card dealt after it."""
    lines = action_lines(record)
    actions = max(0, min(actions, len(lines)))
    state = engine.from_record(first_actions(record, lines, actions))
    rounds = record["rounds"]
    while state.pending is None and not state.game_over and state.rnd < len(rounds):
        state.add_round(rounds[state.rnd]["deck"], rounds[state.rnd]["start_after"])
    if dealt is not None and state.pending == "recruit" and state.dealt < dealt:
        state.deal(dealt)
    return state


def dealt_card(step: ReplayStep | None) -> dict[str, Any] | None:
    """The army card a step deals, named in the page's language."""
    if not isinstance(step, Step) or not step.card:
        return None
    return {
        "number": step.dealt,
        "pile": step.pile,
        "code": step.card,
        "name": names.card(step.card),
        "start": step.start,
    } | names.face(step.card)
