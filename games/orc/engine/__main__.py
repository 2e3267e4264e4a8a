"""Command line: ``python -m games.orc.engine replay|random|bench`` (see the package docstring)."""

from __future__ import annotations

import argparse
import sys

from games.enginekit.cli import Commands, main

from .playout import bench, random_game
from .record import from_record, result, to_record
from .state import State


def _players(args: argparse.Namespace) -> int:
    if args.players not in range(4, 8):
        raise ValueError("§2: 4 to 7 players")
    return int(args.players)


def _random(args: argparse.Namespace) -> State:
    return random_game(_players(args), args.seed)


COMMANDS = Commands(
    prog="python -m games.orc.engine",
    bench_players=5,
    from_record=from_record,
    to_record=to_record,
    result=result,
    random_game=_random,
    bench=lambda args: bench(_players(args), args.seconds),
    bench_games=lambda args: f"{args.players}-player",
)

if __name__ == "__main__":
    sys.exit(main(COMMANDS))
