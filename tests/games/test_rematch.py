"""A rematch: the same players, settings and AI players at a new table, from a finished one."""

import pytest
from django.test import Client
from django.urls import reverse

from games import actions
from games.ctg import engine
from games.models import Table
from tests.games.conftest import open_table

pytestmark = pytest.mark.django_db


def client_for(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def finished_table(users, ai_level: str | None = None) -> Table:
    """A quick game of `users` (the first hosts) and perhaps one AI, played to its end."""
    table = open_table(users[0], seats_count=len(users) + bool(ai_level), clock="correspondence")
    for user in users[1:]:
        actions.take_seat(table.pk, user)
    if ai_level:
        actions.add_ai(table.pk, users[0], ai_level)
    actions.start(table.pk, users[0])
    by_seat = {seat.position: seat.user for seat in table.seats.select_related("user")}
    while (table := Table.objects.get(pk=table.pk)).status == Table.RUNNING:
        state = table.state()
        player = by_seat[state.decider]
        if player is None:
            actions.ai_play(table.pk, table.version)
        else:
            text = engine.action_text(state.legal_actions()[0], state.names)
            actions.play_for(table.pk, player, text, table.version)
    assert table.status == Table.FINISHED
    return table


def rematch(user, table: Table, **headers):
    return client_for(user).post(reverse("table_rematch", args=[table.pk]), **headers)


def test_it_opens_one_rematch_with_the_same_settings_that_the_players_join(alice, bob, charlie):
    game = finished_table([alice, bob], ai_level="greedy")
    rematch_button = 'data-action="rematch"'
    assert rematch_button in client_for(bob).get(game.get_absolute_url()).content.decode()
    assert rematch_button in client_for(bob).get(reverse("table_result", args=[game.pk])).text
    assert rematch_button not in client_for(charlie).get(game.get_absolute_url()).text

    opened = rematch(bob, game)
    joined = rematch(alice, game)
    again = rematch(bob, game, headers={"HX-Request": "true"})

    following = Table.objects.get(rematch_of=game)
    assert opened.url == joined.url == following.get_absolute_url()
    assert again.headers["HX-Redirect"] == following.get_absolute_url()
    assert following.status == Table.OPEN and following.host == bob
    settings = ["seats_count", "options", "clock", "visibility", "seat_order", "rated"]
    assert [getattr(following, f) for f in settings] == [getattr(game, f) for f in settings]
    seats = {(s.user_id, s.ai_level) for s in following.seats.all()}
    assert seats == {(bob.pk, ""), (alice.pk, ""), (None, "greedy")}


def test_it_refuses_a_rematch_to_onlookers_and_before_the_end(running_table, alice, bob, charlie):
    game = finished_table([alice, bob])

    onlooker = rematch(charlie, game, follow=True)
    onlooker_htmx = rematch(charlie, game, headers={"HX-Request": "true"})
    too_soon = rematch(alice, running_table, follow=True)

    assert "Only the players of this game can ask for a rematch." in onlooker.text
    assert onlooker_htmx.status_code == 403 and "Only the players" in onlooker_htmx.text
    assert "A rematch follows a finished game." in too_soon.text
    assert not Table.objects.exclude(rematch=None).exists()


def test_it_opens_a_new_rematch_when_the_last_was_cancelled_and_refuses_a_started_one(alice, bob):
    game = finished_table([alice, bob])
    first = actions.rematch(game.pk, alice)
    actions.cancel(first.pk, alice)

    second = actions.rematch(game.pk, bob)
    actions.add_ai(second.pk, bob, "greedy")
    actions.start(second.pk, bob)

    assert second != first and second.host == bob
    with pytest.raises(actions.Refused, match="already started"):
        actions.rematch(game.pk, alice)
    assert actions.rematch(game.pk, bob) == second


def test_it_offers_the_others_the_rematch_on_their_board_in_one_click(alice, bob):
    from games.rendering import render_board

    game = finished_table([alice, bob])
    assert "Join the rematch" not in render_board(game, 0, "en")

    rematch(bob, game)
    game.refresh_from_db()

    # The board pushed to alice's open page now names the rematch; her one click seats her.
    board = render_board(game, 0, "en")
    assert "Join the rematch" in board and "bob opened a rematch" in board
    rematch(alice, game)
    assert set(game.rematch.seats.values_list("user__username", flat=True)) == {"alice", "bob"}
