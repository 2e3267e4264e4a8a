"""Placings at a table, points for placing, and a stage's standings with tie-breaks."""

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Literal

from tournaments.pairing.errors import PairingError
from tournaments.pairing.tables import PlayerId

TieBreak = Literal["points", "wins", "relative_score", "opponents_strength", "best_round"]

DEFAULT_ORDER: tuple[TieBreak, ...] = (
    "points",
    "wins",
    "relative_score",
    "opponents_strength",
    "best_round",
)

# Points for 1st, 2nd, … by table size: the same 3 for a win at any table, the loser 0,
# evenly spaced between (4 players 3-2-1-0; 5 players 3-2.25-1.5-0.75-0).
FAIR_POINTS: Mapping[int, tuple[Fraction, ...]] = {
    size: tuple(Fraction(3 * (size - place), size - 1) for place in range(1, size + 1))
    for size in range(2, 8)
}


def placings(
    totals: Mapping[PlayerId, int],
    round_scores: Mapping[PlayerId, Sequence[int]] | None = None,
) -> dict[PlayerId, int]:
    """Places at one table as in RULES §6: total, then best round, second best, …; 1, 1, 3."""
    scores = round_scores or {}

    def key(p: PlayerId) -> tuple[int, list[int]]:
        return totals[p], sorted(scores.get(p, ()), reverse=True)

    return {p: 1 + sum(1 for q in totals if key(q) > key(p)) for p in totals}


def placement_points(
    places: Mapping[PlayerId, int],
    points: Mapping[int, Sequence[Fraction | float]] = FAIR_POINTS,
    others: Sequence[int] = (),
) -> dict[PlayerId, Fraction]:
    """Points for each place; players sharing places share those places' points equally.

    `others`: the places of the table's other seats (AI players), which take their places
    and their share of a tie but no points.
    """
    everyone = [*places.values(), *others]
    size = len(everyone)
    if size not in points:
        raise PairingError("bad-table-size", f"no placing points for a table of {size}")
    scale = [Fraction(v) for v in points[size]]
    result: dict[PlayerId, Fraction] = {}
    for p, place in places.items():
        shared = sum(1 for q in everyone if q == place)
        if place < 1 or place - 1 + shared > size:
            raise PairingError("bad-places", f"place {place} does not fit a table of {size}")
        result[p] = sum(scale[place - 1 : place - 1 + shared], Fraction(0)) / shared
    return result


@dataclass(frozen=True)
class GameResult:
    """One finished game of the stage: totals, places (sport numbering) and round scores."""

    round: int
    scores: Mapping[PlayerId, int]
    places: Mapping[PlayerId, int]
    round_scores: Mapping[PlayerId, Sequence[int]] = field(default_factory=dict)
    # The table's seats outside the event (an AI player in a no-show's seat), as (place,
    # total): the players' places are counted with them, and the table's average score;
    # they stand in no standing and are nobody's opponent there.
    stand_ins: Sequence[tuple[int, int]] = ()
    # Players the event placed last for not playing (absent): they share the last places'
    # points, and are credited no win even when nobody at the table played.
    absent: frozenset[PlayerId] = frozenset()

    @classmethod
    def from_scores(
        cls,
        round: int,
        scores: Mapping[PlayerId, int],
        round_scores: Mapping[PlayerId, Sequence[int]] | None = None,
    ) -> "GameResult":
        return cls(
            round=round,
            scores=dict(scores),
            places=placings(scores, round_scores),
            round_scores=dict(round_scores or {}),
        )


@dataclass(frozen=True)
class StandingRow:
    rank: int  # sport numbering: fully tied players share a rank
    player: PlayerId
    points: float
    wins: int  # games placed first (a shared first counts)
    relative_score: float  # mean of own score ÷ table average score
    opponents_strength: float  # mean stage points of the opponents met, once per meeting
    best_round: int  # highest score in a single round of the stage's games
    games: int
    key: tuple[Fraction, ...] = field(repr=False, compare=False, default=())


def standings(
    results: Iterable[GameResult],
    *,
    players: Iterable[PlayerId] = (),
    points: Mapping[int, Sequence[Fraction | float]] = FAIR_POINTS,
    order: Sequence[TieBreak] = DEFAULT_ORDER,
) -> list[StandingRow]:
    """Rank the stage's players; `players` adds those without a game yet (all zero)."""
    games = list(results)
    earned: dict[PlayerId, Fraction] = {p: Fraction(0) for p in players}
    wins: dict[PlayerId, int] = {p: 0 for p in earned}
    ratios: dict[PlayerId, list[Fraction]] = {p: [] for p in earned}
    best: dict[PlayerId, int] = {p: 0 for p in earned}
    opponents: dict[PlayerId, list[PlayerId]] = {p: [] for p in earned}
    for game in games:
        if set(game.scores) != set(game.places):
            raise PairingError("bad-result", f"round {game.round}: scores and places differ")
        table_points = placement_points(game.places, points, [p for p, _ in game.stand_ins])
        totals = [*game.scores.values(), *(total for _, total in game.stand_ins)]
        average = Fraction(sum(totals), len(totals))
        for p, score in game.scores.items():
            earned[p] = earned.get(p, Fraction(0)) + table_points[p]
            wins[p] = wins.get(p, 0) + (game.places[p] == 1 and p not in game.absent)
            ratios.setdefault(p, []).append(Fraction(score) / average if average else Fraction(1))
            best[p] = max(best.get(p, 0), *game.round_scores.get(p, ()), 0)
            opponents.setdefault(p, []).extend(q for q in game.scores if q != p)

    def mean(values: list[Fraction]) -> Fraction:
        return sum(values, Fraction(0)) / len(values) if values else Fraction(0)

    values: dict[PlayerId, dict[TieBreak, Fraction]] = {
        p: {
            "points": earned[p],
            "wins": Fraction(wins[p]),
            "relative_score": mean(ratios[p]),
            "opponents_strength": mean([earned[q] for q in opponents[p]]),
            "best_round": Fraction(best[p]),
        }
        for p in earned
    }
    keys = {p: tuple(values[p][name] for name in order) for p in earned}
    ranked = sorted(earned, key=lambda p: (tuple(-v for v in keys[p]), p))
    rows: list[StandingRow] = []
    for position, p in enumerate(ranked):
        tied_above = position > 0 and keys[ranked[position - 1]] == keys[p]
        rank = rows[-1].rank if tied_above else position + 1
        v = values[p]
        rows.append(
            StandingRow(
                rank=rank,
                player=p,
                points=float(v["points"]),
                wins=wins[p],
                relative_score=float(v["relative_score"]),
                opponents_strength=float(v["opponents_strength"]),
                best_round=best[p],
                games=len(ratios[p]),
                key=keys[p],
            )
        )
    return rows
