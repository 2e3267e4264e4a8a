"""The deal as the table draws it (ORC-RULES.md §3.8): on each pile, who takes it if the deal
ended now and which cards its deserters remove; after the deal, until the round's first
reveal, a recap of who took which pile and so each player's new holding. All of it public,
drawn for each viewer in his language, on the page and in the deal's pushes.
"""

import re

import pytest
from django.conf import settings
from django.utils import translation

from games import actions
from games.orc import board, dealer, engine, names
from games.records import first_actions
from tests.games.orc_helpers import orc_table, people, random_positions, set_deal, table_at
from tests.games.test_orc_reveal import before_a_reveal

pytestmark = pytest.mark.django_db

# alice is round 1's wizard; bob, charlie and dave race for the piles and see the same piles.
PLAYERS = ["alice", "bob", "charlie", "dave"]

PILE = re.compile(r'<div class="orc-pile[^"]*" id="pile-(\d+)".*?</ol>', re.S)
ITEM = re.compile(
    r'<li class="orc-card [^"]*" data-card="(\w+)"( data-removed="1")?'
    r'|<li class="player-card \w+" data-kind="(\w+)" data-owner="([\w-]+)"'
)


def piles_drawn(html: str) -> dict[int, dict]:
    """Each pile as drawn: who takes it, and its items bottom up with the removed ones."""
    piles = {}
    for match in PILE.finditer(html):
        taker = re.search(r'data-taker="([\w-]+)"', match.group(0))
        items, removed = [], []
        for i, (code, gone, kind, owner) in enumerate(ITEM.findall(match.group(0))):
            items.append(code or f"{kind}:{owner}")
            if gone:
                removed.append(i)
        piles[int(match.group(1))] = {
            "taker": taker and taker.group(1),
            "items": items,
            "removed": removed,
        }
    return piles


def page(client, user, table, language="en") -> str:
    client.force_login(user)
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = language
    return client.get(f"/play/t/{table.pk}/").content.decode()


def test_each_pile_shows_who_takes_it_and_which_cards_its_deserters_remove(client, alice):
    bob, charlie, dave = people("bob", "charlie", "dave")
    table = orc_table(alice, [bob, charlie, dave], pace=2.0)
    start = table.record["rounds"][0]["start_after"]
    # Each time just after a card, so that the next is two seconds away.
    set_deal(table, 12.02)
    actions.play_for(table.pk, bob, "desert P2", None)
    actions.play_for(table.pk, dave, "desert P5", None)
    set_deal(table, start + 0.02)
    for user, slap in [
        (charlie, "shield P2"),
        (dave, "shield P2"),
        (dave, "desert P3"),
        (bob, "shield P4"),
    ]:
        actions.play_for(table.pk, user, slap, None)
    set_deal(table, start + 0.02)

    html = page(client, bob, table)
    drawn = piles_drawn(html)
    table.refresh_from_db()
    state = table.state()
    dealt = int(re.search(r'data-dealt="(\d+)"', html).group(1))
    state.deal(dealt)
    for number in (2, 3, 4, 5):
        contents = engine.public_view(state)["deal"]["piles"][number - 1]
        assert drawn[number]["items"] == contents
    # P2: bob's deserter took the card under it; charlie's shield is below dave's.
    p2 = drawn[2]["items"]
    assert drawn[2]["taker"] == "charlie"
    assert drawn[2]["removed"] == [p2.index("desert:bob") - 1]
    # P3: dave's deserter takes its top card; no shield, nobody takes it.
    p3 = drawn[3]["items"]
    assert drawn[3]["taker"] is None and drawn[3]["removed"] == [p3.index("desert:dave") - 1]
    assert drawn[4]["taker"] == "bob" and drawn[4]["removed"] == []
    # P5: dave's deserter lay on its only card.
    assert drawn[5]["removed"] == [0] and drawn[5]["taker"] is None
    assert drawn[1] == {"taker": None, "items": drawn[1]["items"], "removed": []}

    # The same, in German, for another player and in the deal's push to him.
    german = page(client, charlie, table, "de")
    assert piles_drawn(german) == drawn
    push = board.render_update(dealer.event(table, state, [2, 3]), 2, "de")
    assert piles_drawn(push) == {2: drawn[2], 3: drawn[3]}
    with translation.override("de"):
        removed = names.card(p2[drawn[2]["removed"][0]])
        german_words = [removed, "entfernt", "nimmt den Stapel"]
    for words in german_words:
        assert words in push and words in german, words


def at_the_champion(users):
    """A table of `users` where round 1's deal is over and the wizard names his champion;
    with its position and the record's champion line."""
    for record, lines, n, state in random_positions(PLAYERS):
        if state.rnd == 0 and state.pending == "champion":
            table, state = table_at(users, first_actions(record, lines, n))
            return table, state, lines[n][1].split(": ", 1)[1]
    raise AssertionError("no random game reaches the champion")


def recap_drawn(html: str) -> dict[str, dict]:
    section = re.search(r'<section class="deal-recap".*?</section>', html, re.S)
    assert section, "no recap of the deal"
    players = {}
    for name, piles, body in re.findall(
        r'<li data-player="([\w-]+)"(?: data-piles="([^"]*)")?>(.*?)</li>', section.group(0), re.S
    ):
        cards = re.findall(r'data-card="(\w+)" data-count="(\d+)"', body)
        players[name] = {"piles": piles, "cards": {code: int(n) for code, n in cards}}
    return players


def expected_takers(state) -> dict[str, dict]:
    """Who took which pile and which cards, as the engine resolves the piles (§3.8)."""
    resolved = state.clone()
    if resolved.pending == "champion":
        resolved.apply(resolved.legal_actions()[0])
    taken = {name: {"piles": "", "cards": {}} for name in PLAYERS if name != PLAYERS[0]}
    for pile, (owner, cards) in enumerate(resolved.history[0].piles, 1):
        if owner < 0:
            continue
        mine = taken[PLAYERS[owner]]
        mine["piles"] = ", ".join(filter(None, [mine["piles"], f"P{pile}"]))
        for card in cards:
            code = engine.CODES[card]
            mine["cards"][code] = mine["cards"].get(code, 0) + 1
    return taken


def test_the_recap_lists_each_piles_taker_from_the_deals_end_to_the_first_reveal(client):
    users = people(*PLAYERS)
    table, state, champion = at_the_champion(users)
    expected = expected_takers(state)
    assert any(t["piles"] for t in expected.values())

    # While the wizard names his champion the piles lie there, read as they will resolve.
    html = page(client, users[1], table)
    assert recap_drawn(html) == expected
    assert "The deal is over: who takes which pile" in html
    # Public: every player reads the same recap, the wizard too.
    recaps = {
        re.search(r'<section class="deal-recap".*?</section>', page(client, u, table), re.S)[0]
        for u in users
    }
    assert len(recaps) == 1

    actions.play(table.pk, 0, champion, table.version)
    table.refresh_from_db()
    html = page(client, users[2], table, "de")
    assert recap_drawn(html) == expected
    assert "Nach dem Austeilen: wer welchen Stapel nahm" in html


def test_the_recap_gives_way_to_the_first_battles_reveal(client, settings):
    settings.REVEAL_PAUSE_SECONDS = 30
    users, table, state, move = before_a_reveal(1)
    assert 'id="deal-recap"' in page(client, users[1], table)
    actions.play(table.pk, state.decider, move, table.version)
    table.refresh_from_db()
    html = page(client, users[1], table)
    assert 'id="reveal"' in html and 'id="deal-recap"' not in html
