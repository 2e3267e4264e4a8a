"""Record export and import: the same result back, refused records leave nothing behind."""

import json

import pytest
from django.utils import timezone

from games.ctg import engine
from games.models import Table
from leagues.models import PlayedGame
from tests.history.conftest import online_game


def imported(client, record):
    return client.post("/history/import/", {"record": json.dumps(record)})


def test_it_exports_and_imports_a_game_with_the_same_result(client, alice, bob, charlie):
    table, game = online_game([alice, bob, charlie], seed=21, rounds=3, variants=["imperial-tasks"])
    client.force_login(charlie)
    response = client.get(f"/history/record/{table.pk}.json")
    assert response.status_code == 200
    assert "attachment" in response["Content-Disposition"]
    record = json.loads(response.content)
    assert record["format"] == "ctg-record/1"
    response = imported(client, record)
    assert response.status_code == 302
    copy = Table.objects.exclude(pk=table.pk).get()
    assert copy.status == Table.FINISHED and copy.result == table.result and not copy.rated
    played = PlayedGame.objects.get(table=copy)
    assert response["Location"] == f"/history/game/{played.pk}/"
    assert not played.rated
    # The exported record carries its date, and the imported game keeps it.
    assert played.played_at == game.played_at
    assert [(s.total, s.place) for s in played.seats.all()] == [
        (s.total, s.place) for s in game.seats.all()
    ]
    # Only the importer is linked to an account; the others keep their names.
    assert [s.user_id for s in played.seats.all()] == [None, None, charlie.pk]
    assert [s.name for s in played.seats.all()] == ["alice", "bob", "charlie"]


def test_it_keeps_the_task_bonus_apart_from_the_points_for_sets(client, alice):
    options = engine.Options(3, 3, frozenset({"imperial-tasks"}))
    state = engine.random_game(options, 21, ["ann", "alice", "cy"])
    client.force_login(alice)
    assert imported(client, engine.to_record(state)).status_code == 302
    seats = PlayedGame.objects.get().seats.order_by("seat")
    pad = [
        [(rs.score, rs.bonus) for rs in seat.round_scores.order_by("round_no")] for seat in seats
    ]
    expected = [[(r.scores[i] - r.bonus[i], r.bonus[i]) for r in state.history] for i in range(3)]
    assert pad == expected
    assert any(bonus for rounds in pad for _, bonus in rounds)


def test_it_imports_an_uploaded_file(client, alice):
    state = engine.random_game(engine.Options(2, 1), 5, ["ann", "alice"])
    client.force_login(alice)
    upload = pytest.importorskip("django.core.files.uploadedfile").SimpleUploadedFile(
        "game.json", json.dumps(engine.to_record(state)).encode(), "application/json"
    )
    response = client.post("/history/import/", {"file": upload})
    assert response.status_code == 302
    assert PlayedGame.objects.get().seats.get(seat=1).user == alice


def test_it_refuses_an_illegal_record_with_round_and_action(client, alice):
    state = engine.random_game(engine.Options(2, 1), 6, ["ann", "cy"])
    record = engine.to_record(state)
    first = record["rounds"][0]["actions"][0]
    record["rounds"][0]["actions"][1] = first.replace("D1", "X1").replace("D2", "X1")
    client.force_login(alice)
    response = imported(client, record)
    assert response.status_code == 400
    html = response.content.decode()
    assert "Round 1, action 2" in html and "breaks a rule: §" in html
    assert not Table.objects.exists() and not PlayedGame.objects.exists()


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("{not json", "This is not JSON"),
        ("[1, 2]", "A record is a JSON object."),
        ("[" * 100_000, "This is not JSON"),
        ('{"format": "ctg-record/2"}', "The record is malformed: &#x27;format&#x27; must be"),
    ],
)
def test_it_refuses_a_malformed_record(client, alice, text, message):
    client.force_login(alice)
    response = client.post("/history/import/", {"record": text})
    assert response.status_code == 400
    assert message in response.content.decode()
    assert not Table.objects.exists()


def test_it_refuses_an_unfinished_record(client, alice):
    state = engine.random_game(engine.Options(2, 1), 7, ["ann", "cy"])
    record = engine.to_record(state)
    record["rounds"][0]["actions"] = record["rounds"][0]["actions"][:10]
    client.force_login(alice)
    response = imported(client, record)
    assert "stops before the game is over" in response.content.decode()
    assert not PlayedGame.objects.exists()


def test_it_asks_anonymous_visitors_to_log_in_before_importing(client):
    assert client.get("/history/import/").status_code == 302


def test_an_imported_game_is_marked_as_imported_in_history_game_page_and_api(client, alice, bob):
    _table, played_here = online_game([alice, bob], seed=41)
    state = engine.random_game(engine.Options(2, 1), 42, ["ann", "alice"])
    client.force_login(alice)
    game = client.get(imported(client, engine.to_record(state))["Location"])
    assert "imported from a record" in game.content.decode()

    rows = client.get("/history/").content.decode().split("<tr data-game=")[1:]
    marked = {row.split(">")[0].strip('"'): "data-imported" in row for row in rows}
    copy = PlayedGame.objects.exclude(pk=played_here.pk).get()
    assert marked == {str(copy.pk): True, str(played_here.pk): False}

    api = {g["id"]: g["imported"] for g in client.get("/api/v1/games/").json()["results"]}
    assert api == {copy.pk: True, played_here.pk: False}
    assert client.get(f"/api/v1/games/{copy.pk}/").json()["imported"] is True


def test_an_imported_game_has_the_date_of_its_record_or_else_today(client, alice):
    client.force_login(alice)
    dated = engine.to_record(engine.random_game(engine.Options(2, 1), 43, ["ann", "alice"]))
    dated["played_at"] = "2025-06-01T19:30:00+00:00"
    undated = engine.to_record(engine.random_game(engine.Options(2, 1), 44, ["ann", "alice"]))
    page = client.get(imported(client, dated)["Location"]).content.decode()
    assert "Game of June 1, 2025" in page
    before = timezone.now()
    imported(client, undated)
    assert PlayedGame.objects.latest("id").played_at >= before


@pytest.mark.parametrize("when", ["yesterday", "2999-01-01", 20250601])
def test_it_refuses_a_record_date_that_is_not_a_past_date(client, alice, when):
    record = engine.to_record(engine.random_game(engine.Options(2, 1), 45, ["ann", "alice"]))
    record["played_at"] = when
    client.force_login(alice)
    response = imported(client, record)
    assert response.status_code == 400
    assert "played_at" in response.content.decode()
    assert not Table.objects.exists()


def test_importing_a_record_twice_keeps_one_game_and_links_to_it(client, alice, bob):
    record = engine.to_record(engine.random_game(engine.Options(2, 1), 46, ["ann", "alice"]))
    client.force_login(alice)
    first = imported(client, record)
    # Another member imports the same game, written differently (indented, keys reordered).
    client.force_login(bob)
    text = json.dumps(dict(reversed(list(record.items()))), indent=2)
    second = client.post("/history/import/", {"record": text}, follow=True)

    game = PlayedGame.objects.get()
    assert first["Location"] == second.redirect_chain[-1][0] == f"/history/game/{game.pk}/"
    assert "This game was imported before: here it is." in second.content.decode()
    assert Table.objects.count() == 1
