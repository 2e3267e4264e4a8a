"""An AI move that runs out of time is played by the stand-in level of the table's own game.

alice plays the toy game "Call a number" (tests/site/toy_game.py) against a slow AI player.
"""

import pytest
from celery.exceptions import SoftTimeLimitExceeded

from games import actions, tasks
from games.models import Table
from tests.site.toy_game import CallANumber


class SlowThinker(CallANumber):
    """The toy game with a level that always outlasts the task's soft time limit."""

    key = "slowtoy"
    ai_levels = {"slow": ("Slow", "Thinks too long."), "third": ("Third", "Calls 3.")}
    default_ai_level = "slow"
    stand_in_level = "third"

    def ai_move(self, level, table, state, seat, seed):
        if level == "slow":
            raise SoftTimeLimitExceeded()  # what Celery raises in the task at its soft limit
        return {"third": "3"}[level]  # no other game's level plays here


SLOW = SlowThinker()


@pytest.fixture(autouse=True)
def slow_registered(settings):
    settings.GAMES = [*settings.GAMES, "tests.games.test_stand_in.SLOW"]


def test_it_plays_the_tables_own_games_stand_in_past_the_soft_time_limit(alice):
    table = actions.create_table(
        alice, game="slowtoy", seats_count=2, visibility="public", seat_order="host"
    )
    actions.add_ai(table.pk, alice, "slow")
    actions.move_seat(table.pk, alice, 0, 1)  # the AI player calls first
    actions.start(table.pk, alice)
    table.refresh_from_db()

    assert tasks.ai_move.apply(args=(table.pk, table.version)).get() is True
    table.refresh_from_db()
    assert table.record["calls"] == [3]
    assert table.status == Table.RUNNING
