"""The De l'Orc table passes axe-core's accessibility checks, as the site's other pages do
(tests/site/test_pages_in_a_browser.py), at a phone's and a desktop's size: during the deal,
at a decision made of choices (a spy's, the mercenaries'), and on a battle's reveal. Each
page checked is photographed to artifacts/screenshots/orc-checked-* (not kept in git)."""

from pathlib import Path

import pytest
from axe_playwright_python.sync_playwright import Axe

from games import actions
from tests.games.orc_helpers import orc_table, people, set_deal
from tests.games.test_browser_play import session_cookie
from tests.games.test_orc_choices import at
from tests.games.test_orc_reveal import before_a_reveal

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SHOTS = Path(__file__).resolve().parents[2] / "artifacts" / "screenshots"

SIZES = [
    {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True},
    {"viewport": {"width": 1280, "height": 800}},
]


def problems(browser, cookie, url: str, name: str) -> dict[str, str]:
    """axe's violations on the table at `url`, by screen size, once its socket is open;
    `name`: its screenshots'."""
    found = {}
    for size in SIZES:
        context = browser.new_context(**size)
        context.add_cookies([cookie])
        page = context.new_page()
        page.goto(url)
        page.wait_for_selector("body[data-ws=open]")
        SHOTS.mkdir(parents=True, exist_ok=True)
        width = size["viewport"]["width"]
        page.screenshot(path=str(SHOTS / f"orc-checked-{name}-{width}.png"), full_page=True)
        result = Axe().run(page)
        if result.violations_count:
            found[str(size["viewport"]["width"])] = result.generate_snapshot()
        context.close()
    return found


def test_the_table_in_the_deal_passes_accessibility_checks(live_server_url, alice, request):
    bob, charlie, dave = people("bob", "charlie", "dave")
    table = orc_table(alice, [bob, charlie, dave], pace=2.0)
    set_deal(table, 45)  # the start card is out: both kinds of button on every pile
    cookie = session_cookie(bob, live_server_url)
    browser = request.getfixturevalue("browser")
    assert problems(browser, cookie, f"{live_server_url}/play/t/{table.pk}/", "deal") == {}


@pytest.mark.parametrize("decision", ["spy", "send"])
def test_the_table_at_a_decision_passes_accessibility_checks(live_server_url, request, decision):
    users, table, state, *_ = at(decision)
    cookie = session_cookie(users[state.decider], live_server_url)
    browser = request.getfixturevalue("browser")
    assert problems(browser, cookie, f"{live_server_url}/play/t/{table.pk}/", decision) == {}


def test_the_table_on_a_reveal_passes_accessibility_checks(live_server_url, settings, request):
    settings.REVEAL_PAUSE_SECONDS = settings.ROUND_PAUSE_SECONDS = 600
    users, table, state, move = before_a_reveal(4)  # the round's end as well
    actions.play(table.pk, state.decider, move, table.version)
    cookie = session_cookie(users[1], live_server_url)
    browser = request.getfixturevalue("browser")
    assert problems(browser, cookie, f"{live_server_url}/play/t/{table.pk}/", "reveal") == {}
