"""How long the post-game analysis of one seat takes: Call to Glory (four players, four
rounds) and De l'Orc (five players, a whole game), on one core.

Run: nice -n 10 .venv/bin/python benchmarks/analysis_speed.py [--games 3] [--seats 7]

Games are played by AI players, quick ones so that the figures come soon (Call to Glory:
heuristic, greedy, random, heuristic; De l'Orc: heuristic, expert thinking briefly, beginner,
heuristic, random), then each seat analysed with the game's
default samples (``games.<game>.analysis.analyse``). Printed per game: CPU seconds per seat
(mean and longest) and milliseconds per decision analysed, beside the 30 s a seat may take.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from analysis_ladder import ctg_game, orc_game

from games.ctg import analysis as ctg_analysis
from games.orc import analysis as orc_analysis

CTG_LEVELS = ["heuristic", "greedy", "random", "heuristic"]
ORC_LEVELS = ["heuristic", "expert", "beginner", "heuristic", "random"]


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--games", type=int, default=3)
    p.add_argument("--seats", type=int, default=7, help="seats analysed per game (the first)")
    args = p.parse_args(argv)
    print(f"load average {os.getloadavg()[0]:.1f}", flush=True)
    for game in ("ctg", "orc"):
        per_seat: list[float] = []
        per_decision: list[float] = []
        samples = 0
        for deal in range(1, args.games + 1):
            if game == "ctg":
                record = ctg_game(CTG_LEVELS, deal, 100)
                analyse = ctg_analysis.analyse
            else:
                record = orc_game(ORC_LEVELS, deal, 50)
                analyse = orc_analysis.analyse
            for name in record["players"][: args.seats]:
                t0 = time.process_time()
                a = analyse(record, name, seed=deal)
                dt = time.process_time() - t0
                per_seat.append(dt)
                samples = max(samples, a.samples)
                if a.decisions:
                    per_decision.append(dt / len(a.decisions))
                print(
                    f"  {game} game {deal} {name}: {dt:.1f} s CPU, {len(a.decisions)} decisions",
                    file=sys.stderr,
                    flush=True,
                )
        print(
            f"{game}: {statistics.fmean(per_seat):.1f} s CPU a seat (longest "
            f"{max(per_seat):.1f} s; limit 30 s), "
            f"{1000 * statistics.fmean(per_decision):.0f} ms a decision, "
            f"{len(per_seat)} seats of {args.games} games, up to {samples} samples a decision",
            flush=True,
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
