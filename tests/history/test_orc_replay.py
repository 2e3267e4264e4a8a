"""The replay of an online De l'Orc game steps through each deal card by card: every army card
dealt is a step, and a deserter or shield lands right after the card it went down at.

alice, bob, charlie and dave played a public table (alice is round 1's wizard); erin, who
played nothing, watches its replay.
"""

import re

import pytest
from django.urls import reverse

from games import actions
from games.models import Table
from games.orc import names
from tests.conftest import persona
from tests.games.leaks import scan_orc
from tests.games.orc_helpers import finished_orc_table, orc_table, people, said, set_deal

pytestmark = pytest.mark.django_db

NAMES = ["alice", "bob", "charlie", "dave"]


@pytest.fixture
def table():
    return finished_orc_table([persona(name) for name in NAMES])


@pytest.fixture
def erin(client):
    client.force_login(persona("erin"))
    return client


def page(client, table, step, seat=None) -> str:
    query = f"?step={step}" + (f"&seat={seat}" if seat is not None else "")
    return client.get(f"/history/replay/{table.pk}/{query}").content.decode()


def piles(html: str) -> dict[int, list[str]]:
    """What each pile shows, bottom up: army codes and "shield:NAME" / "desert:NAME"."""
    found = re.findall(r'data-zone="pile" data-pile="(\d+)">(.*?)</ol>', html, re.S)
    entry = r'data-card="(\w+)"|data-kind="(\w+)" data-owner="(\w+)"'
    return {
        int(pile): [code or f"{kind}:{owner}" for code, kind, owner in re.findall(entry, inner)]
        for pile, inner in found
    }


def moment(html: str) -> tuple[int, int, int]:
    """The round, army cards dealt and decisions taken that the board was drawn at."""
    stamp = max(int(s) for s in re.findall(r'data-stamp="(\d+)"', html))
    return stamp // 10_000_000, stamp // 10_000 % 1000, stamp % 10_000


def total_steps(html: str) -> int:
    return int(re.search(r'data-total="(\d+)"', html).group(1))


def link(html: str, name: str) -> int | None:
    found = re.search(rf'<a id="{name}" href="\?step=(\d+)', html)
    return int(found.group(1)) if found else None


def test_it_deals_one_army_card_a_step_onto_its_pile(erin, table):
    deck = table.record["rounds"][0]["deck"]
    first_slap = table.record["rounds"][0]["actions"][0]  # "cy: desert P1 @2"
    at = int(first_slap.rsplit("@", 1)[1])
    assert page(erin, table, 0).count("data-card=") == 0
    for step in range(1, at + 1):
        html = page(erin, table, step)
        expected = {p: deck[p - 1 : step : 9] for p in range(1, 10)}
        assert piles(html) == expected
        assert f"{step} of 80 army cards dealt" in html
        assert f"next: P{step % 9 + 1}" in html
        pile = (step - 1) % 9 + 1
        assert f"Army card {step} goes onto P{pile}: {names.card(deck[step - 1])}." in html
    # The slap is the next step: it lands on the card it went down at, and no card comes with it.
    name, _sep, text = first_slap.partition(": ")
    html = page(erin, table, at + 1)
    verb, pile = text.split()[0], int(text.split()[1][1:])
    assert piles(html)[pile] == [*deck[pile - 1 : at : 9], f"{verb}:{name}"]
    assert f"{at} of 80 army cards dealt" in html
    assert f"<code>{said(first_slap, table.record['players'])}</code>" in html
    # The card after it lies above the player card.
    if (at % 9) + 1 == pile:
        assert piles(page(erin, table, at + 2))[pile][-1] == deck[at]


def test_the_start_card_arrives_after_its_army_card(erin, table):
    start = table.record["rounds"][0]["start_after"]
    # Slaps before it are steps too: find the step that deals the start card's army card.
    step = next(
        s for s in range(start, start + 20) if f'data-army-card="{start}"' in page(erin, table, s)
    )
    before, at = page(erin, table, step - 1), page(erin, table, step)
    assert "The start card has not appeared yet." in before
    assert "The start card appears: shields may go down." in at
    assert f"The start card came after card {start}: shields may go down." in at


def test_it_never_shows_a_card_before_it_is_dealt_nor_a_commitment_before_the_reveal(erin, table):
    """Every step of the whole game: the piles hold exactly the army cards the steps so far
    dealt, and the leak scanner finds nothing, in the public view and in bob's."""
    record = table.record
    total = total_steps(page(erin, table, 0))
    rnd, dealt, decisions = 1, 0, 0
    actions = []
    for step in range(total + 1):
        html = page(erin, table, step)
        assert scan_orc(html, record, None) == [], step
        card = re.search(r'data-army-card="(\d+)"', html)
        if step and card:
            dealt += 1
            assert int(card.group(1)) == dealt, step
        elif step and '<section class="reveal"' not in html:  # a reveal is no decision
            decisions += 1
            actions.append(step)
        shown_round, shown_dealt, shown_decisions = moment(html)
        if shown_round > rnd:
            rnd, dealt = shown_round, 0
        # The engine takes forced decisions as soon as they are due, steps early.
        assert shown_round == rnd and decisions <= shown_decisions
        if 'aria-label="The deal"' in html:
            assert shown_dealt == dealt, step
    assert rnd == len(record["rounds"])
    # bob sees his own committed cards too: never anyone else's, never before the reveal.
    for step in actions:
        assert scan_orc(page(erin, table, step, 1), record, 1) == [], step


def test_it_skips_to_the_next_action_and_to_the_end_of_the_deal(erin, table):
    actions = table.record["rounds"][0]["actions"]
    start = page(erin, table, 0)
    following = link(start, "replay-next-action")
    said_first = said(actions[0], table.record["players"])
    assert f"<code>{said_first}</code>" in page(erin, table, following)
    assert link(page(erin, table, following), "replay-prev-action") == 0
    end = link(start, "replay-deal-end")
    last = page(erin, table, end)
    assert "80 of 80 army cards dealt" in last or "Every army card is down" in last
    champion = next(line for line in actions if " champion " in line)
    said_champion = said(champion, table.record["players"])
    assert f"<code>{said_champion}</code>" in page(erin, table, end + 1)
    # Once the deal is over there is no deal to skip.
    assert link(page(erin, table, end + 1), "replay-deal-end") is None
    assert 'aria-keyshortcuts="PageDown"' in start and 'aria-keyshortcuts="PageUp"' in start


def test_it_steps_through_htmx_with_the_same_links(erin, table):
    response = erin.get(f"/history/replay/{table.pk}/?step=3", headers={"HX-Request": "true"})
    html = response.content.decode()
    assert html.lstrip().startswith('<div id="replay"')
    assert 'href="?step=4"' in html and 'href="?step=2"' in html
    assert "Step 3 of" in html


def test_a_replay_offers_no_decision_and_no_card_to_put_down(client, table):
    bob = table.seats.get(position=1).user
    client.force_login(bob)
    total = total_steps(page(client, table, 0, 1))
    for step in (5, total // 3, total // 2, total - 3):
        html = page(client, table, step, 1)
        assert "data-slap=" not in html and 'name="action"' not in html


def test_a_seats_replay_of_a_finished_game_offers_no_rematch(client, table):
    bob = table.seats.get(position=1).user
    client.force_login(bob)
    rematch = 'data-action="rematch"'
    # The finished table and its result page are where bob asks for one.
    assert rematch in client.get(table.get_absolute_url()).content.decode()
    assert rematch in client.get(reverse("table_result", args=[table.pk])).content.decode()
    total = total_steps(page(client, table, 0, 1))
    for step in (0, total // 2, total):
        html = page(client, table, step, 1)
        assert 'data-viewer="1"' in html and rematch not in html


def test_a_running_deal_is_replayed_no_further_than_its_last_slap(client, alice):
    bob, charlie, dave = people("bob", "charlie", "dave")
    table = orc_table(alice, [bob, charlie, dave])
    set_deal(table, 12.5)
    actions.play_for(table.pk, bob, "desert P3", None)
    set_deal(table, 30.5)
    client.force_login(bob)
    html = page(client, Table.objects.get(pk=table.pk), 10_000)
    assert total_steps(html) == 13
    # The clock has dealt 30 cards, but the record knows only the deal up to its last slap.
    assert sum(len(p) for p in piles(html).values()) == 13  # 12 army cards and the deserter


def test_a_running_games_replay_shows_no_clock(client, alice):
    bob, charlie, dave = people("bob", "charlie", "dave")
    table = orc_table(alice, [bob, charlie, dave])
    set_deal(table, 80.5)
    actions.catch_up(table.pk)  # the deal is over: the placing step runs on its timer
    table.refresh_from_db()
    assert table.deadline is not None
    client.force_login(bob)
    assert "data-deadline" in client.get(table.get_absolute_url()).content.decode()
    html = page(client, table, 10_000)
    assert 'data-viewer="1"' in html and "data-deadline" not in html


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_a_viewer_steps_through_the_deal_with_the_keyboard_and_skips_it(live_server_url, request):
    from django.test import Client

    table = finished_orc_table([persona(name) for name in NAMES])
    client = Client()
    client.force_login(persona("erin"))
    first = next(i for i, line in enumerate(table.record["rounds"][0]["actions"]) if "@" in line)
    at = int(table.record["rounds"][0]["actions"][first].rsplit("@", 1)[1])
    end = link(page(client, table, 0), "replay-deal-end")
    cookie = {"name": "sessionid", "value": client.cookies["sessionid"].value}
    browser = request.getfixturevalue("browser")
    context = browser.new_context()
    context.add_cookies([{**cookie, "url": live_server_url}])
    tab = context.new_page()
    tab.goto(f"{live_server_url}/history/replay/{table.pk}/?step=0")
    tab.evaluate("window.notReloaded = true")
    for step in (1, 2):
        tab.keyboard.press("ArrowRight")
        tab.wait_for_selector(f'#replay[data-step="{step}"]')
    assert tab.locator(".deal-counter").inner_text().startswith("2 of 80 army cards dealt")
    tab.keyboard.press("PageDown")  # past the cards to the first slap
    tab.wait_for_selector(f'#replay[data-step="{at + 1}"]')
    assert tab.url.endswith(f"?step={at + 1}")
    tab.click("#replay-deal-end")
    tab.wait_for_selector(f'#replay[data-step="{end}"]')
    assert "80 of 80 army cards dealt" in tab.locator(".deal-counter").inner_text()
    tab.keyboard.press("ArrowRight")
    tab.wait_for_selector(f'#replay[data-step="{end + 1}"]')
    assert "champion" in tab.locator(".replay-last-action code").inner_text()
    assert tab.evaluate("window.notReloaded") is True
    context.close()
