"""What a newcomer tripped over at the table: leaving, stale pages, refusals, the clock."""

import re

import pytest
from django.test import Client

from games import actions
from games.ctg import engine
from games.models import Table
from games.rendering import render_board
from tests.games.conftest import open_table

pytestmark = pytest.mark.django_db

# alice plays; bob plays against her; AI players fill the seats nobody else takes.


def table_against_ai(alice, seats=2):
    table = open_table(alice, seats_count=seats)
    for _ in range(seats - 1):
        actions.add_ai(table.pk, alice, "greedy")
    actions.start(table.pk, alice)
    table.refresh_from_db()
    return table


def play_to_the_end(table):
    table.refresh_from_db()
    while table.status == Table.RUNNING:
        state = table.state()
        seat = state.decider
        text = engine.view(state, seat)["legal_texts"][0]
        actions.play(table.pk, seat, text, table.version)
        table.refresh_from_db()
    return table


def test_it_says_before_leaving_a_game_against_ai_players_that_it_ends(client, alice):
    table = table_against_ai(alice)
    client.force_login(alice)
    html = client.get(table.get_absolute_url()).content.decode()

    assert "an AI player takes over)" not in html
    form = re.search(r'<form[^>]*class="leave-game"[^>]*>', html).group(0)
    assert "if no other person is playing, the game ends" in form  # asked before it happens

    client.post(f"/play/t/{table.pk}/seat/", {"op": "leave_game"})
    html = client.get(table.get_absolute_url()).content.decode()
    assert "no person was left playing it" in html
    assert 'id="decision"' not in html and "leave-game" not in html


def test_it_takes_the_leave_button_off_a_board_whose_game_ends(alice, bob):
    table = open_table(alice)
    actions.take_seat(table.pk, bob)
    actions.start(table.pk, alice)
    table.refresh_from_db()
    # The board pushed to an open page carries the button while the game runs, not after.
    assert 'class="leave-game"' in render_board(table, 0, "en")

    table = play_to_the_end(table)
    assert table.status == Table.FINISHED
    assert 'class="leave-game"' not in render_board(table, 0, "en")


def test_it_answers_a_refused_htmx_form_with_a_notice_not_a_page(alice, bob):
    table = open_table(alice)
    actions.take_seat(table.pk, bob)
    actions.start(table.pk, alice)
    client = Client(enforce_csrf_checks=True)  # a page whose token went stale
    client.force_login(alice)

    response = client.post(
        f"/play/t/{table.pk}/play/",
        {"action": "draw D1", "version": 0},
        headers={"HX-Request": "true"},
    )

    assert response.status_code == 403
    html = response.content.decode()
    assert html.startswith('<div class="notice error" role="alert">') and "<html" not in html
    assert "reload it" in html
    # Without htmx it is a page of the site, with its menu.
    response = client.post(f"/play/t/{table.pk}/play/", {"action": "draw D1", "version": 0})
    assert response.status_code == 403 and 'class="site-header"' in response.content.decode()


def test_it_starts_the_live_clock_at_the_time_left(client, alice, bob):
    table = open_table(alice, clock=Table.LIVE, clock_seconds=90)
    actions.take_seat(table.pk, bob)
    actions.start(table.pk, alice)
    client.force_login(alice)

    html = client.get(table.get_absolute_url()).content.decode()

    shown = re.search(r'class="clock"[^>]*>[^<]*<time>([^<]*)</time>', html).group(1)
    assert re.fullmatch(r"1:[23]\d", shown), shown
