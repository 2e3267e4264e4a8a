"""Game records in §10 notation (``ctg-record/1``) and the result of a finished game."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from games.enginekit.errors import IllegalAction, NotationError, RecordError

from .actions import DECODE, action_text, parse_action
from .cards import VALUES, VARIANTS, task_text
from .state import NEED_DECK, Options, State, check_names, logged_actions, new_game, placings

FORMAT = "ctg-record/1"


def to_record(state: State) -> dict[str, Any]:
    """The §10 record of the game so far (forced decisions written out)."""
    names = state.names
    opts = state.options
    record: dict[str, Any] = {
        "format": FORMAT,
        "players": list(names),
        "options": {"rounds": opts.rounds, "variants": sorted(opts.variants)},
    }
    if opts.tasks:
        record["tasks"] = {
            names[s]: [task_text(c) for c in state.task_deal[s]] for s in range(state.n)
        }
    played = min(state.rnd + 1, len(state.decks))
    rounds: list[dict[str, Any]] = [
        {"deck": [VALUES[t] for t in state.decks[r]], "actions": []} for r in range(played)
    ]
    for rnd, seat, action in logged_actions(state):
        rounds[rnd]["actions"].append(f"{names[seat]}: {action_text(action, names)}")
    record["rounds"] = rounds
    return record


def result(state: State) -> dict[str, Any] | None:
    """The §10 result of a finished game, or None while it is not over."""
    if not state.game_over:
        return None
    names = state.names
    places = placings(state.history, state.totals)
    return {
        "rounds": [
            {
                "start": names[r.start],
                "ended_by": r.ended_by,
                "scores": {names[s]: r.scores[s] for s in range(state.n)},
            }
            for r in state.history
        ],
        "totals": {names[s]: state.totals[s] for s in range(state.n)},
        "placings": {names[s]: places[s] for s in range(state.n)},
    }


def _require(cond: bool, message: str) -> None:
    if not cond:
        raise RecordError(message)


def _parse_header(record: Mapping[str, Any]) -> tuple[Options, list[str], list[list[str]] | None]:
    _require(isinstance(record, Mapping), "a record is a JSON object")
    _require(record.get("format") == FORMAT, f"'format' must be {FORMAT!r}")
    names = record.get("players")
    _require(
        isinstance(names, list) and all(isinstance(x, str) for x in names),
        "'players' must be a list of names",
    )
    assert isinstance(names, list)
    opts = record.get("options")
    _require(isinstance(opts, Mapping), "'options' must be an object")
    assert isinstance(opts, Mapping)
    rounds: Any = opts.get("rounds")
    variants = opts.get("variants", [])
    _require(type(rounds) is int, "'options.rounds' must be an integer")
    _require(
        isinstance(variants, list) and all(v in VARIANTS for v in variants),
        f"'options.variants' may hold only {sorted(VARIANTS)}",
    )
    try:
        options = Options(len(names), rounds, frozenset(variants))
        check_names(names, len(names))
    except ValueError as e:
        raise RecordError(str(e)) from None
    tasks: list[list[str]] | None = None
    if options.tasks:
        raw = record.get("tasks")
        _require(
            isinstance(raw, Mapping) and set(raw) == set(names),
            "'tasks' must give the task cards of every player",
        )
        assert isinstance(raw, Mapping)
        tasks = []
        for name in names:
            hand = raw[name]
            _require(
                isinstance(hand, list) and all(isinstance(c, str) for c in hand),
                f"tasks of {name!r} must be a list of cards like 'A7'",
            )
            tasks.append(hand)
    else:
        _require("tasks" not in record, "'tasks' appears only with imperial tasks")
    return options, names, tasks


def from_record(record: Mapping[str, Any]) -> State:
    """Rebuild a state by replaying a record; the record is the truth.

    Forced decisions may be present (then they must be the forced option) or omitted.
    Raises RecordError for a malformed record (including a round that stops before its
    end while a later round follows) and IllegalAction, with round, index and action
    text filled, for the first action that breaks a rule.
    """
    options, names, tasks = _parse_header(record)
    rounds = record.get("rounds")
    _require(
        isinstance(rounds, list) and 1 <= len(rounds) <= options.rounds,
        f"'rounds' must list 1 to {options.rounds} rounds",
    )
    assert isinstance(rounds, list)
    decks = []
    for i, rnd in enumerate(rounds, 1):
        _require(isinstance(rnd, Mapping), f"round {i} must be an object")
        deck = rnd.get("deck")
        acts = rnd.get("actions", [])
        _require(
            isinstance(deck, list) and all(type(v) is int for v in deck),
            f"round {i}: 'deck' must be a list of 110 card values",
        )
        _require(
            isinstance(acts, list) and all(isinstance(a, str) for a in acts),
            f"round {i}: 'actions' must be a list of strings",
        )
        decks.append(deck)
    try:
        state = new_game(options, names, decks=decks, tasks=tasks)
    except ValueError as e:
        raise RecordError(str(e)) from None
    for i, rnd in enumerate(rounds):
        _replay_round(state, i, rnd.get("actions", []))
        if i + 1 < len(rounds):
            _require(
                state.rnd > i,
                f"round {i + 1} stops before the round is over (missing actions, such as a "
                f"final 'end' or the task reveals) but round {i + 2} follows",
            )
    return state


def _replay_round(state: State, i: int, texts: list[str]) -> None:
    names = state.names
    # Forced actions the engine applied on its own; the record may repeat them.
    auto: list[tuple[int, int]] = []
    for index, line in enumerate(texts, 1):
        name, sep, text = line.partition(": ")
        _require(bool(sep), f"round {i + 1}, action {index}: {line!r} lacks 'name: '")
        _require(name in names, f"round {i + 1}, action {index}: unknown player {name!r}")
        try:
            action = parse_action(text, names)
        except NotationError as e:
            raise RecordError(f"round {i + 1}, action {index}: {e}") from None
        seat = names.index(name)
        if (seat, action) in auto:
            del auto[: auto.index((seat, action)) + 1]
            continue
        if auto and auto[0][0] == seat and DECODE[auto[0][1]][0] == DECODE[action][0]:
            only = action_text(auto[0][1], names)
            raise IllegalAction(
                "forced-decision",
                f"§9: this decision was forced; the only legal option was '{only}'",
                round=i + 1,
                index=index,
                action=line,
            )
        auto = []
        _require(
            state.rnd == i and state.phase != NEED_DECK,
            f"round {i + 1}, action {index}: {line!r} comes after the round ended",
        )
        try:
            auto = state.apply(action, seat)
        except IllegalAction as e:
            e.round, e.index, e.action = i + 1, index, line
            raise


__all__ = ["FORMAT", "from_record", "logged_actions", "result", "to_record"]
