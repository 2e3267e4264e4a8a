"""De l'Orc names its AI players in the viewer's language wherever it shows them, as the
waiting room does: the board, its log and round summaries, the small pushes of the deal, the
result page and the replay. The record keeps their stored names ("Sergeant-2").

alice hosts a Sergeant, a Recruit and a Sergeant, or has played a whole game with bob and two
Sergeants; she reads French.
"""

import re

import pytest
from channels.db import database_sync_to_async
from django.conf import settings
from django.test import Client

from games import actions
from games.orc import replay
from tests.conftest import persona
from tests.games.orc_helpers import finished_orc_table, orc_table, set_deal
from tests.games.test_consumers import connect
from tests.games.test_orc_deal import drain

FRENCH = {"Sergeant 2": "Sergent 2", "Recruit 3": "Recrue 3", "Sergeant 4": "Sergent 4"}


def in_french(client: Client, url: str) -> str:
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "fr"
    response = client.get(url)
    assert response.status_code == 200, url
    return response.content.decode()


def text_of(html: str) -> str:
    """What a page says: without its tags' attributes, which may carry the record's names."""
    return re.sub(r"<[^>]*>", "<>", html)


def stored_names_in(html: str) -> set[str]:
    """The AI players' stored names (with a space or as the record writes them) a page shows."""
    return set(re.findall(r"\b(?:Sergeant|Recruit)[ -]\d", text_of(html)))


def cards_left(html: str) -> list[tuple[str, str]]:
    """The deal's list of cards left: each player's record name and shown name."""
    found = re.search(r'<ul id="cards-left".*?</ul>', html, re.S).group(0)
    return re.findall(r'<li data-player="([^"]+)">([^:<]+):', found)


@pytest.mark.django_db
def test_the_board_names_ai_players_as_the_waiting_room_does(alice):
    client = Client()
    client.force_login(alice)
    table = actions.create_table(
        alice,
        game="orc",
        options={"pace": 1.2},
        seats_count=4,
        visibility="public",
        seat_order="host",  # alice is round 1's wizard: she holds no shields nor deserters
    )
    for level in ("heuristic", "beginner", "heuristic"):
        actions.add_ai(table.pk, alice, level)
    waiting = text_of(in_french(client, table.get_absolute_url()))
    assert all(name in waiting for name in FRENCH.values())

    actions.start(table.pk, alice)
    table.refresh_from_db()
    set_deal(table, 5.5)
    board = in_french(client, table.get_absolute_url())

    assert stored_names_in(board) == set()
    for name in FRENCH.values():
        assert f"<h2>{name} <span" in board
    assert cards_left(board) == [
        ("Sergeant-2", "Sergent 2"),
        ("Recruit-3", "Recrue 3"),
        ("Sergeant-4", "Sergent 4"),
    ]
    # The record and the seats keep the stored names.
    assert table.record["players"] == ["alice", "Sergeant-2", "Recruit-3", "Sergeant-4"]
    assert sorted(table.seats.values_list("name", flat=True))[:2] == ["Recruit 3", "Sergeant 2"]


@pytest.mark.django_db
def test_the_log_summaries_result_and_replay_name_ai_players_in_french(alice):
    table = finished_orc_table([alice, persona("bob"), "Sergeant 3", "Sergeant 4"])
    client = Client()
    client.force_login(alice)

    board = in_french(client, table.get_absolute_url())
    log = re.search(r'<details class="log">.*?</details>', board, re.S).group(0)
    assert "<li>Sergent 3 " in log and "<li>Sergent 4 " in log
    summaries = re.findall(r'<details class="round-summary".*?</details>', board, re.S)
    assert summaries and all("Sergent 3" in s and "Sergent 4" in s for s in summaries)
    assert stored_names_in(board) == set()

    result = in_french(client, f"/play/t/{table.pk}/result/")
    assert "<td>Sergent 3" in result and stored_names_in(result) == set()

    steps = replay.steps(table.record)
    by_ai = next(i for i, s in enumerate(steps, 1) if s.text.startswith("Sergeant-3: "))
    page = in_french(client, f"/history/replay/{table.pk}/?step={by_ai}")
    # The step reads as a sentence of the viewer's language, with the AI player's French name.
    assert "<code>Sergent 3 " in page
    assert stored_names_in(page) == set()
    assert stored_names_in(in_french(client, f"/history/replay/{table.pk}/")) == set()


@pytest.mark.django_db(transaction=True)
async def test_a_deal_push_names_ai_players_as_the_whole_board_does():
    alice = await database_sync_to_async(persona)("alice")
    alice.preferred_language = "fr"  # her socket's language
    await database_sync_to_async(alice.save)()
    table = await database_sync_to_async(orc_table)(
        alice, [], ["heuristic", "beginner", "heuristic"]
    )
    await database_sync_to_async(set_deal)(table, 3.5)
    socket = await connect(alice, table.pk)
    board = await socket.receive_from()
    assert 'id="board"' in board

    # Sergeant 2 puts a deserter down: the slap's push shows it on its pile.
    await database_sync_to_async(actions.play)(table.pk, 1, "desert P1", None)
    frames = await drain(socket, 2.0)
    await socket.disconnect()

    pushes = [f for f in frames if f.startswith("<template data-deal=")]
    assert pushes, "the deal pushed its cards and the slap"
    for html in [board, *pushes]:
        assert cards_left(html) == cards_left(board)
        assert stored_names_in(html) == set()
    assert [name for _stored, name in cards_left(board)] == list(FRENCH.values())
    deserter = re.compile(
        r'data-owner="Sergeant-2"><svg[^>]*><use [^>]*></svg>'
        r'<span class="visually-hidden">déserteur: </span><span class="owner">Sergent 2</span></li>'
    )
    assert any(deserter.search(html) for html in pushes)
