"""A table an event opened (a tournament's) is run by the event alone: no seated player,
host or not, seats, starts, ends or calls it off.

alice sits first (where a host would), bob second; EVENT is the event that holds the table.
"""

import pytest

from games import actions
from games.actions import EVENT
from games.models import Table
from leagues.models import PlayedGame
from tests.games.conftest import open_table

pytestmark = pytest.mark.django_db


def event_table(alice, bob) -> Table:
    table = open_table(alice, managed=True)
    actions.take_seat(table.pk, bob, by=EVENT)
    return table


@pytest.mark.parametrize(
    "request_",
    [
        lambda t, alice, bob: actions.take_seat(t.pk, bob),
        lambda t, alice, bob: actions.leave_seat(t.pk, alice, 1),
        lambda t, alice, bob: actions.leave_seat(t.pk, bob),
        lambda t, alice, bob: actions.add_ai(t.pk, alice),
        lambda t, alice, bob: actions.move_seat(t.pk, alice, 0, 1),
        lambda t, alice, bob: actions.make_host(t.pk, bob),
        lambda t, alice, bob: actions.start(t.pk, alice),
        lambda t, alice, bob: actions.cancel(t.pk, alice),
        lambda t, alice, bob: actions.call_off(t.pk, alice),
    ],
)
def test_no_player_runs_an_event_s_table(alice, bob, request_):
    table = event_table(alice, bob)
    with pytest.raises(actions.Refused) as refused:
        request_(table, alice, bob)
    assert refused.value.status == 403 and refused.value.code == "event-table"


def test_an_event_cannot_run_a_player_s_table(alice, bob):
    table = open_table(alice)
    actions.take_seat(table.pk, bob)
    for request in (
        lambda: actions.start(table.pk, EVENT),
        lambda: actions.leave_seat(table.pk, EVENT, 1),
        lambda: actions.call_off(table.pk, EVENT),
    ):
        with pytest.raises(actions.Refused):
            request()
    assert Table.objects.get(pk=table.pk).status == Table.OPEN


def test_the_event_ends_a_running_game_with_its_scores_so_far(alice, bob):
    table = event_table(alice, bob)
    actions.start(table.pk, EVENT)

    actions.adjudicate(table.pk, EVENT, forfeits=[0])

    table.refresh_from_db()
    assert table.status == Table.CLOSED and table.result is None
    played = PlayedGame.objects.get(table=table)
    places = dict(played.seats.values_list("user__username", "place"))
    assert places == {"alice": 2, "bob": 1}  # nothing scored yet: alice forfeited
    with pytest.raises(actions.Refused):
        actions.adjudicate(table.pk, EVENT)


def test_the_event_hands_a_seat_to_the_ai_and_calls_a_game_off(alice, bob):
    table = event_table(alice, bob)
    actions.start(table.pk, EVENT)

    actions.hand_to_ai(table.pk, EVENT, 1)
    with pytest.raises(actions.Refused) as refused:
        actions.hand_to_ai(table.pk, EVENT, 1)
    assert refused.value.code == "ai-already"
    assert table.seats.get(position=1).left

    actions.call_off(table.pk, EVENT)
    table.refresh_from_db()
    assert table.status == Table.CLOSED and not PlayedGame.objects.filter(table=table).exists()
