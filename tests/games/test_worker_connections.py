"""A worker plays move after move on the connections it already has: its database pool is
kept between tasks (Celery would close it after each), and its pushes to the sockets go out
on one event loop with its Redis connections (not a loop, and connections, per push)."""

import pytest
import redis
from django.db import connection

from games import actions
from games.ctg import engine
from games.models import Table
from tests.games.test_ai_seats import table_with_bots
from tests.waiting import wait_for

# alice plays against three bots; the worker plays the bots.


def database_sessions() -> int:
    """Sessions ever opened to this test database, by any process."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT sessions FROM pg_stat_database WHERE datname = current_database()")
        return cursor.fetchone()[0]


def redis_connections(url: str) -> int:
    """Connections Redis has accepted since it started, this one included."""
    return redis.Redis.from_url(url).info("stats")["total_connections_received"]


def play_on(table: Table, moves: int) -> None:
    """Let the game go on for `moves` moves, alice moving whenever it is her turn."""
    target = table.version + moves

    def reached() -> bool:
        table.refresh_from_db()
        assert table.status == Table.RUNNING, "the game ended too soon"
        state = table.state()
        if state.decider == 0:
            actions.play(table.pk, 0, engine.view(state, 0)["legal_texts"][0], table.version)
        return table.version >= target

    assert wait_for(reached, 120), f"the game stopped at version {table.version}"


@pytest.mark.skipif(connection.vendor != "postgresql", reason="counts PostgreSQL's sessions")
def test_it_plays_bot_moves_without_opening_connections(prefork_worker, redis_url, alice):
    table = table_with_bots(alice, ["greedy", "greedy", "greedy"])
    actions.start(table.pk, alice)
    prefork_worker(pool=True)  # as in production
    play_on(table, 5)  # the worker's pools are open by now
    sessions, connections = database_sessions(), redis_connections(redis_url)

    play_on(table, 40)

    # A few at most (this test's own, a pool growing, a reconnection), not one for each move:
    # without keeping them, 40 moves opened about 20 sessions and 34 Redis connections.
    opened = database_sessions() - sessions
    assert opened < 10, f"{opened} database sessions opened in 40 moves"
    opened = redis_connections(redis_url) - connections
    assert opened < 10, f"{opened} Redis connections opened in 40 moves"
