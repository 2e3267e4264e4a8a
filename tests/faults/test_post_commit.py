"""What follows a saved move when Redis is away: the player hears it was saved, the game goes
on, and the push is tried again until Redis is back."""

import logging
import threading

import pytest

from games import actions
from games.ctg import engine
from games.models import Table
from tests.games.test_ai_seats import table_with_bots
from tests.waiting import wait_for

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.services]


def alice_to_move(alice) -> Table:
    table = table_with_bots(alice, ["greedy"], seats=2)
    actions.start(table.pk, alice)
    table = Table.objects.get(pk=table.pk)

    def alice_decides() -> bool:
        return Table.objects.get(pk=table.pk).state().decider == 0

    assert wait_for(alice_decides)
    return Table.objects.get(pk=table.pk)


def test_a_saved_move_is_answered_as_saved_and_the_ai_answers_while_redis_is_away(
    client, alice, settings, own_redis, caplog
):
    caplog.set_level(logging.WARNING, logger="infra.background")
    table = alice_to_move(alice)
    from channels.layers import channel_layers

    from ctg_site.settings import redis_channel_layer

    settings.CHANNEL_LAYERS = {"default": redis_channel_layer(own_redis.url)}
    channel_layers.backends.clear()
    own_redis.kill()
    client.force_login(alice)
    state = table.state()
    text = engine.action_text(state.legal_actions()[0], state.names)

    response = client.post(
        f"/play/t/{table.pk}/play/",
        {"action": text, "version": table.version},
        headers={"HX-Request": "true"},
    )

    assert response.status_code == 204, "the move was saved, and the answer says so"
    assert Table.objects.get(pk=table.pk).version > table.version
    # The AI seat, to move next, moves: its task was queued although the push failed.
    assert wait_for(lambda: Table.objects.get(pk=table.pk).version > table.version + 1)
    assert "trying again" in caplog.text

    own_redis.start()
    channel_layers.backends.clear()


def test_a_move_does_not_wait_for_a_redis_found_away_a_moment_before(
    client, running_table, alice, bob, settings, own_redis, caplog
):
    caplog.set_level(logging.WARNING, logger="infra.background")
    from channels.layers import channel_layers

    from ctg_site.settings import redis_channel_layer

    settings.CHANNEL_LAYERS = {"default": redis_channel_layer(own_redis.url)}
    channel_layers.backends.clear()
    own_redis.kill()
    answers = []
    for _ in range(2):
        table = Table.objects.get(pk=running_table.pk)
        state = table.state()
        user = (alice, bob)[state.decider]
        text = engine.action_text(state.legal_actions()[0], state.names)
        client.force_login(user)
        answers.append(
            client.post(
                f"/play/t/{table.pk}/play/",
                {"action": text, "version": table.version},
                headers={"HX-Request": "true"},
            ).status_code
        )

    assert answers == [204, 204]

    def failed():
        return [r for r in caplog.records if "failed; trying again" in r.getMessage()]

    assert wait_for(lambda: len(failed()) >= 2, 5)
    # The first move's push was tried before its request answered; the second's, a moment
    # later, was handed to the background at once rather than wait out the retries again.
    assert [r.threadName == threading.current_thread().name for r in failed()[:2]] == [True, False]
    own_redis.start()
    channel_layers.backends.clear()
