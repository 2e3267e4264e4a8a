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
    """An entry the rules refuse; `round` is from 1 (None for the players).

    `code` names the check for programs that word it themselves (``players``, ``no-rounds``,
    ``ended``, ``wizard``, ``rotation``, ``champion``, ``battles``, ``winner``, ``twice``,
    ``unfinished``); `params` holds its numbers and names (``battle``, ``target``, ``wizard``,
    ``ended_after``).
    """

    def __init__(self, round: int | None, reason: str, code: str = "", **params: int | str) -> None:
        super().__init__(reason if round is None else f"round {round}: {reason}")
        self.round = round
        self.reason = reason
        self.code = code
        self.params = params


@dataclass(frozen=True, slots=True)
class PadRound:
    """One round as entered: names; `battles` holds the winners of battles 1-4 (may be empty)."""

    wizard: str
    champion: str
    battles: tuple[tuple[str, ...], ...]


def score_pad(
    players: Sequence[str], rounds: Sequence[PadRound], *, finished: bool = True
) -> dict[str, Any]:
    """Check a finished game's pad and compute it, in the shape of the §8 result.

    Raises PadError naming the round and the reason. With `finished` False the pad may stop
    before anyone reached the target (a pad being entered): the result is then
    ``"unfinished": true`` without placings until the target is reached.
    """
    try:
        check_names(players)
    except ValueError as e:
        raise PadError(None, str(e), "players") from None
    n = len(players)
    seat = {name: s for s, name in enumerate(players)}
    target = TARGET[n]
    totals = [0] * n
    history: list[RoundResult] = []
    if not rounds and finished:
        raise PadError(None, "§5: a game has at least one round", "no-rounds")
    for r, entry in enumerate(rounds, 1):
        if history and max(totals) >= target:
            raise PadError(
                r,
                f"§5: the game ended after round {r - 1}, when {target} was reached",
                "ended",
                ended_after=r - 1,
                target=target,
            )
        if entry.wizard not in seat:
            raise PadError(r, f"§7: the wizard {entry.wizard!r} is not a player", "wizard")
        w = seat[entry.wizard]
        if history and w != (history[-1].wizard + 1) % n:
            left = players[(history[-1].wizard + 1) % n]
            raise PadError(
                r,
                f"§2: the wizard passes to the left; this round's is {left}",
                "rotation",
                wizard=left,
            )
        if entry.champion not in seat or entry.champion == entry.wizard:
            raise PadError(r, "§3.7: the champion is another player than the wizard", "champion")
        champion = seat[entry.champion]
        if len(entry.battles) != 4:
            raise PadError(r, "§4: a round has four battles", "battles")
        scores = [0] * n
        battles: list[Battle] = []
        for b, names in enumerate(entry.battles):
            if any(name not in seat or name == entry.wizard for name in names):
                raise PadError(
                    r,
                    f"§4: battle {b + 1} has winners only among the wizard's rivals",
                    "winner",
                    battle=b + 1,
                )
            if len(set(names)) != len(names):
                raise PadError(
                    r, f"§4.7: battle {b + 1} names a winner twice", "twice", battle=b + 1
                )
            winners = sorted(seat[name] for name in names)
            points = BATTLE_POINTS[b]
            for s in winners:
                scores[s] += points
                if s == champion:
                    scores[w] += points
            battles.append(Battle(-1, {}, winners, points))
        totals = [t + p for t, p in zip(totals, scores, strict=True)]
        history.append(RoundResult(w, champion, battles, scores))
    over = bool(history) and max(totals) >= target
    if finished and not over:
        raise PadError(
            len(rounds),
            f"§5: nobody has reached {target} points; the game goes on",
            "unfinished",
            target=target,
        )
    out: dict[str, Any] = {
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
    }
    if over:
        places = placings(history, totals)
        out["placings"] = {players[s]: places[s] for s in range(n)}
    else:
        out["unfinished"] = True
    return out
