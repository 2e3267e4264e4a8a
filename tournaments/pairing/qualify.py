"""Can-still-qualify marks for a cut to the top N."""

from collections.abc import Mapping
from typing import Literal

from tournaments.pairing.errors import PairingError
from tournaments.pairing.tables import PlayerId

Mark = Literal["qualified", "eliminated", "open"]


def qualification_marks(
    points: Mapping[PlayerId, float],
    *,
    cut: int,
    rounds_left: int,
    max_per_round: float,
    min_per_round: float = 0.0,
) -> dict[PlayerId, Mark]:
    """Mark each player for a cut to the top `cut` on points.

    "qualified": even scoring the minimum every remaining round while everyone else scores the
    maximum, fewer than `cut` others can finish level or above. "eliminated": even scoring the
    maximum while everyone else scores the minimum, at least `cut` others stay strictly above.
    A tie on points counts against the player for "qualified" and for him for "eliminated",
    since tie-breaks may still go either way. The bounds ignore that not everyone at a table
    can win it, so a mark is never wrong but may come a round later than strictly possible.
    """
    if cut < 1 or rounds_left < 0 or max_per_round < min_per_round:
        raise PairingError("bad-cut", "cut, rounds left and points per round must be sensible")
    high = rounds_left * max_per_round
    low = rounds_left * min_per_round
    marks: dict[PlayerId, Mark] = {}
    for p, own in points.items():
        threats = sum(1 for q, other in points.items() if q != p and other + high >= own + low)
        ahead = sum(1 for q, other in points.items() if q != p and other + low > own + high)
        if threats < cut:
            marks[p] = "qualified"
        elif ahead >= cut:
            marks[p] = "eliminated"
        else:
            marks[p] = "open"
    return marks
