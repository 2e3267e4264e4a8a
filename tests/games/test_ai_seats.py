"""AI seats through the site's own paths: Celery tasks keyed by table and version."""

import time

import pytest
from django.test import Client

from games import actions, tasks
from games.ctg import engine
from games.models import Table
from tests.games.conftest import open_table

# alice plays against AI players; nobody else is at the table.


def table_with_bots(alice, levels, seats=4):
    table = open_table(alice, seats_count=seats)
    for level in levels:
        actions.add_ai(table.pk, alice, level)
    return table


# Not a transactional test: the AI task that start() queues after commit never runs, so the
# calls below are the only ones (no race with a background thread).
@pytest.mark.django_db
def test_it_applies_a_duplicated_ai_task_once_and_drops_a_stale_one(alice):
    table = table_with_bots(alice, ["greedy"], seats=2)
    actions.move_seat(table.pk, alice, 0, 1)  # the AI starts
    actions.start(table.pk, alice)
    table.refresh_from_db()
    version = table.version
    assert table.state().decider == 0 and table.seats.get(position=0).is_ai

    assert tasks.ai_move.apply(args=(table.pk, version)).get() is True
    assert tasks.ai_move.apply(args=(table.pk, version)).get() is False
    assert tasks.ai_move.apply(args=(table.pk, version - 1 if version else 10**6)).get() is False

    table.refresh_from_db()
    ai_moves = [a for a in table.record["rounds"][0]["actions"] if a.startswith("Beginner")]
    assert len(ai_moves) >= 1 and table.version > version


def test_it_plays_a_game_of_one_person_and_three_bots_to_the_end(celery_worker, alice):
    table = table_with_bots(alice, ["greedy", "heuristic", "heuristic"])
    actions.start(table.pk, alice)
    client = Client()
    client.force_login(alice)
    deadline = time.monotonic() + 240
    while time.monotonic() < deadline:
        table.refresh_from_db()
        if table.status != Table.RUNNING:
            break
        state = table.state()
        seat = table.seats.get(position=state.decider)
        if seat.user_id == alice.pk:
            view = engine.view(state, seat.position)
            response = client.post(
                f"/play/t/{table.pk}/play/",
                {"action": view["legal_texts"][0], "version": table.version},
                HTTP_HX_REQUEST="true",
            )
            assert response.status_code in (204, 409)
        else:
            time.sleep(0.05)  # a bot is thinking on the worker

    table.refresh_from_db()
    assert table.status == Table.FINISHED
    assert len(table.result["placings"]) == 4
