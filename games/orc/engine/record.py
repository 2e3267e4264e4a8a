"""Game records in §8 notation (``orc-record/1``) and the §8 result."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from games.enginekit.errors import IllegalAction, NotationError, RecordError

from .actions import CHAMPION, Action, action_text, parse_action
from .cards import CODES, N_CARDS, PACES, PEOPLES
from .state import NEED_DECK, OVER, RECRUIT, State, check_names, new_game, placings

FORMAT = "orc-record/1"
RECORD_KEYS = {"format", "players", "options", "rounds"}
ROUND_KEYS = {"deck", "start_after", "actions"}


def to_record(state: State) -> dict[str, Any]:
    """The §8 record of the game so far (forced decisions written out)."""
    names = state.names
    rounds: list[dict[str, Any]] = [
        {"deck": [CODES[c] for c in deck], "start_after": start, "actions": []}
        for deck, start in state.decks[: len(state.history)]
    ]
    for rnd, action in state.log:
        rounds[rnd]["actions"].append(f"{names[action.seat]}: {action_text(action, names)}")
    return {
        "format": FORMAT,
        "players": list(names),
        "options": {"pace": state.pace},
        "rounds": rounds,
    }


def result(state: State) -> dict[str, Any]:
    """The §8 result: rounds as far as they have gone, totals, placings or unfinished."""
    names = state.names
    out: dict[str, Any] = {
        "rounds": [
            {
                "wizard": names[r.wizard],
                "champion": names[r.champion] if r.champion >= 0 else None,
                "battles": [
                    {
                        "people": PEOPLES[b.people],
                        "strength": {names[s]: v for s, v in b.strength.items()},
                        "winners": [names[s] for s in b.winners],
                        "points": b.points,
                    }
                    for b in r.battles
                ],
                "scores": {names[s]: r.scores[s] for s in range(state.n)},
            }
            for r in state.history
        ],
        "totals": {names[s]: state.totals[s] for s in range(state.n)},
    }
    if state.game_over:
        places = placings(state.history, state.totals)
        out["placings"] = {names[s]: places[s] for s in range(state.n)}
    else:
        out["unfinished"] = True
    return out


def _require(cond: bool, message: str) -> None:
    if not cond:
        raise RecordError(message)


def from_record(record: Mapping[str, Any]) -> State:
    """Rebuild a state by replaying a record; the record is the truth.

    Forced decisions may be present (then they must be the forced option) or omitted.
    Raises RecordError for a malformed record and IllegalAction, with round, index and
    action text filled, for the first action that breaks a rule.
    """
    _require(isinstance(record, Mapping), "a record is a JSON object")
    _require(set(record) == RECORD_KEYS, f"a record has exactly the fields {sorted(RECORD_KEYS)}")
    _require(record["format"] == FORMAT, f"'format' must be {FORMAT!r}")
    names = record["players"]
    _require(isinstance(names, list), "'players' must be a list of names")
    try:
        check_names(names)
    except ValueError as e:
        raise RecordError(str(e)) from None
    opts = record["options"]
    _require(
        isinstance(opts, Mapping) and set(opts) == {"pace"},
        "'options' must be an object with 'pace' only",
    )
    pace = opts["pace"]
    _require(
        type(pace) in (int, float) and pace in PACES,
        f"'options.pace' must be one of {', '.join(map(str, PACES))}",
    )
    rounds = record["rounds"]
    _require(isinstance(rounds, list), "'rounds' must be a list")
    state = new_game(names, decks=[], pace=float(pace))
    for i, rnd in enumerate(rounds):
        _require(
            isinstance(rnd, Mapping) and set(rnd) == ROUND_KEYS,
            f"round {i + 1} must have exactly the fields {sorted(ROUND_KEYS)}",
        )
        _require(state.phase != OVER, f"round {i + 1} follows the round in which the game ended")
        acts = rnd["actions"]
        _require(
            isinstance(acts, list) and all(isinstance(a, str) for a in acts),
            f"round {i + 1}: 'actions' must be a list of strings",
        )
        deck, start = rnd["deck"], rnd["start_after"]
        _require(isinstance(deck, list), f"round {i + 1}: 'deck' must be a list of 80 codes")
        try:
            state.add_round(deck, start)
        except ValueError as e:
            raise RecordError(f"round {i + 1}: {e}") from None
        _replay_round(state, i, acts)
        if i + 1 < len(rounds):
            _require(
                state.rnd > i or state.phase == OVER,
                f"round {i + 1} stops while a decision is still due but round {i + 2} follows",
            )
    return state


def _replay_round(state: State, i: int, texts: list[str]) -> None:
    names = state.names
    # Forced decisions the engine took on its own; the record may repeat them.
    auto: list[Action] = []
    for index, line in enumerate(texts, 1):
        where = f"round {i + 1}, action {index}"
        name, sep, text = line.partition(": ")
        _require(bool(sep), f"{where}: {line!r} lacks 'name: '")
        _require(name in names, f"{where}: unknown player {name!r}")
        try:
            action = parse_action(text, names, names.index(name))
        except NotationError as e:
            raise RecordError(f"{where}: {e}") from None
        if action in auto:
            del auto[: auto.index(action) + 1]
            continue
        if auto and auto[0].seat == action.seat and auto[0].verb == action.verb:
            only = action_text(auto[0], names)
            raise IllegalAction(
                "forced-decision",
                f"§8: this decision had no choice; the only option was '{only}'",
                round=i + 1,
                index=index,
                action=line,
            )
        auto = []
        _require(
            state.rnd == i and state.phase not in (OVER, NEED_DECK),
            f"{where}: {line!r} comes after the round ended",
        )
        try:
            if action.verb == CHAMPION and state.phase == RECRUIT and not any(state.sh_left):
                # A record does not write out the end of the deal: the champion implies it.
                state.deal(N_CARDS)
            auto = state.apply(action)[1:]
        except IllegalAction as e:
            e.round, e.index, e.action = i + 1, index, line
            raise


__all__ = ["FORMAT", "from_record", "result", "to_record"]
