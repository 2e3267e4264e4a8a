import re

import pytest

from games import actions
from games.ctg import engine
from games.models import Seat, Table
from tests.games.conftest import open_table

pytestmark = pytest.mark.django_db

# alice hosts; bob joins by the invite link; charlie only looks.


def seat_op(client, table, op, **extra):
    return client.post(f"/play/t/{table.pk}/seat/", {"op": op, **extra})


def test_it_opens_a_table_from_the_form_with_the_host_seated(client, alice):
    client.force_login(alice)
    response = client.post(
        "/play/new/",
        {
            "seats_count": 3,
            "mode": "quick",
            "ninja": "on",
            "visibility": "public",
            "seat_order": "random",
            "clock": "live",
            "timeout_policy": "ai",
        },
    )
    table = Table.objects.get()
    assert response.status_code == 302
    options = table.options
    assert (table.seats_count, options["rounds"], options["ninja"], table.clock_seconds) == (
        3,
        1,
        True,
        60,
    )
    assert list(table.seats.values_list("user__username", flat=True)) == ["alice"]


def test_it_shows_call_to_glorys_cards_below_its_table_form_only(client, alice):
    client.force_login(alice)
    assert 'class="card-legend"' in client.get("/play/new/").content.decode()
    assert 'class="card-legend"' not in client.get("/play/new/?game=orc").content.decode()


def test_it_explains_impossible_table_settings(client, alice):
    client.force_login(alice)
    response = client.post(
        "/play/new/",
        {
            "seats_count": 2,
            "mode": "quick",
            "imperial_tasks": "on",
            "visibility": "club",
            "seat_order": "random",
            "clock": "none",
            "timeout_policy": "ai",
        },
    )
    assert response.status_code == 200
    assert "three rounds" in response.content.decode()
    assert "Choose the club" in response.content.decode()
    assert not Table.objects.exists()


def test_it_seats_a_player_who_follows_the_invite_link(client, alice, bob):
    table = open_table(alice)
    client.force_login(bob)

    assert client.get(f"/play/join/{table.invite_token}/").status_code == 200
    client.post(f"/play/join/{table.invite_token}/")

    assert table.seats.filter(user=bob).exists()


def test_it_says_a_bad_invite_link_is_not_valid(client, bob):
    client.force_login(bob)
    response = client.get("/play/join/not-a-token/")
    assert response.status_code == 404
    assert "not valid" in response.content.decode()


def test_it_lets_only_the_host_add_ai_start_and_cancel(client, alice, bob):
    table = open_table(alice)
    client.force_login(bob)
    seat_op(client, table, "take")
    for op in ("start", "cancel", "add_ai"):
        seat_op(client, table, op)
    table.refresh_from_db()
    assert table.status == Table.OPEN
    assert not table.seats.exclude(ai_level="").exists()

    seat_op(client, table, "leave")
    client.force_login(alice)
    seat_op(client, table, "add_ai", level="heuristic")
    seat_op(client, table, "start")
    table.refresh_from_db()
    assert table.status == Table.RUNNING
    assert Seat.objects.get(table=table, position=1).ai_level == "heuristic"


def test_it_tells_the_host_what_each_ai_player_is_like_in_his_language(client, alice, bob):
    table = open_table(alice)
    client.force_login(alice)
    page = client.get(f"/play/t/{table.pk}/", HTTP_ACCEPT_LANGUAGE="de").content.decode()
    levels = re.search(r'<select name="level".*?</select>', page).group(0)
    options = re.findall(r'<option value="([\w-]+)"( selected)?>([^<]+)</option>', levels)
    assert options == [
        ("greedy", "", "Anfänger"),
        ("heuristic", "", "Kartenzähler"),
        ("search", " selected", "Taktiker"),  # the level offered first
        ("search-strong", "", "Meister"),
    ]
    assert "<dt>Taktiker</dt><dd>Stellt sich Tausende Möglichkeiten vor" in page

    client.force_login(bob)  # a guest has no AI player to choose
    assert "<dt>" not in client.get(f"/play/t/{table.pk}/").content.decode()


def test_it_cancels_an_open_table_and_keeps_it_out_of_the_lobby(client, alice, charlie):
    table = open_table(alice)
    client.force_login(alice)
    seat_op(client, table, "cancel")
    client.force_login(charlie)

    lobby = client.get("/play/").content.decode()

    assert f"/play/t/{table.pk}/" not in lobby
    assert Table.objects.get(pk=table.pk).status == Table.CANCELLED


def moves_waiting(client, user) -> int:
    """The count beside "Play" in the header of any page, as `user` sees it."""
    client.force_login(user)
    found = re.search(r'data-moves-waiting="(\d+)"', client.get("/history/").content.decode())
    return int(found.group(1)) if found else 0


def test_it_counts_in_the_header_the_games_waiting_for_your_move(client, running_table, alice, bob):
    players = [alice, bob]
    first = running_table.state().decider
    assert (moves_waiting(client, players[first]), moves_waiting(client, players[1 - first])) == (
        1,
        0,
    )

    while (state := running_table.state()).decider == first:
        text = engine.action_text(state.legal_actions()[0], state.names)
        actions.play_for(running_table.pk, players[first], text, running_table.version)
        running_table.refresh_from_db()

    assert (moves_waiting(client, players[first]), moves_waiting(client, players[1 - first])) == (
        0,
        1,
    )


def test_it_counts_in_the_header_only_the_games_that_wait_for_you(
    client, settings, alice, bob, charlie
):
    settings.ROUND_PAUSE_SECONDS = 60
    # alice's move at the first table; bob's at the second, where he sits first.
    mine = open_table(alice)
    actions.take_seat(mine.pk, charlie)
    actions.start(mine.pk, alice)
    his = open_table(bob)
    actions.take_seat(his.pk, alice)
    actions.start(his.pk, bob)
    # A table still waiting for a third player waits for nobody's move.
    actions.take_seat(open_table(charlie, seats_count=3).pk, alice)
    assert moves_waiting(client, alice) == 1
    assert moves_waiting(client, bob) == 1

    # At the end of a round the table waits for each person who has not yet continued,
    # whoever begins the next round.
    paused = open_table(alice, rounds=4)
    actions.take_seat(paused.pk, bob)
    actions.start(paused.pk, alice)
    while (paused := Table.objects.get(pk=paused.pk)).pause_until is None:
        state = paused.state()
        seat = state.decider
        actions.play(paused.pk, seat, engine.view(state, seat)["legal_texts"][0], paused.version)
    assert (moves_waiting(client, alice), moves_waiting(client, bob)) == (2, 2)
    actions.continue_round(paused.pk, alice)
    assert (moves_waiting(client, alice), moves_waiting(client, bob)) == (1, 2)


def test_it_draws_the_header_count_alone_for_a_page_to_refresh_it(client, running_table, alice):
    client.force_login(alice)
    html = client.get("/play/waiting/").content.decode()
    assert html.startswith('<span id="moves-waiting">')
    assert 'data-moves-waiting="1"' in html and "(1 game waits for your move)" in html
    client.logout()
    assert client.get("/play/waiting/").content.decode() == '<span id="moves-waiting"></span>'
