"""Two people, one on a phone, play a whole game of De l'Orc with three AI players in chromium,
at the fast pace; both slap shields and deserters in the deal (a few minutes)."""

import random
from concurrent.futures import ThreadPoolExecutor

import pytest
from django.db import connection
from django.test import Client
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from games.models import Table
from tests.conftest import start_daphne, stop_daphne, url_of, use_redis_layer
from tests.games.orc_helpers import orc_table

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

# alice plays on a desktop with the keyboard, bob on a phone by tapping.


@pytest.fixture
def server(redis_channel_layer):
    # This process deals too (the game starts here): its pushes go through Redis as well.
    daphne = start_daphne(use_redis_layer)
    yield url_of(daphne)
    stop_daphne(daphne)


def session_cookie(user, url):
    client = Client()
    client.force_login(user)
    return {"name": "sessionid", "value": client.cookies["sessionid"].value, "url": url}


def slap(page, rng: random.Random, keyboard: bool, deserted: bool) -> None:
    """Put a card down if the page offers one: a shield when it may, else a deserter, at
    every offer until one went down (`deserted`) and now and then after that."""
    shields = page.locator("button.slap.shield:not([disabled]):not([hidden])")
    deserters = page.locator("button.slap.desert:not([hidden])")
    try:
        if (offered := shields.count()) > 0:
            pile = rng.randrange(offered)
            if keyboard and pile < 9:
                page.keyboard.press(str(pile + 1))
            else:
                shields.nth(pile).click(timeout=2000)
        elif (offered := deserters.count()) > 0 and (not deserted or rng.random() < 0.3):
            pile = rng.randrange(offered)
            if keyboard and pile < 9:
                page.keyboard.press(f"Shift+{pile + 1}")
            else:
                deserters.nth(pile).click(timeout=2000)
    except PlaywrightTimeout:
        pass  # the pile was redrawn under the tap: the next look tries again


def decide(page) -> None:
    """Take the first option offered, if the board offers a decision (a push may take the
    form away under the click: then the next look decides)."""
    form = page.locator("form#decision")
    if not form.count():
        return
    try:
        if form.locator("select").count():
            form.locator("button[type=submit]").click(timeout=2000)
        else:
            form.locator("button[data-action]").first.click(timeout=2000)
    except PlaywrightTimeout:
        return
    page.wait_for_timeout(200)


def deserters_down(table_id: int) -> set[str]:
    """The people who have put a deserter down in this game."""
    try:
        record = Table.objects.get(pk=table_id).record
        lines = [line for r in record["rounds"] for line in r["actions"]]
        return {n for n in ("alice", "bob") if any(x.startswith(f"{n}: desert") for x in lines)}
    finally:
        connection.close()


@pytest.mark.long
@pytest.mark.timeout(1500)
def test_two_people_and_three_ai_players_play_a_whole_game_in_chromium(server, alice, bob, request):
    table = orc_table(alice, [bob], ["beginner", "heuristic", "expert"], clock="live")
    cookies = [session_cookie(user, server) for user in (alice, bob)]
    browser = request.getfixturevalue("browser")
    pages = []
    for cookie, viewport in zip(cookies, [(1280, 800), (390, 844)], strict=True):
        context = browser.new_context(viewport={"width": viewport[0], "height": viewport[1]})
        context.add_cookies([cookie])
        page = context.new_page()
        page.goto(f"{server}/play/t/{table.pk}/")
        page.wait_for_selector("body[data-ws=open]")
        page.evaluate("window.stayed = true")
        pages.append(page)
    page_of = {"alice": pages[0], "bob": pages[1]}

    rng = random.Random(3)
    counters = set()
    deserted = set()
    # The ORM from another thread: Playwright's event loop runs in this one.
    database = ThreadPoolExecutor(1)
    for _ in range(3000):
        if pages[0].locator("#board[data-status=finished]").count():
            break
        if len(deserted) < 2:
            deserted = database.submit(deserters_down, table.pk).result()
        for name, page in page_of.items():
            # One read: a push may take the counter away at any moment.
            dealt = page.evaluate(
                "() => document.querySelector('#board').dataset.stamp + ':' +"
                " (document.querySelector('#deal-counter')?.dataset.dealt ?? '')"
            )
            if not dealt.endswith(":"):
                counters.add(dealt)
                slap(page, rng, keyboard=name == "alice", deserted=name in deserted)
            decide(page)
        pages[0].wait_for_timeout(250)
        if len(counters) == 5:
            pages[1].screenshot(path="/tmp/orc-phone.png", full_page=True)
            pages[0].screenshot(path="/tmp/orc-desktop.png", full_page=True)

    for page in pages:  # every board moved on through pushes, never a reload
        assert page.evaluate("window.stayed === true")
    assert len(counters) > 20, "the deal counter moved by pushes"
    with database:
        record = database.submit(lambda: Table.objects.get(pk=table.pk).record).result()
    lines = [line for r in record["rounds"] for line in r["actions"]]
    for name in ("alice", "bob"):
        assert any(line.startswith(f"{name}: shield") for line in lines), name
        assert any(line.startswith(f"{name}: desert") for line in lines), name

    pages[1].click("text=See the result")
    pages[1].wait_for_selector("table.result")
    assert pages[1].locator("table.result tr[data-player]").count() == 5
