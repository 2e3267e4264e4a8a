import pytest

from games import actions
from games.models import Seat, Table
from tests.games.conftest import open_table
from tests.waiting import wait_for

# alice and bob play a live game with a one-second clock; a real Celery worker on Redis
# watches the clock.


def live_table(alice, bob, policy):
    table = open_table(alice, clock=Table.LIVE, clock_seconds=1, timeout_policy=policy)
    actions.take_seat(table.pk, bob)
    actions.start(table.pk, alice)
    table.refresh_from_db()
    return table


def test_it_moves_for_an_absent_player_when_his_time_runs_out(celery_worker, alice, bob):
    table = live_table(alice, bob, Table.AI_MOVES)

    assert wait_for(lambda: Table.objects.get(pk=table.pk).version > table.version)
    table.refresh_from_db()
    assert table.record["rounds"][0]["actions"][0].startswith("alice: ")
    assert not Seat.objects.get(table=table, user=alice).forfeited


def test_it_forfeits_an_absent_player_under_the_forfeit_policy(celery_worker, alice, bob):
    table = live_table(alice, bob, Table.FORFEIT)

    assert wait_for(lambda: Seat.objects.get(table=table, user=alice).forfeited)
    assert wait_for(lambda: Table.objects.get(pk=table.pk).version > table.version)


@pytest.mark.django_db(transaction=True)
def test_it_handles_a_timeout_once_however_often_it_runs(alice, bob):
    table = live_table(alice, bob, Table.AI_MOVES)
    Table.objects.filter(pk=table.pk).update(deadline=table.started)

    assert actions.time_out(table.pk, table.version)
    assert not actions.time_out(table.pk, table.version)
    table.refresh_from_db()
    assert table.record["rounds"][0]["actions"][0].startswith("alice: ")


@pytest.mark.django_db(transaction=True)
def test_it_does_not_act_before_the_deadline(alice, bob):
    table = open_table(alice, clock=Table.CORRESPONDENCE, clock_seconds=86400)
    actions.take_seat(table.pk, bob)
    actions.start(table.pk, alice)
    table.refresh_from_db()

    assert not actions.time_out(table.pk, table.version)


@pytest.mark.django_db(transaction=True)
def test_it_closes_a_game_when_every_human_has_left(alice, bob):
    table = open_table(alice)
    actions.take_seat(table.pk, bob)
    actions.start(table.pk, alice)

    actions.leave_game(table.pk, alice)
    assert Table.objects.get(pk=table.pk).status == Table.RUNNING
    actions.leave_game(table.pk, bob)

    assert Table.objects.get(pk=table.pk).status == Table.CLOSED


@pytest.mark.django_db(transaction=True)
def test_it_closes_a_game_when_the_last_human_forfeits(alice, bob):
    table = live_table(alice, bob, Table.FORFEIT)
    actions.leave_game(table.pk, bob)
    Table.objects.filter(pk=table.pk).update(deadline=table.started)

    assert actions.time_out(table.pk, table.version)
    table.refresh_from_db()
    assert table.status == Table.CLOSED
    assert Seat.objects.get(table=table, user=alice).forfeited
