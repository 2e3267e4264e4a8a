"""The read API gives a finished game's analysis per game and per seat, in the shape the
`analyse` command prints; a game without a record has none, and bad addresses answer 404
in JSON. (Its schema: tests/history/test_api_schema.py.)

alice played seat 0 of a public game against three AI players; only her seat is analysed.
"""

import pytest

from analysis import actions
from leagues.models import PlayedGame
from tests.analysis.site import finished_against_ai
from tests.history.conftest import pad_game

pytestmark = pytest.mark.django_db

DOCUMENTED = ["seat", "accuracy", "decisions", "seconds"]
DECISION = ["index", "round", "played", "best", "loss", "error", "mark", "options"]


@pytest.fixture
def analysed_game(alice):
    table = finished_against_ai(alice)
    analysis = actions.request(table, [0], alice)[0]
    assert actions.run(analysis.pk)
    return PlayedGame.objects.get(table=table), table


def test_it_gives_every_seat_with_its_analysis_once_done(client, analysed_game):
    game, table = analysed_game
    answer = client.get(f"/api/v1/games/{game.pk}/analysis/")
    assert answer.status_code == 200
    body = answer.json()
    assert body["game"] == game.pk and body["table"] == table.pk
    assert [seat["seat"] for seat in body["seats"]] == [0, 1, 2, 3]
    assert [seat["status"] for seat in body["seats"]] == ["done", "none", "none", "none"]
    alice, ai = body["seats"][0], body["seats"][1]
    assert alice["username"] == "alice" and ai["username"] is None and ai["analysis"] is None

    analysis = alice["analysis"]
    assert list(analysis)[:4] == DOCUMENTED
    assert analysis["seat"] == "alice" and 0 <= analysis["accuracy"] <= 100
    assert alice["done"] == alice["total"] == len(analysis["decisions"]) > 0
    for index, decision in enumerate(analysis["decisions"]):
        assert list(decision)[: len(DECISION)] == DECISION
        assert decision["index"] == index
        assert decision["mark"] in (None, "?!", "?", "??")
        assert len(decision["options"]) >= 2
        assert decision["best"] in [o["option"] for o in decision["options"]]
        assert all(0 <= o["value"] <= 1 for o in decision["options"])

    one = client.get(f"/api/v1/games/{game.pk}/analysis/0/")
    assert one.status_code == 200 and one.json() == alice


def test_it_answers_404_in_words_where_there_is_no_analysis(client, alice, analysed_game):
    game, _table = analysed_game
    pad = pad_game([alice, "Guest"], [[10], [5]])
    for address, detail in [
        (f"/api/v1/games/{game.pk}/analysis/4/", "This game has no such seat."),
        (f"/api/v1/games/{pad.pk}/analysis/", "Only online games and imported records"),
        (f"/api/v1/games/{10**6}/analysis/", "There is nothing here"),
        (f"/api/v1/games/{game.pk}/analysis/x/", "There is nothing here"),
    ]:
        answer = client.get(address)
        assert answer.status_code == 404, address
        assert answer.json()["detail"].startswith(detail)
    assert client.post(f"/api/v1/games/{game.pk}/analysis/").status_code == 405


def test_a_club_game_is_analysed_for_its_members_only(client, alice, charlie):
    from accounts.models import Club, Membership
    from games.models import Table

    club = Club.objects.create(name="Kyoto", slug="kyoto")
    Membership.objects.create(club=club, user=alice)
    table = finished_against_ai(alice)
    Table.objects.filter(pk=table.pk).update(club=club, visibility="club")
    PlayedGame.objects.filter(table=table).update(club=club)
    game = PlayedGame.objects.get(table=table)
    client.force_login(charlie)
    assert client.get(f"/api/v1/games/{game.pk}/analysis/").status_code == 404
    client.force_login(alice)
    assert client.get(f"/api/v1/games/{game.pk}/analysis/").status_code == 200
