"""Command line: ``python -m games.ctg.engine replay|random|bench`` (see the package docstring)."""

from __future__ import annotations

import argparse
import json
import sys

from .errors import IllegalAction, RecordError
from .playout import bench, random_game
from .record import from_record, result, to_record
from .state import Options


def _replay(path: str) -> int:
    try:
        with open(path, encoding="utf-8") as f:
            record = json.load(f)
    except (OSError, ValueError) as e:
        print(f"malformed record: cannot read {path}: {e}", file=sys.stderr)
        return 3
    try:
        state = from_record(record)
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
    res = result(state)
    if res is None:
        print(
            f"unfinished record: the game stops in round {state.round} of "
            f"{state.options.rounds}; no result",
            file=sys.stderr,
        )
        return 3
    print(json.dumps(res))
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m games.ctg.engine")
    sub = parser.add_subparsers(dest="command", required=True)
    p = sub.add_parser("replay", help="replay a record and print its result")
    p.add_argument("file")
    p = sub.add_parser("random", help="print the record of a random legal game")
    p.add_argument("--players", type=int, required=True)
    p.add_argument("--rounds", type=int, required=True)
    p.add_argument("--variants", default="")
    p.add_argument("--seed", type=int, default=0)
    p = sub.add_parser("bench", help="random full-game throughput")
    p.add_argument("--players", type=int, default=4)
    p.add_argument("--seconds", type=float, default=10.0)
    p.add_argument("--rounds", type=int, default=4)
    args = parser.parse_args(argv)
    if args.command == "replay":
        return _replay(args.file)
    if args.command == "random":
        variants = frozenset(v for v in args.variants.split(",") if v)
        try:
            options = Options(args.players, args.rounds, variants)
        except ValueError as e:
            parser.error(str(e))
        print(json.dumps(to_record(random_game(options, args.seed))))
        return 0
    games, wall, cpu = bench(args.players, args.seconds, args.rounds)
    print(
        f"{games / wall:.0f} games/s ({games} random {args.players}-player {args.rounds}-round "
        f"games in {wall:.1f} s; {games / cpu:.0f} games per CPU second)"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
