"""Rules at hand: why a set is not offered, the hand's cards as buttons, a rules page per game
(Call to Glory's and De l'Orc's, in the page's language).

alice plays against bob (and, for three players, charlie).
"""

import re

import pytest

from games import actions
from games.ctg import engine
from tests.games.conftest import open_table
from tests.games.orc_helpers import orc_table, people

pytestmark = pytest.mark.django_db


def act_view(players: int, hand: dict[str, int], table_sets: list[dict]) -> dict:
    """A viewer's view at Action 2 with this hand and these sets on the table."""
    return {
        "players": ["alice", "bob", "charlie", "dora"][:players],
        "hand": hand,
        "table": table_sets,
    }


def test_it_says_why_a_pair_of_three_dot_cards_is_no_set_with_three_players():
    from games.ctg.board import _missing_sets

    view = act_view(3, {"12": 2, "20": 1}, [])
    choices = {"lay": [], "discard": [{"card": {"value": 12}, "options": []}]}
    assert _missing_sets(view, choices) == [
        "Samurai: with 3–4 players a set of 12, 14 or 16 needs 3 cards."
    ]
    # With two players the pair would be offered; no reason then.
    assert _missing_sets(act_view(2, {"12": 1}, []), choices) == []


def test_it_says_why_a_set_is_too_small_to_take_a_type_from_the_table():
    from games.ctg.board import _missing_sets

    view = act_view(2, {"18": 3}, [{"owner": 1, "type": 18, "size": 4}])
    choices = {"lay": [], "discard": [{"card": {"value": 18}, "options": []}]}
    assert _missing_sets(view, choices) == [
        "Monk: the set on the table has 4 cards; yours must have more."
    ]


def test_it_offers_each_cards_moves_under_it_in_the_hand(client, alice, bob):
    table = open_table(alice)
    actions.take_seat(table.pk, bob)
    actions.start(table.pk, alice)
    for text in ("draw D1", "draw D2"):
        table.refresh_from_db()
        if text in engine.view(table.state(), 0)["legal_texts"]:
            actions.play(table.pk, 0, text, table.version)
    table.refresh_from_db()
    legal = engine.view(table.state(), 0)["legal_texts"]
    client.force_login(alice)

    html = client.get(table.get_absolute_url()).content.decode()

    hand = html[html.index('data-zone="hand"') :]
    offered = set(re.findall(r'<button type="submit"[^>]*value="([^"]+)"[^>]*hx-post', hand))
    assert offered == {t for t in legal if t.split()[0] in ("lay", "discard")}
    # Every decision button is one of the site's buttons.
    decision = re.search(r'<form id="decision".*?</form>', html, re.S).group(0)
    assert all('type="submit"' in b for b in re.findall(r"<button[^>]*>", decision))


def test_it_shows_the_rules_of_a_game_in_the_page_language(client):
    html = client.get("/play/rules/ctg/").content.decode()
    assert "<h1>Rules of Call to Glory</h1>" in html and "three dots" in html

    client.cookies["django_language"] = "de"
    assert 'lang="de"' in client.get("/play/rules/ctg/").content.decode()

    assert client.get("/play/rules/chess/").status_code == 404


def test_it_links_the_rules_from_the_table(client, running_table, alice):
    client.force_login(alice)
    html = client.get(running_table.get_absolute_url()).content.decode()
    assert 'href="/play/rules/ctg/"' in html


@pytest.mark.parametrize(
    ("language", "heading", "words"),
    [
        ("en", "Rules of De l'Orc pour les Braves", ["Battle 1: 2 points", "Battle 2: 1 point"]),
        ("fr", "Règles de De l'Orc pour les Braves", ["Bataille 1 : 2 points", "Géant"]),
        ("de", "Regeln von De l'Orc pour les Braves", ["Schlacht 2: 1 Punkt", "Zwergenhäuptling"]),
        ("nl", "Spelregels van De l'Orc pour les Braves", ["Veldslag 4: 2 punten", "Kwelgeest"]),
    ],
)
def test_it_shows_de_lorcs_rules_in_each_language(client, language, heading, words):
    client.cookies["django_language"] = language
    response = client.get("/play/rules/orc/")

    assert response.status_code == 200
    html = response.content.decode()
    assert f'<html lang="{language}">' in html and f"<h1>{heading}</h1>" in html
    assert all(word in html for word in words)


def test_de_lorcs_rules_take_their_numbers_and_rulings_from_the_engine(client):
    html = client.get("/play/rules/orc/").content.decode()

    # Piles, deserters and target for 4 and for 7 players (§2, §3.1, §5).
    assert '<th scope="row">4</th><td>9</td><td>2</td><td>8</td>' in html
    assert '<th scope="row">7</th><td>14</td><td>1</td><td>6</td>' in html
    # Where the start card may lie, and the placing step's least time [ruling], [online].
    assert "after 27 to 53 army cards" in html and "at least 15 seconds" in html
    # The cards' strengths as the table's titles tell them.
    assert "9 when a gremlin of its army serves it, else 0" in html
    for section in ("deal", "piles", "champion", "spies", "battles", "commando", "flying", "end"):
        assert f'<h2 id="{section}">' in html and f'href="#{section}"' in html


def test_it_links_de_lorcs_rules_from_its_table(client, alice):
    table = orc_table(alice, people("bob", "charlie", "dave"))
    client.force_login(alice)
    html = client.get(table.get_absolute_url()).content.decode()
    assert 'href="/play/rules/orc/"' in html
