"""A whole game of De l'Orc with three AI players, on the server's clock (a minute or two)."""

import time

import pytest
from django.db import connection

from games import actions
from games.models import Table
from games.orc import ai, engine
from tests.games.orc_helpers import orc_table

pytestmark = pytest.mark.django_db(transaction=True)


def play_as_a_person(table_id: int, seat: int, step: int) -> None:
    """alice's turn: she slaps when she sees fit and decides when it is her turn."""
    table = Table.objects.get(pk=table_id)
    state = table.state()
    view = engine.view(state, seat)
    try:
        if state.decider == seat:
            actions.play(table_id, seat, ai.decide("heuristic", view, seed=step), table.version)
        elif state.pending == "recruit" and (reaction := ai.react("heuristic", view, seed=step)):
            actions.play(table_id, seat, f"{reaction.verb} P{reaction.pile}", None)
    except actions.Refused:
        pass  # the deal or a decision moved on meanwhile: look again


@pytest.mark.long
@pytest.mark.timeout(1200)
def test_it_plays_a_whole_game_with_ai_seats_to_its_result(alice, settings):
    # Every card dealt and raced for, four times as fast as the fast pace.
    settings.DEAL_SPEED = 4.0
    table = orc_table(alice, [], ["beginner", "heuristic", "expert"], clock="live")
    end = time.time() + 900
    step = 0
    while time.time() < end:
        table.refresh_from_db()
        if table.status != Table.RUNNING:
            break
        play_as_a_person(table.pk, 0, step)
        step += 1
        time.sleep(0.4)
    connection.close()

    table = Table.objects.get(pk=table.pk)
    assert table.status == Table.FINISHED
    replayed = engine.from_record(table.record)
    assert replayed.game_over
    assert engine.result(replayed)["placings"] == table.result["placings"]
    assert max(table.result["totals"].values()) >= 8
    rounds = table.record["rounds"]
    assert all(len(r["deck"]) == 80 for r in rounds)
    print(f"{len(rounds)} rounds, totals {table.result['totals']}")
