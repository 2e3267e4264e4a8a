"""Two people play a whole quick game against each other in two real browser contexts."""

import pytest
from django.test import Client
from playwright.sync_api import expect

from games import actions
from games.ctg import engine
from games.ctg.game import CALL_TO_GLORY, table_deck
from games.models import Table
from tests.games.conftest import open_table

pytestmark = pytest.mark.browser

# The order in which both the simulation and the browsers pick a button: the first of the
# first kind offered. Laying whenever possible makes sets displace each other often.
KINDS = ["lay", "bury", "draw", "discard", "reveal", "end"]


def pick(legal_texts: list[str]) -> str:
    for kind in KINDS:
        for text in legal_texts:
            if text.split(" ")[0] == kind:
                return text
    raise AssertionError(legal_texts)


def buries_by_the_waiting_player(seed: int) -> int:
    """How many real bury decisions the non-active player makes in this seed's game."""
    table = Table(seed=seed, seats_count=2, options={"rounds": 1})
    options = CALL_TO_GLORY.engine_options(table)
    state = engine.new_game(options, ["alice", "bob"], decks=[table_deck(table.seed, 0)])
    count = 0
    while not state.game_over:
        seat = state.decider
        view = engine.view(state, seat)
        if view["pending"] == "bury" and seat != state.cur:
            count += 1
        state.apply(engine.parse_action(pick(view["legal_texts"]), state.names), seat)
    return count


def session_cookie(user, url):
    client = Client()
    client.force_login(user)
    return {"name": "sessionid", "value": client.cookies["sessionid"].value, "url": url}


@pytest.mark.long
def test_it_plays_a_quick_game_in_two_browsers_to_the_result(live_server_url, alice, bob, request):
    seed = next(s for s in range(1, 500) if buries_by_the_waiting_player(s) >= 1)
    table = open_table(alice)
    Table.objects.filter(pk=table.pk).update(seed=seed)
    actions.take_seat(table.pk, bob)
    actions.start(table.pk, alice)
    cookies = [session_cookie(alice, live_server_url), session_cookie(bob, live_server_url)]
    browser = request.getfixturevalue("browser")

    pages = []
    for cookie in cookies:
        context = browser.new_context(viewport={"width": 390, "height": 844})
        context.add_cookies([cookie])
        page = context.new_page()
        page.goto(f"{live_server_url}/play/t/{table.pk}/")
        page.wait_for_selector("body[data-ws=open]")
        pages.append(page)

    # Table talk reaches the other browser through the push; the box empties for the next line.
    pages[0].fill("#chat-text", "Good luck!")
    pages[0].click(".chat button")
    pages[1].wait_for_selector("#chat-log li:has-text('alice Good luck!')")
    expect(pages[0].locator("#chat-text")).to_have_value("")
    assert not pages[1].locator(".chat .empty").is_visible()

    waiting_buries = 0
    for _ in range(1000):
        if pages[0].locator("#board[data-status=finished]").count():
            break
        version = pages[0].get_attribute("#board", "data-version")
        deciding = [p for p in pages if p.locator("form.decision").count()]
        assert len(deciding) == 1, "exactly one player decides at a time"
        page = deciding[0]
        assert page.title().startswith("Your decision · Table")  # also in a background tab
        assert pages[1 - pages.index(page)].title().startswith("Table")
        offered = page.locator("form.decision button[data-action]").evaluate_all(
            "buttons => buttons.map(b => b.dataset.action)"
        )
        text = pick(offered)
        me = page.get_attribute("#board", "data-viewer")
        if (
            text.startswith("bury")
            and not page.locator(f'.player.on-turn[data-seat="{me}"]').count()
        ):
            waiting_buries += 1
        page.click(f'form.decision button[data-action="{text}"]')
        for p in pages:  # both boards move on through the push, no reload
            p.wait_for_function(
                "v => document.querySelector('#board').dataset.version !== v", arg=version
            )

    assert waiting_buries >= 1, "the owner of a displaced set chose its pile on the other's turn"
    pages[1].click("text=See the result")
    pages[1].wait_for_selector("table.result")
    assert pages[1].locator("table.result tr[data-player]").count() == 2

    # Both ask for a rematch, from the board and from the result: one new table, both seated.
    pages[0].click('form.rematch button[data-action="rematch"]')
    pages[0].wait_for_url(lambda url: f"/play/t/{table.pk}/" not in url)
    pages[1].click('form.rematch button[data-action="rematch"]')
    pages[1].wait_for_url(pages[0].url)
    seated = pages[1].locator("ol.seats li").all_inner_texts()
    assert [name.split()[0] for name in seated] == ["alice", "bob"]

    # Talk in the waiting room arrives without the reload that a change of seats brings.
    pages[0].wait_for_selector("ol.seats li:has-text('bob')")
    pages[0].wait_for_selector("body[data-ws=open]")
    pages[0].evaluate("window.stayed = true")
    pages[1].fill("#chat-text", "Again!")
    pages[1].click(".chat button")
    pages[0].wait_for_selector("#chat-log li:has-text('bob Again!')")
    assert pages[0].evaluate("window.stayed === true")
