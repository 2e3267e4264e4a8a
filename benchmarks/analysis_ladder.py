"""Does the analysis rank the AI levels as they rank themselves? For each game, seats played by
the random player should get a lower accuracy and more blunders than seats played by the
Card counter, and those than the strongest level.

Run: nice -n 10 .venv/bin/python benchmarks/analysis_ladder.py [--games 40] [--max-games 80]
     [--samples-ctg 16] [--samples-orc 40] [--processes 1] [--only ctg|orc] [--rounds 4]

Call to Glory: four-player games (4 rounds; quick games of 1 round with `--rounds 1`), the
seats random, heuristic, search-strong (the Master, its search cut to `--strong-iterations`
iterations a decision so that the benchmark ends) and greedy, the seating rotated from game
to game. De l'Orc: five-player games, the seats random, heuristic, expert (the Warlord,
`--expert-iterations`), beginner and heuristic, rotated. Every seat of the three measured
levels is analysed (``games.<game>.analysis.analyse``, `--samples-*` samples a decision).

Printed per game and level: the mean accuracy and the mean number of blunders (??) per game
with 95 % intervals (mean ± 1.96 standard errors over games), and whether the ladder holds:
each level's interval wholly above the weaker one's for accuracy, below for blunders. From
`--games` games on, the run checks after each game and stops as soon as the ladder clearly
holds (sequentially: intervals computed again after every game), or at `--max-games`.
"""

from __future__ import annotations

import argparse
import math
import multiprocessing
import random
import statistics
import sys
import time
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from games.ctg import ai as ctg_ai
from games.ctg import analysis as ctg_analysis
from games.ctg import engine as ctg
from games.orc import ai as orc_ai
from games.orc import analysis as orc_analysis
from games.orc import engine as orc
from games.orc.ai.arena import run_deal

CTG_SEATS = ["random", "heuristic", "search-strong", "greedy"]
ORC_SEATS = ["random", "heuristic", "expert", "beginner", "heuristic"]
LADDER = {"ctg": ("random", "heuristic", "search-strong"), "orc": ("random", "heuristic", "expert")}
NAMES = ["ann", "bob", "cy", "dee", "eve", "fay", "gus"]


def ctg_game(
    levels: Sequence[str], seed: int, strong_iterations: int, rounds: int = 4
) -> dict[str, Any]:
    """A game's record, one level per seat."""
    names = NAMES[: len(levels)]
    state = ctg.new_game(ctg.Options(len(levels), rounds), names, seed=seed)
    rng = random.Random(seed)
    while not state.game_over:
        seat = state.decider
        assert seat is not None
        state.apply(
            ctg_ai.decide_code(
                levels[seat],
                ctg.view(state, seat),
                seed=rng.getrandbits(32),
                iterations=strong_iterations,
            ),
            seat,
        )
    return ctg.to_record(state)


def orc_game(levels: Sequence[str], seed: int, expert_iterations: int) -> dict[str, Any]:
    """A whole game's record, one level per seat (the deal played as the arena plays it)."""
    names = NAMES[: len(levels)]
    state = orc.new_game(names, seed=seed)
    rng = random.Random(seed)
    times: dict[str, list[float]] = {}
    while not state.game_over:
        if state.pending == "recruit":
            run_deal(state, list(levels), rng, times, 0)
            continue
        seat = state.decider
        assert seat is not None
        text = orc_ai.decide(
            levels[seat],
            orc.view(state, seat),
            seed=rng.getrandbits(32),
            iterations=expert_iterations,
        )
        options = {orc.action_text(a, state.names): a for a in state.legal_actions(seat)}
        state.apply(options[text])
    return orc.to_record(state)


Job = tuple[str, int, dict[str, int]]
Row = tuple[str, int, str, float | None, int, int, float]  # game, deal, level, acc, ??, n, s


def run(job: Job) -> list[Row]:
    """One game played and its measured seats analysed."""
    game, deal, knobs = job
    seats = CTG_SEATS if game == "ctg" else ORC_SEATS
    shift = deal % len(seats)
    levels = seats[shift:] + seats[:shift]
    if game == "ctg":
        record = ctg_game(levels, deal, knobs["strong_iterations"], knobs["rounds"])
        analyse, samples = ctg_analysis.analyse, knobs["samples_ctg"]
    else:
        record = orc_game(levels, deal, knobs["expert_iterations"])
        analyse, samples = orc_analysis.analyse, knobs["samples_orc"]
    rows: list[Row] = []
    for seat, level in enumerate(levels):
        if level not in LADDER[game] or level in levels[:seat]:
            continue
        t0 = time.process_time()
        a = analyse(record, record["players"][seat], seed=deal, samples=samples)
        blunders = sum(1 for d in a.decisions if d.mark == "??")
        rows.append(
            (game, deal, level, a.accuracy, blunders, len(a.decisions), time.process_time() - t0)
        )
    return rows


def interval(xs: Sequence[float]) -> tuple[float, float, float]:
    m = statistics.fmean(xs)
    half = 1.96 * statistics.stdev(xs) / math.sqrt(len(xs)) if len(xs) > 1 else math.inf
    return m, m - half, m + half


def report(game: str, rows: list[Row]) -> tuple[str, bool]:
    """The three levels' figures, and whether the ladder clearly holds."""
    lines = []
    acc: dict[str, tuple[float, float, float]] = {}
    blu: dict[str, tuple[float, float, float]] = {}
    for level in LADDER[game]:
        mine = [r for r in rows if r[2] == level and r[3] is not None]
        if not mine:
            return f"{game}: no games yet", False
        acc[level] = interval([r[3] for r in mine if r[3] is not None])
        blu[level] = interval([float(r[4]) for r in mine])
        decisions = statistics.fmean(r[5] for r in mine)
        secs = statistics.fmean(r[6] for r in mine)
        a, b = acc[level], blu[level]
        lines.append(
            f"  {level:<14} accuracy {a[0]:5.1f} [{a[1]:5.1f}, {a[2]:5.1f}]   "
            f"blunders/game {b[0]:5.2f} [{b[1]:5.2f}, {b[2]:5.2f}]   "
            f"{len(mine)} seats, {decisions:.0f} decisions, {secs:.1f} s CPU a seat"
        )
    weak, mid, strong = LADDER[game]
    holds = (
        acc[weak][2] < acc[mid][1]
        and acc[mid][2] < acc[strong][1]
        and blu[weak][1] > blu[mid][2]
        and blu[mid][1] > blu[strong][2]
    )
    order_acc = acc[weak][0] < acc[mid][0] < acc[strong][0]
    order_blu = blu[weak][0] > blu[mid][0] > blu[strong][0]
    games = len({r[1] for r in rows})
    head = (
        f"{game}: {games} games; ladder by means: accuracy {'holds' if order_acc else 'FAILS'}, "
        f"blunders {'hold' if order_blu else 'FAIL'}; intervals apart: {'yes' if holds else 'no'}"
    )
    return "\n".join([head, *lines]), holds


def results(jobs: list[Job], processes: int) -> Iterator[list[Row]]:
    if processes <= 1:
        yield from map(run, jobs)
        return
    with multiprocessing.get_context("fork").Pool(processes) as pool:
        yield from pool.imap(run, jobs)


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--games", type=int, default=40, help="games per game before stopping early")
    p.add_argument("--max-games", type=int, default=80)
    p.add_argument("--samples-ctg", type=int, default=16)
    p.add_argument("--samples-orc", type=int, default=40)
    p.add_argument("--strong-iterations", type=int, default=1500)
    p.add_argument("--expert-iterations", type=int, default=300)
    p.add_argument("--processes", type=int, default=1)
    p.add_argument("--only", choices=("ctg", "orc"), default=None)
    p.add_argument("--rounds", type=int, choices=(1, 4), default=4, help="Call to Glory's")
    args = p.parse_args(argv)
    knobs = {
        "samples_ctg": args.samples_ctg,
        "samples_orc": args.samples_orc,
        "strong_iterations": args.strong_iterations,
        "expert_iterations": args.expert_iterations,
        "rounds": args.rounds,
    }
    print(f"analysis ladder: {vars(args)}", flush=True)
    t0 = time.perf_counter()
    for game in ("ctg", "orc") if args.only is None else (args.only,):
        rows: list[Row] = []
        jobs = [(game, deal, knobs) for deal in range(1, args.max_games + 1)]
        text = ""
        for done, got in enumerate(results(jobs, args.processes), 1):
            rows += got
            print(
                f"{game} game {done}: "
                + ", ".join(
                    f"{r[2]} {r[3] if r[3] is None else round(r[3], 1)}/{r[4]}??" for r in got
                ),
                file=sys.stderr,
                flush=True,
            )
            text, holds = report(game, rows)
            if done >= args.games and holds:
                break
        print(text, flush=True)
    print(f"{time.perf_counter() - t0:.0f} s in all", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
