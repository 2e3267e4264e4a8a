"""De l'Orc's log and replay read as sentences in the viewer's language, never as the record's
notation; a finished game's board names its winner; the placing step's clock counts seconds.
"""

import re

import pytest
from django.utils import translation

from games import actions
from games.models import Table
from games.orc import engine
from games.orc.board import sentence
from games.orc.replay import steps
from tests.games.orc_helpers import finished_orc_table, orc_table, people, set_deal

pytestmark = pytest.mark.django_db

NAMES = ["alice", "bob", "charlie", "dave"]
# The notation's verbs followed by what they take, as the record writes them.
CODE = re.compile(
    r"\b(desert|shield) P\d|\bsend( [A-Z]{2})+\b|\bspy \d (pass|\S+ [A-Z]{1,2}\d?\b)"
    r"|\bpeople [BMSD]\b|\bcommando (pass|\S+ (people|mercenary))|\bfly( GR)+|\bfly pass|@\d"
)


@pytest.mark.parametrize(
    ("language", "move", "expected"),
    [
        ("en", "bob: send GI GR", "bob sends a giant and a gremlin."),
        ("en", "bob: send GI GI TR GR GR", "bob sends 2 giants, a troll and 2 gremlins."),
        ("de", "bob: send GI GR", "bob schickt einen Riesen und einen Gremlin."),
        ("fr", "bob: send WM GR", "bob envoie une machine de guerre et un gremlin."),
        ("nl", "bob: send TR", "bob stuurt een trol."),
        ("en", "bob: spy 4 charlie GI", "bob uses spy 4 and asks charlie for a card “Giant”."),
        ("de", "bob: desert P3 @5", "bob legt einen Deserteur auf P3."),
        ("en", "alice: people S", "alice chooses the Skeletons for this battle."),
        ("en", "bob: fly GR GR", "bob adds the flying machine with 2 gremlins."),
        ("en", "bob: commando charlie mercenary GR", None),
    ],
)
def test_it_says_each_decision_in_a_sentence(language, move, expected):
    name, text = move.split(": ")
    action = engine.parse_action(text, NAMES, NAMES.index(name))
    with translation.override(language):
        said = sentence(action, NAMES)
    assert not CODE.search(said), said
    if expected:
        assert said == expected


def test_the_log_of_a_finished_game_has_no_notation_and_names_the_winner(client, alice):
    bob, charlie, dave = people("bob", "charlie", "dave")
    table = finished_orc_table([alice, bob, charlie, dave])
    client.force_login(bob)
    for language in ("en", "de"):
        client.cookies["django_language"] = language
        html = client.get(f"/play/t/{table.pk}/").content.decode()
        log = re.search(r'<details class="log">.*?</details>', html, re.S)[0]
        lines = re.findall(r"<li>(.*?)</li>", log, re.S)
        assert lines and not [line for line in lines if CODE.search(line)], lines[:5]
    client.cookies["django_language"] = "en"
    html = client.get(f"/play/t/{table.pk}/").content.decode()
    first = [n for n, place in table.result["placings"].items() if place == 1]
    winners = re.search(r'<strong class="winners">(.*?)</strong>', html)[1]
    assert all(name in winners for name in first)
    assert ("won" in winners) == (len(first) == 1)
    assert "Leave the game" not in html
    # The result page names the winner to a player who did not win.
    loser = next(u for u in (alice, bob, charlie, dave) if u.username not in first)
    client.force_login(loser)
    page = client.get(f"/play/t/{table.pk}/result/").content.decode()
    headline = re.search(r'data-zone="headline">(.*?)</p>', page)[1]
    assert all(name in headline for name in first), headline


def test_the_replay_says_each_action_in_a_sentence(client, alice):
    bob, charlie, dave = people("bob", "charlie", "dave")
    table = finished_orc_table([alice, bob, charlie, dave])
    record = table.record
    client.force_login(bob)
    said = []
    for i, step in enumerate(steps(record), 1):
        if step.text and not step.text.split(": ")[1].startswith(("desert", "shield")):
            html = client.get(f"/history/replay/{table.pk}/?step={i}").content.decode()
            said.append(re.search(r"Last action: <code>(.*?)</code>", html)[1])
        if len(said) == 12:
            break
    assert said and not [line for line in said if CODE.search(line)], said


def test_the_placing_steps_clock_counts_seconds(client, alice):
    bob, charlie, dave = people("bob", "charlie", "dave")
    table = orc_table(alice, [bob, charlie, dave])
    set_deal(table, 80.5)
    actions.catch_up(table.pk)
    table.refresh_from_db()
    assert table.status == Table.RUNNING and table.deadline is not None
    client.force_login(bob)
    html = client.get(f"/play/t/{table.pk}/").content.decode()
    assert "Placing step" in html
    assert "0 minutes" not in html
    assert re.search(r"<time>0:\d\d</time>", html)
