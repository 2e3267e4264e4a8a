"""A view that needed Redis while it was away answers 503 asking to try again, never 500.

alice   seat 0 of a running 2-player game with bob, whose move meets a Redis that is away.
"""

import pytest
import redis.exceptions
from django.test import Client
from django.urls import reverse

from games import actions
from games.models import Table
from tests.games.conftest import open_table

pytestmark = pytest.mark.django_db

TRY_AGAIN = (
    "The site could not reach one of its services just now. Please try again in a few seconds."
)


@pytest.fixture
def table(alice, bob):
    table = open_table(alice)
    actions.take_seat(table.pk, bob)
    actions.start(table.pk, alice)
    return Table.objects.get(pk=table.pk)


@pytest.fixture
def redis_away(monkeypatch):
    def play_for(*args, **kwargs):
        raise redis.exceptions.ConnectionError("Error 111 connecting to 127.0.0.1:6379.")

    monkeypatch.setattr(actions, "play_for", play_for)


def post_move(user, table, **headers):
    client = Client(raise_request_exception=False)
    client.force_login(user)
    url = reverse("table_play", args=[table.pk])
    return client.post(url, {"action": "anything", "version": table.version}, headers=headers)


def test_it_answers_an_htmx_move_with_words_for_the_notice(table, alice, redis_away):
    response = post_move(alice, table, HX_Request="true")

    assert response.status_code == 503
    assert response.content.decode() == f'<div class="notice error" role="alert">{TRY_AGAIN}</div>'
    assert response["Retry-After"] == "5"
    assert Table.objects.get(pk=table.pk).version == table.version


def test_it_answers_a_plain_form_post_with_a_page(table, alice, redis_away):
    response = post_move(alice, table)

    assert response.status_code == 503
    assert TRY_AGAIN in response.content.decode()
    assert response["Retry-After"] == "5"
