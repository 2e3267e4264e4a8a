"""Imports and replays given what no person would type: the visitor gets a reason, never
a server error, and nothing of a refused import is stored.

alice imports; the records are played out by the engine with the names under test.
"""

import json

import pytest

from games.ctg import engine
from games.models import Table
from leagues.models import PlayedGame
from tests.history.conftest import online_game

pytestmark = pytest.mark.django_db


def record_with(names: list[str]) -> str:
    return json.dumps(engine.to_record(engine.random_game(engine.Options(2, 1), 5, names)))


@pytest.mark.parametrize(
    ("names", "message"),
    [
        (["n" * 41, "cy"], "The name of player 1 is longer than 40 characters."),
        (["z" * 40 + "1", "z" * 40 + "2"], "The name of player 1 is longer than 40 characters."),
        (["ann", "c\x00y"], "The name of player 2 contains a control character or a broken one."),
        (["ann\ud800", "cy"], "The name of player 1 contains a control character or a broken one."),
        (["ann", "\udfff"], "The name of player 2 contains a control character or a broken one."),
    ],
)
def test_it_refuses_names_a_seat_cannot_hold(client, alice, names, message):
    client.force_login(alice)
    response = client.post("/history/import/", {"record": record_with(names)})
    assert response.status_code == 400
    assert message in response.content.decode()
    assert not Table.objects.exists() and not PlayedGame.objects.exists()


def test_it_keeps_a_name_of_the_longest_length_whole(client, alice):
    client.force_login(alice)
    longest = "ä" * 40
    response = client.post("/history/import/", {"record": record_with([longest, "cy"])})
    assert response.status_code == 302
    assert Table.objects.get().seats.get(position=0).name == longest
    assert PlayedGame.objects.get().seats.get(seat=0).guest_name == longest


@pytest.mark.parametrize("seat", ["²", "١", "9" * 5000, "-1", "99"])
def test_a_replay_asked_for_a_seat_that_is_no_number_shows_the_public_view(
    client, alice, bob, seat
):
    table, _game = online_game([alice, bob])
    response = client.get(f"/history/replay/{table.pk}/", {"seat": seat, "step": "3"})
    assert response.status_code == 200
    assert 'aria-current="true">Public view</a>' in response.content.decode()
