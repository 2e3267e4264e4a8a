"""What every game's arena shares: duplicate games, a match kept across runs, intervals.

Duplicate games: every deal (everything dealt follows from its seed) is played once in every
seating, the measured level taking each seat in turn, so the luck of the deal cancels out.
Games run on several processes; a progress line per finished game goes to stderr. With
``--results FILE`` each finished game is appended to FILE (JSON lines) and a run skips the
games FILE already holds for the same match (the same options and the same code of the
game's engine and AI); the summary covers them all. Intervals are clustered by deal: the
seatings of one deal are not independent. A game's arena (``games.<key>.ai.arena``) brings
its play of one game, options of its own and its summary.
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
from collections.abc import Callable, Iterator, Sequence
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any, Protocol, cast


@dataclass(frozen=True, slots=True)
class Budget:
    iterations: int | None = None
    seconds: float | None = None


class Played(Protocol):
    """One game's outcome for the measured level, as a game's arena keeps it (a dataclass)."""

    deal: int
    seat: int  # the measured level's seat
    win: float  # a shared first place counts 1/k among k
    times: dict[str, list[float]]  # seconds per decision, by what decided


# (the game's setup, deal, the level of each seat, their budgets, the measured seat)
type Job[Setup] = tuple[Setup, int, list[str], list[Budget], int]


def parser(
    prog: str,
    doc: str | None,
    *,
    level: str,
    against: str,
    players: int,
    games: int,
    games_help: str,
    processes: int,
    player_choices: Sequence[int] | None = None,
) -> argparse.ArgumentParser:
    """The options every arena has; a game adds its own."""
    p = argparse.ArgumentParser(prog=prog, description=(doc or "").split("\n")[0])
    p.add_argument("--level", default=level)
    p.add_argument("--against", default=against)
    p.add_argument("--players", type=int, default=players, choices=player_choices)
    p.add_argument("--games", type=int, default=games, help=games_help)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--processes", type=int, default=processes)
    p.add_argument("--iterations", type=int, default=None, help="search budget of --level")
    p.add_argument("--time-budget", type=float, default=None, help="seconds, of --level")
    p.add_argument("--quiet", action="store_true", help="no progress line per game")
    p.add_argument("--results", type=Path, default=None, help="JSON lines kept across runs")
    return p


def jobs[Setup](
    setup: Setup,
    a: argparse.Namespace,
    against_budget: Budget = Budget(),
) -> list[Job[Setup]]:
    """Whole deals for about ``--games`` games, each played once with ``--level`` in every
    seat against ``--against`` in the others."""
    n = a.players
    seeds = random.Random(a.seed)
    out: list[Job[Setup]] = []
    for _ in range(max(1, math.ceil(a.games / n))):
        deal = seeds.getrandbits(48)
        for seat in range(n):
            seating = [a.against] * n
            seating[seat] = a.level
            budgets = [against_budget] * n
            budgets[seat] = Budget(a.iterations, a.time_budget)
            out.append((setup, deal, seating, budgets, seat))
    return out


def code_version(package: Path) -> str:
    """A digest of a game's engine and AI sources and of what they share here (the arenas
    aside): results of other code are not mixed in."""
    h = hashlib.sha256()
    shared = Path(__file__).resolve().parent.glob("*.py")
    for path in sorted([*package.glob("ai/*.py"), *package.glob("engine/*.py"), *shared]):
        if path.name != "arena.py":
            h.update(path.name.encode() + path.read_bytes())
    return h.hexdigest()[:16]


def clustered[R: Played](
    results: list[R], value: Callable[[R], float], z: float = 1.96
) -> tuple[float, float]:
    """Mean of `value` and the half width of its interval (95 % by default), clustered by
    deal."""
    by_deal: dict[int, list[float]] = {}
    for r in results:
        by_deal.setdefault(r.deal, []).append(value(r))
    means = [statistics.fmean(v) for v in by_deal.values()]
    sd = statistics.stdev(means) if len(means) > 1 else 0.0
    return statistics.fmean(means), z * sd / math.sqrt(len(means))


def percentile(xs: list[float], q: float) -> float:
    s = sorted(xs)
    return s[min(len(s) - 1, int(q * len(s)))]


def decision_times(results: Sequence[Played]) -> dict[str, list[float]]:
    """Every game's seconds per decision, by what decided, in order of its name."""
    times: dict[str, list[float]] = {}
    for r in results:
        for key, ts in r.times.items():
            times.setdefault(key, []).extend(ts)
    return dict(sorted(times.items()))


def _load[R: Played](path: Path | None, match: dict[str, object], kind: type[R]) -> list[R]:
    if path is None or not path.exists():
        return []
    out = []
    for line in path.read_text().splitlines():
        row = json.loads(line)
        if row.pop("match") == match:
            row["times"] = {k: [ms / 1000 for ms in ts] for k, ts in row["times"].items()}
            out.append(kind(**row))
    return out


def _played[Setup, R](
    play: Callable[[Job[Setup]], R], jobs: list[Job[Setup]], processes: int, ordered: bool
) -> Iterator[R]:
    """Games as they finish (in order if `ordered`); one process plays in this one (no fork
    of a busy process)."""
    if processes <= 1:
        yield from map(play, jobs)
        return
    with multiprocessing.get_context("fork").Pool(processes) as pool:
        yield from (pool.imap if ordered else pool.imap_unordered)(play, jobs)


@dataclass
class Match[R: Played]:
    results: list[R]
    stopped: bool  # early, the answer being clear
    seconds: float  # this run's


def run[Setup, R: Played](
    a: argparse.Namespace,
    jobs: list[Job[Setup]],
    play: Callable[[Job[Setup]], R],
    *,
    kind: type[R],
    package: Path,
    skip: Sequence[str],
    progress: Callable[[list[R], R, float], str],
    ms_places: int = 1,
    stop: Callable[[list[R]], bool] | None = None,
) -> Match[R]:
    """Play the match's games that its results file does not hold yet.

    `play`: one game (a function of its module, for the processes); `kind`: its outcome's
    dataclass; `package`: the game's package (its code makes part of the match); `skip`:
    the options that do not make the match (how many games, how and where they are played);
    `progress`: the line after each game, given the results so far, the game and the
    seconds since the start; `stop`: true once the answer is clear, looked at before the
    first game and after each whole deal (so every seat weighs the same), with the games
    then played in order.
    """
    skip = ("games", "processes", "quiet", "results", *skip)
    match: dict[str, Any] = {k: v for k, v in vars(a).items() if k not in skip}
    match["code"] = code_version(package)
    order = {(j[1], j[4]): i for i, j in enumerate(jobs)}
    results = [r for r in _load(a.results, match, kind) if (r.deal, r.seat) in order]
    results.sort(key=lambda r: order[(r.deal, r.seat)])
    done = {(r.deal, r.seat) for r in results}
    jobs = [j for j in jobs if (j[1], j[4]) not in done]
    if results:
        print(f"{len(results)} games of this match already in {a.results}", file=sys.stderr)
    t0 = time.perf_counter()
    stopped = stop is not None and stop(results)
    if not stopped:
        for r in _played(play, jobs, a.processes, ordered=stop is not None):
            results.append(r)
            if a.results is not None:
                row = asdict(cast(Any, r)) | {
                    "times": {
                        k: [round(1000 * t, ms_places) for t in ts] for k, ts in r.times.items()
                    }
                }
                with a.results.open("a") as f:
                    f.write(json.dumps({"match": match, **row}) + "\n")
            if not a.quiet:
                print(progress(results, r, time.perf_counter() - t0), file=sys.stderr, flush=True)
            if stop is not None and len(results) % a.players == 0 and stop(results):
                stopped = True
                break
    return Match(results, stopped, time.perf_counter() - t0)
