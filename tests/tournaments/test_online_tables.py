"""An online Swiss event as a new organiser and eight players run it: its tables belong to the
event, a seat given to an AI player still counts, and a broken table can be mended.

olga organises Tenno; p1 … p8 are members who play; the first player drawn at a table sits
at its first seat, and is nobody's host there.
"""

import csv
import io
import re
from html import unescape

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from accounts.models import Membership, User
from games.models import Seat, Table
from leagues.results import of_rounds, record_result
from tournaments import actions as tournaments
from tournaments.models import Stage, Tournament, TournamentTable

pytestmark = pytest.mark.django_db

# The largest table each game seats: eight players make two tables of four in both.
LARGEST = {"ctg": 4, "orc": 7}
OPTIONS = {"ctg": {"game_length": "quick"}, "orc": {}}


@pytest.fixture
def eight(club):
    users = []
    for i in range(1, 9):
        user = User.objects.create_user(f"p{i}", password="pw")
        Membership.objects.create(club=club, user=user)
        users.append(user)
    return users


def online_event(club, players, olga, game="ctg") -> Tournament:
    """An online Swiss event of two rounds where an AI player may fill a no-show's seat; its
    first round begun."""
    event = tournaments.create(
        club,
        name="Online night",
        game=game,
        mode=Tournament.ONLINE,
        max_table=LARGEST[game],
        options=OPTIONS[game],
        seeding=Tournament.RANDOM,
        allow_ai=True,
        stages=[{"kind": Stage.SWISS, "rounds": 2}],
    )
    for user in players:
        tournaments.register(event, user, checked_in=True)
    tournaments.begin_round(tournaments.draft_round(event), olga)
    return event


def first_table(event) -> TournamentTable:
    return TournamentTable.objects.filter(round__stage__tournament=event).order_by("number")[0]


def client_for(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def text(response) -> str:
    return unescape(response.content.decode())


def messages(response) -> list[str]:
    """The messages a page shows at its top."""
    return re.findall(r'<li class="message [^"]*">([^<]*)</li>', text(response))


def seat_op(client, online, op, **extra):
    """A seat request from the waiting room, as htmx sends it."""
    url = reverse("table_seat", args=[online.pk])
    return client.post(url, {"op": op, **extra}, HTTP_HX_REQUEST="true")


@pytest.mark.parametrize("game", ["ctg", "orc"])
def test_a_seated_player_cannot_remove_an_opponent_at_a_tournament_table(club, eight, olga, game):
    event = online_event(club, eight, olga, game)
    table = first_table(event)
    online = table.online_table
    first = User.objects.get(pk=table.players[0])
    client = client_for(first)

    page = client.get(online.get_absolute_url()).content.decode()
    assert 'value="remove"' not in page and 'value="add_ai"' not in page

    response = seat_op(client, online, "remove", position=1)
    assert response.status_code == 403
    assert "the tournament's organisers" in text(response)
    assert online.seats.count() == len(table.players)


@pytest.mark.parametrize("game", ["ctg", "orc"])
def test_a_seated_player_cannot_cancel_start_or_leave_a_tournament_table(club, eight, olga, game):
    event = online_event(club, eight, olga, game)
    table = first_table(event)
    online = table.online_table
    first = User.objects.get(pk=table.players[0])
    client = client_for(first)

    page = client.get(online.get_absolute_url()).content.decode()
    assert "Cancel the table" not in page and "Start the game" not in page

    for op in ("cancel", "start", "leave"):
        response = seat_op(client, online, op)
        assert response.status_code == 403, op
        assert "the tournament's organisers" in text(response)
    online.refresh_from_db()
    assert online.status == Table.OPEN


def step(client, event, **data):
    """An organiser's step on the event's page, followed to the page that answers it."""
    return client.post(
        reverse("tournament_step", args=[event.club.slug, event.pk]), data, follow=True
    )


def play_out(online: Table) -> Table:
    """Play a running Call to Glory table to its end: each person his first legal move, each
    AI player its own."""
    from games import actions
    from games.ctg import engine

    people = {s.position: s.user for s in online.seats.select_related("user")}
    for _ in range(5000):
        online.refresh_from_db()
        if online.status != Table.RUNNING:
            return online
        if online.pause_until is not None:
            for user in filter(None, people.values()):
                actions.continue_round(online.pk, user)
            continue
        state = online.state()
        player = people[state.decider]
        if player is None:
            actions.ai_play(online.pk, online.version)
        else:
            text = engine.action_text(state.legal_actions()[0], state.names)
            actions.play_for(online.pk, player, text, online.version)
    raise AssertionError("the game did not end")


def test_the_organiser_fills_the_seat_of_a_removed_player_with_an_ai_player(club, eight, olga):
    event = online_event(club, eight, olga)
    table = first_table(event)
    online = table.online_table
    removed = table.players[1]
    # As a seated player could remove him before tournament tables were the event's.
    online.seats.filter(user_id=removed).delete()

    response = step(client_for(olga), event, step="ai", table=table.pk, player=removed)

    assert response.status_code == 200
    assert online.seats.count() == 4
    assert online.seats.exclude(ai_level="").count() == 1


def test_filling_a_seat_twice_says_an_ai_player_has_it_already(club, eight, olga):
    event = online_event(club, eight, olga)
    table = first_table(event)
    absent = table.players[2]
    client = client_for(olga)

    step(client, event, step="ai", table=table.pk, player=absent)
    response = step(client, event, step="ai", table=table.pk, player=absent)

    assert messages(response) == ["An AI player has this seat already."]
    assert table.online_table.seats.exclude(ai_level="").count() == 1


def test_acting_on_a_finished_table_says_its_game_is_over(club, eight, olga):
    event = online_event(club, eight, olga)
    table = first_table(event)
    client = client_for(olga)
    step(client, event, step="ai", table=table.pk, player=table.players[3])
    step(client, event, step="start", table=table.pk)
    play_out(table.online_table)

    for action in ({"step": "ai", "player": table.players[0]}, {"step": "start"}):
        response = step(client, event, table=table.pk, **action)
        assert response.status_code == 200
        assert messages(response) == ["The game at table 1 is over."], action


def test_drawing_a_round_while_tables_play_says_why(club, eight, olga):
    event = online_event(club, eight, olga)

    response = step(client_for(olga), event, step="draft")

    assert response.status_code == 200
    assert messages(response) == [
        "Every table of the current round needs a confirmed result first."
    ]
    assert event.stages.get().rounds_played.count() == 1


def finish_with(table: TournamentTable, totals: list[int]) -> None:
    """The online game of `table` ends with these totals, seat by seat; its result comes in as
    a finished table's does (leagues.receivers)."""
    online = Table.objects.get(pk=table.online_table_id)
    seats = list(online.seats.select_related("user").order_by("position"))
    Table.objects.filter(pk=online.pk).update(status=Table.FINISHED, finished=timezone.now())
    record_result(
        of_rounds([[total] for total in totals]),
        players=[seat.user or seat.name for seat in seats],
        club=online.club,
        options=online.options,
        rated=online.rated,
        external_ref=f"online:{online.pk}",
        game=online.game,
        table=online,
    )


def standings(page: str) -> dict[str, tuple[str, str, str, str]]:
    """The standings table as a page shows it: (rank, points, wins, games) by player name."""
    rows = re.findall(
        r'<tr data-player="\d+"[^>]*>\s*<td>(\d+)</td><td>([^<]+)</td>'
        r'<td class="tn-points">([^<]+)</td><td>(\d+)</td>.*?<td class="tn-games">(\d+)</td>',
        page,
        re.S,
    )
    return {name: (rank, points, wins, games) for rank, name, points, wins, games in rows}


def entries(page: str) -> list[str]:
    """The registered players as the event's page lists them, each with his presence."""
    found = re.findall(r'<li data-entry="\d+">(.*?)(?:<form|</li>)', page, re.S)
    return [" ".join(entry.split()) for entry in found]


def card(page: str, number: int) -> list[str]:
    """The lines of a table's card on a page, as read: each seat with its result."""
    found = re.search(
        rf'<li class="tn-card[^"]*" data-table="{number}">.*?<ol>(.*?)</ol>', page, re.S
    )
    assert found, f"no card of table {number}"
    lines = re.findall(r"<li[^>]*>(.*?)</li>", found.group(1), re.S)
    return [" ".join(re.sub(r"<[^>]+>", " ", line).split()) for line in lines]


def test_a_player_third_behind_two_ai_players_is_placed_third(club, eight, olga):
    event = online_event(club, eight, olga)
    table = first_table(event)
    first, second, third, fourth = (User.objects.get(pk=p) for p in table.players)
    client = client_for(olga)
    for absent in (second, third):
        step(client, event, step="ai", table=table.pk, player=absent.pk)
    step(client, event, step="start", table=table.pk)

    # Seat by seat: the AI players in seats 2 and 3 come first and second.
    finish_with(table, [15, 38, 28, 6])

    page = text(client.get(event.get_absolute_url()))
    shown = standings(page)
    assert shown[first.username][1:] == ("1", "0", "1")  # 1 point for a third place, no win
    assert shown[fourth.username][1:] == ("0", "0", "1")
    assert card(page, 1) == [
        f"{first} 3. · 15",
        f"Tactician 2 AI in place of {second} 1. · 38",
        f"Tactician 3 AI in place of {third} 2. · 28",
        f"{fourth} 4. · 6",
    ]
    # The projector, the API and the player's results agree with the page.
    projector = text(client.get(reverse("tournament_projector", args=[club.slug, event.pk])))
    assert standings(projector) == shown
    api = client.get(reverse("api_tournament_standings", args=[event.pk])).json()
    row = next(r for r in api["stages"][0]["standings"] if r["username"] == first.username)
    assert (str(row["rank"]), row["points"], row["wins"]) == (shown[first.username][0], 1.0, 0)
    results = client.get(reverse("player_csv", args=[first.username])).content.decode()
    assert list(csv.DictReader(io.StringIO(results)))[-1]["place"] == "3"


def test_a_player_replaced_by_an_ai_player_stays_in_the_standings(club, eight, olga):
    event = online_event(club, eight, olga)
    table = first_table(event)
    absent = User.objects.get(pk=table.players[1])
    client = client_for(olga)
    step(client, event, step="ai", table=table.pk, player=absent.pk)
    step(client, event, step="start", table=table.pk)
    finish_with(table, [15, 38, 28, 6])

    page = text(client.get(event.get_absolute_url()))

    assert f"{absent} · present" in entries(page)
    shown = standings(page)
    assert set(shown) == {user.username for user in eight}
    assert shown[absent.username][1:] == ("0", "0", "0")


def test_a_player_removed_from_his_table_is_not_left_there_without_a_result(club, eight, olga):
    event = online_event(club, eight, olga)
    table = first_table(event)
    first, removed, third, fourth = (User.objects.get(pk=p) for p in table.players)
    online = table.online_table
    # As a seated player could, before tournament tables were the event's: he removed an
    # opponent and gave the seat to an AI player himself.
    online.seats.filter(user=removed).delete()
    Seat.objects.create(table=online, position=1, ai_level="search", name="Tactician 2")
    client = client_for(olga)
    step(client, event, step="start", table=table.pk)
    finish_with(table, [15, 38, 28, 6])

    page = text(client.get(event.get_absolute_url()))

    assert card(page, 1) == [
        f"{first} 3. · 15",
        f"Tactician 2 AI in place of {removed} 1. · 38",
        f"{third} 2. · 28",
        f"{fourth} 4. · 6",
    ]
    assert standings(page)[first.username][1:] == ("1", "0", "1")


def play_some(online: Table, decisions: int = 40) -> None:
    """Call to Glory: the people at `online` take their first legal decision, `decisions` times."""
    from games import actions
    from games.ctg import engine

    people = {s.position: s.user for s in online.seats.select_related("user")}
    for _ in range(decisions):
        online.refresh_from_db()
        state = online.state()
        text = engine.action_text(state.legal_actions()[0], state.names)
        actions.play_for(online.pk, people[state.decider], text, online.version)


def orc_late_position(online: Table) -> None:
    """De l'Orc: the table's game goes to the last decision of a random game of its players."""
    from games.orc import engine
    from games.orc.game import DE_L_ORC
    from games.orc.replay import position
    from games.records import action_lines

    names = online.record["players"]
    record = engine.to_record(engine.random_game(len(names), 3, names))
    lines = action_lines(record)
    last = max(n for n in range(len(lines)) if not position(record, n).game_over)
    before = position(record, last)
    Table.objects.filter(pk=online.pk).update(
        record=engine.to_record(before), version=DE_L_ORC.version(before)
    )


def under_way(online: Table, game: str) -> list[int]:
    """Take the table's game some way, and say each seat's score as its board shows it: the
    rounds played and, in Call to Glory, the sets on the table."""
    if game == "ctg":
        from games.ctg import engine

        play_some(online)
        online.refresh_from_db()
        view = engine.public_view(online.state())
        laid = [sum(s["type"] for s in view["table"] if s["owner"] == i) for i in range(4)]
        return [total + more for total, more in zip(view["totals"], laid, strict=True)]
    orc_late_position(online)
    online.refresh_from_db()
    return list(online.state().totals)


def asks_first(page: str, step_name: str) -> bool:
    """Whether the page's button of this step asks for confirmation before it sends."""
    buttons = re.findall(rf'<button[^>]*value="{step_name}"[^>]*>', page)
    return bool(buttons) and all("data-confirm=" in button for button in buttons)


@pytest.mark.parametrize("game", ["ctg", "orc"])
def test_the_organiser_replaces_a_player_by_an_ai_player_during_the_game(club, eight, olga, game):
    event = online_event(club, eight, olga, game)
    table = first_table(event)
    gone = User.objects.get(pk=table.players[1])
    client = client_for(olga)
    step(client, event, step="start", table=table.pk)
    assert asks_first(text(client.get(event.get_absolute_url())), "ai")

    response = step(client, event, step="ai", table=table.pk, player=gone.pk)

    assert messages(response) == []
    stand_in = {"ctg": "Card counter", "orc": "Sergeant"}[game]
    assert card(text(response), 1)[1] == f"{stand_in} AI in place of {gone}"
    seat = table.online_table.seats.get(user=gone)
    assert seat.left and Table.objects.get(pk=seat.table_id).status == Table.RUNNING


@pytest.mark.parametrize("game", ["ctg", "orc"])
def test_the_organiser_ends_a_game_with_the_current_scores(club, eight, olga, game):
    event = online_event(club, eight, olga, game)
    table = first_table(event)
    names = [str(User.objects.get(pk=p)) for p in table.players]
    client = client_for(olga)
    step(client, event, step="start", table=table.pk)
    scores = under_way(table.online_table, game)
    assert asks_first(text(client.get(event.get_absolute_url())), "adjudicate")

    response = step(client, event, step="adjudicate", table=table.pk, forfeit="")

    assert messages(response) == []
    lines = card(text(response), 1)
    shown = [re.fullmatch(r"(\S+) (\d)\. · (\d+)", line).groups() for line in lines]
    assert [(name, int(score)) for name, _place, score in shown] == list(
        zip(names, scores, strict=True)
    )
    assert all(
        (int(place) < int(other)) == (int(score) > int(better))
        for _n, place, score in shown
        for _o, other, better in shown
        if score != better
    )
    # The other table ends too: the round is complete, the next can be drawn.
    other = TournamentTable.objects.get(round=table.round, number=2)
    step(client, event, step="start", table=other.pk)
    step(client, event, step="adjudicate", table=other.pk, forfeit="")
    assert "Draw the next round" in text(client.get(event.get_absolute_url()))
    online = text(client_for(eight[0]).get(table.online_table.get_absolute_url()))
    assert "The tournament's organisers ended this game." in online
    # Its result is a played game like any other, with its page in history.
    table.refresh_from_db()
    assert client.get(f"/history/game/{table.game_id}/").status_code == 200


def test_the_organiser_ends_a_game_by_a_forfeit(club, eight, olga):
    event = online_event(club, eight, olga)
    table = first_table(event)
    cheat = User.objects.get(pk=table.players[0])
    client = client_for(olga)
    step(client, event, step="start", table=table.pk)
    under_way(table.online_table, "ctg")

    response = step(client, event, step="adjudicate", table=table.pk, forfeit=cheat.pk)

    assert messages(response) == []
    assert card(text(response), 1)[0].startswith(f"{cheat} 4. · ")
    assert standings(text(response))[cheat.username][1:] == ("0", "0", "1")


@pytest.mark.parametrize("game", ["ctg", "orc"])
def test_the_organiser_restarts_a_table_that_broke(club, eight, olga, game):
    event = online_event(club, eight, olga, game)
    table = first_table(event)
    broken = table.online_table
    # As a seated player could cancel it, before tournament tables were the event's.
    Table.objects.filter(pk=broken.pk).update(status=Table.CANCELLED)
    client = client_for(olga)
    assert asks_first(text(client.get(event.get_absolute_url())), "restart")

    response = step(client, event, step="restart", table=table.pk)

    assert messages(response) == []
    table.refresh_from_db()
    fresh = table.online_table
    assert fresh.pk != broken.pk and fresh.status == Table.OPEN and fresh.managed
    seated = fresh.seats.order_by("position").values_list("user_id", flat=True)
    assert list(seated) == table.players
    step(client, event, step="start", table=table.pk)
    assert Table.objects.get(pk=fresh.pk).status == Table.RUNNING


def test_restarting_a_running_table_keeps_its_ai_players_and_ends_the_old_game(club, eight, olga):
    event = online_event(club, eight, olga)
    table = first_table(event)
    absent = table.players[2]
    client = client_for(olga)
    step(client, event, step="ai", table=table.pk, player=absent)
    step(client, event, step="start", table=table.pk)
    old = table.online_table

    response = step(client, event, step="restart", table=table.pk)

    assert messages(response) == []
    table.refresh_from_db()
    assert Table.objects.get(pk=old.pk).status == Table.CLOSED
    seats = list(table.online_table.seats.order_by("position"))
    assert [s.user_id for s in seats] == [*table.players[:2], None, table.players[3]]
    assert seats[2].is_ai


def test_an_online_round_does_not_send_its_players_to_score_pads(club, eight, olga):
    event = online_event(club, eight, olga)

    page = text(client_for(olga).get(event.get_absolute_url()))

    assert "score pad" not in page
    assert "The round is being played online: a table's result counts once its game ends." in page
