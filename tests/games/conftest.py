import pytest

from games import actions

# Call to Glory's own options (Table.options); the rest are the site's table settings.
GAME_OPTIONS = ("rounds", "imperial_tasks", "ninja")


def open_table(host, **settings):
    options = {"rounds": 1} | {k: settings.pop(k) for k in GAME_OPTIONS if k in settings}
    defaults = {"seats_count": 2, "visibility": "public", "seat_order": "host"}
    return actions.create_table(host, options=options, **(defaults | settings))


@pytest.fixture
def running_table(alice, bob):
    """alice (seat 0) and bob (seat 1) at a 2-player quick game."""
    table = open_table(alice)
    actions.take_seat(table.pk, bob)
    actions.start(table.pk, alice)
    table.refresh_from_db()
    return table
