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

With ``--results FILE`` each finished game is appended to FILE (JSON lines) and a run
skips the games FILE already holds for the same match and the same code of
``games.orc.ai`` and ``games.orc.engine``; the summary covers them all.
"""

from __future__ import annotations

import argparse
import contextlib
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


@dataclass(frozen=True, slots=True)
class Budget:
    iterations: int | None = None
    seconds: float | None = None


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


Job = tuple[int, int, list[str], list[Budget], int]


def _run(job: Job) -> GameResult:
    return play(*job)


def _played(jobs: list[Job], processes: int) -> Iterator[GameResult]:
    """Games as they finish; with one process they are played here, in order."""
    if processes <= 1:
        yield from map(_run, jobs)
        return
    with multiprocessing.get_context("fork").Pool(processes) as pool:
        yield from pool.imap(_run, jobs)


def code_version() -> str:
    """A digest of the engine and AI sources (the arena aside): other code's games don't mix."""
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
            row["times"] = {k: [ms / 1000 for ms in ts] for k, ts in row["times"].items()}
            out.append(GameResult(**row))
    return out


def clustered(
    results: list[GameResult], value: Callable[[GameResult], float], z: float = 1.96
) -> tuple[float, float]:
    """Mean of `value` and the half width of its interval, clustered by deal."""
    by_deal: dict[int, list[float]] = {}
    for r in results:
        by_deal.setdefault(r.deal, []).append(value(r))
    means = [statistics.fmean(v) for v in by_deal.values()]
    sd = statistics.stdev(means) if len(means) > 1 else 0.0
    return statistics.fmean(means), z * sd / math.sqrt(len(means))


def clear(results: list[GameResult], par: float, min_games: int) -> bool:
    """The sequential stop: a 99 % interval wholly on one side of par."""
    if len(results) < min_games:
        return False
    share, half = clustered(results, lambda r: r.win, 2.576)
    return share - half > par or share + half < par


def percentile(xs: list[float], q: float) -> float:
    s = sorted(xs)
    return s[min(len(s) - 1, int(q * len(s)))]


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(
        prog="python -m games.orc.ai.arena", description=(__doc__ or "").split("\n")[0]
    )
    p.add_argument("--level", default="expert")
    p.add_argument("--against", default="heuristic")
    p.add_argument("--players", type=int, default=5, choices=(4, 5, 6, 7))
    p.add_argument("--games", type=int, default=200, help="at most this many games")
    p.add_argument("--min-games", type=int, default=100, help="before stopping early")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--processes", type=int, default=1)
    p.add_argument("--iterations", type=int, default=None, help="search budget of --level")
    p.add_argument("--time-budget", type=float, default=None, help="seconds, of --level")
    p.add_argument("--quiet", action="store_true", help="no progress line per game")
    p.add_argument("--results", type=Path, default=None, help="JSON lines kept across runs")
    a = p.parse_args(argv)
    n = a.players
    par = 1.0 / n
    deals = max(1, math.ceil(a.games / n))
    seeds = random.Random(a.seed)
    jobs: list[Job] = []
    for _ in range(deals):
        deal = seeds.getrandbits(48)
        for seat in range(n):
            seating = [a.against] * n
            seating[seat] = a.level
            budgets = [Budget()] * n
            budgets[seat] = Budget(a.iterations, a.time_budget)
            jobs.append((n, deal, seating, budgets, seat))
    # What makes a game of this match: all but how many, where and how it is run.
    skip = ("games", "min_games", "processes", "quiet", "results")
    match = {k: v for k, v in vars(a).items() if k not in skip} | {"code": code_version()}
    planned = {(j[1], j[4]) for j in jobs}
    order = {(j[1], j[4]): i for i, j in enumerate(jobs)}
    results = [r for r in load_results(a.results, match) if (r.deal, r.seat) in planned]
    results.sort(key=lambda r: order[(r.deal, r.seat)])
    done = {(r.deal, r.seat) for r in results}
    jobs = [j for j in jobs if (j[1], j[4]) not in done]
    if results:
        print(f"{len(results)} games of this match already in {a.results}", file=sys.stderr)
    t0 = time.perf_counter()
    stopped = clear(results, par, a.min_games)
    if not stopped:
        for r in _played(jobs, a.processes):
            results.append(r)
            if a.results is not None:
                row = asdict(r) | {
                    "times": {k: [round(1000 * t, 2) for t in ts] for k, ts in r.times.items()}
                }
                with a.results.open("a") as f:
                    f.write(json.dumps({"match": match, **row}) + "\n")
            if not a.quiet:
                share = statistics.fmean(x.win for x in results)
                print(
                    f"game {len(results)}: deal {r.deal} seat {r.seat} win {r.win:g} points"
                    f" {r.points} vs {r.field_points:.1f}  (so far {100 * share:.1f} %,"
                    f" {time.perf_counter() - t0:.0f} s)",
                    file=sys.stderr,
                    flush=True,
                )
            # Only whole deals count for the stop, so every seat weighs the same.
            if len(results) % n == 0 and clear(results, par, a.min_games):
                stopped = True
                break
    wall = time.perf_counter() - t0
    share, half = clustered(results, lambda r: r.win)
    pts = statistics.fmean(r.points for r in results)
    fpts = statistics.fmean(r.field_points for r in results)
    budget = ""
    if a.iterations or a.time_budget:
        budget = f" (iterations={a.iterations}, time budget={a.time_budget})"
    print(
        f"{a.level}{budget} vs {a.against} x{n - 1}: {n} players, {len(results)} games"
        f" ({math.ceil(len(results) / n)} deals x {n} seats), seed {a.seed},"
        f" {'stopped early, ' if stopped else ''}{wall:.0f} s this run"
    )
    print(
        f"  win share {100 * share:.1f} %  (95 % CI {100 * max(0.0, share - half):.1f}"
        f" - {100 * min(1.0, share + half):.1f} %, par {100 * par:.1f} %)"
        f"   mean points {pts:.2f} vs {fpts:.2f} for the field"
    )
    times: dict[str, list[float]] = {}
    for r in results:
        for k, ts in r.times.items():
            times.setdefault(k, []).extend(ts)
    for k, ts in sorted(times.items()):
        print(
            f"  {k}: {len(ts)}, ms p50 {1000 * percentile(ts, 0.5):.2f}"
            f" p95 {1000 * percentile(ts, 0.95):.2f} max {1000 * max(ts):.1f}"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
