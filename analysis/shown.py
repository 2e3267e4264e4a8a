"""What the pages show of a table's analyses: the panel of each seat (progress, summary,
graph) and, in the replay, the marks of the seat seen and its decision at each step.

Only the analysed seat's own decisions are shown, each valued from what that seat could
see: the analysis never shows another seat's hidden cards, and only finished games have one.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Any

from django.utils.translation import gettext as _

from analysis import actions
from analysis.models import Analysis
from games.models import Table
from games.records import action_lines
from games.registry import ReplayStep

MARKS = ("?!", "?", "??")
# The graph's drawing box, in its own units (the SVG scales to the page's width).
GRAPH_WIDTH, GRAPH_HEIGHT = 600, 140


def analysable(table: Table) -> bool:
    return (
        table.status == Table.FINISHED
        and bool(table.record)
        and actions.analyser(table) is not None
    )


def mark_name(mark: str | None) -> str:
    return {
        "?!": _("inaccuracy"),
        "?": _("mistake"),
        "??": _("blunder"),
    }.get(mark or "", "")


def level(mark: str | None) -> int:
    """0 for no mark, 1 for an inaccuracy, 2 for a mistake, 3 for a blunder."""
    return MARKS.index(mark) + 1 if mark in MARKS else 0


def summary(result: dict[str, Any]) -> dict[str, Any]:
    """Matches/decisions, each mark's count and the three costliest decisions, as
    games.analysis.summary counts them, from a stored result."""
    decisions = result.get("decisions", [])
    marks = Counter(d["mark"] for d in decisions if d.get("mark"))
    costliest = sorted(
        (d for d in decisions if d["loss"] > 0), key=lambda d: (-d["loss"], d["index"])
    )[:3]
    return {
        "accuracy": result.get("accuracy"),
        "matches": sum(d["played"] == d["best"] for d in decisions),
        "decisions": len(decisions),
        "marks": [{"mark": m, "name": mark_name(m), "count": marks.get(m, 0)} for m in MARKS],
        "costliest": costliest,
    }


def graph(decisions: Sequence[dict[str, Any]], current: int | None = None) -> dict[str, Any]:
    """An inline SVG's coordinates of the seat's expected placing score before each decision
    (1: first, 0: last), with the start of each round marked and the marked decisions dotted."""
    count = len(decisions)
    if not count:
        return {}

    def x(i: int) -> float:
        return round(GRAPH_WIDTH * (i / (count - 1) if count > 1 else 0.5), 1)

    def y(value: float) -> float:
        return round(GRAPH_HEIGHT * (1 - max(0.0, min(1.0, value))), 1)

    points = [(x(i), y(d.get("expected", 0.5))) for i, d in enumerate(decisions)]
    rounds = []
    for i, d in enumerate(decisions):
        if i == 0 or d["round"] != decisions[i - 1]["round"]:
            rounds.append({"x": x(i), "round": d["round"]})
    dots = [
        {"x": px, "y": py, "mark": d["mark"], "level": level(d["mark"]), "index": d["index"]}
        for (px, py), d in zip(points, decisions, strict=True)
        if d.get("mark")
    ]
    here = None
    if current is not None and 0 <= current < count:
        here = {"x": points[current][0], "y": points[current][1]}
    return {
        "width": GRAPH_WIDTH,
        "height": GRAPH_HEIGHT,
        "line": " ".join(f"{px},{py}" for px, py in points),
        "rounds": rounds,
        "dots": dots,
        "here": here,
        "half": GRAPH_HEIGHT / 2,
    }


def decision_steps(
    record: dict[str, Any], steps: Sequence[ReplayStep], name: str, decisions: Sequence[dict]
) -> list[int | None]:
    """The replay step at which each decision was to be taken (the position before its
    action), found in order among the seat's actions in the record; None if not found."""
    lines = action_lines(record)
    last_step: dict[int, int] = {}
    for k, step in enumerate(steps, 1):
        last_step[step.actions] = k
    prefix = f"{name}: "
    found: list[int | None] = []
    at = 0
    for decision in decisions:
        played = decision["played"]
        played = played[len(prefix) :] if played.startswith(prefix) else played
        index = None
        for i in range(at, len(lines)):
            text = lines[i][1]
            if not text.startswith(prefix):
                continue
            action = text[len(prefix) :]
            if action == played or action.startswith(played + " "):
                index = i
                break
        if index is None:
            found.append(None)
            continue
        at = index + 1
        found.append(last_step.get(index, 0))
    return found


def seat_rows(table: Table) -> list[dict[str, Any]]:
    """Each seat with its analysis (or None), and the summary and graph of one that is done."""
    analyses = {a.seat: a for a in table.analyses.all()}
    rows = []
    for seat in table.seats.all():
        analysis = analyses.get(seat.position)
        row: dict[str, Any] = {"seat": seat, "analysis": analysis}
        if analysis is not None and analysis.status == Analysis.DONE and analysis.result:
            row["summary"] = summary(analysis.result)
            row["graph"] = graph(analysis.result["decisions"])
        rows.append(row)
    return rows


def panel(table: Table, user, error: str = "") -> dict[str, Any]:
    """The context of templates/analysis/panel.html for `user`: who may ask for what."""
    rows = seat_rows(table) if table.status == Table.FINISHED else []
    open_ = analysable(table) and user.is_authenticated
    own = next(
        (
            row
            for row in rows
            if user.is_authenticated and row["seat"].user_id == user.pk and not row["analysis"]
        ),
        None,
    )
    return {
        "analysis_table": table,
        "analysis_rows": rows,
        "analysis_offered": analysable(table),
        "analysis_own": own["seat"] if open_ and own else None,
        "analysis_all": open_ and any(row["analysis"] is None for row in rows),
        "analysis_retry": open_,
        "analysis_pending": any(row["analysis"] and row["analysis"].pending for row in rows),
        "analysis_any": any(row["analysis"] for row in rows),
        "analysis_error": error,
    }


def replay(
    table: Table,
    record: dict[str, Any],
    steps: Sequence[ReplayStep],
    step: int,
    viewer: int | None,
) -> dict[str, Any] | None:
    """What the replay shows of the analysis of the seat seen (`viewer`) at `step`: its
    marks as a list of its decisions, each linked to its step, the decision to be taken at
    this step with every option's value, and the graph; None without a finished analysis."""
    if viewer is None or table.status != Table.FINISHED:
        return None
    analysis = table.analyses.filter(seat=viewer, status=Analysis.DONE).first()
    if analysis is None or not analysis.result:
        return None
    decisions = analysis.result["decisions"]
    players = record.get("players", [])
    name = players[viewer] if viewer < len(players) else ""
    at_steps = decision_steps(record, steps, name, decisions)
    moves = []
    current: int | None = None
    for i, (decision, at) in enumerate(zip(decisions, at_steps, strict=True)):
        move = {
            **decision,
            "step": at,
            "matched": decision["played"] == decision["best"],
            "mark_name": mark_name(decision.get("mark")),
            "level": level(decision.get("mark")),
            "here": at is not None and at == step,
        }
        if move["here"]:
            current = i
        moves.append(move)
    detail: dict[str, Any] | None = None
    if current is not None:
        decision = moves[current]
        values = [o["value"] for o in decision["options"]]
        low, high = min(values), max(values)
        detail = {
            **decision,
            "bars": [
                {
                    **option,
                    "percent": round(100 * max(0.0, min(1.0, option["value"]))),
                    "played": option["option"] == decision["played"],
                    "best": option["option"] == decision["best"],
                }
                for option in sorted(decision["options"], key=lambda o: -o["value"])
            ],
            "spread": round(100 * (high - low), 1),
        }
        later = [m for m in moves[current + 1 :] if m["step"] is not None]
        detail["next_step"] = later[0]["step"] if later else None
        marked = [m for m in later if m.get("mark")]
        detail["next_mark"] = marked[0]["step"] if marked else None
    located = [m for m in moves if m["step"] is not None]
    marked = [m for m in located if m.get("mark")]
    return {
        "analysis": analysis,
        "first_step": located[0]["step"] if located else None,
        "first_mark": marked[0]["step"] if marked else None,
        "summary": summary(analysis.result),
        "graph": graph(decisions, current),
        "moves": moves,
        "detail": detail,
        "deal": analysis.result.get("deal"),
    }


def step_of_decision(
    table: Table, record: dict[str, Any], steps: Sequence[ReplayStep], viewer: int, index: str
) -> int | None:
    """The replay step of the analysed seat's decision `index` (as a query gives it): the
    links of the summary name a decision, not a step. None when there is no such one."""
    analysis = table.analyses.filter(seat=viewer, status=Analysis.DONE).first()
    if analysis is None or not analysis.result or not index.isdigit():
        return None
    decisions = analysis.result["decisions"]
    players = record.get("players", [])
    name = players[viewer] if viewer < len(players) else ""
    found = decision_steps(record, steps, name, decisions)
    number = int(index)
    return found[number] if number < len(found) else None


def replay_context(
    request,
    table: Table,
    record: dict[str, Any],
    steps: Sequence[ReplayStep],
    step: int,
    viewer: int | None,
    names: Sequence[str],
) -> dict[str, Any]:
    """What the replay page shows of the analyses: the panel below it, and in the replay
    the marks of the seat seen (or, seen by nobody, the seats analysed)."""
    if table.status != Table.FINISHED:
        return {"analysed": None}
    analysed = replay(table, record, steps, step, viewer)
    done = table.analyses.filter(status=Analysis.DONE).values_list("seat", flat=True)
    return (
        {
            "analysed": analysed,
            "analysed_name": names[viewer] if analysed and viewer is not None else "",
            "analysis_seats": [(seat, names[seat]) for seat in done if seat < len(names)],
        }
        | panel(table, request.user)
        | {"analysis_next": request.get_full_path()}
    )


# The order of the keys the analyse command prints (games.analysis), which a database's JSON
# may not keep (PostgreSQL's jsonb sorts them): the documented ones first, then the others.
_FIRST = {
    "analysis": ("seat", "accuracy", "decisions", "seconds"),
    "decision": ("index", "round", "played", "best", "loss", "error", "mark", "options"),
    "option": ("option", "value"),
}


def _ordered(data: dict[str, Any], kind: str) -> dict[str, Any]:
    first = _FIRST[kind]
    return {key: data[key] for key in first if key in data} | {
        key: value for key, value in sorted(data.items()) if key not in first
    }


def as_documented(result: dict[str, Any]) -> dict[str, Any]:
    """A stored analysis with its keys in the documented order, as the command prints it."""
    analysis = _ordered(result, "analysis")
    analysis["decisions"] = [
        _ordered(
            {**d, "options": [_ordered(o, "option") for o in d.get("options", [])]}, "decision"
        )
        for d in result.get("decisions", [])
    ]
    return analysis
