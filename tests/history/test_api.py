"""Read API: same filters as the pages, pages with next links, club data only for members."""

from leagues.models import PlayerRating
from tests.history.conftest import online_game, pad_game


def test_it_lists_games_with_filters_and_next_links(client, alice, bob, charlie, club):
    for day in range(1, 6):
        pad_game([alice, bob], [[10], [5]], day=day, club=club)
    pad_game([alice, charlie], [[10], [5]], day=9)
    client.force_login(alice)
    body = client.get("/api/v1/games/?player=alice&opponent=bob&page_size=2").json()
    assert body["count"] == 5 and len(body["results"]) == 2
    assert body["next"].endswith("page_size=2&page=2") or "page=2" in body["next"]
    assert body["previous"] is None
    game = body["results"][0]
    assert game["club"] == "kyoto" and game["players"][0]["username"] == "alice"
    last = client.get(body["next"]).json()
    assert last["page"] == 2 and last["previous"]


def test_it_keeps_private_club_games_from_outsiders(client, alice, bob, charlie, club):
    private = pad_game([alice, bob], [[10], [5]], club=club)
    public = pad_game([alice, charlie], [[10], [5]])
    for user, expected in ((None, [public.pk]), (charlie, [public.pk]), (bob, None)):
        client.logout()
        if user:
            client.force_login(user)
        ids = [g["id"] for g in client.get("/api/v1/games/").json()["results"]]
        assert ids == (expected or [public.pk, private.pk])
    client.force_login(charlie)
    assert client.get(f"/api/v1/games/{private.pk}/").status_code == 404
    assert client.get(f"/api/v1/games/{public.pk}/").status_code == 200


def test_it_gives_records_of_online_games_only(client, alice, bob, charlie, club):
    table, game = online_game([alice, bob], seed=3)
    _club_table, club_game = online_game([alice, bob], seed=4, club=club)
    pad = pad_game([alice, bob], [[10], [5]])
    client.force_login(charlie)
    assert client.get(f"/api/v1/games/{game.pk}/record/").json() == table.record
    assert client.get(f"/api/v1/games/{club_game.pk}/record/").status_code == 404
    assert client.get(f"/api/v1/games/{pad.pk}/record/").status_code == 404


def test_it_shows_league_tables_to_members_only(client, bob, charlie, league):
    league.table = [{"player": "bob", "points": 3}]
    league.save()
    assert client.get(f"/api/v1/leagues/{league.pk}/table/").status_code == 404
    client.force_login(charlie)
    assert client.get(f"/api/v1/leagues/{league.pk}/table/").status_code == 404
    client.force_login(bob)
    assert client.get(f"/api/v1/leagues/{league.pk}/table/").json()["table"] == league.table


def test_it_lists_ratings_best_first(client, alice, bob):
    PlayerRating.objects.create(user=alice, games=3, display=1400)
    PlayerRating.objects.create(user=bob, games=12, display=1600)
    body = client.get("/api/v1/ratings/").json()
    assert [r["username"] for r in body["results"]] == ["bob", "alice"]
    assert client.get("/api/v1/ratings/?username=alice").json()["count"] == 1


def test_it_describes_itself_in_openapi_and_a_page(client):
    schema = client.get("/api/v1/openapi.json").json()
    assert schema["openapi"].startswith("3.")
    assert "/api/v1/games/" in schema["paths"]
    assert "/api/v1/openapi.json" in client.get("/api/").content.decode()


def test_it_shows_tournament_standings_to_members_only(client, alice, bob, charlie, club):
    from leagues import tournaments
    from leagues.models import TournamentRound, TournamentTable

    event = tournaments.create(club, name="Autumn cup", stages=[{"rounds": 1}])
    round_ = TournamentRound.objects.create(stage=event.stages.get(), number=1)
    game = pad_game([alice, bob], [[30], [10]], club=club)
    TournamentTable.objects.create(round=round_, number=1, players=[alice.pk, bob.pk], game=game)
    path = f"/api/v1/tournaments/{event.pk}/standings/"
    assert client.get(path).status_code == 404
    client.force_login(charlie)
    assert client.get(path).status_code == 404
    client.force_login(bob)
    stage = client.get(path).json()["stages"][0]
    assert [(r["rank"], r["username"]) for r in stage["standings"]] == [(1, "alice"), (2, "bob")]
