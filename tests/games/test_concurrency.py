import threading

import pytest
from django.db import connection

from games import actions
from games.ctg import engine
from games.models import Table

pytestmark = pytest.mark.django_db(transaction=True)


def test_it_applies_exactly_one_of_racing_submissions(running_table):
    state = running_table.state()
    text = engine.action_text(state.legal_actions()[0], state.names)
    barrier = threading.Barrier(4)
    outcomes = []

    def submit():
        barrier.wait()
        try:
            actions.play(running_table.pk, 0, text, 0)
            outcomes.append("applied")
        except actions.Refused as refusal:
            outcomes.append(refusal.code)
        finally:
            connection.close()

    threads = [threading.Thread(target=submit) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()

    assert sorted(outcomes) == ["already-played"] * 3 + ["applied"]
    table = Table.objects.get(pk=running_table.pk)
    assert table.record["rounds"][0]["actions"].count(f"alice: {text}") == 1
