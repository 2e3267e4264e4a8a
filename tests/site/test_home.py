"""The home page: what the site is for a visitor, what is going on for a signed-in player."""

import pytest
from django.core.management import call_command

from accounts.models import User
from games import actions
from leagues.models import League, PlayedGame
from leagues.tallies import tally_league

pytestmark = pytest.mark.django_db


def test_a_visitor_is_asked_to_sign_up(client):
    page = client.get("/").content.decode()
    assert "Sign up" in page and "Your tables" not in page


def test_a_player_sees_tables_leagues_tournaments_and_last_games(client):
    call_command("demo_data")
    season = League.objects.get(name="Autumn season")
    tally_league(season.pk)
    charlie = User.objects.get(username="charlie")
    client.force_login(charlie)
    page = client.get("/").content.decode()

    # Charlie's table waits for a third player.
    table = charlie.hosted_tables.get()
    assert f'href="/play/t/{table.pk}/"' in page
    season.refresh_from_db()
    row = next(r for r in season.table if r["user_id"] == charlie.pk)
    assert f"{row['position']} of 6 · {row['points']} points · {row['games']} games" in page
    assert "Winter cup" in page and "You are registered." in page
    last = PlayedGame.objects.filter(seats__user=charlie).order_by("-played_at").first()
    mine = last.seats.get(user=charlie)
    assert f'href="/history/game/{last.pk}/"' in page
    assert f"place {mine.place} of {last.seats.count()} · {mine.total} points" in page


def test_a_new_player_gets_a_way_in(client):
    client.force_login(User.objects.create_user("newbie", password="pw-newbie-1"))
    page = client.get("/").content.decode()
    assert "You are not at a table." in page
    assert "You are not in a club yet." in page
    assert "Your last games" not in page


def test_tables_waiting_for_the_players_move_come_first_and_say_so(client):
    alice, bob = (User.objects.create_user(n, password=f"pw-{n}-123") for n in ("alice", "bob"))
    opts = {
        "seats_count": 2,
        "options": {"rounds": 1},
        "visibility": "public",
        "seat_order": "host",
    }
    waiting = actions.create_table(alice, **opts)
    actions.take_seat(waiting.pk, bob)
    actions.start(waiting.pk, alice)  # alice sits first: the game waits for her
    later = actions.create_table(alice, **opts)  # newer, but not under way

    client.force_login(alice)
    page = client.get("/").content.decode()
    first = page.index(f'href="/play/t/{waiting.pk}/"')
    assert first < page.index(f'href="/play/t/{later.pk}/"')
    assert page.count("Your move") == 1
    assert page.index("Your move") > first

    client.force_login(bob)
    assert "Your move" not in client.get("/").content.decode()


def test_the_menu_leads_to_the_leaderboard_of_all_players(client):
    nav = client.get("/").content.decode().split('<nav class="site-nav"')[1].split("</nav>")[0]
    assert '<a href="/ratings/">Ratings</a>' in nav
    assert "All players" in client.get("/ratings/").content.decode()
