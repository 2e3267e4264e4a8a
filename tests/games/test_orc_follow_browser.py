"""De l'Orc followed in chromium at a desktop's and a phone's size, in English and German: the
deal, a battle's reveal, a round's end and the result, each as a player sees it (screenshots
in /tmp/shots-orcfollow/)."""

from pathlib import Path

import pytest

from games import actions
from tests.games.orc_helpers import finished_orc_table, orc_table, people, set_deal
from tests.games.test_browser_play import session_cookie
from tests.games.test_browser_table import open_page
from tests.games.test_orc_reveal import before_a_reveal

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SHOTS = Path("/tmp/shots-orcfollow")
SIZES = {"desktop": {"width": 1280, "height": 800}, "phone": {"width": 390, "height": 844}}
IN_VIEW = """(node) => { const box = node.getBoundingClientRect();
  return box.top >= 0 && box.bottom <= window.innerHeight; }"""


def shoot(browser, cookie, server, table, name, language="en"):
    pages = []
    for size, viewport in SIZES.items():
        page = open_page(browser, cookie, f"{server}/play/t/{table.pk}/", viewport=viewport)
        if language != "en":
            page.context.add_cookies(
                [{"name": "django_language", "value": language, "url": server}]
            )
            page.reload()
            page.wait_for_selector("body[data-ws=open]")
        SHOTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(SHOTS / f"{name}-{size}-{language}.png"), full_page=False)
        page.screenshot(path=str(SHOTS / f"{name}-{size}-{language}-full.png"), full_page=True)
        assert page.errors == []
        pages.append(page)
    return pages


@pytest.mark.parametrize(("battle", "name"), [(1, "reveal"), (4, "round-end")])
def test_the_reveal_and_the_rounds_end_at_both_sizes(
    live_server_url, settings, request, battle, name
):
    settings.REVEAL_PAUSE_SECONDS = settings.ROUND_PAUSE_SECONDS = 600
    users, table, state, move = before_a_reveal(battle)
    actions.play(table.pk, state.decider, move, table.version)
    cookie = session_cookie(users[1], live_server_url)
    browser = request.getfixturevalue("browser")
    for page in shoot(browser, cookie, live_server_url, table, name):
        assert page.locator("#reveal").is_visible()
        assert page.locator("button[data-action=continue]").is_visible()
        assert page.locator("#round-end").count() == (battle == 4)
        # On the screen as the page opens, at both sizes: no scrolling to find it.
        assert page.locator("button[data-action=continue]").evaluate(IN_VIEW)
        page.evaluate("window.scrollBy(0, 400)")  # and while the player reads on
        assert page.locator("button[data-action=continue]").evaluate(IN_VIEW)
    shoot(browser, cookie, live_server_url, table, name, "de")


def test_the_deal_and_the_result_at_both_sizes(live_server_url, alice, request):
    bob, charlie, dave = people("bob", "charlie", "dave")
    dealing = orc_table(alice, [bob, charlie, dave], pace=2.0)
    set_deal(dealing, 45)
    finished = finished_orc_table([alice, bob, charlie, dave])
    cookie = session_cookie(bob, live_server_url)
    browser = request.getfixturevalue("browser")
    shoot(browser, cookie, live_server_url, dealing, "deal")
    shoot(browser, cookie, live_server_url, dealing, "deal", "de")
    for page in shoot(browser, cookie, live_server_url, finished, "result"):
        assert not page.locator(".leave-game").is_visible()
        assert page.locator("strong.winners").is_visible()
    shoot(browser, cookie, live_server_url, finished, "result", "de")
