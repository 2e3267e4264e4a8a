"""A league for De l'Orc: the organiser chooses the game, its results feed its table and the
ratings, and a league keeps its game once it has results.

Personas (tests/leagues/conftest.py): olga organises Tenno; alice and bob are members.
"""

import pytest
from django.test import Client

from leagues import rating_jobs, results, tallies
from leagues.models import League, PlayedGame, PlayerRating
from tests.leagues.orcpad import ROUND_1, ROUND_2, client_for, enter


def test_an_organiser_opens_a_league_for_de_l_orc(olga, alice):
    client = client_for(olga)
    page = client.get("/clubs/tenno/leagues/new/").content.decode()
    assert '<option value="ctg" selected>Call to Glory</option>' in page
    assert "De l&#x27;Orc pour les Braves" in page
    response = client.post(
        "/clubs/tenno/leagues/new/",
        {
            "name": "Orc nights",
            "game": "orc",
            "game_length": "quick",
            "imperial_tasks": "on",
            "points_scheme": "fair",
            "is_open": "on",
            "participants": [alice.pk],
        },
    )
    league = League.objects.get(name="Orc nights")
    assert response.status_code == 302
    assert (league.game, league.options, league.rounds_per_game) == ("orc", {}, 0)
    page = client.get(league.get_absolute_url()).content.decode()
    assert "De l&#x27;Orc pour les Braves" in page and "Imperial Tasks" not in page


def test_a_call_to_glory_league_is_the_default(olga):
    client_for(olga).post(
        "/clubs/tenno/leagues/new/",
        {"name": "Spring", "game_length": "standard", "points_scheme": "fair", "is_open": "on"},
    )
    assert League.objects.get(name="Spring").game == "ctg"


@pytest.fixture
def played(five, olga, bob):
    client, game = five
    enter(client, game, 1, ROUND_1)
    enter(client, game, 2, ROUND_2)
    client.post(f"/clubs/tenno/games/{game.pk}/submit/")
    client_for(bob).post(f"/clubs/tenno/games/{game.pk}/confirm/")
    game.refresh_from_db()
    return game


def test_its_results_feed_the_table_and_ratings(played, orc_league, bob, alice):
    assert played.status == PlayedGame.CONFIRMED
    tallies.tally_league(orc_league.pk)
    orc_league.refresh_from_db()
    order = [(row["name"], row["games"]) for row in orc_league.table if row["games"]]
    assert order == [("bob", 1), ("dave", 1), ("alice", 1), ("erin", 1), ("Gus", 1)]
    rating_jobs.recompute_from(None, game="orc")
    orc = PlayerRating.objects.filter(game="orc")
    assert orc.get(user=bob).display > orc.get(user=alice).display
    # Call to Glory's ratings are not touched.
    assert not PlayerRating.objects.filter(game="ctg").exists()
    page = client_for(alice).get(orc_league.get_absolute_url()).content.decode()
    rating = orc.get(user=bob).display
    assert f'<td class="lg-rating">{rating}</td>' in page


def test_a_league_with_results_keeps_its_game(played, orc_league, olga):
    client: Client = client_for(olga)
    client.post(
        f"/clubs/tenno/leagues/{orc_league.pk}/edit/",
        {
            "name": "Orc nights",
            "game": "ctg",
            "game_length": "standard",
            "points_scheme": "fair",
            "is_open": "on",
        },
    )
    orc_league.refresh_from_db()
    assert orc_league.game == "orc"


def test_a_result_of_another_game_is_refused_by_the_league(orc_league, alice, bob):
    with pytest.raises(ValueError, match="the league is for orc"):
        results.record_result(
            results.of_rounds([[10], [20]]), players=[alice, bob], league=orc_league
        )


def test_a_ratings_recompute_redraws_the_open_pages_of_its_leagues(
    played, orc_league, django_capture_on_commit_callbacks
):
    import asyncio

    from asgiref.sync import async_to_sync
    from channels.layers import get_channel_layer

    from leagues.live import league_group
    from leagues.models import RecomputeJob

    layer = get_channel_layer()
    channel = async_to_sync(layer.new_channel)()
    async_to_sync(layer.group_add)(league_group(orc_league.pk), channel)
    job = RecomputeJob.objects.create(game="orc", from_played_at=played.played_at)
    with django_capture_on_commit_callbacks(execute=True):
        assert rating_jobs.recompute_ratings(job.pk)

    async def receive():
        return await asyncio.wait_for(layer.receive(channel), timeout=5)

    assert async_to_sync(receive)() == {"type": "league.table"}
