import pytest
from django.core.management import call_command

from accounts.models import Club, Membership, User
from games.models import Table
from leagues.models import League, PlayedGame
from tournaments.models import Tournament


@pytest.mark.django_db
def test_it_loads_the_demo_club_once_however_often_it_runs(capsys):
    call_command("demo_data")
    call_command("demo_data")

    club = Club.objects.get(slug="demo-club")
    assert club.memberships.count() == 6
    assert club.memberships.get(role=Membership.ORGANISER).user.username == "organiser"
    assert User.objects.get(username="organiser").check_password("glory-demo-1")
    assert "organiser / glory-demo-1" in capsys.readouterr().out
    assert club.leagues.count() == 2 and club.tournaments.count() == 1
    assert club.tables.count() == 3


@pytest.mark.django_db
def test_the_demo_club_has_a_season_games_finished_and_running_an_open_table_and_a_cup(client):
    call_command("demo_data")
    client.force_login(User.objects.get(username="dave"))

    season = League.objects.get(name="Autumn season")
    games = season.games.filter(status=PlayedGame.CONFIRMED, source=PlayedGame.PAD)
    assert games.count() == 8
    page = client.get(season.get_absolute_url()).content.decode()
    assert all(name in page for name in ["Alice", "Bob", "Charlie", "Dave", "Erin"])

    played = Table.objects.get(status=Table.FINISHED)
    assert [s.user.username for s in played.seats.order_by("position")] in (
        ["alice", "bob"],
        ["bob", "alice"],
    )
    assert client.get(f"/history/replay/{played.pk}/?step=20").status_code == 200

    correspondence = Table.objects.get(status=Table.RUNNING)
    assert correspondence.clock == Table.CORRESPONDENCE and correspondence.waits_for(
        User.objects.get(username="dave")
    )
    page = client.get("/").content.decode()
    assert f"/play/t/{correspondence.pk}/" in page and "Your move" in page

    waiting = Table.objects.get(status=Table.OPEN)
    assert waiting.host.username == "charlie" and waiting.seats.filter(ai_level="heuristic")
    assert f"/play/t/{waiting.pk}/" in client.get("/play/").content.decode()

    cup = Tournament.objects.get()
    assert cup.status == Tournament.REGISTRATION and cup.entries.count() == 5


@pytest.mark.django_db
def test_the_demo_club_has_de_l_orc_evenings_of_five_and_six(client):
    call_command("demo_data")
    league = League.objects.get(name="De l'Orc evenings")
    games = league.games.filter(status=PlayedGame.CONFIRMED, source=PlayedGame.PAD, game="orc")
    assert sorted(g.seats.count() for g in games) == [5, 5, 6, 6]
    assert all(g.confirmed_by_id != g.created_by_id for g in games)
    client.force_login(User.objects.get(username="erin"))
    page = client.get(games[0].get_absolute_url()).content.decode()
    assert "was the wizard" in page
