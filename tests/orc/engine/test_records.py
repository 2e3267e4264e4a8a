"""§8: notation, records (malformed or illegal), forced decisions and the result."""

from __future__ import annotations

import copy
import json
from collections.abc import Callable
from typing import Any

import pytest

from games.orc.engine import (
    IllegalAction,
    NotationError,
    RecordError,
    action_text,
    from_record,
    new_game,
    parse_action,
    random_game,
    result,
    to_record,
)

from .helpers import FULL, NAMES

Record = dict[str, Any]


def record_of(players: int = 4, seed: int = 3) -> Record:
    record: Record = json.loads(json.dumps(to_record(random_game(players, seed))))
    return record


def forced_lines(record: Record) -> set[tuple[int, int]]:
    """(round, index) of every line the engine would have taken on its own."""
    names = record["players"]
    state = new_game(names, decks=[])
    out: set[tuple[int, int]] = set()
    for r, rnd in enumerate(record["rounds"]):
        state.add_round(rnd["deck"], rnd["start_after"])
        auto: list[str] = []
        for i, line in enumerate(rnd["actions"]):
            if auto and auto[0] == line:
                out.add((r, i))
                auto.pop(0)
                continue
            name, _, text = line.partition(": ")
            if text.startswith("champion") and state.pending == "recruit":
                state.deal(80)
            applied = state.apply(parse_action(text, names, names.index(name)))
            auto = [f"{names[a.seat]}: {action_text(a, names)}" for a in applied[1:]]
    return out


@pytest.mark.parametrize(
    "text",
    [
        "desert P3 @5",
        "shield P14 @80",
        "champion cy",
        "spy 1 cy M6",
        "spy 3 pass",
        "people M",
        "send",
        "send GI GR GR",
        "commando dee mercenary GR",
        "commando pass",
        "fly GR GR",
        "fly pass",
    ],
)
def test_it_reads_and_writes_the_notation(text: str) -> None:
    assert action_text(parse_action(text, NAMES, 1), NAMES) == text


@pytest.mark.parametrize(
    "text",
    [
        "dance",
        "desert P3",
        "desert 3 @5",
        "shield P1 @x",
        "champion zed",
        "spy 5 pass",
        "spy 1 cy",
        "spy 1 cy XX",
        "people X",
        "send GI  GR",
        "send G1",
        "commando dee army GR",
        "commando dee people",
        "fly",
        "champion",
    ],
)
def test_it_refuses_text_outside_the_notation(text: str) -> None:
    with pytest.raises(NotationError):
        parse_action(text, NAMES, 1)


def test_it_round_trips_a_record_of_every_size() -> None:
    for players in (4, 5, 6, 7):
        record = record_of(players)
        assert to_record(from_record(record)) == record


def test_it_accepts_forced_decisions_present_or_left_out() -> None:
    record = record_of(5, 8)
    forced = forced_lines(record)
    assert forced, "a random game has forced decisions (battle 4's people at least)"
    lean = copy.deepcopy(record)
    for r, rnd in enumerate(lean["rounds"]):
        rnd["actions"] = [a for i, a in enumerate(rnd["actions"]) if (r, i) not in forced]
    assert to_record(from_record(lean)) == record


def test_it_refuses_another_option_in_place_of_a_forced_one() -> None:
    record = record_of(4, 2)
    r, i = min(forced_lines(record))
    line = record["rounds"][r]["actions"][i]
    name, _, text = line.partition(": ")
    if text.startswith("people"):
        swapped = f"{name}: people {'M' if text[-1] != 'M' else 'B'}"
    else:
        swapped = f"{name}: send GI"
    record["rounds"][r]["actions"][i] = swapped
    with pytest.raises(IllegalAction) as info:
        from_record(record)
    assert (info.value.round, info.value.index) == (r + 1, i + 1)


def mutate(record: Record, path: str, value: object) -> Record:
    out = copy.deepcopy(record)
    *keys, last = path.split(".")
    target: Any = out
    for key in keys:
        target = target[int(key) if key.isdigit() else key]
    if value is KeyError:
        del target[last]
    else:
        target[int(last) if last.isdigit() else last] = value
    return out


MALFORMED: list[tuple[str, Callable[[Record], Record]]] = [
    ("wrong format", lambda r: mutate(r, "format", "orc-record/2")),
    ("three players", lambda r: mutate(r, "players", ["a", "b", "c"])),
    ("eight players", lambda r: mutate(r, "players", [f"p{i}" for i in range(8)])),
    ("empty name", lambda r: mutate(r, "players.0", "")),
    ("repeated name", lambda r: mutate(r, "players.1", r["players"][0])),
    ("name with a space", lambda r: mutate(r, "players.0", "an n")),
    ("name with a colon", lambda r: mutate(r, "players.0", "an:n")),
    ("pace missing", lambda r: mutate(r, "options.pace", KeyError)),
    ("pace not offered", lambda r: mutate(r, "options.pace", 1.0)),
    ("pace a string", lambda r: mutate(r, "options.pace", "1.2")),
    ("extra option", lambda r: mutate(r, "options.rounds", 4)),
    ("extra field", lambda r: mutate(r, "notes", "hi")),
    ("extra round field", lambda r: mutate(r, "rounds.0.wizard", "ann")),
    ("short deck", lambda r: mutate(r, "rounds.0.deck", FULL[:79])),
    ("wrong deck", lambda r: mutate(r, "rounds.0.deck", ["GI"] * 80)),
    ("start too early", lambda r: mutate(r, "rounds.0.start_after", 26)),
    ("start too late", lambda r: mutate(r, "rounds.0.start_after", 54)),
    ("unknown player", lambda r: mutate(r, "rounds.0.actions.0", "zed: desert P1 @5")),
    ("no name", lambda r: mutate(r, "rounds.0.actions.0", "desert P1 @5")),
    ("unknown verb", lambda r: mutate(r, "rounds.0.actions.0", "bob: dance")),
    ("unknown code", lambda r: mutate(r, "rounds.1.actions.20", "bob: send XX")),
    (
        "cut round then more",
        lambda r: mutate(r, "rounds.0.actions", r["rounds"][0]["actions"][:20]),
    ),
    ("round after the end", lambda r: mutate(r, "rounds", [*r["rounds"], r["rounds"][0]])),
    ("actions not a list", lambda r: mutate(r, "rounds.0.actions", "bob: send")),
]


@pytest.mark.parametrize(("why", "change"), MALFORMED, ids=[m[0] for m in MALFORMED])
def test_it_refuses_a_malformed_record(why: str, change: Callable[[Record], Record]) -> None:
    record = record_of(4, 3)
    assert len(record["rounds"]) >= 2
    with pytest.raises(RecordError):
        from_record(change(record))


def test_it_replays_a_round_in_progress_as_unfinished() -> None:
    record = record_of(4, 3)
    record["rounds"] = record["rounds"][:1]
    record["rounds"][0]["actions"] = record["rounds"][0]["actions"][:5]
    state = from_record(record)
    res = result(state)
    assert res["unfinished"] is True and "placings" not in res
    assert res["rounds"] == [
        {"wizard": "ann", "champion": None, "battles": [], "scores": dict.fromkeys(NAMES[:4], 0)}
    ]


def test_it_waits_after_a_whole_round_without_the_next_deck() -> None:
    record = record_of(4, 3)
    record["rounds"] = record["rounds"][:1]
    state = from_record(record)
    assert state.pending is None and not state.game_over and state.round == 2
    assert result(state)["unfinished"] is True


def illegal(record: Record, r: int, i: int, line: str) -> IllegalAction:
    changed = copy.deepcopy(record)
    changed["rounds"][r]["actions"].insert(i, line)
    with pytest.raises(IllegalAction) as info:
        from_record(changed)
    e = info.value
    assert (e.round, e.index, e.action) == (r + 1, i + 1, line)
    return e


def test_it_names_round_index_action_and_rule_of_an_illegal_action() -> None:
    record = record_of(4, 3)
    e = illegal(record, 0, 0, "ann: desert P1 @3")
    assert e.message.startswith("§3.1")
    e = illegal(record, 1, 0, "cy: shield P1 @1")
    assert e.message.startswith("§3.5")


def first_people_line(record: Record) -> tuple[int, int, str]:
    """Round and index of the first people choice, and the name of the wizard's left."""
    state = from_record(record)
    seen: dict[int, int] = {}
    for rnd, action in state.log:
        i = seen.get(rnd, 0)
        seen[rnd] = i + 1
        if action.verb == "people":
            return rnd, i, state.names[(state.history[rnd].wizard + 1) % state.n]
    raise AssertionError("no battle")


def test_it_names_the_rule_when_a_commando_or_flight_does_not_arise() -> None:
    record = record_of(4, 3)
    r, i, name = first_people_line(record)
    # Right at a people choice no commando or flying-machine decision is due.
    e = illegal(record, r, i, f"{name}: commando {NAMES[0]} people B2")
    assert e.message.startswith("§4.4")
    e = illegal(record, r, i, f"{name}: fly GR")
    assert e.message.startswith("§4.6")


def test_it_gives_the_result_of_a_finished_game() -> None:
    state = random_game(6, 4)
    res = result(state)
    assert set(res) == {"rounds", "totals", "placings"}
    assert max(res["totals"].values()) >= 7
    assert sorted(res["placings"].values())[0] == 1
    for r, rnd in enumerate(res["rounds"]):
        assert rnd["wizard"] == NAMES[r % 6] and rnd["champion"] in NAMES[:6]
        assert [b["points"] for b in rnd["battles"]] == [2, 1, 1, 2]
        for b in rnd["battles"]:
            assert rnd["wizard"] not in b["strength"] and len(b["strength"]) == 5
            best = max(b["strength"].values())
            assert b["winners"] == [n for n in NAMES[:6] if b["strength"].get(n) == best and best]
    assert json.loads(json.dumps(res)) == res
