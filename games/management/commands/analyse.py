"""``python manage.py analyse RECORD.json --seat NAME [--format json|text]``."""

from __future__ import annotations

import json
import sys
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from games import registry
from games.analysis import SeatAnalysis, summary


class Command(BaseCommand):
    help = (
        "Analyse one seat of a game record (Call to Glory or De l'Orc): every decision with a "
        "choice valued option by option from what that seat could see, marked ?! ? ?? as it "
        "cost, with the seat's accuracy. Prints JSON (--format json, the default) or a "
        "summary for people (--format text)."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("record", help="a game record (JSON file), or - for standard input")
        parser.add_argument("--seat", required=True, help="the player's name in the record")
        parser.add_argument("--format", choices=("json", "text"), default="json")
        parser.add_argument("--seed", type=int, default=0, help="fixes the samples (default 0)")
        parser.add_argument(
            "--samples", type=int, default=None, help="samples per decision (default: the game's)"
        )

    def handle(self, *args: Any, **options: Any) -> None:
        record = _read(options["record"])
        game = registry.for_record(record)
        if game is None or game.analysis is None:
            named = record.get("format")
            raise CommandError(f"no game here analyses records of format {named!r}")
        seat = options["seat"]
        try:
            result = game.analysis.analyse(
                record, seat, seed=options["seed"], samples=options["samples"]
            )
        except ValueError as e:  # the engines' RecordError, IllegalAction and NotationError too
            raise CommandError(f"{game.name}: {e}") from None
        if options["format"] == "json":
            self.stdout.write(json.dumps(result.as_json(), ensure_ascii=False))
        else:
            self.stdout.write(text(result))


def _read(path: str) -> dict[str, Any]:
    try:
        if path == "-":
            data = json.load(sys.stdin)
        else:
            with open(path, encoding="utf-8") as f:
                data = json.load(f)
    except OSError as e:
        raise CommandError(f"cannot read {path}: {e.strerror}") from None
    except ValueError as e:
        raise CommandError(f"{path} is not JSON: {e}") from None
    if not isinstance(data, dict):
        raise CommandError(f"{path} is not a game record (a JSON object)")
    return data


def text(a: SeatAnalysis) -> str:
    """The analysis for people: the summary, the costliest decisions, then each decision."""
    s = summary(a)
    acc = "-" if a.accuracy is None else f"{a.accuracy:.1f} %"
    lines = [
        f"{a.seat}: accuracy {acc}; {s.matches} of {s.decisions} decisions as the analysis "
        f"would play; {s.inaccuracies} inaccuracies (?!), {s.mistakes} mistakes (?), "
        f"{s.blunders} blunders (??); {a.seconds:.1f} s",
    ]
    if a.rounds:
        lines.append(
            "Expected placing after each round: " + ", ".join(f"{x:.2f}" for x in a.rounds)
        )
    if s.costliest:
        lines.append("Costliest:")
        for d in s.costliest:
            lines.append(
                f"  #{d.index} round {d.round}: {d.played} {d.mark or ''} -- best {d.best}, "
                f"loss {d.loss:.1f} ± {d.error:.1f}"
            )
    for deal in a.deal:
        if deal.wizard:
            lines.append(f"Round {deal.round} deal: the wizard")
            continue
        claims = "; ".join(
            f"P{c.pile} @{c.at} {'taken' if c.won else 'lost'} worth {c.worth:.0f}"
            + (f" (P{c.best_pile} open, worth {c.best_worth:.0f})" if c.best_pile != c.pile else "")
            for c in deal.claims
        )
        spoils = "; ".join(
            f"P{x.pile} @{x.at} {x.card or 'nothing'}" + (f" of {x.owner}" if x.owner else "")
            for x in deal.spoils
        )
        lines.append(
            f"Round {deal.round} deal: shields {claims or 'none'}; deserters {spoils or 'none'}"
        )
    lines.append("Decisions:")
    for d in a.decisions:
        best = "" if d.matched else f"  best {d.best} (-{d.loss:.1f} ± {d.error:.1f})"
        lines.append(f"  #{d.index:<3} round {d.round}  {d.played} {d.mark or ''}{best}")
    return "\n".join(lines)
