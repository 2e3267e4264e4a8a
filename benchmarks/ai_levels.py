"""How long each AI level thinks, in both games. Call to Glory: per decision, per turn, and
per wait of a person at a four-seat table against three AI players of the level. De l'Orc
pour les Braves: per turn decision (its deal's reactions take well under a millisecond).

Run: .venv/bin/python benchmarks/ai_levels.py [--waits 24] [--levels search,search-strong]
     [--game ctg|orc|both] [--orc-decisions 40] [--orc-levels beginner,heuristic,expert]

A wait begins as the person (seat 0) ends a turn and lasts until the next decision is his:
the three AI players' turns (their draws, their action, a miniature or a bury). Positions come
from games played by the Card counter up to a random point, so every level is timed in the
same positions. Each decision is timed as a worker makes it: the seat's view, then the level's
choice (games.ctg.ai.decide, with the level's own budget). Printed per level: p50, p95 and
the longest time per decision (decisions with one legal option are answered at once and left
out), per AI turn and per wait, in milliseconds. A busy machine makes a search level use more
of its time budget: the load average is printed with the figures.
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from games.ctg.ai import LEVELS, decide
from games.ctg.engine import Options, State, new_game, parse_action, view
from games.orc import ai as orc_ai
from games.orc import engine as orc_engine
from games.orc.engine.cards import N_CARDS
from games.orc.engine.playout import NAMES, random_decision, random_recruitment

PERSON = 0


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def start_of_wait(options: Options, deal: int) -> State:
    """A position where the person has just ended a turn, played by Card counters."""
    rng = random.Random(deal)
    state = new_game(options, [f"p{i}" for i in range(options.players)], seed=deal)
    turns = rng.randrange(0, 14 * options.rounds)
    while True:
        seat = state.decider
        assert seat is not None
        was = state.cur
        text = decide("heuristic", view(state, seat), seed=rng.getrandbits(32))
        state.apply(parse_action(text, state.names), seat)
        if state.game_over:
            return start_of_wait(options, deal + 10_000)
        if state.cur != was:
            turns -= 1
            if turns <= 0 and was == PERSON and state.decider != PERSON:
                return state


def wait(level: str, state: State, seed: int) -> tuple[list[float], list[float], float]:
    """The AI players' decisions until the person's next one: their times, each turn's
    total, and the whole wait."""
    rng = random.Random(seed)
    decisions: list[float] = []
    turns: dict[int, float] = {}
    total = 0.0
    turn = 0
    while not state.game_over:
        seat = state.decider
        assert seat is not None
        if seat == PERSON:
            break
        was = state.cur
        started = time.perf_counter()
        seen = view(state, seat)
        text = decide(level, seen, seed=rng.getrandbits(32))
        elapsed = time.perf_counter() - started
        if len(seen["legal_texts"]) > 1:
            decisions.append(elapsed)
        turns[turn] = turns.get(turn, 0.0) + elapsed
        total += elapsed
        state.apply(parse_action(text, state.names), seat)
        if state.cur != was:
            turn += 1
    return decisions, list(turns.values()), total


def orc_positions(count: int, players: int, seed: int) -> list[orc_engine.State]:
    """Turn decisions of De l'Orc with more than one option, from random games: each kind
    (champion, spy, people, mercenaries, commando, flying machine) as often as it comes."""
    rng = random.Random(seed)
    found: list[orc_engine.State] = []
    game = 0
    while len(found) < count:
        state = orc_engine.new_game(list(NAMES[:players]), seed=seed + game)
        game += 1
        while state.phase < 7 and len(found) < count:
            if state.pending == "recruit":
                for action in random_recruitment(state, rng):
                    state.apply(action)
                if state.pending == "recruit":
                    state.deal(N_CARDS)
                continue
            if len(state.legal_actions()) > 1 and rng.random() < 0.3:
                found.append(state.clone())
            state.apply(random_decision(state, rng))
    return found


def orc_times(level: str, positions: list[orc_engine.State]) -> dict[str, list[float]]:
    """Seconds per decision of `level`, by kind of decision, as a worker makes it: the seat's
    view, then the level's choice (its own budget)."""
    times: dict[str, list[float]] = {}
    for i, state in enumerate(positions):
        started = time.perf_counter()
        seen = orc_engine.view(state, state.decider)
        orc_ai.decide(level, seen, seed=i)
        times.setdefault(state.pending, []).append(time.perf_counter() - started)
    return times


def orc_main(args: argparse.Namespace) -> None:
    positions = orc_positions(args.orc_decisions, args.orc_players, args.seed)
    print(
        f"\nDe l'Orc pour les Braves: {len(positions)} turn decisions of {args.orc_players} "
        f"players; load average {os.getloadavg()[0]:.1f}"
    )
    # The site names the levels Recruit (beginner), Sergeant (heuristic) and Warlord (expert).
    print(f"{'level':<14} {'decisions':>9}  {'ms per decision p50/p95/max':>28}  slowest kind")
    for level in args.orc_levels.split(","):
        by_kind = orc_times(level, positions)
        times = [t for kind in by_kind.values() for t in kind]
        figures = "/".join(
            f"{1000 * x:.0f}" for x in (percentile(times, 0.5), percentile(times, 0.95), max(times))
        )
        slowest = max(by_kind, key=lambda kind: percentile(by_kind[kind], 0.95))
        slow = f"{slowest} (p95 {1000 * percentile(by_kind[slowest], 0.95):.0f} ms)"
        print(f"{level:<14} {len(times):>9}  {figures:>28}  {slow}", flush=True)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--levels", default=",".join(LEVELS), help="comma separated")
    parser.add_argument("--waits", type=int, default=24, help="waits timed per level")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--rounds", type=int, default=4)
    parser.add_argument("--variants", default="", help="comma separated: imperial-tasks,ninja")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--game", choices=("ctg", "orc", "both"), default="both")
    parser.add_argument("--orc-decisions", type=int, default=40, help="De l'Orc decisions timed")
    parser.add_argument("--orc-players", type=int, default=5)
    parser.add_argument("--orc-levels", default=",".join(orc_ai.LEVELS), help="comma separated")
    args = parser.parse_args(argv)
    if args.game != "orc":
        ctg_main(args)
    if args.game != "ctg":
        orc_main(args)
    print(f"load average {os.getloadavg()[0]:.1f} at the end")
    return 0


def ctg_main(args: argparse.Namespace) -> None:
    variants = frozenset(v for v in args.variants.split(",") if v)
    options = Options(args.players, args.rounds, variants)
    starts = [start_of_wait(options, args.seed * 1_000_003 + i) for i in range(args.waits)]
    print(
        f"{args.waits} waits of a person against {args.players - 1} AI players "
        f"({args.rounds} rounds, variants={sorted(variants) or 'none'}); "
        f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} CPUs"
    )
    print(
        f"{'level':<14} {'decisions':>9}  {'ms per decision p50/p95/max':>28}"
        f"  {'ms per turn p50/p95':>20}  {'s per wait p50/p95':>18}"
    )
    for level in args.levels.split(","):
        decisions: list[float] = []
        turns: list[float] = []
        waits: list[float] = []
        for i, state in enumerate(starts):
            d, t, w = wait(level, state.clone(), seed=i)
            decisions += d
            turns += t
            waits.append(w)
        per_decision = "/".join(
            f"{1000 * x:.0f}"
            for x in (percentile(decisions, 0.5), percentile(decisions, 0.95), max(decisions))
        )
        per_turn = "/".join(f"{1000 * percentile(turns, q):.0f}" for q in (0.5, 0.95))
        per_wait = "/".join(f"{percentile(waits, q):.1f}" for q in (0.5, 0.95))
        name = LEVELS[level][0] if level in LEVELS else level
        print(
            f"{name:<14} {len(decisions):>9}  {per_decision:>28}  {per_turn:>20}  {per_wait:>18}",
            flush=True,
        )


if __name__ == "__main__":
    sys.exit(main())
