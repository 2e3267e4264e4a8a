"""A newcomer learns a game in chromium: the rules from the home page, then one click from the
lobby to a game against AI players, and the table says what happens now and what each card is
worth.

alice is new: on a phone in German she learns De l'Orc; at a desktop in English she starts a
game of Call to Glory from the lobby. The screenshots go to artifacts/screenshots/ (not kept
in git).
"""

from concurrent.futures import ThreadPoolExecutor

import pytest

from games.models import Table
from tests.games.test_browser_play import session_cookie
from tests.games.test_browser_stories import DESKTOP, PHONE, shot

pytestmark = pytest.mark.browser


def new_page(browser, cookie, language: str, viewport: dict, **options):
    context = browser.new_context(viewport=viewport, **options)
    context.add_cookies([cookie, {**cookie, "name": "django_language", "value": language}])
    page = context.new_page()
    page.errors = []
    page.on("pageerror", lambda e: page.errors.append(str(e)))
    return page


def fits(page) -> bool:
    return page.evaluate("document.documentElement.scrollWidth") <= page.viewport_size["width"]


def test_a_newcomer_on_a_phone_reads_de_lorcs_rules_then_plays_it_against_ai_players(
    live_server_url, alice, request
):
    cookie = session_cookie(alice, live_server_url)
    browser = request.getfixturevalue("browser")
    page = new_page(browser, cookie, "de", PHONE, is_mobile=True, has_touch=True)
    page.goto(f"{live_server_url}/")

    # The home page names both games; De l'Orc's rules are one tap away.
    games = page.inner_text("section.games")
    assert "Call to Glory" in games and "De l'Orc pour les Braves" in games
    page.get_by_role("link", name="Regeln von De l'Orc pour les Braves").click()
    page.wait_for_selector("h1:has-text('Regeln von De l')")
    assert page.locator("table.rules-cards tbody tr").count() == 10
    page.get_by_role("link", name="Die vier Schlachten").click()
    assert page.locator("#battles").is_visible()
    assert "Schlacht 1: 2 Punkte" in page.inner_text(".rules-points")
    assert fits(page)
    shot(page, "learn-rules-phone-de")

    # From the rules to the lobby: four players, the weakest AI players, one tap.
    page.locator("article.rules a.button").click()
    page.wait_for_url("**/play/")
    form = page.locator("form.against-ai[data-game=orc]")
    form.get_by_label("Spieler:", exact=True).select_option("4")
    form.get_by_label("Stärke der KI-Spieler:", exact=True).select_option(label="Rekrut")
    form.get_by_role("button", name="Gegen KI-Spieler spielen").click()
    page.wait_for_url("**/play/t/*/")
    page.wait_for_selector("body[data-ws=open]")

    # The table says what to do, and the deal reaches the page.
    now = page.locator("#board .now")
    assert now.inner_text().startswith("Lege einen Deserteur auf einen Stapel")
    card = page.locator(".pile-cards .orc-card").first
    card.wait_for(timeout=20_000)
    assert card.get_attribute("title").startswith("Stärke: ")
    card.tap()
    tip = page.locator(".card-tip")
    tip.wait_for()
    assert "Stärke: " in tip.inner_text()
    assert fits(page)
    shot(page, "learn-table-phone-de", full_page=False)
    assert page.errors == []

    with ThreadPoolExecutor(1) as pool:  # the ORM away from Playwright's event loop
        table = pool.submit(lambda: Table.objects.get()).result()
        seats = pool.submit(lambda: list(table.seats.order_by("position"))).result()
    assert (table.game, table.status, table.seats_count) == ("orc", Table.RUNNING, 4)
    assert [seat.user_id for seat in seats] == [None, alice.pk, None, None]
    assert {seat.ai_level for seat in seats if seat.user_id is None} == {"beginner"}


def test_a_newcomer_at_a_desktop_starts_call_to_glory_against_ai_players_from_the_lobby(
    live_server_url, alice, request
):
    cookie = session_cookie(alice, live_server_url)
    browser = request.getfixturevalue("browser")
    page = new_page(browser, cookie, "en", DESKTOP)
    page.goto(f"{live_server_url}/play/")

    form = page.locator("form.against-ai[data-game=ctg]")
    form.get_by_label("Players:", exact=True).select_option("2")
    form.get_by_label("Level of the AI players:", exact=True).select_option(label="Beginner")
    shot(page, "learn-lobby-desktop")
    form.get_by_role("button", name="Play against AI players").click()
    page.wait_for_url("**/play/t/*/")
    page.wait_for_selector("body[data-ws=open]")

    # Call to Glory's start player is alice: her decision waits, and its rules are linked.
    page.wait_for_selector("form.decision")
    assert "Your decision" in page.inner_text("#board .status")
    assert page.get_attribute(".rules-link", "href") == "/play/rules/ctg/"
    assert fits(page)
    shot(page, "learn-table-desktop", full_page=False)
    assert page.errors == []
