"""An AI move whose task was lost (the process restarted) is set going again by a sweep."""

import time
from datetime import timedelta

import pytest
from django.utils import timezone

from games import actions, tasks
from games.ctg import engine
from games.ctg.engine.record import logged_actions
from games.models import Table
from infra import claims
from infra.background import run_schedule_once
from tests.games.test_ai_seats import table_with_bots
from tests.waiting import wait_for

pytestmark = pytest.mark.django_db(transaction=True)


def lost_ai_move(alice, minutes_ago=5) -> Table:
    """alice has moved and it is the AI's turn, but the process died before its task ran."""
    table = table_with_bots(alice, ["greedy"], seats=2)
    actions.start(table.pk, alice)
    table.refresh_from_db()
    state = table.state()
    while state.decider == 0:
        state.apply(state.legal_actions()[0], 0)
    Table.objects.filter(pk=table.pk).update(
        record=engine.to_record(state),
        version=len(logged_actions(state)),
        updated=timezone.now() - timedelta(minutes=minutes_ago),
    )
    table.refresh_from_db()
    assert table.waits_for_ai()
    return table


def test_the_sweep_sets_a_lost_ai_move_going_again(alice):
    table = lost_ai_move(alice)

    assert tasks.sweep_ai_moves() == 1
    assert wait_for(lambda: not Table.objects.get(pk=table.pk).waits_for_ai())
    assert Table.objects.get(pk=table.pk).version > table.version


def test_the_sweep_leaves_alone_tables_that_wait_for_a_person_or_just_moved(alice, bob):
    just_now = lost_ai_move(alice, minutes_ago=0)
    waiting_for_bob = actions.create_table(
        bob, seats_count=2, options={"rounds": 1}, visibility="public", seat_order="host"
    )
    actions.add_ai(waiting_for_bob.pk, bob, "greedy")
    actions.start(waiting_for_bob.pk, bob)
    Table.objects.filter(pk=waiting_for_bob.pk).update(
        updated=timezone.now() - timedelta(minutes=5)
    )

    assert tasks.sweep_ai_moves() == 0
    assert Table.objects.get(pk=just_now.pk).version == just_now.version


def test_without_a_broker_the_site_runs_the_sweeps_itself(alice):
    table = lost_ai_move(alice)

    run_schedule_once()  # what the web process does every minute when no beat runs
    assert wait_for(lambda: Table.objects.get(pk=table.pk).version > table.version)


def test_the_sweep_leaves_alone_a_move_queued_or_played_and_takes_up_one_left_by_its_player(
    alice, monkeypatch
):
    monkeypatch.setattr(claims, "HOLD_FOR", 0.3)
    table = lost_ai_move(alice)
    key = tasks.ai_claim(table.pk, table.version)
    claims.queue(key)
    assert tasks.sweep_ai_moves() == 0, "its task waits in the queue"
    with claims.running(key) as mine:
        assert mine
        assert tasks.sweep_ai_moves() == 0, "its task plays it"
    assert claims._here.run(key, "running:a task whose process then died")
    assert tasks.sweep_ai_moves() == 0
    time.sleep(0.4)  # nobody renewed the claim
    assert tasks.sweep_ai_moves() == 1
    assert wait_for(lambda: Table.objects.get(pk=table.pk).version > table.version)
