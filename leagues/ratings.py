"""Ratings with openskill's Plackett–Luce model, from final placings. Pure code, no Django.

Every rated game, online or physical, updates its players' (mu, sigma) in chronological
order from the final places (ties share a place, as in 1, 1, 3). Guests without an account
play with a fresh default rating that is not kept.

Displayed rating::

    rating = round(1000 + 100 * (mu - 3 * sigma))

mu - 3 sigma is a cautious estimate of skill (the true skill is above it with about 99.9 %
certainty); a new player (mu 25, sigma 25/3) shows 1000 and rises as games shrink sigma.
A player with fewer than PROVISIONAL_GAMES games is marked provisional.

``rate`` is the model's update written out for one-player teams, which is all this game
has. It does the same arithmetic as ``openskill.models.PlackettLuce().rate(...,
ranks=...)`` (tests compare the two, ties included) at a fraction of the cost, so a full
recompute of 100,000 games takes seconds.
"""

from __future__ import annotations

import math
from collections.abc import Hashable, Iterable, Iterator, Sequence
from dataclasses import dataclass

from openskill.models import PlackettLuce

MU = 25.0
SIGMA = 25.0 / 3.0
BETA = 25.0 / 6.0
KAPPA = 0.0001
TAU = 25.0 / 300.0
PROVISIONAL_GAMES = 10

_BETA2 = BETA * BETA
_TAU2 = TAU * TAU

MODEL = PlackettLuce(mu=MU, sigma=SIGMA, beta=BETA, kappa=KAPPA, tau=TAU)


@dataclass(frozen=True)
class Skill:
    mu: float = MU
    sigma: float = SIGMA
    games: int = 0

    @property
    def display(self) -> int:
        return display(self.mu, self.sigma)

    @property
    def provisional(self) -> bool:
        return self.games < PROVISIONAL_GAMES


def display(mu: float, sigma: float) -> int:
    """The rating shown on the site (see the module docstring and the help page)."""
    return round(1000 + 100 * (mu - 3 * sigma))


def rate(skills: Sequence[Skill], places: Sequence[int]) -> list[Skill]:
    """New skills after one game; ``places`` are final places, lower is better, ties equal."""
    n = len(skills)
    if n < 2 or len(places) != n:
        raise ValueError("a rated game needs two or more players and one place each")
    # Sigma first widens by tau (the model's dynamics term), then the game narrows it.
    sig2 = [s.sigma * s.sigma + _TAU2 for s in skills]
    c = math.sqrt(sum(sig2) + n * _BETA2)
    e = [math.exp(s.mu / c) for s in skills]
    sum_q = [sum(e[i] for i in range(n) if places[i] >= places[q]) for q in range(n)]
    a = [sum(1 for p in places if p == places[q]) for q in range(n)]
    new_mu: list[float] = []
    new_sigma: list[float] = []
    for i in range(n):
        omega = 0.0
        delta = 0.0
        for q in range(n):
            if places[q] <= places[i]:
                p = e[i] / sum_q[q]
                delta += p * (1 - p) / a[q]
                omega += ((1 - p) if q == i else -p) / a[q]
        sigma_i = math.sqrt(sig2[i])
        omega *= sig2[i] / c
        delta *= sig2[i] / (c * c) * (sigma_i / c)
        new_mu.append(skills[i].mu + omega)
        new_sigma.append(sigma_i * math.sqrt(max(1 - delta, KAPPA)))
    # openskill 6.2 also means to give tied players the mean of their mu changes, but it
    # measures each change against the already-updated rating, so the step changes nothing.
    # The library's numbers are the reference, so tied players keep their own updates here.
    return [Skill(new_mu[i], new_sigma[i], skills[i].games + 1) for i in range(n)]


def expected_places(skills: Sequence[Skill]) -> list[int]:
    """Each player's expected place before a game, from openskill's predict_rank."""
    teams = [[MODEL.rating(mu=s.mu, sigma=s.sigma)] for s in skills]
    return [rank for rank, _ in MODEL.predict_rank(teams)]


@dataclass(frozen=True)
class RatedGame:
    """One game to replay: its key, and (player key or None for a guest, place) per seat."""

    key: Hashable
    seats: tuple[tuple[Hashable | None, int], ...]


def replay(
    games: Iterable[RatedGame], start: dict[Hashable, Skill]
) -> Iterator[tuple[RatedGame, list[Skill]]]:
    """Replay games oldest first from ``start`` (updated in place); yields each game's new
    skills per seat. Players missing from ``start`` begin with the default skill."""
    fresh = Skill()
    for game in games:
        before = [start.get(p, fresh) if p is not None else fresh for p, _ in game.seats]
        after = rate(before, [place for _, place in game.seats])
        for (player, _), skill in zip(game.seats, after, strict=True):
            if player is not None:
                start[player] = skill
        yield game, after
