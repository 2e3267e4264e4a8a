"""What the site leaves to chance, fixed for tests: a table's seed (its deal, its AI players'
choices, a random seat order) and a tournament's (its random first round).

Each seed follows from the id of the test that makes it, from where it is made (the test's
process, or a server or worker it started) and from how many that test had made there
before, plus CTG_TEST_SEED (default 0): the same test deals the same cards in any order, on
any xdist worker, on every run. Another CTG_TEST_SEED deals every test afresh, to look for
tests that pass only on lucky deals. A failing test's report lists the seeds it was dealt.

The test's id reaches other processes in CTG_TEST_ID, set while the test runs (a process it
starts inherits it); a live server kept for the whole session is told it (tests/conftest.py).
"""

import hashlib
import os
import random
import types
from collections import Counter

TEST_ID = "CTG_TEST_ID"
SALT = os.environ.get("CTG_TEST_SEED", "0")

# "test" in the pytest process; processes a test starts (servers, workers) deal as "server".
origin = "server"
_made: Counter[tuple[str, str]] = Counter()
# (kind, seed) of everything dealt in this process for the current test, for its report.
dealt: list[tuple[str, int]] = []


def next_seed(kind: str, bits: int) -> int:
    test_id = os.environ.get(TEST_ID, "")
    n = _made[test_id, kind]
    _made[test_id, kind] += 1
    digest = hashlib.sha256(f"{SALT}|{test_id}|{origin}|{kind}|{n}".encode()).digest()
    seed = int.from_bytes(digest[:8]) >> (64 - bits)
    dealt.append((kind, seed))
    return seed


def table_seed() -> int:
    return next_seed("table", 62)  # as games.models.new_seed


class _TournamentChance(random.Random):
    """Stands in for random.SystemRandom where a tournament draws its seed."""

    def __init__(self) -> None:
        super().__init__(next_seed("tournament", 31))


def install() -> None:
    """Deal from the seeds above in this process (once Django's apps are loaded)."""
    import tournaments.actions
    from games.models import Table

    field = Table._meta.get_field("seed")
    field.default = table_seed
    field.__dict__.pop("_get_default", None)  # Django caches the default's callable
    chance = types.ModuleType("random")
    chance.__dict__.update(vars(random))
    chance.SystemRandom = _TournamentChance  # type: ignore[attr-defined]
    tournaments.actions.random = chance  # type: ignore[attr-defined]
