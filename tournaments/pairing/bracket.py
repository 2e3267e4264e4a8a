"""Elimination brackets of tables: the top k of each table advance to snake-seeded tables."""

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from tournaments.pairing.errors import PairingError
from tournaments.pairing.swiss import seat_order
from tournaments.pairing.tables import (
    PlayerId,
    SizeRule,
    Table,
    check_unique,
    snake_deal,
    table_sizes,
)


@dataclass(frozen=True)
class Advancement:
    """One player who went through: from which table of the previous stage, at which place."""

    player: PlayerId
    from_table: int  # index into the previous stage's tables
    place: int  # place at that table, sport numbering (1, 1, 3)
    seed: int  # seed in the next stage, 1 = best


@dataclass(frozen=True)
class Stage:
    """The tables of one stage and, after the first, who came from where (for a drawn bracket)."""

    tables: list[Table]
    advanced: list[Advancement] = field(default_factory=list)


def seed_tables(
    seeds: Sequence[PlayerId], *, rule: SizeRule, max_size: int | None = None
) -> list[Table]:
    """Snake-seed players (best first) into tables the game allows, of at most `max_size`.

    Smaller tables come first, so the top seeds get the tables with fewer opponents. At each
    table the lowest seed sits first and starts.
    """
    check_unique(seeds)
    sizes = sorted(table_sizes(len(seeds), max_size=max_size, rule=rule))
    rank = {p: i for i, p in enumerate(seeds)}
    return [seat_order(table, rank, {}) for table in snake_deal(seeds, sizes)]


def first_stage(seeds: Sequence[PlayerId], *, rule: SizeRule, max_size: int | None = None) -> Stage:
    """The opening stage of a bracket (for instance the cut of a Swiss standing)."""
    return Stage(tables=seed_tables(seeds, max_size=max_size, rule=rule))


def advancing(
    tables: Sequence[Sequence[PlayerId]], places: Mapping[PlayerId, int], *, advance: int
) -> list[Advancement]:
    """The top `advance` of each table, best seeds first: all winners, then all seconds, ….

    Within a place the player from the earlier table comes first (that table held the better
    seeds). A tie across the cut cannot be settled here and raises `tie-at-cut`.
    """
    if advance < 1:
        raise PairingError("bad-advance", "at least one player per table must advance")
    through: list[tuple[int, int, PlayerId]] = []
    for index, table in enumerate(tables):
        if advance >= len(table):
            raise PairingError(
                "bad-advance",
                f"table {index + 1} has {len(table)} players; {advance} cannot advance",
            )
        missing = [p for p in table if p not in places]
        if missing:
            raise PairingError("missing-result", f"no place for players {sorted(missing)}")
        ordered = sorted(table, key=lambda p: places[p])
        inside = ordered[:advance]
        if places[ordered[advance]] == places[inside[-1]]:
            tied = sorted(p for p in table if places[p] == places[inside[-1]])
            raise PairingError(
                "tie-at-cut", f"table {index + 1}: players {tied} are tied across the cut"
            )
        through.extend((places[p], index, p) for p in inside)
    through.sort()
    return [
        Advancement(player=p, from_table=index, place=place, seed=seed)
        for seed, (place, index, p) in enumerate(through, start=1)
    ]


def next_stage(
    stage: Stage,
    places: Mapping[PlayerId, int],
    *,
    advance: int,
    rule: SizeRule,
    max_size: int | None = None,
) -> Stage:
    """Build the next stage from the places at `stage`'s tables."""
    if len(stage.tables) < 2:
        raise PairingError("bracket-finished", "a single table is the final")
    through = advancing(stage.tables, places, advance=advance)
    seeds = [a.player for a in through]
    return Stage(tables=seed_tables(seeds, max_size=max_size, rule=rule), advanced=through)
