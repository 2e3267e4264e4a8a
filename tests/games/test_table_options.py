"""A table keeps its game's options as the game's own JSON; the game checks and shows them.

alice hosts tables.
"""

import pytest
from django.db import IntegrityError, transaction

from games import actions
from games.ctg.game import CALL_TO_GLORY
from games.forms import TableForm
from games.models import Table
from tests.games.conftest import open_table


def test_it_offers_call_to_glorys_options_right_after_the_players(alice):
    form = TableForm(user=alice)
    assert list(form.fields) == [
        "seats_count",
        "mode",
        "imperial_tasks",
        "ninja",
        "visibility",
        "club",
        "seat_order",
        "clock",
        "clock_seconds",
        "timeout_policy",
        "rated",
    ]
    assert [c[0] for c in form.fields["seats_count"].choices] == [2, 3, 4]
    assert form.fields["seats_count"].initial == 4


@pytest.mark.parametrize(
    "options",
    [
        {"rounds": 4, "imperial_tasks": True},
        {"rounds": 3},
        {"rounds": 2},
        {"ninja": "yes"},
        {"dragons": True},
    ],
)
def test_it_refuses_options_call_to_glory_does_not_have(alice, options):
    with pytest.raises(ValueError):
        actions.create_table(alice, options=options, seats_count=2, visibility="public")
    assert not Table.objects.exists()


def test_it_fills_in_defaults_and_deals_a_new_table_its_own_task_cards(alice):
    table = open_table(alice, rounds=3, imperial_tasks=True)
    assert table.options == {"rounds": 3, "imperial_tasks": True, "ninja": False}
    dealt = {**table.options, "task_distribution": {"A": [6, 7, 8, 9]}}
    assert CALL_TO_GLORY.clean_options(dealt) == table.options


@pytest.mark.parametrize(("game", "seats"), [("ctg", 1), ("ctg", 5), ("orc", 3), ("orc", 8)])
def test_it_opens_a_table_only_with_seats_its_game_has(alice, game, seats):
    with pytest.raises(ValueError):
        actions.create_table(alice, game=game, seats_count=seats, visibility="public")
    assert not Table.objects.exists()


def test_the_database_refuses_more_seats_than_any_game_has(alice):
    # A game's own seats and options are its own to check, where tables are opened; the
    # database keeps every table to what any hosted game could have.
    table = open_table(alice)
    table.seats_count = 9
    with pytest.raises(IntegrityError), transaction.atomic():
        table.save()


def test_it_shows_a_tables_options_in_the_lobby(client, alice):
    open_table(alice, rounds=3, imperial_tasks=True, ninja=True)
    open_table(alice, rounds=1)
    page = client.get("/play/").content.decode()
    assert "Imperial Tasks · Power of the Ninja" in page
    assert "quick game" in page
