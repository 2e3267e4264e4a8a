"""De l'Orc in the history: orc-record/1 import and export, the per-round result on the game
page, the read API (§8 result shape) and the game filter.

Personas (tests/history/conftest.py): alice and bob are members of "Kyoto"; charlie is in no
club. Imported records belong to no club, so anyone may see them.
"""

import json
import re
from datetime import UTC, datetime, timedelta

import pytest
from django.utils import timezone

from games.orc import engine
from history import records
from leagues.models import PlayedGame
from leagues.results import of_rounds, record_result


def orc_record(players=5, seed=3, names=None):
    return engine.to_record(engine.random_game(players, seed, names))


def imported(client, record):
    return client.post("/history/import/", {"record": json.dumps(record)})


def test_it_imports_a_record_as_an_unrated_game_of_de_l_orc(client, charlie):
    client.force_login(charlie)
    names = ["ann", "charlie", "cy", "dee", "eve"]
    record = orc_record(names=names)
    before = timezone.now()
    response = imported(client, record)
    game = PlayedGame.objects.get()
    assert response.status_code == 302 and response["Location"] == f"/history/game/{game.pk}/"
    assert (game.game, game.rated, records.is_imported(game)) == ("orc", False, True)
    assert before <= game.played_at <= timezone.now()
    expected = engine.result(engine.from_record(record))
    assert {s.name: s.place for s in game.seats.all()} == expected["placings"]
    assert {s.name: s.total for s in game.seats.all()} == expected["totals"]
    # Only the importer is linked to an account.
    assert [s.user_id for s in game.seats.order_by("seat")] == [None, charlie.pk, None, None, None]
    page = client.get(response["Location"]).content.decode()
    assert "data-imported" in page
    first = expected["rounds"][0]
    assert f"{first['wizard']} was the wizard, {first['champion']} his champion." in page


def test_importing_the_same_record_twice_keeps_one_game(client, charlie):
    client.force_login(charlie)
    record = orc_record()
    first = imported(client, record)
    # The same content with its keys in another order is the same record.
    again = imported(client, dict(reversed(list(record.items()))))
    assert PlayedGame.objects.count() == 1
    assert first["Location"] == again["Location"]


def test_it_dates_the_game_from_the_record(client, charlie):
    client.force_login(charlie)
    imported(client, orc_record() | {"played_at": "2025-03-14T20:30:00+00:00"})
    assert PlayedGame.objects.get().played_at == datetime(2025, 3, 14, 20, 30, tzinfo=UTC)
    response = imported(client, orc_record(seed=4) | {"played_at": "last tuesday"})
    assert response.status_code == 400 and "played_at is not a date" in response.content.decode()
    future = (timezone.now() + timedelta(days=2)).date().isoformat()
    response = imported(client, orc_record(seed=4) | {"played_at": future})
    assert "in the future" in response.content.decode()


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda r: r | {"players": r["players"][:3]}, "The record is malformed"),
        (lambda r: r | {"rounds": r["rounds"][:1]}, "stops before the game is over"),
        (
            lambda r: r | {"rounds": [r["rounds"][0] | {"actions": ["zed: champion ann"]}]},
            "The record is malformed",
        ),
    ],
)
def test_it_refuses_a_broken_record_and_keeps_nothing(client, charlie, change, message):
    client.force_login(charlie)
    response = imported(client, change(orc_record()))
    assert response.status_code == 400 and message in response.content.decode()
    assert not PlayedGame.objects.exists()


def test_it_names_the_round_and_rule_of_an_illegal_action(client, charlie):
    client.force_login(charlie)
    record = orc_record()
    wizard = record["players"][0]
    # The wizard plays no player cards (§3.1).
    bad = dict(record["rounds"][0]) | {"actions": [f"{wizard}: desert P1 @1"]}
    response = imported(client, record | {"rounds": [bad, *record["rounds"][1:]]})
    page = response.content.decode()
    assert response.status_code == 400 and "Round 1, action 1" in page


def test_the_api_exports_the_record_and_the_result(client, charlie):
    client.force_login(charlie)
    record = orc_record(players=6, seed=8)
    imported(client, record)
    game = PlayedGame.objects.get()
    data = client.get(f"/api/v1/games/{game.pk}/").json()
    assert data["game"] == "orc" and data["imported"] is True
    assert data["result"] == engine.result(engine.from_record(record))
    exported = client.get(data["record"]).json()
    assert exported == engine.to_record(engine.from_record(record))
    # Export -> import: the same game.
    imported(client, exported)
    assert PlayedGame.objects.count() == 1


def test_the_api_and_history_filter_by_game(client, alice, bob, club):
    from accounts.models import User

    more = [User.objects.create_user(n, password="pw") for n in ("cy", "dee", "eve")]
    record_result(of_rounds([[30], [20]]), players=[alice, bob], club=club)
    record_result(
        of_rounds([[4, 6], [2, 3], [0, 0], [1, 0], [0, 0]]),
        players=[alice, bob, *more],
        club=club,
        game="orc",
        source=PlayedGame.PAD,
    )
    client.force_login(alice)
    orc = client.get("/api/v1/games/?game=orc").json()["results"]
    assert [g["game"] for g in orc] == ["orc"] and len(orc[0]["players"]) == 5
    both = client.get("/api/v1/games/").json()["results"]
    assert sorted(g["game"] for g in both) == ["ctg", "orc"]
    five = client.get("/api/v1/games/?players=5").json()["results"]
    assert [g["game"] for g in five] == ["orc"]
    page = client.get("/history/?game=orc").content.decode()
    assert page.count("data-game=") == 1 and "De l&#x27;Orc pour les Braves" in page


def test_the_api_shows_a_pad_game_in_the_result_shape(client, alice, bob, club):
    from accounts.models import User
    from leagues import actions
    from leagues.models import League

    more = [User.objects.create_user(n, password="pw") for n in ("cy", "dee", "eve")]
    league = League.objects.create(club=club, name="Orc", game="orc")
    game = actions.start_pad_game(
        league, alice, [actions.Player(user=u) for u in [alice, bob, *more]]
    )
    actions.enter_pad_entry(game, 1, {"wizard": 0, "champion": 1, "winners": [[1], [2], [3], [1]]})
    actions.enter_pad_entry(game, 2, {"wizard": 1, "champion": 2, "winners": [[2], [3], [2], [2]]})
    actions.submit_for_confirmation(game)
    actions.confirm(game, bob, is_organiser=False)
    client.force_login(alice)
    data = client.get(f"/api/v1/games/{game.pk}/").json()
    result = data["result"]
    assert result["totals"] == {"alice": 4, "bob": 9, "cy": 6, "dee": 2, "eve": 0}
    assert result["placings"]["bob"] == 1 and "unfinished" not in result
    assert result["rounds"][1]["wizard"] == "bob" and result["rounds"][1]["champion"] == "cy"
    assert result["rounds"][0]["battles"][1] == {"winners": ["cy"], "points": 1}
    assert data["record"] is None and data["rounds"] == 2


def finish_online(table, seed=3):
    """Play `table` (started, with its seats) to its end: a random game of its players up to
    its last decision, which goes through the table like any other."""
    from games import actions
    from games.models import Table
    from games.orc.game import DE_L_ORC
    from games.orc.replay import position as orc_position
    from games.records import action_lines

    record = engine.to_record(engine.random_game(table.seats_count, seed, table.record["players"]))
    lines = action_lines(record)
    n = max(n for n in range(len(lines)) if not orc_position(record, n).game_over)
    before = orc_position(record, n)
    Table.objects.filter(pk=table.pk).update(
        record=engine.to_record(before), version=DE_L_ORC.version(before)
    )
    table.refresh_from_db()
    actions.play(table.pk, before.decider, lines[n][1].split(": ", 1)[1], table.version)
    table.refresh_from_db()
    assert table.status == Table.FINISHED
    return table, engine.result(engine.from_record(record))


def test_an_online_game_shows_each_rounds_wizard_champion_and_winners(client, alice, bob, club):
    from tests.games.orc_helpers import orc_table

    table = orc_table(alice, [bob], ["heuristic", "expert"], club=club, visibility="club")
    table, expected = finish_online(table)
    game = PlayedGame.objects.get(table=table)
    assert len(expected["rounds"]) == game.rounds > 1
    # The AI players' names as the page shows them; the record writes them without spaces.
    shown = {s.name.replace(" ", "-"): s.display_name for s in table.seats.all()}
    client.force_login(alice)
    html = client.get(f"/history/game/{game.pk}/").content.decode()
    listed = re.findall(r"<li>([^<>]*) was the wizard", html)
    assert listed == [shown[r["wizard"]] for r in expected["rounds"]]
    for r in expected["rounds"]:
        wizard, champion = shown[r["wizard"]], shown[r["champion"]]
        assert f"{wizard} was the wizard, {champion} his champion." in html
        for number, battle in enumerate(r["battles"], 1):
            winners = ", ".join(shown[w] for w in battle["winners"]) or "nobody"
            assert f"Battle {number}: {winners} · " in html
    # The API tells it as it tells a score pad's.
    data = client.get(f"/api/v1/games/{game.pk}/").json()["result"]
    assert [r["champion"] for r in data["rounds"]] == [
        r["champion"].replace("-", " ") for r in expected["rounds"]
    ]
    # So does the club's page of the game, where a pad game is entered.
    pad = client.get(game.get_absolute_url()).content.decode()
    first = expected["rounds"][0]
    names = {s.name.replace(" ", "-"): s.name for s in table.seats.all()}
    wizard, champion = names[first["wizard"]], names[first["champion"]]
    assert f"{wizard} was the wizard, {champion} his champion." in pad
