"""The command line of every engine: ``python -m games.<key>.engine replay|random|bench``.

``replay FILE.json`` prints the record's result (exit 0; an illegal action: one line on
stderr, exit 2; a malformed record, or one that stops before the game's end: exit 3).
``random --players N --seed S`` prints the record of a random legal game, and ``bench
--players N --seconds S`` random full-game throughput (new game included), by wall clock
and per CPU second. A game adds options of its own to both (Call to Glory's rounds).
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from games.enginekit.errors import IllegalAction, RecordError


def _no_options(parser: argparse.ArgumentParser, command: str) -> None:
    return None


@dataclass(frozen=True)
class Commands[S]:
    """What a game's engine brings to the command line."""

    prog: str
    bench_players: int
    from_record: Callable[[Any], S]
    to_record: Callable[[S], dict[str, Any]]
    # The result of a finished game; None for a record that stops before the end.
    result: Callable[[S], dict[str, Any] | None]
    # A random game from the command's options; ValueError for options the rules refuse.
    random_game: Callable[[argparse.Namespace], S]
    # (games, wall seconds, CPU seconds) of random full games; ValueError as above.
    bench: Callable[[argparse.Namespace], tuple[int, float, float]]
    # What the bench's games were, for its line: "4-player 4-round".
    bench_games: Callable[[argparse.Namespace], str]
    # Options of the game's own for "random" and "bench" (the command's name).
    options: Callable[[argparse.ArgumentParser, str], None] = _no_options
    # Why a record stopped before the end, for the error line.
    unfinished: Callable[[S], str] = lambda state: "the game is not over; no result"


def _replay[S](commands: Commands[S], path: str) -> int:
    try:
        with open(path, encoding="utf-8") as f:
            record = json.load(f)
    except (OSError, ValueError) as e:
        print(f"malformed record: cannot read {path}: {e}", file=sys.stderr)
        return 3
    try:
        state = commands.from_record(record)
    except IllegalAction as e:
        print(
            f"illegal action: round {e.round}, action {e.index}: {e.action!r}: "
            f"{e.message} [{e.code}]",
            file=sys.stderr,
        )
        return 2
    except RecordError as e:
        print(f"malformed record: {e}", file=sys.stderr)
        return 3
    result = commands.result(state)
    if result is None:
        print(f"unfinished record: {commands.unfinished(state)}", file=sys.stderr)
        return 3
    print(json.dumps(result))
    return 0


def main[S](commands: Commands[S], argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog=commands.prog)
    sub = parser.add_subparsers(dest="command", required=True)
    p = sub.add_parser("replay", help="replay a record and print its result")
    p.add_argument("file")
    p = sub.add_parser("random", help="print the record of a random legal game")
    p.add_argument("--players", type=int, required=True)
    commands.options(p, "random")
    p.add_argument("--seed", type=int, default=0)
    p = sub.add_parser("bench", help="random full-game throughput")
    p.add_argument("--players", type=int, default=commands.bench_players)
    p.add_argument("--seconds", type=float, default=10.0)
    commands.options(p, "bench")
    args = parser.parse_args(argv)
    if args.command == "replay":
        return _replay(commands, args.file)
    try:
        if args.command == "random":
            print(json.dumps(commands.to_record(commands.random_game(args))))
            return 0
        games, wall, cpu = commands.bench(args)
    except ValueError as e:
        parser.error(str(e))
    print(
        f"{games / wall:.0f} games/s ({games} random {commands.bench_games(args)} games in "
        f"{wall:.1f} s; {games / cpu:.0f} games per CPU second)"
    )
    return 0
