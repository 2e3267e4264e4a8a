"""Tournament algorithms on plain values: seating, brackets, round robins, standings.

No Django here: a thin manager loads players and results from the ORM, calls these
functions and saves what they return. Players are identified by integer ids.
"""

from tournaments.pairing.bracket import (
    Advancement,
    Stage,
    advancing,
    first_stage,
    next_stage,
    seed_tables,
)
from tournaments.pairing.errors import PairingError
from tournaments.pairing.qualify import Mark, qualification_marks
from tournaments.pairing.round_robin import RoundRobinRound, round_robin
from tournaments.pairing.standings import (
    DEFAULT_ORDER,
    FAIR_POINTS,
    GameResult,
    StandingRow,
    TieBreak,
    placement_points,
    placings,
    standings,
)
from tournaments.pairing.swiss import Seeding, seat_first_round, seat_order, seat_swiss_round
from tournaments.pairing.tables import (
    PlayerId,
    SizeRule,
    Table,
    meeting_counts,
    repeat_count,
    snake_deal,
    start_counts,
    table_sizes,
)

__all__ = [
    "DEFAULT_ORDER",
    "FAIR_POINTS",
    "Advancement",
    "GameResult",
    "Mark",
    "PairingError",
    "PlayerId",
    "RoundRobinRound",
    "Seeding",
    "SizeRule",
    "Stage",
    "StandingRow",
    "Table",
    "TieBreak",
    "advancing",
    "first_stage",
    "meeting_counts",
    "next_stage",
    "placement_points",
    "placings",
    "qualification_marks",
    "repeat_count",
    "round_robin",
    "seat_first_round",
    "seat_order",
    "seat_swiss_round",
    "seed_tables",
    "snake_deal",
    "standings",
    "start_counts",
    "table_sizes",
]
