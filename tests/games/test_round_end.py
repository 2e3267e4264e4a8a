"""The end of a round: players see why it ended and what each scored before the next begins.

alice and bob play four rounds against each other (or alice against an AI player); charlie
watches the public table.
"""

import re
from datetime import timedelta

import pytest
from django.test import Client
from django.utils import timezone

from games import actions
from games.ctg import engine
from games.models import Table
from games.rendering import render_board
from tests.games.conftest import open_table

# Not transactional: the tasks queued after commit (AI moves, the pause's end) never run
# here, so each step below is the test's own.
pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _a_minute_to_look(settings):
    settings.ROUND_PAUSE_SECONDS = 60


def play_until_a_round_ends(table):
    """First legal moves for whoever decides, until round 1 is over."""
    table.refresh_from_db()
    while not table.state().history:
        state = table.state()
        seat = state.decider
        actions.play(table.pk, seat, engine.view(state, seat)["legal_texts"][0], table.version)
        table.refresh_from_db()
    return table


@pytest.fixture
def four_rounds(alice, bob):
    table = open_table(alice, rounds=4)
    actions.take_seat(table.pk, bob)
    actions.start(table.pk, alice)
    return play_until_a_round_ends(table)


def page(user, table):
    client = Client()
    client.force_login(user)
    return client, client.get(table.get_absolute_url()).content.decode()


def test_it_shows_why_the_round_ended_and_what_each_player_scored(four_rounds, alice, charlie):
    table = four_rounds
    ended = engine.public_view(table.state())["round_scores"][0]
    _, html = page(alice, table)

    summary = html[html.index('class="round-end"') :]
    assert "Round 1 is over" in summary
    why = {
        "types": "different types",
        "all-nine": "All nine types lay on the table.",
        "draw-pile": " empty.",
    }[ended["ended_by"]]
    assert why in summary
    for seat, name in enumerate(["alice", "bob"]):
        row = re.search(rf'<tr data-seat="{seat}".*?</tr>', summary, re.S).group(0)
        assert name in row
        assert f"<strong>{ended['scores'][seat]}</strong>" in row
        for s in ended["sets"]:
            assert (f'data-card="{s["type"]}"' in row) == (s["owner"] == seat)
    # The log marks where the round ended.
    assert '<li class="round-sep"' in html and "Round 1 is over." in html
    # A spectator sees the same summary, without a button to press.
    _, watched = page(charlie, table)
    assert "Round 1 is over" in watched and 'data-action="continue"' not in watched


def test_it_waits_for_every_player_to_continue_before_the_next_round(four_rounds, alice, bob):
    table = four_rounds
    record = table.record
    state = table.state()
    seat = state.decider
    move = engine.view(state, seat)["legal_texts"][0]
    _, html = page(alice, table)
    assert 'data-action="continue"' in html and 'id="decision"' not in html

    with pytest.raises(actions.Refused) as refused:
        actions.play(table.pk, seat, move, table.version)
    assert refused.value.code == "paused"

    client, _ = page(alice, table)
    assert client.post(f"/play/t/{table.pk}/continue/").status_code == 302
    table.refresh_from_db()
    assert table.pause_until is not None and table.continued == [0]
    _, html = page(alice, table)
    assert 'data-action="continue"' not in html and "Waiting for bob to continue." in html

    actions.continue_round(table.pk, bob)
    table.refresh_from_db()
    assert table.pause_until is None and table.continued == []
    assert table.record == record  # the pause is not part of the game
    actions.play(table.pk, seat, move, table.version)


def test_it_begins_the_next_round_when_the_pause_runs_out(four_rounds):
    table = four_rounds
    assert not actions.end_pause(table.pk, table.version)  # not yet

    Table.objects.filter(pk=table.pk).update(pause_until=timezone.now() - timedelta(seconds=1))

    assert actions.end_pause(table.pk, table.version)
    assert not actions.end_pause(table.pk, table.version)  # run twice, acts once
    table.refresh_from_db()
    assert table.pause_until is None


def test_it_waits_only_for_people_not_for_ai_players(alice):
    table = open_table(alice, rounds=4)
    actions.add_ai(table.pk, alice, "greedy")
    actions.start(table.pk, alice)
    table = play_until_a_round_ends(table)
    assert table.pause_until is not None
    # The AI player does not decide during the pause, whoever's turn it is.
    assert actions.ai_decision(table.pk, table.version) is None

    actions.continue_round(table.pk, alice)

    table.refresh_from_db()
    assert table.pause_until is None


def test_it_begins_the_round_when_the_one_still_looking_leaves(four_rounds, alice, bob):
    table = four_rounds
    actions.continue_round(table.pk, alice)

    actions.leave_game(table.pk, bob)

    table.refresh_from_db()
    assert table.status == Table.RUNNING and table.pause_until is None


def test_it_pushes_a_fresh_board_when_a_player_continues(four_rounds, alice):
    table = four_rounds
    before = render_board(table, 0, "en")

    actions.continue_round(table.pk, alice)
    table.refresh_from_db()

    after = render_board(table, 0, "en")
    assert 'data-action="continue"' in before and 'data-action="continue"' not in after


def columns(html: str) -> list[str]:
    """The headings of the first round's summary table."""
    summary = html[html.index('class="round-end"') :]
    head = summary[summary.index("<thead>") : summary.index("</thead>")]
    return re.findall(r"<th>(.*?)</th>", head)


def test_it_shows_a_task_bonus_column_only_when_the_table_plays_imperial_tasks(alice, bob):
    plain = open_table(alice, rounds=4)
    tasks = open_table(alice, rounds=3, imperial_tasks=True)
    for table in (plain, tasks):
        actions.take_seat(table.pk, bob)
        actions.start(table.pk, alice)
        play_until_a_round_ends(table)

    assert columns(page(alice, plain)[1]) == ["Player", "Sets on the table", "Round", "Total"]
    assert columns(page(alice, tasks)[1]) == [
        "Player",
        "Sets on the table",
        "Task bonus",
        "Round",
        "Total",
    ]
    # Each row has a cell for each heading.
    summary = page(alice, plain)[1]
    summary = summary[summary.index('class="round-end"') :]
    row = re.search(r'<tr data-seat="0".*?</tr>', summary, re.S).group(0)
    assert len(re.findall(r"<t[hd][ >]", row)) == 4
