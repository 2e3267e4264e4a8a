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

A long match can be spread over several runs: with ``--results FILE`` each finished game is
appended to FILE (JSON lines) and a run skips the games FILE already holds for the same
match and the same code of ``games.ctg.ai`` and ``games.ctg.engine``; the summary covers them all.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import math
import multiprocessing
import random
import statistics
import sys
import time
from collections.abc import Callable, Iterator
from dataclasses import asdict, dataclass, field
from pathlib import Path

from games.ctg.engine import Options, new_game, view
from games.ctg.engine.state import placings

from . import decide_code, ismcts


@dataclass(frozen=True, slots=True)
class Budget:
    iterations: int | None = None
    seconds: float | None = None


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


Job = tuple[Options, int, list[str], list[Budget], int]


def _run(job: Job) -> GameResult:
    return play(*job)


def _played(jobs: list[Job], processes: int) -> Iterator[GameResult]:
    """Games as they finish; one process plays in this one (no fork of a busy process)."""
    if processes <= 1:
        yield from map(_run, jobs)
        return
    with multiprocessing.get_context("fork").Pool(processes) as pool:
        yield from pool.imap_unordered(_run, jobs)


def code_version() -> str:
    """A digest of the engine and AI sources (the arena aside): results of other code are not
    mixed in."""
    h = hashlib.sha256()
    root = Path(__file__).resolve().parent.parent
    for path in sorted([*root.glob("ai/*.py"), *root.glob("engine/*.py")]):
        if path.name != "arena.py":
            h.update(path.name.encode() + path.read_bytes())
    return h.hexdigest()[:16]


def load_results(path: Path | None, match: dict[str, object]) -> list[GameResult]:
    if path is None or not path.exists():
        return []
    out = []
    for line in path.read_text().splitlines():
        row = json.loads(line)
        if row.pop("match") == match:
            row["times"] = {lv: [ms / 1000 for ms in ts] for lv, ts in row["times"].items()}
            out.append(GameResult(**row))
    return out


def clustered(
    results: list[GameResult], value: Callable[[GameResult], float]
) -> tuple[float, float]:
    """Mean of `value` and the half width of its 95 % interval, clustered by deal."""
    by_deal: dict[int, list[float]] = {}
    for r in results:
        by_deal.setdefault(r.deal, []).append(value(r))
    means = [statistics.fmean(v) for v in by_deal.values()]
    sd = statistics.stdev(means) if len(means) > 1 else 0.0
    return statistics.fmean(means), 1.96 * sd / math.sqrt(len(means))


def percentile(xs: list[float], q: float) -> float:
    s = sorted(xs)
    return s[min(len(s) - 1, int(q * len(s)))]


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(
        prog="python -m games.ctg.ai.arena", description=__doc__.split("\n")[0]
    )
    p.add_argument("--level", default="search")
    p.add_argument("--against", default="heuristic")
    p.add_argument("--players", type=int, default=2)
    p.add_argument("--rounds", type=int, default=4)
    p.add_argument("--variants", default="", help="comma separated: imperial-tasks,ninja")
    p.add_argument("--games", type=int, default=100, help="games in all (whole deals)")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--processes", type=int, default=2)
    p.add_argument("--iterations", type=int, default=None, help="search budget of --level")
    p.add_argument("--time-budget", type=float, default=None, help="seconds, of --level")
    p.add_argument("--against-iterations", type=int, default=None)
    p.add_argument("--against-time-budget", type=float, default=None)
    p.add_argument("--quiet", action="store_true", help="no progress line per game")
    p.add_argument("--results", type=Path, default=None, help="JSON lines kept across runs")
    a = p.parse_args(argv)
    variants = frozenset(v for v in a.variants.split(",") if v)
    options = Options(a.players, a.rounds, variants)
    n = a.players
    deals = max(1, math.ceil(a.games / n))
    seeds = random.Random(a.seed)
    jobs = []
    for _ in range(deals):
        deal = seeds.getrandbits(48)
        for seat in range(n):
            seating = [a.against] * n
            seating[seat] = a.level
            budgets = [Budget(a.against_iterations, a.against_time_budget)] * n
            budgets[seat] = Budget(a.iterations, a.time_budget)
            jobs.append((options, deal, seating, budgets, seat))
    # What makes a game of this match: all but the number of games, processes and output.
    skip = ("games", "processes", "quiet", "results")
    match = {k: v for k, v in vars(a).items() if k not in skip} | {"code": code_version()}
    planned = {(j[1], j[4]) for j in jobs}
    results = [r for r in load_results(a.results, match) if (r.deal, r.seat) in planned]
    done = {(r.deal, r.seat) for r in results}
    jobs = [j for j in jobs if (j[1], j[4]) not in done]
    if results:
        print(f"{len(results)} games of this match already in {a.results}", file=sys.stderr)
    t0 = time.perf_counter()
    for r in _played(jobs, a.processes):
        results.append(r)
        if a.results is not None:
            row = asdict(r) | {
                "times": {lv: [round(1000 * t, 1) for t in ts] for lv, ts in r.times.items()}
            }
            with a.results.open("a") as f:
                f.write(json.dumps({"match": match, **row}) + "\n")
        if not a.quiet:
            share = statistics.fmean(x.win for x in results)
            print(
                f"game {len(results)}/{len(done) + len(jobs)}: deal {r.deal} seat {r.seat}"
                f" win {r.win:g} margin {r.margin:+d}  (so far {100 * share:.1f} %,"
                f" {time.perf_counter() - t0:.0f} s)",
                file=sys.stderr,
                flush=True,
            )
    wall = time.perf_counter() - t0
    share, half = clustered(results, lambda r: r.win)
    margin = statistics.fmean(r.margin for r in results)
    field_desc = f"{a.against} x{n - 1}" if n > 2 else a.against
    budget = ""
    if a.iterations or a.time_budget:
        budget = f" (iterations={a.iterations}, time budget={a.time_budget})"
    print(
        f"{a.level}{budget} vs {field_desc}: {n} players, {a.rounds} rounds, "
        f"variants={sorted(variants) or 'none'}, {len(results)} games ({deals} deals x {n} "
        f"seatings), seed {a.seed}, {a.processes} processes, {wall:.0f} s this run"
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
    times: dict[str, list[float]] = {}
    for r in results:
        for lv, ts in r.times.items():
            times.setdefault(lv, []).extend(ts)
    for lv, ts in sorted(times.items()):
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
