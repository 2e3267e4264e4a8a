"""Both games are named where a newcomer arrives (the home page, the lobby), each with its
rules, a way to a table and a game against AI players in one click, in every language; the
new-table form links the chosen game's rules, and lists of tables name the game of each
but the site's own.

alice is signed in; a visitor is not.
"""

import pytest
from django.utils.html import escape

from games import actions
from games.models import Table
from tests.games.conftest import open_table

pytestmark = pytest.mark.django_db

# As the pages write them, the apostrophe escaped.
GAMES = ("Call to Glory", escape("De l'Orc pour les Braves"))
RULES = ('href="/play/rules/ctg/"', 'href="/play/rules/orc/"')


def section(html: str) -> str:
    return html.split('<section class="games"')[1].split("</section>")[0]


@pytest.mark.parametrize("path", ["/", "/play/"])
def test_a_visitor_finds_both_games_and_their_rules(client, path):
    games = section(client.get(path).content.decode())
    assert all(f"<h3>{name}</h3>" in games for name in GAMES)
    assert all(link in games for link in RULES)
    assert "2 to 4 players" in games and "4 to 7 players" in games


@pytest.mark.parametrize("path", ["/", "/play/"])
def test_a_player_finds_both_games_with_a_way_to_open_a_table(client, alice, path):
    client.force_login(alice)
    games = section(client.get(path).content.decode())
    assert all(link in games for link in RULES)
    assert 'href="/play/new/?game=ctg"' in games and 'href="/play/new/?game=orc"' in games


@pytest.mark.parametrize(
    ("language", "words"),
    [
        ("fr", [f"Règles de {GAMES[1]}", "4 à 7 joueurs", "Les jeux"]),
        ("de", ["Regeln von Call to Glory", "4 bis 7 Spieler", "Die Spiele"]),
        ("nl", [f"Spelregels van {GAMES[1]}", "2 tot 4 spelers", "De spellen"]),
    ],
)
def test_the_games_are_offered_in_the_visitors_language(client, language, words):
    client.cookies["django_language"] = language
    for path in ("/", "/play/"):
        html = client.get(path).content.decode()
        assert all(word in html for word in words), (path, language)


@pytest.mark.parametrize(("game", "link"), [("ctg", RULES[0]), ("orc", RULES[1])])
def test_the_new_table_form_links_the_rules_of_its_game(client, alice, game, link):
    client.force_login(alice)
    html = client.get(f"/play/new/?game={game}").content.decode()
    assert link in html


def test_the_home_page_and_the_footer_name_both_games(client):
    html = client.get("/").content.decode()
    hero = html.split('<section class="hero">')[1].split("</section>")[0]
    footer = html.split('<footer class="site-footer">')[1]
    for name in ("Call to Glory", "De l'Orc pour les Braves"):
        assert name in hero and name in footer


def test_a_list_of_tables_names_the_game_of_each_but_the_sites_own(client, alice):
    open_table(alice)
    actions.create_table(
        alice, game="orc", options={"pace": 1.2}, seats_count=4, visibility="public"
    )
    client.force_login(alice)
    tables = client.get("/play/").content.decode().split('id="lobby-tables"')[1]
    assert tables.count('<span class="meta">Call to Glory · ') == 0
    assert tables.count(f'<span class="meta">{GAMES[1]} · ') == 2  # yours and open


# ----------------------------------------------------------------------------- against AI


def test_one_click_opens_and_starts_a_game_of_de_lorc_against_ai_players(client, alice):
    client.force_login(alice)
    response = client.post("/play/ai/", {"game": "orc", "seats_count": 5, "level": "beginner"})

    table = Table.objects.get()
    assert response.status_code == 302 and response.url == f"/play/t/{table.pk}/"
    assert (table.game, table.status, table.seats_count) == ("orc", Table.RUNNING, 5)
    assert (table.visibility, table.clock, table.rated) == (Table.PUBLIC, Table.NO_CLOCK, False)
    seats = list(table.seats.order_by("position"))
    # alice sits second: round 1's wizard, in the first seat, plays no shields or deserters.
    assert [s.user for s in seats] == [None, alice, None, None, None]
    assert [s.name for s in seats if s.is_ai] == [
        "Recruit 1",
        "Recruit 3",
        "Recruit 4",
        "Recruit 5",
    ]
    assert {s.ai_level for s in seats if s.is_ai} == {"beginner"}
    state = table.state()
    assert state.names[1] == "alice" and state.wizard == 0 and state.pending == "recruit"

    page = client.get(response.url).content.decode()
    assert "Put a deserter on a pile" in page


def test_one_click_opens_and_starts_a_game_of_call_to_glory_against_ai_players(client, alice):
    client.force_login(alice)
    response = client.post("/play/ai/", {"game": "ctg", "seats_count": 3, "level": "greedy"})

    table = Table.objects.get()
    assert response.url == table.get_absolute_url() and table.status == Table.RUNNING
    seats = list(table.seats.order_by("position"))
    assert [s.user for s in seats] == [alice, None, None]
    assert [(s.name, s.ai_level) for s in seats[1:]] == [
        ("Beginner 2", "greedy"),
        ("Beginner 3", "greedy"),
    ]
    assert table.state().decider == 0  # alice's turn


@pytest.mark.parametrize(
    ("posted", "status"),
    [
        ({"game": "orc", "seats_count": 5, "level": "greedy"}, 400),  # Call to Glory's level
        ({"game": "ctg", "seats_count": 5, "level": "greedy"}, 400),  # too many players
        ({"game": "chess", "seats_count": 2, "level": "greedy"}, 404),
    ],
)
def test_it_opens_no_table_for_a_game_it_cannot_play(client, alice, posted, status):
    client.force_login(alice)
    response = client.post("/play/ai/", posted)
    assert response.status_code == status
    assert not Table.objects.exists()


def test_a_visitor_is_asked_to_log_in_before_playing_against_ai_players(client):
    for path in ("/", "/play/"):
        games = section(client.get(path).content.decode())
        assert 'href="/accounts/login/?next=/play/ai/"' in games
        assert 'action="/play/ai/"' not in games
    response = client.post("/play/ai/", {"game": "orc", "seats_count": 4, "level": "beginner"})
    assert response.status_code == 302 and response.url.startswith("/accounts/login/")
    assert not Table.objects.exists()


def test_a_player_gets_the_form_of_each_game_on_the_home_page_the_lobby_and_after_login(
    client, alice
):
    client.force_login(alice)
    for path in ("/", "/play/", "/play/ai/"):
        games = section(client.get(path).content.decode())
        assert games.count('action="/play/ai/"') == 2, path
        assert 'id="id_orc_seats_count"' in games and 'id="id_ctg_level"' in games
        assert '<option value="5" selected>5</option>' in games  # De l'Orc's usual table


@pytest.mark.parametrize(
    ("language", "words"),
    [
        ("fr", ["Jouer contre des joueurs IA", "Niveau des joueurs IA", "Seigneur de guerre"]),
        ("de", ["Gegen KI-Spieler spielen", "Stärke der KI-Spieler", "Feldwebel"]),
        ("nl", ["Spelen tegen AI-spelers", "Niveau van de AI-spelers", "Krijgsheer"]),
    ],
)
def test_the_form_speaks_the_players_language(client, alice, language, words):
    client.force_login(alice)
    client.cookies["django_language"] = language
    games = section(client.get("/play/").content.decode())
    assert all(word in games for word in words)


def test_a_de_lorc_table_in_a_list_writes_its_pace_as_the_reader_does(client, alice):
    actions.create_table(
        alice, game="orc", options={"pace": 2.0}, seats_count=4, visibility="public"
    )
    client.force_login(alice)
    html = client.get("/play/").content.decode()
    assert "\n2 s a card" in html and "2.0 s" not in html
    client.cookies["django_language"] = "fr"
    actions.create_table(
        alice, game="orc", options={"pace": 1.2}, seats_count=4, visibility="public"
    )
    assert "\n1,2 s par carte" in client.get("/play/").content.decode()
