"""Both games are named where a newcomer arrives (the home page, the lobby), each with its
rules and a way to a table, in every language; the new-table form links the chosen game's
rules, and every list of tables says which game a table plays.

alice is signed in; a visitor is not.
"""

import pytest
from django.utils.html import escape

from games import actions
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


def test_a_list_of_tables_says_which_game_each_plays(client, alice):
    open_table(alice)
    actions.create_table(
        alice, game="orc", options={"pace": 1.2}, seats_count=4, visibility="public"
    )
    client.force_login(alice)
    tables = client.get("/play/").content.decode().split('id="lobby-tables"')[1]
    assert tables.count('<span class="meta">Call to Glory · ') == 2  # yours and open
    assert tables.count(f'<span class="meta">{GAMES[1]} · ') == 2
