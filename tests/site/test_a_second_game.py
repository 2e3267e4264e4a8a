"""The site's machinery knows no particular game: a toy game registered only here is played
at the site's tables, its result reaches leagues and history, its replay and its records go
through history as any game's do, and it is kept apart from Call to Glory everywhere a player
filters by game."""

import json
import re
from pathlib import Path

import pytest
from django.core import mail

from accounts.models import Club, Membership, User
from games import actions
from games.models import Table
from history import records
from leagues import results, tallies
from leagues.models import League, PlayedGame
from tests.site.toy_game import TOY


@pytest.fixture(autouse=True)
def toy_registered(settings):
    settings.GAMES = [*settings.GAMES, "tests.site.toy_game.TOY"]
    # The toy's board template lives beside it.
    engine = settings.TEMPLATES[0]
    toy_templates = Path(__file__).parent / "templates"
    settings.TEMPLATES = [engine | {"DIRS": [*engine["DIRS"], toy_templates]}]


@pytest.fixture
def club(alice, bob, charlie):
    club = Club.objects.create(name="Tenno", slug="tenno")
    for user in (alice, bob, charlie):
        Membership.objects.create(club=club, user=user)
    return club


def play_toy_table(club, host, *others, calls):
    table = actions.create_table(
        host, club=club, game="toy", seats_count=1 + len(others), visibility="club", rated=True
    )
    for user in others:
        actions.take_seat(table.pk, user)
    actions.start(table.pk, host)
    table.refresh_from_db()
    by_seat = {seat.position: seat.user for seat in table.seats.all()}
    for call in calls:
        table.refresh_from_db()
        decider = table.plugin.decider(table.state())
        actions.play_for(table.pk, by_seat[decider], str(call), table.version)
    table.refresh_from_db()
    return table


def test_it_plays_a_toy_game_at_a_table_and_records_its_result(club, alice, bob, charlie):
    table = play_toy_table(club, alice, bob, charlie, calls=[2, 3, 2])

    assert table.status == Table.FINISHED
    played = PlayedGame.objects.get(table=table)
    assert played.game == "toy"
    assert played.source == PlayedGame.ONLINE and played.status == PlayedGame.CONFIRMED
    seats = {seat.user.username: seat for seat in table.seats.all()}
    places = {s.user.username: (s.place, s.total) for s in played.seats.all()}
    callers = {name: table.record["calls"][seat.position] for name, seat in seats.items()}
    expected = {
        name: (1 + sum(c > call for c in callers.values()), call) for name, call in callers.items()
    }
    assert places == expected


def test_it_has_no_pages_of_call_to_glorys_piles_for_a_toy_table(client, club, alice, bob):
    table = play_toy_table(club, alice, bob, calls=[1])
    client.force_login(alice)
    assert client.get(f"/play/t/{table.pk}/discard-pile/X1/").status_code == 404


def test_it_shows_a_toy_tables_result_from_the_games_own(client, club, alice, bob):
    table = play_toy_table(club, alice, bob, calls=[1, 3])
    winner = table.seats.get(position=1).user
    client.force_login(winner)
    page = client.get(f"/play/t/{table.pk}/result/")
    assert page.status_code == 200
    assert "You won!" in page.text
    assert f"/history/replay/{table.pk}/" in page.text
    assert [(row["place"], row["total"], row["rounds"]) for row in page.context["rows"]] == [
        (1, 3, [3]),
        (2, 1, [1]),
    ]


def test_it_offers_no_replay_of_a_game_without_one(client, club, alice, bob, monkeypatch):
    table = play_toy_table(club, alice, bob, calls=[1, 3])
    monkeypatch.setattr(TOY, "replay", None)
    client.force_login(alice)
    # No link to a replay, and none to be had.
    assert "/history/replay/" not in client.get(f"/play/t/{table.pk}/result/").text
    page = client.get("/history/", {"game": "toy"})
    assert page.status_code == 200 and "/history/replay/" not in page.text
    assert client.get(f"/history/replay/{table.pk}/").status_code == 404


def calls_shown(html: str) -> list[tuple[str, str]]:
    return re.findall(r'<li data-call="(\d)">(\w+) calls', html)


def test_it_steps_through_a_toy_tables_replay_call_by_call(client, club, alice, bob, charlie):
    table = play_toy_table(club, alice, bob, charlie, calls=[2, 3, 1])
    names = [seat.name for seat in table.seats.order_by("position")]
    client.force_login(charlie)

    start = client.get(f"/history/replay/{table.pk}/", {"step": 0}).text
    assert "Action 0 of 3" in start and calls_shown(start) == []
    assert "Last action:" not in start
    middle = client.get(f"/history/replay/{table.pk}/", {"step": 2}).text
    assert calls_shown(middle) == [("2", names[0]), ("3", names[1])]
    assert f"<code>{names[1]}: 3</code>" in middle
    # Every step takes an action: nothing to skip, no game's own part of the page.
    assert 'id="replay-next-action"' not in middle and "Discard pile" not in middle
    end = client.get(f"/history/replay/{table.pk}/").text
    assert "Action 3 of 3" in end and len(calls_shown(end)) == 3
    # The htmx step draws the same partial.
    response = client.get(f"/history/replay/{table.pk}/?step=1", headers={"HX-Request": "true"})
    assert response.text.lstrip().startswith('<div id="replay"')
    assert calls_shown(response.text) == [("2", names[0])]


def test_it_exports_a_toy_tables_record_and_imports_it_once(client, club, alice, bob):
    table = play_toy_table(club, alice, bob, calls=[1, 3])
    played = PlayedGame.objects.get(table=table)
    client.force_login(alice)
    download = client.get(f"/history/record/{table.pk}.json")
    assert json.loads(download.content)["format"] == "toy-record/1"

    response = client.post("/history/import/", {"record": download.content.decode()})
    assert response.status_code == 302
    copy = PlayedGame.objects.exclude(pk=played.pk).get()
    assert response["Location"] == f"/history/game/{copy.pk}/"
    assert (copy.game, copy.rated, records.is_imported(copy)) == ("toy", False, True)
    assert copy.played_at == table.finished
    seats = {seat.name: (seat.place, seat.total) for seat in copy.seats.all()}
    assert seats == {seat.name: (seat.place, seat.total) for seat in played.seats.all()}
    # The importer's own seat is linked to her; bob's stays a name.
    assert {s.name: s.user_id for s in copy.seats.all()} == {"alice": alice.pk, "bob": None}
    # It became a finished table of the toy game, which replays like the one it came from.
    assert copy.table.game == "toy" and copy.table.record == table.record
    assert client.get(f"/history/replay/{copy.table_id}/").status_code == 200

    again = client.post("/history/import/", {"record": download.content.decode()})
    assert again["Location"] == response["Location"]
    assert PlayedGame.objects.count() == 2


@pytest.mark.parametrize(
    ("record", "message"),
    [
        ({"format": "toy-record/1", "players": ["ann", "cy"], "calls": [3]}, "stops before"),
        ({"format": "toy-record/1", "players": ["ann", "cy"], "calls": [3, 4]}, "malformed"),
        ({"format": "toy-record/1", "players": ["ann"], "calls": [3]}, "malformed"),
        ({"format": "toy-record/1", "players": ["a" * 41, "cy"], "calls": [1, 2]}, "40 char"),
    ],
)
def test_it_refuses_a_toy_record_its_game_refuses(client, alice, record, message):
    client.force_login(alice)
    response = client.post("/history/import/", {"record": json.dumps(record)})
    assert response.status_code == 400 and message in response.text
    assert not Table.objects.exists() and not PlayedGame.objects.exists()


def test_it_refuses_a_move_the_toy_game_does_not_accept(club, alice, bob):
    table = actions.create_table(alice, club=club, game="toy", seats_count=2, visibility="club")
    actions.take_seat(table.pk, bob)
    actions.start(table.pk, alice)
    table.refresh_from_db()
    decider = table.seats.get(position=table.plugin.decider(table.state())).user
    with pytest.raises(actions.Refused) as refused:
        actions.play_for(table.pk, decider, "7", table.version)
    assert refused.value.code == "bad-call"
    table.refresh_from_db()
    assert table.version == 0 and table.status == Table.RUNNING


def test_it_gives_a_toy_game_an_ai_player_of_its_own(club, alice):
    table = actions.create_table(alice, club=club, game="toy", seats_count=2, visibility="club")
    seat = actions.add_ai(table.pk, alice)
    assert seat.ai_level == "first"
    assert actions.ai_decision(table.pk, 0) is None  # not started yet


def test_it_keeps_a_league_to_its_own_game(club, alice, bob, charlie):
    league = League.objects.create(club=club, name="Toy season", game="toy")
    results.record_result(
        results.of_rounds([[1], [3], [2]]), players=[alice, bob, charlie], league=league, game="toy"
    )
    with pytest.raises(ValueError):
        results.record_result(
            results.of_rounds([[10, 1, 1, 1], [5, 1, 1, 1]]), players=[alice, bob], league=league
        )
    tallies.tally_league(league.pk)
    league.refresh_from_db()
    assert [row["name"] for row in league.table] == ["bob", "charlie", "alice"]
    assert league.games.get().game == "toy"


def test_it_lists_toy_games_in_history_and_the_api_by_game(client, club, alice, bob, charlie):
    toy = play_toy_table(club, alice, bob, calls=[1, 3])
    toy_game = PlayedGame.objects.get(table=toy)
    ctg = results.record_result(results.of_rounds([[10], [5]]), players=[alice, bob], club=club)
    client.force_login(charlie)

    page = client.get("/history/", {"game": "toy"})
    assert page.status_code == 200
    assert f"/history/game/{toy_game.pk}/" in page.text
    assert f"/history/game/{ctg.pk}/" not in page.text
    assert f"/history/replay/{toy.pk}/" in page.text
    assert client.get(f"/history/game/{toy_game.pk}/").status_code == 200

    items = client.get("/api/v1/games/", {"game": "toy"}).json()["results"]
    assert [(item["id"], item["game"]) for item in items] == [(toy_game.pk, "toy")]
    items = client.get("/api/v1/games/", {"game": "ctg"}).json()["results"]
    assert [(item["id"], item["game"]) for item in items] == [(ctg.pk, "ctg")]


def test_it_keeps_a_toy_score_pad_to_the_toy_games_rules(client, club, alice, bob):
    # Call to Glory's limits (110 a round, sums of card values) are its own: a toy round
    # of 500 is entered, with no limit on the field.
    league = League.objects.create(club=club, name="Toy season", game="toy")
    league.participants.add(alice, bob)
    client.force_login(alice)
    client.post(
        f"/clubs/tenno/leagues/{league.pk}/games/new/", {"member_0": alice.pk, "member_1": bob.pk}
    )
    pad = PlayedGame.objects.get(league=league)
    assert pad.rounds == 1
    page = client.get(f"/clubs/tenno/games/{pad.pk}/")
    assert 'name="score_0"' in page.text and 'max="' not in page.text
    response = client.post(f"/clubs/tenno/games/{pad.pk}/rounds/1/", {"score_0": 500, "score_1": 3})
    assert response.status_code == 302
    assert sorted(pad.seats.values_list("round_scores__score", flat=True)) == [3, 500]


def test_it_filters_history_by_the_options_of_call_to_glory_only(client, club, alice, bob):
    # A toy game has one round, as a quick Call to Glory game: "quick" is still Call to
    # Glory's alone.
    toy = PlayedGame.objects.get(table=play_toy_table(club, alice, bob, calls=[1, 3]))
    quick = results.record_result(results.of_rounds([[10], [5]]), players=[alice, bob], club=club)
    client.force_login(alice)

    page = client.get("/history/", {"mode": "quick"})
    assert [game.pk for game in page.context["page"].object_list] == [quick.pk]
    items = client.get("/api/v1/games/", {"mode": "quick"}).json()["results"]
    assert [item["id"] for item in items] == [quick.pk]
    assert client.get("/api/v1/games/", {"game": "toy", "mode": "quick"}).json()["count"] == 0

    # With the toy game chosen the page offers no filter of Call to Glory's, and one left in
    # the address is ignored.
    page = client.get("/history/", {"game": "toy", "mode": "quick"})
    assert 'name="mode"' not in page.text and 'name="ninja"' not in page.text
    assert [game.pk for game in page.context["page"].object_list] == [toy.pk]
    assert "the game&#x27;s key: ctg, orc or toy" in client.get("/api/").text


def test_it_names_the_toy_game_in_history_rows_but_not_call_to_glory(client, club, alice, bob):
    play_toy_table(club, alice, bob, calls=[1, 3])
    results.record_result(results.of_rounds([[10], [5]]), players=[alice, bob], club=club)
    client.force_login(alice)
    rows = client.get("/history/").text.split("<tbody>")[1].split("</tbody>")[0]
    assert rows.count("· Call a number") == 1 and "Call to Glory" not in rows


def test_it_names_the_toy_game_in_a_turn_reminder(club, alice, bob):
    User.objects.filter(pk=alice.pk).update(email="alice@example.com")
    table = actions.create_table(alice, club=club, game="toy", seats_count=2, visibility="club")
    actions.take_seat(table.pk, bob)
    actions.start(table.pk, alice)
    table.refresh_from_db()
    decider = table.seats.get(position=table.plugin.decider(table.state())).user
    User.objects.filter(pk=decider.pk).update(email=f"{decider.username}@example.com")

    assert actions.remind(table.pk, table.version)
    (message,) = mail.outbox
    other = "bob" if decider == alice else "alice"
    assert message.subject == f"Call a number: your move against {other}"
    assert f"Your game of Call a number against {other} is waiting" in message.body


def test_its_table_is_drawn_on_the_sites_table_page(client, club, alice, bob):
    table = actions.create_table(alice, club=club, game="toy", seats_count=2, visibility="club")
    actions.take_seat(table.pk, bob)
    actions.start(table.pk, alice)
    client.force_login(alice)
    page = client.get(table.get_absolute_url())
    assert page.status_code == 200
    # The site's page: its socket, the notices, the table talk; the toy's own board on it.
    assert f'ws-connect="/ws/tables/{table.pk}/"' in page.text
    assert 'id="notice"' in page.text and 'id="chat-log"' in page.text
    assert 'class="board toy-board"' in page.text
    assert f"Table {table.pk} · Call a number" in page.text
    # Nothing of another game's board.
    assert "Sets of" not in page.text and "Game log" not in page.text
