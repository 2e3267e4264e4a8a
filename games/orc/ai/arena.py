"""Arena: one level in one seat against a field of another level (4-7 players).

Duplicate games: every deal (the decks of all rounds follow from its seed) is played once
per seat, the measured level taking each seat in turn, so the luck of the deal cancels
out. The deal runs as on the site (§6): a card every ``--pace`` seconds; after every event
each AI seat without a card on its way is asked for its reaction, and reactions land in
the order of their times, so the faster hand gets the pile. Printed: the measured level's
win share with a 95 % interval (clustered by deal, a shared first place counting 1/k),
its mean points against the field's, and ms per decision and per deal reaction for each
level. A progress line per game goes to stderr.

    python -m games.orc.ai.arena --level expert --against heuristic --players 5 --games 400

The match stops early once the answer is clear: when, after at least ``--min-games``, a
99 % interval (wider than the reported 95 %, to pay for looking after every deal) lies
wholly above or below par (1 / players).

A long match can be spread over several runs (``--results FILE``, see games.enginekit.arena).
"""

from __future__ import annotations

import contextlib
import math
import random
import statistics
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

from games.enginekit import arena
from games.enginekit.arena import Budget, clustered, percentile
from games.orc.engine import (
    Action,
    IllegalAction,
    State,
    action_text,
    new_game,
    placings,
    view,
)
from games.orc.engine.cards import N_CARDS

from . import MIN_DELAY, Reaction, decide, react, still_wanted

NAMES = ("s0", "s1", "s2", "s3", "s4", "s5", "s6")


@dataclass(slots=True)
class GameResult:
    deal: int
    seat: int  # the measured level's seat
    win: float
    points: int
    field_points: float  # the other seats' mean
    times: dict[str, list[float]] = field(default_factory=dict)


def _clock(times: dict[str, list[float]], key: str, t0: float) -> None:
    times.setdefault(key, []).append(time.perf_counter() - t0)


def run_deal(
    state: State,
    seating: list[str],
    rng: random.Random,
    times: dict[str, list[float]],
    measured: int,
) -> None:
    """The round's deal in simulated real time, until the champion is due."""
    pace = state.pace
    waiting: dict[int, tuple[float, float, Reaction]] = {}
    # (time, table) after every event: a seat judges a landing card by what it saw
    # MIN_DELAY earlier.
    seen: list[tuple[float, State]] = [(0.0, state.clone())]

    def key(seat: int, what: str) -> str:
        return f"{seating[seat]} {what}" + ("" if seat == measured else " (field)")

    def ask(seat: int, now: float) -> None:
        t0 = time.perf_counter()
        r = react(seating[seat], view(state, seat), seed=rng.getrandbits(32))
        _clock(times, key(seat, "reaction"), t0)
        if r is not None:
            assert r.delay >= MIN_DELAY
            waiting[seat] = (now + r.delay, rng.random(), r)

    def ask_all(now: float) -> None:
        seen.append((now, state.clone()))
        for s in state.deciders():
            if s not in waiting:
                ask(s, now)

    def earlier(when: float) -> State:
        return next(st for t, st in reversed(seen) if t <= when - MIN_DELAY)

    while state.pending == "recruit":
        nxt = (state.dealt + 1) * pace if state.dealt < N_CARDS else math.inf
        if waiting:
            seat = min(waiting, key=lambda s: waiting[s][:2])
            when = waiting[seat][0]
            if when < nxt:
                r = waiting.pop(seat)[2]
                if still_wanted(seating[seat], view(earlier(when), seat), r):
                    # The site re-checks legality when the card lands, as here.
                    with contextlib.suppress(IllegalAction):
                        state.apply(Action(seat, r.verb, pile=r.pile, at=state.dealt))
                ask_all(when)
                continue
        if state.dealt == N_CARDS:
            # Placing step: every AI answers; the site's default covers a silent seat.
            for s in state.deciders():
                default = state.placing_default(s)
                if default is not None:
                    state.apply(default)
            continue
        state.deal(state.dealt + 1)
        ask_all(nxt)


def play(
    players: int, deal: int, seating: list[str], budgets: list[Budget], measured: int
) -> GameResult:
    """One game; seating[s] is the level of seat s, `measured` the seat reported on."""
    state = new_game(NAMES[:players], seed=deal)
    rng = random.Random(deal * 7919 + measured)
    times: dict[str, list[float]] = {}
    while not state.game_over:
        if state.pending == "recruit":
            run_deal(state, seating, rng, times, measured)
            continue
        seat = state.decider
        assert seat is not None
        v = view(state, seat)
        b = budgets[seat]
        t0 = time.perf_counter()
        text = decide(
            seating[seat],
            v,
            seed=rng.getrandbits(32),
            iterations=b.iterations,
            time_budget=b.seconds,
        )
        if len(v["legal"]) > 1:
            tag = "" if seat == measured else " (field)"
            _clock(times, f"{seating[seat]} decision{tag}", t0)
        # A commando option has no card yet (the engine draws it), so match the option's text.
        options = {action_text(x, state.names): x for x in state.legal_actions(seat)}
        state.apply(options[text])
    places = placings(state.history, state.totals)
    first = [s for s in range(players) if places[s] == 1]
    win = 1.0 / len(first) if measured in first else 0.0
    others = [state.totals[s] for s in range(players) if s != measured]
    return GameResult(deal, measured, win, state.totals[measured], statistics.fmean(others), times)


def _run(job: arena.Job[int]) -> GameResult:
    return play(*job)


def _progress(results: list[GameResult], r: GameResult, seconds: float) -> str:
    share = statistics.fmean(x.win for x in results)
    return (
        f"game {len(results)}: deal {r.deal} seat {r.seat} win {r.win:g} points"
        f" {r.points} vs {r.field_points:.1f}  (so far {100 * share:.1f} %, {seconds:.0f} s)"
    )


def clear(results: list[GameResult], par: float, min_games: int) -> bool:
    """The sequential stop: a 99 % interval wholly on one side of par."""
    if len(results) < min_games:
        return False
    share, half = clustered(results, lambda r: r.win, 2.576)
    return share - half > par or share + half < par


def main(argv: list[str] | None = None) -> int:
    p = arena.parser(
        "python -m games.orc.ai.arena",
        __doc__,
        level="expert",
        against="heuristic",
        players=5,
        player_choices=(4, 5, 6, 7),
        games=200,
        games_help="at most this many games",
        processes=1,
    )
    p.add_argument("--min-games", type=int, default=100, help="before stopping early")
    a = p.parse_args(argv)
    n = a.players
    par = 1.0 / n

    def stop(results: list[GameResult]) -> bool:
        return clear(results, par, a.min_games)

    match = arena.run(
        a,
        arena.jobs(n, a),
        _run,
        kind=GameResult,
        package=Path(__file__).resolve().parent.parent,
        skip=("min_games",),
        progress=_progress,
        ms_places=2,
        stop=stop,
    )
    results = match.results
    share, half = clustered(results, lambda r: r.win)
    pts = statistics.fmean(r.points for r in results)
    fpts = statistics.fmean(r.field_points for r in results)
    budget = ""
    if a.iterations or a.time_budget:
        budget = f" (iterations={a.iterations}, time budget={a.time_budget})"
    print(
        f"{a.level}{budget} vs {a.against} x{n - 1}: {n} players, {len(results)} games"
        f" ({math.ceil(len(results) / n)} deals x {n} seats), seed {a.seed},"
        f" {'stopped early, ' if match.stopped else ''}{match.seconds:.0f} s this run"
    )
    print(
        f"  win share {100 * share:.1f} %  (95 % CI {100 * max(0.0, share - half):.1f}"
        f" - {100 * min(1.0, share + half):.1f} %, par {100 * par:.1f} %)"
        f"   mean points {pts:.2f} vs {fpts:.2f} for the field"
    )
    for k, ts in arena.decision_times(results).items():
        print(
            f"  {k}: {len(ts)}, ms p50 {1000 * percentile(ts, 0.5):.2f}"
            f" p95 {1000 * percentile(ts, 0.95):.2f} max {1000 * max(ts):.1f}"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
