"""A tournament's options are its game's: the form shows the chosen game's fields, the event
keeps their values, and its page and online tables follow them.

Personas (tests/leagues/conftest.py): olga organises Tenno; alice and bob are members.
"""

import re

from tests.leagues.orcpad import client_for
from tournaments import actions as tournaments
from tournaments.models import Stage, Tournament

NEW = "/clubs/tenno/tournaments/new/"
EVENT = {
    "name": "Winter cup",
    "mode": "online",
    "max_table": "2",
    "seeding": "random",
    "first_kind": "swiss",
    "first_rounds": "1",
}


def test_it_keeps_a_call_to_glory_event_s_length(olga):
    client = client_for(olga)
    assert 'id="id_game_length"' in client.get(NEW).content.decode()
    client.post(NEW, EVENT | {"game": "ctg", "game_length": "quick"})
    event = Tournament.objects.get(name="Winter cup")
    assert event.options == {"game_length": "quick"}
    page = client.get(event.get_absolute_url()).content.decode()
    assert "Call to Glory · Online · Quick game (1 round)" in page
    edit = client.get(f"/clubs/tenno/tournaments/{event.pk}/edit/").content.decode()
    assert '<option value="quick" selected>' in edit


def test_its_online_tables_play_its_length(club, olga, alice, bob):
    event = tournaments.create(
        club,
        name="Quick online",
        mode=Tournament.ONLINE,
        max_table=2,
        options={"game_length": "quick"},
        stages=[{"kind": Stage.SWISS, "rounds": 1}],
    )
    for user in (alice, bob):
        tournaments.register(event, user, checked_in=True)
    round_ = tournaments.draft_round(event)
    tournaments.begin_round(round_, olga)
    table = round_.tables.get().online_table
    assert table.options == {"rounds": 1, "imperial_tasks": False, "ninja": False}


def test_a_de_l_orc_event_shows_and_keeps_no_length(olga):
    client = client_for(olga)
    sent = EVENT | {"game": "orc", "mode": "physical", "max_table": "5"}
    shown = client.post(NEW, sent | {"show_options": "1"}).content.decode()
    assert 'id="id_game_length"' not in shown and "errorlist" not in shown
    assert not Tournament.objects.exists()
    swapped = client.post(NEW, sent | {"game": "ctg", "show_options": "1"}, HTTP_HX_REQUEST="true")
    assert swapped.content.decode().startswith('<div id="game-options">')
    assert 'id="id_game_length"' in swapped.content.decode()

    client.post(NEW, sent | {"game_length": "quick"})
    event = Tournament.objects.get(name="Winter cup")
    assert (event.game, event.options, event.rounds_per_game) == ("orc", {}, 0)
    assert "Quick game" not in client.get(event.get_absolute_url()).content.decode()


def sizes_offered(page: str) -> list[str]:
    found = re.search(r'<select name="max_table"[^>]*>(.*?)</select>', page, re.S)
    assert found, "no choice of table size"
    return re.findall(r'<option value="(\d+)"', found.group(1))


def test_the_form_offers_only_the_table_sizes_of_the_chosen_game(olga):
    client = client_for(olga)
    assert sizes_offered(client.get(NEW).content.decode()) == ["4", "3", "2"]

    # Choosing De l'Orc swaps in its own sizes, as the page's htmx asks.
    chosen = EVENT | {"game": "orc", "show_options": "1"}
    swapped = client.post(NEW, chosen, HTTP_HX_REQUEST="true").content.decode()
    assert sizes_offered(swapped) == ["7", "6", "5", "4"]
