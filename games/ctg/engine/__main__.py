"""Command line: ``python -m games.ctg.engine replay|random|bench`` (see the package docstring)."""

from __future__ import annotations

import argparse
import sys

from games.enginekit.cli import Commands, main

from .playout import bench, random_game
from .record import from_record, result, to_record
from .state import Options, State


def _options(parser: argparse.ArgumentParser, command: str) -> None:
    if command == "random":
        parser.add_argument("--rounds", type=int, required=True)
        parser.add_argument("--variants", default="")
    else:
        parser.add_argument("--rounds", type=int, default=4)


def _random(args: argparse.Namespace) -> State:
    variants = frozenset(v for v in args.variants.split(",") if v)
    return random_game(Options(args.players, args.rounds, variants), args.seed)


def _unfinished(state: State) -> str:
    return f"the game stops in round {state.round} of {state.options.rounds}; no result"


COMMANDS = Commands(
    prog="python -m games.ctg.engine",
    bench_players=4,
    from_record=from_record,
    to_record=to_record,
    result=result,
    random_game=_random,
    bench=lambda args: bench(args.players, args.seconds, args.rounds),
    bench_games=lambda args: f"{args.players}-player {args.rounds}-round",
    options=_options,
    unfinished=_unfinished,
)

if __name__ == "__main__":
    sys.exit(main(COMMANDS))
