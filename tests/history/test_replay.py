"""Replays: who may step through a game, and that nobody sees what their seat could not.

alice and bob play; charlie watches nothing of a running game (not even as a spectator),
and anyone allowed to see a finished game may switch between the public view and each seat.
"""

import pytest
from django.urls import reverse

from games import actions
from games.ctg import engine, replay
from games.records import action_lines
from tests.games.conftest import open_table
from tests.games.leaks import scan
from tests.history.conftest import online_game


@pytest.fixture
def running(alice, bob):
    table = open_table(alice)
    actions.take_seat(table.pk, bob)
    actions.start(table.pk, alice)
    for _ in range(12):
        table.refresh_from_db()
        state = table.state()
        text = engine.action_text(state.legal_actions()[0], state.names)
        actions.play(table.pk, state.decider, text, table.version)
    table.refresh_from_db()
    return table


def test_it_shows_a_running_game_only_to_its_players_in_their_own_view(
    client, running, alice, bob, charlie
):
    assert client.get(f"/history/replay/{running.pk}/").status_code == 404
    client.force_login(charlie)
    assert client.get(f"/history/replay/{running.pk}/").status_code == 404
    for position, user in ((0, alice), (1, bob)):
        client.force_login(user)
        total = len(action_lines(running.record))
        assert total >= 12
        for step in range(total + 1):
            # Asking for the other seat's view is ignored while the game runs.
            response = client.get(f"/history/replay/{running.pk}/?step={step}&seat={1 - position}")
            html = response.content.decode()
            assert f'data-viewer="{position}"' in html
            assert scan(html, replay.position(running.record, step), position) == []


def test_it_never_offers_a_running_games_record(client, running, alice):
    client.force_login(alice)
    assert client.get(f"/history/record/{running.pk}.json").status_code == 404


def test_it_lets_anyone_switch_views_of_a_finished_public_game(client, alice, bob, charlie):
    table, _game = online_game([alice, bob], seed=7)
    client.force_login(charlie)
    total = len(action_lines(table.record))
    for step in (0, 1, total // 2, total):
        for seat in ("", "0", "1"):
            response = client.get(f"/history/replay/{table.pk}/?step={step}&seat={seat}")
            assert response.status_code == 200
            html = response.content.decode()
            viewer = int(seat) if seat else None
            expected = "public" if viewer is None else str(viewer)
            assert f'data-viewer="{expected}"' in html
            assert scan(html, replay.position(table.record, step), viewer) == []


REMATCH = 'data-action="rematch"'


def test_a_seats_replay_of_a_finished_game_offers_no_rematch(client, alice, bob):
    table, _game = online_game([alice, bob], seed=10)
    client.force_login(alice)
    # The finished table and its result page are where alice asks for one.
    assert REMATCH in client.get(table.get_absolute_url()).content.decode()
    assert REMATCH in client.get(reverse("table_result", args=[table.pk])).content.decode()
    total = len(action_lines(table.record))
    for step in (0, total):
        for seat in ("0", "1"):
            response = client.get(f"/history/replay/{table.pk}/?step={step}&seat={seat}")
            assert f'data-viewer="{seat}"' in response.content.decode()
            assert REMATCH not in response.content.decode()


def test_a_replay_of_a_running_game_offers_no_way_to_leave_it(client, running, alice):
    client.force_login(alice)
    assert 'class="leave-game"' in client.get(running.get_absolute_url()).content.decode()
    html = client.get(f"/history/replay/{running.pk}/").content.decode()
    assert 'data-viewer="0"' in html and 'class="leave-game"' not in html


CONTINUE = 'data-action="continue"'


def test_a_replay_of_a_game_paused_between_rounds_shows_no_pause(client, alice, bob, settings):
    from tests.games.test_round_end import play_until_a_round_ends

    settings.ROUND_PAUSE_SECONDS = 60
    table = open_table(alice, rounds=4)
    actions.take_seat(table.pk, bob)
    actions.start(table.pk, alice)
    table = play_until_a_round_ends(table)
    assert table.pause_until is not None
    client.force_login(alice)
    # The live table waits for alice to continue, the next round's clock running.
    live = client.get(table.get_absolute_url()).content.decode()
    assert CONTINUE in live and 'id="round-pause"' in live and "The next round begins in" in live
    # Its replay shows the round's end as history, before the step that ended it and at it.
    total = len(action_lines(table.record))
    for step in (total - 1, total):
        html = client.get(f"/history/replay/{table.pk}/?step={step}").content.decode()
        assert 'data-viewer="0"' in html and CONTINUE not in html
        assert 'id="round-pause"' not in html and "The next round begins in" not in html
        assert "data-deadline" not in html and f"/play/t/{table.pk}/continue/" not in html
    assert "Round 1 is over." in html  # the log of the step that ended it


def test_it_hides_a_club_games_replay_from_outsiders(client, alice, bob, charlie, club):
    table, _game = online_game([alice, bob], seed=8, club=club)
    client.force_login(charlie)
    assert client.get(f"/history/replay/{table.pk}/").status_code == 404
    assert client.get(f"/history/record/{table.pk}.json").status_code == 404
    client.force_login(bob)
    assert client.get(f"/history/replay/{table.pk}/?seat=0").status_code == 200


def test_it_steps_through_htmx_with_the_replay_partial(client, alice, bob):
    table, _game = online_game([alice, bob], seed=9)
    client.force_login(alice)
    response = client.get(f"/history/replay/{table.pk}/?step=3", headers={"HX-Request": "true"})
    html = response.content.decode()
    assert html.lstrip().startswith('<div id="replay"')
    assert 'data-step="3"' in html
    assert 'href="?step=4"' in html and 'href="?step=2"' in html


def test_it_rebuilds_the_final_position_from_the_whole_record(alice, bob):
    table, _game = online_game([alice, bob], seed=10, rounds=4)
    total = len(action_lines(table.record))
    state = replay.position(table.record, total)
    assert engine.result(state) == table.result
    middle = replay.position(table.record, total // 2)
    assert not middle.game_over
