"""§7: the score pad of a game played at the table.

A club enters, per round, the wizard, his champion and the winners of each of the four
battles; the pad checks the entries against the rules and computes the points.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from .cards import BATTLE_POINTS, TARGET
from .state import Battle, RoundResult, check_names, placings


class PadError(ValueError):
    """An entry the rules refuse; `round` is from 1 (None for the players)."""

    def __init__(self, round: int | None, reason: str) -> None:
        super().__init__(reason if round is None else f"round {round}: {reason}")
        self.round = round
        self.reason = reason


@dataclass(frozen=True, slots=True)
class PadRound:
    """One round as entered: names; `battles` holds the winners of battles 1-4 (may be empty)."""

    wizard: str
    champion: str
    battles: tuple[tuple[str, ...], ...]


def score_pad(players: Sequence[str], rounds: Sequence[PadRound]) -> dict[str, Any]:
    """Check a finished game's pad and compute it, in the shape of the §8 result.

    Raises PadError naming the round and the reason.
    """
    try:
        check_names(players)
    except ValueError as e:
        raise PadError(None, str(e)) from None
    n = len(players)
    seat = {name: s for s, name in enumerate(players)}
    target = TARGET[n]
    totals = [0] * n
    history: list[RoundResult] = []
    if not rounds:
        raise PadError(None, "§5: a game has at least one round")
    for r, entry in enumerate(rounds, 1):
        if history and max(totals) >= target:
            raise PadError(r, f"§5: the game ended after round {r - 1}, when {target} was reached")
        if entry.wizard not in seat:
            raise PadError(r, f"§7: the wizard {entry.wizard!r} is not a player")
        w = seat[entry.wizard]
        if history and w != (history[-1].wizard + 1) % n:
            left = players[(history[-1].wizard + 1) % n]
            raise PadError(r, f"§2: the wizard passes to the left; this round's is {left}")
        if entry.champion not in seat or entry.champion == entry.wizard:
            raise PadError(r, "§3.7: the champion is another player than the wizard")
        champion = seat[entry.champion]
        if len(entry.battles) != 4:
            raise PadError(r, "§4: a round has four battles")
        scores = [0] * n
        battles: list[Battle] = []
        for b, names in enumerate(entry.battles):
            if any(name not in seat or name == entry.wizard for name in names):
                raise PadError(r, f"§4: battle {b + 1} has winners only among the wizard's rivals")
            if len(set(names)) != len(names):
                raise PadError(r, f"§4.7: battle {b + 1} names a winner twice")
            winners = sorted(seat[name] for name in names)
            points = BATTLE_POINTS[b]
            for s in winners:
                scores[s] += points
                if s == champion:
                    scores[w] += points
            battles.append(Battle(-1, {}, winners, points))
        totals = [t + p for t, p in zip(totals, scores, strict=True)]
        history.append(RoundResult(w, champion, battles, scores))
    if max(totals) < target:
        raise PadError(len(rounds), f"§5: nobody has reached {target} points; the game goes on")
    places = placings(history, totals)
    return {
        "rounds": [
            {
                "wizard": players[h.wizard],
                "champion": players[h.champion],
                "battles": [
                    {"winners": [players[s] for s in b.winners], "points": b.points}
                    for b in h.battles
                ],
                "scores": {players[s]: h.scores[s] for s in range(n)},
            }
            for h in history
        ],
        "totals": {players[s]: totals[s] for s in range(n)},
        "placings": {players[s]: places[s] for s in range(n)},
    }
