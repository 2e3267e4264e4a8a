import pytest

from games import actions


def open_table(host, **options):
    defaults = {
        "seats_count": 2,
        "rounds": 1,
        "visibility": "public",
        "seat_order": "host",
    }
    return actions.create_table(host, **(defaults | options))


@pytest.fixture
def running_table(alice, bob):
    """alice (seat 0) and bob (seat 1) at a 2-player quick game."""
    table = open_table(alice)
    actions.take_seat(table.pk, bob)
    actions.start(table.pk, alice)
    table.refresh_from_db()
    return table


@pytest.fixture(autouse=True)
def _no_dealer_left():
    """A test's De l'Orc dealers and watcher end with it (its database goes away)."""
    yield
    from games.orc import dealer

    dealer.stop_watching()
