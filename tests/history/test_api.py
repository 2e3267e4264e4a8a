"""Read API: same filters as the pages, pages with next links, club data only for members."""

from django.conf import settings
from django.test import Client

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
    page = client.get("/api/").content.decode()
    assert "/api/v1/openapi.json" in page
    assert "the game&#x27;s key: ctg or orc" in page and "number of players, 2 to 7" in page
    # Call to Glory's own filters, as the game declares them.
    parameters = {p["name"]: p for p in schema["paths"]["/api/v1/games/"]["get"]["parameters"]}
    assert parameters["mode"]["schema"]["enum"] == ["standard", "quick", "imperial"]
    assert parameters["ninja"]["schema"]["enum"] == ["yes", "no"]
    assert parameters["game"]["description"] == "the game's key: ctg or orc"
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "de"
    assert "der Schlüssel des Spiels: ctg oder orc" in client.get("/api/").content.decode()


def test_it_shows_tournament_standings_to_members_only(client, alice, bob, charlie, club):
    from tournaments import actions as tournaments
    from tournaments.models import TournamentRound, TournamentTable

    event = tournaments.create(club, name="Autumn cup", stages=[{"rounds": 1}])
    round_ = TournamentRound.objects.create(stage=event.stages.get(), number=1)
    game = pad_game([alice, bob], [[30], [10]], club=club)
    table = TournamentTable.objects.create(round=round_, number=1, game=game)
    table.seat_players([alice.pk, bob.pk])
    path = f"/api/v1/tournaments/{event.pk}/standings/"
    assert client.get(path).status_code == 404
    client.force_login(charlie)
    assert client.get(path).status_code == 404
    client.force_login(bob)
    stage = client.get(path).json()["stages"][0]
    assert [(r["rank"], r["username"]) for r in stage["standings"]] == [(1, "alice"), (2, "bob")]


def test_it_refuses_a_page_size_over_its_cap(client, alice, bob):
    for day in range(1, 4):
        pad_game([alice, bob], [[10], [5]], day=day)
    response = client.get("/api/v1/games/?page_size=101")
    assert response.status_code == 400
    assert list(response.json()["errors"]) == ["page_size"]
    assert len(client.get("/api/v1/games/?page_size=100").json()["results"]) == 3


def test_it_refuses_filters_that_are_not_what_the_schema_says(client, alice, bob):
    pad_game([alice, bob], [[10], [5]])
    for query in ("tournament=null", "league=1.5", "players=8", "mode=", "page=0", "page=abc"):
        response = client.get(f"/api/v1/games/?{query}")
        assert response.status_code == 400, query
        assert response.json()["detail"], query
    response = client.get("/api/v1/games/?page=1&page=2")
    assert list(response.json()["errors"]) == ["page"]


def test_it_answers_a_nul_byte_in_a_filter_with_400(client, alice, bob):
    pad_game([alice, bob], [[10], [5]])
    PlayerRating.objects.create(user=alice, games=3, display=1400)
    for path in ("/api/v1/ratings/?username=ali%00ce", "/api/v1/games/?player=ali%00ce"):
        response = client.get(path)
        assert response.status_code == 400, path
        assert response["Content-Type"] == "application/json"
        assert response.json()["errors"]


def test_it_answers_other_methods_with_405_and_a_json_message(alice, bob, club):
    # CSRF checks on, as for a real client: they used to answer 403 first.
    client = Client(enforce_csrf_checks=True)
    game = pad_game([alice, bob], [[10], [5]])
    paths = ["/api/v1/games/", f"/api/v1/games/{game.pk}/", "/api/v1/openapi.json"]
    for user in (None, bob):
        if user:
            client.force_login(user)
        for path in paths:
            for method in ("post", "put", "patch", "delete"):
                response = getattr(client, method)(path)
                assert response.status_code == 405, (method, path)
                assert response["Allow"] == "GET, HEAD"
                assert response.json()["detail"]
            assert client.head(path).status_code == 200


def test_it_answers_missing_things_with_a_json_404(client, alice, bob, club):
    private = pad_game([alice, bob], [[10], [5]], club=club)
    for path in (
        "/api/v1/games/999999999/",
        f"/api/v1/games/{private.pk}/",
        f"/api/v1/games/{private.pk}/record/",
        "/api/v1/games/abc/",
        "/api/v1/nothing/here/",
    ):
        response = client.get(path)
        assert response.status_code == 404, path
        assert response["Content-Type"] == "application/json", path
        assert response.json()["detail"], path


def test_it_filters_by_a_league_the_visitor_cannot_see_to_nothing(client, alice, bob, league):
    pad_game([alice, bob], [[10], [5]], league=league)
    pad_game([alice, bob], [[10], [5]])
    assert client.get(f"/api/v1/games/?league={league.pk}").json()["count"] == 0
    client.force_login(bob)
    assert client.get(f"/api/v1/games/?league={league.pk}").json()["count"] == 1


def test_the_api_answers_a_missing_game_at_any_address_with_json_not_html(client):
    for path in ("/api/games/999/", "/api/v2/games/999/", "/api/v1/game/999/", "/api/games/999"):
        response = client.get(path, follow=True)
        assert response.status_code == 404, path
        assert response["Content-Type"] == "application/json", path
        assert "nothing here" in response.json()["detail"], path
    assert client.get("/api/").status_code == 200
