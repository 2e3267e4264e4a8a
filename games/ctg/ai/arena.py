"""Arena: measure one level against another (2 players) or against a field (3-4 players).

Duplicate games: every deal (all decks and task cards follow from its seed) is played once
in every seating, the measured level taking each seat in turn, so luck of the deal cancels
out. Games run on several processes. Printed: win share of the measured level with a 95 %
confidence interval (clustered by deal: the seatings of one deal are not independent),
mean score margin (its total minus the best other total), with 3-4 players the share of
the others it finished ahead of, ms per decision (p50/p95) per level and ISMCTS iterations
per second. A progress line per finished game goes to stderr.

    python -m games.ctg.ai.arena --level heuristic --against greedy --games 400 --processes 2

A shared first place counts as 1/k of a win among k tied players.

A long match can be spread over several runs (``--results FILE``, see games.enginekit.arena).
"""

from __future__ import annotations

import random
import statistics
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from games.ctg.engine import Options, new_game, view
from games.ctg.engine.state import placings
from games.enginekit import arena
from games.enginekit.arena import Budget, clustered, percentile

from . import decide_code, ismcts


@dataclass(slots=True)
class GameResult:
    deal: int
    seat: int  # the measured level's seat
    win: float
    margin: int
    times: dict[str, list[float]] = field(default_factory=dict)
    iterations: int = 0
    search_seconds: float = 0.0
    # Share of the other seats it finished ahead of (a tie counts half); None in old files.
    ahead: float | None = None


def play(
    options: Options,
    deal: int,
    seating: list[str],
    budgets: list[Budget],
    measured: int,
) -> GameResult:
    """Play one game; seating[s] is the level of seat s, `measured` the seat reported on."""
    names = [f"s{i}" for i in range(options.players)]
    state = new_game(options, names, seed=deal)
    rng = random.Random(deal * 7919 + measured)
    times: dict[str, list[float]] = {}
    iters = 0
    search_s = 0.0
    while not state.game_over:
        seat = state.decider
        assert seat is not None
        v = view(state, seat)
        level = seating[seat]
        b = budgets[seat]
        ismcts.LAST.reset()
        t0 = time.perf_counter()
        code = decide_code(
            level, v, seed=rng.getrandbits(32), time_budget=b.seconds, iterations=b.iterations
        )
        dt = time.perf_counter() - t0
        if len(v["legal_actions"]) > 1:
            times.setdefault(level if seat == measured else f"{level} (field)", []).append(dt)
        if seat == measured and ismcts.LAST.iterations:
            iters += ismcts.LAST.iterations
            search_s += ismcts.LAST.seconds
        state.apply(code, seat)
    places = placings(state.history, state.totals)
    first = [s for s in range(options.players) if places[s] == 1]
    win = 1.0 / len(first) if measured in first else 0.0
    others = [s for s in range(options.players) if s != measured]
    best_other = max(state.totals[s] for s in others)
    me = places[measured]
    ahead = sum(1.0 if me < places[s] else 0.5 if me == places[s] else 0.0 for s in others)
    return GameResult(
        deal,
        measured,
        win,
        state.totals[measured] - best_other,
        times,
        iters,
        search_s,
        ahead / len(others),
    )


def _run(job: arena.Job[Options]) -> GameResult:
    return play(*job)


def _progress(total: int) -> Callable[[list[GameResult], GameResult, float], str]:
    def line(results: list[GameResult], r: GameResult, seconds: float) -> str:
        share = statistics.fmean(x.win for x in results)
        return (
            f"game {len(results)}/{total}: deal {r.deal} seat {r.seat}"
            f" win {r.win:g} margin {r.margin:+d}  (so far {100 * share:.1f} %, {seconds:.0f} s)"
        )

    return line


def main(argv: list[str] | None = None) -> int:
    p = arena.parser(
        "python -m games.ctg.ai.arena",
        __doc__,
        level="search",
        against="heuristic",
        players=2,
        games=100,
        games_help="games in all (whole deals)",
        processes=2,
    )
    p.add_argument("--rounds", type=int, default=4)
    p.add_argument("--variants", default="", help="comma separated: imperial-tasks,ninja")
    p.add_argument("--against-iterations", type=int, default=None)
    p.add_argument("--against-time-budget", type=float, default=None)
    a = p.parse_args(argv)
    variants = frozenset(v for v in a.variants.split(",") if v)
    options = Options(a.players, a.rounds, variants)
    n = a.players
    jobs = arena.jobs(options, a, Budget(a.against_iterations, a.against_time_budget))
    deals = len(jobs) // n
    match = arena.run(
        a,
        jobs,
        _run,
        kind=GameResult,
        package=Path(__file__).resolve().parent.parent,
        skip=(),
        progress=_progress(len(jobs)),
    )
    results = match.results
    share, half = clustered(results, lambda r: r.win)
    margin = statistics.fmean(r.margin for r in results)
    field_desc = f"{a.against} x{n - 1}" if n > 2 else a.against
    budget = ""
    if a.iterations or a.time_budget:
        budget = f" (iterations={a.iterations}, time budget={a.time_budget})"
    print(
        f"{a.level}{budget} vs {field_desc}: {n} players, {a.rounds} rounds, "
        f"variants={sorted(variants) or 'none'}, {len(results)} games ({deals} deals x {n} "
        f"seatings), seed {a.seed}, {a.processes} processes, {match.seconds:.0f} s this run"
    )
    print(
        f"  win share {100 * share:.1f} %  (95 % CI {100 * max(0.0, share - half):.1f}"
        f" - {100 * min(1.0, share + half):.1f} %)   mean margin {margin:+.1f} points"
    )
    if n > 2 and all(r.ahead is not None for r in results):
        ahead, half = clustered(results, lambda r: r.ahead or 0.0)
        print(
            f"  ahead of {100 * ahead:.1f} % of the other players"
            f"  (95 % CI {100 * max(0.0, ahead - half):.1f} - {100 * min(1.0, ahead + half):.1f} %)"
        )
    for lv, ts in arena.decision_times(results).items():
        print(
            f"  {lv}: {len(ts)} decisions, ms per decision p50 {1000 * percentile(ts, 0.5):.1f}"
            f" p95 {1000 * percentile(ts, 0.95):.1f} max {1000 * max(ts):.1f}"
        )
    iters = sum(r.iterations for r in results)
    secs = sum(r.search_seconds for r in results)
    if iters:
        print(f"  ISMCTS: {iters / secs:.0f} iterations per second (per process)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
