"""League tables from finished games: points schemes and tie-breaks. Pure code, no Django.

A game is a list of seats, each with a player key, a final place (sport style: 1, 1, 3)
and round scores including task bonuses. Players are keyed by any hashable value; the site
uses ``"u<id>"`` for accounts and ``"g<name>"`` for guests.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction

SCHEMES: dict[str, str] = {
    "fair": "3 points spread evenly: 4 players 3-2-1-0, 3 players 3-1.5-0, 2 players 3-0",
    "winner": "Winner takes 1",
    "borda": "Borda: one point for each player finishing behind you",
}
DEFAULT_SCHEME = "fair"

TIE_BREAKS: dict[str, str] = {
    "points": "Points",
    "wins": "Wins",
    "ratio": "Average of own score ÷ table average",
    "h2h": "Head-to-head",
    "best_round": "Best single round",
    "average": "Average score",
    "games": "Fewer games played",
}
DEFAULT_TIE_BREAKS: tuple[str, ...] = ("points", "wins", "ratio", "h2h", "best_round")
FORM_LENGTH = 5


def place_points(scheme: str, players: int) -> list[Fraction]:
    """Points for places 1..players under a scheme, before sharing ties."""
    if scheme == "fair":
        return [Fraction(3 * (players - p), players - 1) for p in range(1, players + 1)]
    if scheme == "winner":
        return [Fraction(1 if p == 1 else 0) for p in range(1, players + 1)]
    if scheme == "borda":
        return [Fraction(players - p) for p in range(1, players + 1)]
    raise ValueError(f"unknown points scheme {scheme!r}")


def game_points(scheme: str, places: Sequence[int]) -> list[Fraction]:
    """Points per seat; tied players share the points of the places they share.

    Two players sharing place 1 of 4 under "fair" each get (3 + 2) / 2 = 2.5.
    """
    table = place_points(scheme, len(places))
    out = []
    for place in places:
        shared = sum(1 for p in places if p == place)
        out.append(sum(table[place - 1 : place - 1 + shared], Fraction(0)) / shared)
    return out


@dataclass(frozen=True)
class Seat:
    player: Hashable
    place: int
    rounds: tuple[int, ...]

    @property
    def total(self) -> int:
        return sum(self.rounds)


@dataclass(frozen=True)
class Game:
    """A finished game; games are passed oldest first."""

    seats: tuple[Seat, ...]


@dataclass
class Row:
    player: Hashable
    position: int = 0
    points: Fraction = Fraction(0)
    games: int = 0
    wins: int = 0
    total_score: int = 0
    ratio_sum: Fraction = Fraction(0)
    best_round: int = 0
    form: list[tuple[int, int]] = field(default_factory=list)  # (place, players), newest first

    @property
    def average(self) -> Fraction:
        return Fraction(self.total_score, self.games) if self.games else Fraction(0)

    @property
    def ratio(self) -> Fraction:
        return self.ratio_sum / self.games if self.games else Fraction(0)


def table(
    games: Sequence[Game],
    participants: Sequence[Hashable] = (),
    scheme: str = DEFAULT_SCHEME,
    tie_breaks: Sequence[str] = DEFAULT_TIE_BREAKS,
) -> list[Row]:
    """The league table, best first. Players equal on every tie-break share a position.

    ``participants`` appear even before their first game. Exact fractions keep shared
    points (1.5, 2.5) from producing false ties or false separations.
    """
    rows: dict[Hashable, Row] = {p: Row(p) for p in participants}
    for game in games:
        points = game_points(scheme, [s.place for s in game.seats])
        mean = Fraction(sum(s.total for s in game.seats), len(game.seats))
        for seat, pts in zip(game.seats, points, strict=True):
            row = rows.setdefault(seat.player, Row(seat.player))
            row.points += pts
            row.games += 1
            row.wins += seat.place == 1
            row.total_score += seat.total
            row.ratio_sum += Fraction(seat.total) / mean if mean else Fraction(1)
            row.best_round = max(row.best_round, *seat.rounds, 0)
            row.form.insert(0, (seat.place, len(game.seats)))
    for row in rows.values():
        del row.form[FORM_LENGTH:]

    criteria = [_criterion(name, games) for name in tie_breaks]
    ordered = _rank(list(rows.values()), criteria)
    out: list[Row] = []
    for group in ordered:
        position = len(out) + 1
        for row in sorted(group, key=lambda r: str(r.player)):
            row.position = position
            out.append(row)
    return out


Criterion = Callable[[list[Row]], dict[Hashable, object]]


def _criterion(name: str, games: Sequence[Game]) -> Criterion:
    simple: dict[str, Callable[[Row], object]] = {
        "points": lambda r: r.points,
        "wins": lambda r: r.wins,
        "ratio": lambda r: r.ratio,
        "best_round": lambda r: r.best_round,
        "average": lambda r: r.average,
        "games": lambda r: -r.games,
    }
    if name in simple:
        key = simple[name]
        return lambda group: {r.player: key(r) for r in group}
    if name == "h2h":
        return lambda group: _head_to_head(group, games)
    raise ValueError(f"unknown tie-break {name!r}")


def _head_to_head(group: list[Row], games: Sequence[Game]) -> dict[Hashable, object]:
    """Mini-table among the tied players only: a point for each tied rival finished ahead of
    in a game where both played, half a point for a shared place."""
    members = {r.player for r in group}
    score: dict[Hashable, Fraction] = {p: Fraction(0) for p in members}
    for game in games:
        seats = [s for s in game.seats if s.player in members]
        for a in seats:
            for b in seats:
                if a is not b:
                    score[a.player] += (
                        1 if a.place < b.place else Fraction(1, 2) if a.place == b.place else 0
                    )
    return dict(score)


def _rank(group: list[Row], criteria: Sequence[Criterion]) -> list[list[Row]]:
    """Split ``group`` into tied groups, best first, applying criteria in order.

    Each criterion is evaluated on the still-tied group only, which is what makes
    head-to-head meaningful after points and wins have split the table.
    """
    if len(group) <= 1 or not criteria:
        return [group]
    keys = criteria[0](group)
    buckets: dict[object, list[Row]] = {}
    for row in group:
        buckets.setdefault(keys[row.player], []).append(row)
    out: list[list[Row]] = []
    for key in sorted(buckets, key=_sort_key, reverse=True):
        out.extend(_rank(buckets[key], criteria[1:]))
    return out


def _sort_key(value: object) -> Fraction:
    assert isinstance(value, int | Fraction)
    return Fraction(value)
