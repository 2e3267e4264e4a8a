"""A game that exists only in the tests, registered beside Call to Glory.

"Call a number": 2 or 3 players; in seat order each calls a number from 1 to 3, once; the
highest call wins, equal calls share a place. Its record is {"format": "toy-record/1",
"players", "calls"}; its replay steps through the calls, and an imported record becomes a
finished table, as Call to Glory's do. Its board is tests/site/templates/toy/board.html,
drawn on the site's table page.

The game itself implements only the core (games.registry.Game: eleven methods); its replay,
its records and its score pad (the site's plain one) are optional parts, objects of their
own.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from games.registry import (
    Game,
    ImportedRecord,
    MoveRefused,
    RecordRefused,
    ReplayStep,
    Result,
    ScorePadBase,
)

if TYPE_CHECKING:
    from games.models import Table

FORMAT = "toy-record/1"


@dataclass
class Calls:
    names: list[str]
    calls: list[int] = field(default_factory=list)

    @property
    def decider(self) -> int | None:
        return None if len(self.calls) == len(self.names) else len(self.calls)


class CallsReplay:
    """Its replay: one step per call."""

    template = ""

    def steps(self, record: dict[str, Any]) -> list[ReplayStep]:
        calls = zip(record["players"], record["calls"], strict=False)
        return [ReplayStep(i, f"{name}: {call}") for i, (name, call) in enumerate(calls, 1)]

    def position(self, record: dict[str, Any], step: ReplayStep | None) -> Calls:
        return Calls(list(record["players"]), list(record["calls"][: step.actions if step else 0]))

    def present(self, table: Table, state: Calls) -> Calls:
        return state

    def board(self, context: dict[str, Any]) -> dict[str, Any]:
        return context | {"replay": True}

    def shown_action(
        self, state: Calls, index: int, text: str, viewer: int | None, names: list[str]
    ) -> str:
        return text

    def context(self, step: ReplayStep | None, board: Mapping[str, Any]) -> dict[str, Any]:
        return {}


class CallsRecords:
    """Its records, toy-record/1: an imported one becomes a finished table."""

    format = FORMAT
    spec = "tests/site/toy_game.py"

    def import_record(self, record: dict[str, Any]) -> ImportedRecord:
        players, calls = record.get("players"), record.get("calls")
        if (
            set(record) != {"format", "players", "calls"}
            or not isinstance(players, list)
            or len(players) not in TOY.seats
            or not all(isinstance(name, str) and name for name in players)
            or not isinstance(calls, list)
            or len(calls) > len(players)
            or not all(type(call) is int and 1 <= call <= 3 for call in calls)
        ):
            raise RecordRefused("The record is malformed.")
        state = Calls(list(players), list(calls))
        if not TOY.is_over(state):
            raise RecordRefused("The record stops before the game is over.")
        return ImportedRecord(
            record=TOY.dump(state),
            names=state.names,
            result=TOY.result(None, state),
            table_options={},
        )


class CallANumber(Game[Calls]):
    key = "toy"
    name = "Call a number"
    seats = range(2, 4)
    preferred_seats = (3,)
    ai_levels = {"first": ("First", "Always calls 1.")}
    default_ai_level = "first"
    stand_in_level = "first"
    rounds = (1,)
    board_template = "toy/board.html"
    replay = CallsReplay()
    records = CallsRecords()
    pad = ScorePadBase()  # the plain pad of round scores: no limit, most points first

    def new_state(self, table: Table, names: list[str]) -> Calls:
        return Calls(list(names))

    def load(self, table: Table) -> Calls:
        return Calls(list(table.record["players"]), list(table.record["calls"]))

    def dump(self, state: Calls) -> dict[str, Any]:
        return {"format": FORMAT, "players": state.names, "calls": state.calls}

    def clone(self, state: Calls) -> Calls:
        return Calls(list(state.names), list(state.calls))

    def version(self, state: Calls) -> int:
        return len(state.calls)

    def decider(self, state: Calls) -> int | None:
        return state.decider

    def is_over(self, state: Calls) -> bool:
        return state.decider is None

    def apply(self, state: Calls, text: str, seat: int) -> None:
        if seat != state.decider:
            raise MoveRefused("It is not your turn.", "not-your-turn")
        if text not in ("1", "2", "3"):
            raise MoveRefused("Call 1, 2 or 3.", "bad-call")
        state.calls.append(int(text))

    def board_context(self, table: Table, state: Calls, viewer: int | None) -> dict[str, Any]:
        calls = list(zip(state.names, state.calls, strict=False))
        return {"table": table, "viewer": viewer, "calls": calls}

    def ai_move(self, level: str, table: Table, state: Calls, seat: int, seed: int) -> str:
        return "1"

    def result(self, table: Table | None, state: Calls) -> Result:
        placings = [1 + sum(other > mine for other in state.calls) for mine in state.calls]
        return Result(
            placings=placings,
            scores=list(state.calls),
            round_scores=[[call] for call in state.calls],
            round_bonuses=[[0] for _ in state.calls],
            record={"placings": dict(zip(state.names, placings, strict=True))},
        )


TOY = CallANumber()
