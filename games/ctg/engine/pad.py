"""Rule-aware checks for the score pad of a game played at the table (RULES.md §5, §6, §7).

Pure code: no Django. A score pad only sees each player's round score, never the cards, so
the checks ask whether the entered numbers *could* have come from a legal round:

* A round score is the sum of the values of the types in front of a player, each type
  counted once, so it must be a sum of DISTINCT type values (6, 7, 8, 9, 12, 14, 16, 18, 20).
* Each type lies before at most one player, so the players' sets must be disjoint. A score
  often has several decompositions (20 = 20 = 6 + 14 = 8 + 12), so feasibility is a search:
  enumerate each score's decompositions and look for a pairwise-disjoint choice, one per
  player. There are at most 512 subsets of the nine types, so this is small and exact.
* The round ends at the end of the turn in which a player reaches 6 / 5 / 4 types (2 / 3 / 4
  players) and only the player on turn lays a set, so nobody holds more than that many
  types and at most one player holds exactly that many.
* All nine types together are worth 110, the most a round can hold.
* An Imperial Tasks bonus is the revealed cards' points times the size of a set: at least
  2 cards, or with the Power of the Ninja 1, since a miniature removes cards from a set
  laid (§8) and the reveal pays the set as it lies at the end of the round (§7).

Errors name the round, the players and scores involved, and why; they carry a code and
parameters so the site can translate them, and an English ``message`` for everything else.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from functools import cache, lru_cache
from itertools import combinations

from .cards import N_CARDS, TASK_BONUS, TYPES_TO_END, VALUES
from .state import RoundResult
from .state import placings as engine_placings

TYPE_VALUES: tuple[int, ...] = VALUES
ROUND_MAX = N_CARDS  # every card of every type: a type's value is its number of copies
# The most cards of one type there are.
MAX_SET_SIZE = max(TYPE_VALUES)


def max_types(players: int) -> int:
    """How many different types one player can hold at the end of a round."""
    return TYPES_TO_END[players]


def rounds_for(length: str, imperial_tasks: bool) -> int:
    """Rounds in a game: standard 4, quick 1, Imperial Tasks 3 (RULES.md §2)."""
    if imperial_tasks:
        return 3
    return 1 if length == "quick" else 4


@lru_cache(maxsize=1)
def _decompositions_table() -> dict[int, tuple[int, ...]]:
    table: dict[int, list[int]] = {}
    for mask in range(1 << len(TYPE_VALUES)):
        total = sum(v for i, v in enumerate(TYPE_VALUES) if mask >> i & 1)
        table.setdefault(total, []).append(mask)
    return {total: tuple(masks) for total, masks in table.items()}


def decompositions(score: int) -> tuple[int, ...]:
    """Every set of distinct types summing to ``score``, as bit masks over TYPE_VALUES."""
    return _decompositions_table().get(score, ())


def mask_types(mask: int) -> tuple[int, ...]:
    return tuple(v for i, v in enumerate(TYPE_VALUES) if mask >> i & 1)


def _feasible(options: Sequence[Sequence[int]], limit: int) -> bool:
    """Is there one mask per player, pairwise disjoint, with at most one player at the limit?"""
    # Fewest options first keeps the search tiny.
    order = sorted(range(len(options)), key=lambda i: len(options[i]))

    def search(k: int, used: int, at_limit: bool) -> bool:
        if k == len(order):
            return True
        for mask in options[order[k]]:
            if mask & used:
                continue
            full = mask.bit_count() == limit
            if full and at_limit:
                continue
            if search(k + 1, used | mask, at_limit or full):
                return True
        return False

    return search(0, 0, False)


@dataclass(frozen=True)
class RoundProblem:
    """Why one round's scores cannot be right. ``players`` are indexes into the round."""

    code: str
    round: int
    players: tuple[int, ...]
    scores: tuple[int, ...]
    params: dict[str, int] = field(default_factory=dict)

    def message(self, names: Sequence[str]) -> str:
        who = _join([f"{names[p]}'s {s}" for p, s in zip(self.players, self.scores, strict=True)])
        head = f"Round {self.round}: {who}"
        match self.code:
            case "negative":
                return f"{head} cannot be right: a score is never negative."
            case "not-a-sum":
                return (
                    f"{head} cannot be right: it is not a sum of different card values "
                    "(6, 7, 8, 9, 12, 14, 16, 18, 20)."
                )
            case "too-many-types":
                return (
                    f"{head} cannot be right: it needs more than {self.params['limit']} "
                    f"types, the most one player can hold with {self.params['players']} players."
                )
            case "over-110":
                return (
                    f"{head} cannot all be right: together they make "
                    f"{self.params['total']}, and a round holds at most {ROUND_MAX}."
                )
            case "not-disjoint":
                return (
                    f"{head} cannot all be right: each type lies before at most one player, "
                    "and no choice of different types for each player gives these scores."
                )
            case "bonus":
                least = (
                    "at least 2 cards"
                    if self.params.get("smallest_set", 2) == 2
                    else "at least 1 card (a Ninja miniature may leave one)"
                )
                return (
                    f"Round {self.round}: {names[self.players[0]]}'s task bonus "
                    f"{self.params['bonus']} cannot be right: it must be made of task cards "
                    f"worth 5, 4 or 3 points per card, times a set of {least}, one card "
                    "revealed per player."
                )
            case "bonus-without-types":
                return (
                    f"Round {self.round}: {names[self.players[0]]} scored nothing from sets, "
                    "so a task bonus is impossible."
                )
        return f"{head} cannot be right."


def _join(parts: Sequence[str]) -> str:
    if len(parts) <= 1:
        return "".join(parts)
    return ", ".join(parts[:-1]) + " and " + parts[-1]


@cache
def possible_bonuses(
    reveals: int, points: tuple[int, ...] = TASK_BONUS, smallest_set: int = 2
) -> frozenset[int]:
    """Every task bonus one player can get in a round with ``reveals`` task cards revealed.

    Each revealed card naming a type the player holds pays its deck's points per card times
    the size of his set of that type as it lies at the end of the round: at least
    ``smallest_set`` cards (2, a set's smallest lay; 1 with the Power of the Ninja, whose
    miniatures remove cards from sets laid), at most the copies of a type. Each player
    reveals one card per round, so a round has as many reveals as players, and a player
    may be paid by none, some or all of them.
    """
    single = {p * k for p in points for k in range(smallest_set, MAX_SET_SIZE + 1)}
    sums = {0}
    for _ in range(reveals):
        sums |= {s + b for s in sums for b in single}
    return frozenset(sums)


def check_round(
    round_no: int,
    scores: Sequence[int],
    bonuses: Sequence[int] | None = None,
    task_points: Iterable[int] = TASK_BONUS,
    *,
    ninja: bool = False,
) -> list[RoundProblem]:
    """The problems with one round's set scores (and task bonuses); empty when it can be right.

    ``scores`` are the points from sets, one per player in seat order, without task bonuses;
    ``bonuses`` the Imperial Tasks bonuses entered separately, or None without the variant;
    ``ninja`` whether the Power of the Ninja was played too (a set may be down to one card).
    Per-player problems come first; the joint check runs only when each score is possible
    on its own, and names the smallest group of players whose scores clash.
    """
    players = len(scores)
    limit = max_types(players)
    problems: list[RoundProblem] = []
    options: list[tuple[int, ...]] = []
    for i, score in enumerate(scores):
        if score < 0:
            problems.append(RoundProblem("negative", round_no, (i,), (score,)))
            options.append(())
            continue
        masks = decompositions(score)
        if not masks:
            problems.append(RoundProblem("not-a-sum", round_no, (i,), (score,)))
        fitting = tuple(m for m in masks if m.bit_count() <= limit)
        if masks and not fitting:
            problems.append(
                RoundProblem(
                    "too-many-types",
                    round_no,
                    (i,),
                    (score,),
                    {"limit": limit, "players": players},
                )
            )
        options.append(fitting)
    if bonuses is not None:
        smallest_set = 1 if ninja else 2
        allowed = possible_bonuses(
            players, tuple(sorted(set(task_points), reverse=True)), smallest_set
        )
        for i, bonus in enumerate(bonuses):
            if bonus and scores[i] == 0:
                problems.append(
                    RoundProblem("bonus-without-types", round_no, (i,), (bonus,), {"bonus": bonus})
                )
            elif bonus not in allowed:
                problems.append(
                    RoundProblem(
                        "bonus",
                        round_no,
                        (i,),
                        (bonus,),
                        {"bonus": bonus, "smallest_set": smallest_set},
                    )
                )
    if problems:
        return problems
    total = sum(scores)
    if total > ROUND_MAX:
        return [
            RoundProblem(
                "over-110",
                round_no,
                tuple(range(players)),
                tuple(scores),
                {"total": total},
            )
        ]
    if _feasible(options, limit):
        return []
    for size in range(2, players + 1):
        for group in combinations(range(players), size):
            if not _feasible([options[i] for i in group], limit):
                return [
                    RoundProblem("not-disjoint", round_no, group, tuple(scores[i] for i in group))
                ]
    raise AssertionError("an infeasible round has an infeasible group")  # pragma: no cover


def placings(round_scores: Sequence[Sequence[int]]) -> list[int]:
    """Final places per player (RULES.md §6), sport style (1, 1, 3), as the engine places them.

    ``round_scores[p]`` are player p's round scores including task bonuses.
    """
    players = len(round_scores)
    rounds = len(round_scores[0]) if players else 0
    history = [
        RoundResult(
            start=0,
            ended_by="",
            scores=tuple(round_scores[p][r] for p in range(players)),
            bonus=tuple(0 for _ in range(players)),
        )
        for r in range(rounds)
    ]
    return engine_placings(history, [sum(rs) for rs in round_scores])
