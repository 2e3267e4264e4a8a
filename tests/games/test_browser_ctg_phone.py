"""A game of Call to Glory against AI players, as alice plays it on a phone, in chromium.

alice sits first at a four-seat quick game with three Beginners. The screenshots go to
artifacts/screenshots/ (not kept in git) and to /tmp/shots-ctgcare/.
"""

from pathlib import Path

import pytest

from games import actions
from games.models import Table
from tests.games.conftest import open_table
from tests.games.test_browser_play import pick, session_cookie
from tests.games.test_browser_table import open_page

pytestmark = pytest.mark.browser

SHOT_DIRS = [
    Path(__file__).resolve().parents[2] / "artifacts" / "screenshots",
    Path("/tmp/shots-ctgcare"),
]
PHONE = {"width": 390, "height": 844}
SEED = 2
DESKTOP = {"width": 1280, "height": 800}

# Where each zone a player acts on lies in the window, without scrolling.
ZONES = """() => Object.fromEntries(["form.decision", ".piles", ".hand"].map(s => {
  const box = document.querySelector(s).getBoundingClientRect();
  return [s, [Math.round(box.top), Math.round(box.bottom)]];
}).concat([
  ["scrolled", scrollY], ["height", innerHeight], ["width", document.documentElement.scrollWidth],
]))"""


def shot(page, name: str, full_page: bool = False) -> None:
    for folder in SHOT_DIRS:
        folder.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(folder / f"ctg-{name}.png"), full_page=full_page)


def in_view_together(page, size: dict) -> dict:
    zones = page.evaluate(ZONES)
    print(f"{size['width']}x{size['height']}:", zones)
    assert zones["scrolled"] == 0
    for name in ("form.decision", ".piles", ".hand"):
        top, bottom = zones[name]
        assert top >= 0 and bottom <= zones["height"], f"{name} is not in view: {zones}"
    assert zones["width"] <= size["width"]
    return zones


def tap_pile(page, pile: str) -> None:
    version = page.get_attribute("#board", "data-version")
    page.click(f'.pile[data-pile="{pile}"] .tap')
    page.wait_for_function(
        "v => document.querySelector('#board').dataset.version !== v", arg=version
    )


def play_on(page, until: str) -> None:
    """alice's decisions as `pick` chooses, until `until` (a selector) shows."""
    for _ in range(200):
        if page.locator(until).count():
            return
        version = page.get_attribute("#board", "data-version")
        offered = page.locator("form.decision button[data-action]").evaluate_all(
            "buttons => buttons.map(b => b.dataset.action)"
        )
        page.click(f'form.decision button[data-action="{pick(offered)}"]')
        page.wait_for_function(
            """([v, until]) => document.querySelector("#board").dataset.version !== v
                && (document.querySelector("form.decision") || document.querySelector(until))""",
            arg=[version, until],
            timeout=60_000,
        )
    raise AssertionError(f"{until} did not show")


def test_alice_plays_a_quick_game_against_three_ai_players_on_a_phone(
    live_server_url, alice, request
):
    table = open_table(alice, seats_count=4, rounds=1)
    # A deal where both discard piles hold a card when her second turn comes.
    Table.objects.filter(pk=table.pk).update(seed=SEED)
    for _ in range(3):
        actions.add_ai(table.pk, alice, "greedy")
    actions.start(table.pk, alice)
    url = f"{live_server_url}/play/t/{table.pk}/"
    cookie = session_cookie(alice, live_server_url)
    browser = request.getfixturevalue("browser")

    # alice's first decision: she draws. The decision, the piles and her hand are in view
    # together, on a phone and on a laptop, in English and in German.
    phone = open_page(browser, cookie, url, viewport=PHONE)
    phone.wait_for_selector("form.decision")
    assert phone.inner_text("[data-moves-waiting] [aria-hidden]") == "1"
    shot(phone, "phone-draw")
    shot(phone, "phone-draw-whole", full_page=True)
    desktop = open_page(browser, cookie, url, viewport=DESKTOP)
    shot(desktop, "desktop-draw")
    german = open_page(browser, cookie, url, viewport=PHONE)
    german.context.add_cookies([cookie | {"name": "django_language", "value": "de"}])
    german.reload()
    german.wait_for_selector("body[data-ws=open]")
    shot(german, "phone-draw-de")
    in_view_together(phone, PHONE)
    in_view_together(desktop, DESKTOP)
    in_view_together(german, PHONE)
    assert "Von D1 ziehen" in german.inner_text("form.decision")
    german.context.close()

    # She taps the D1 pile. Both discard piles are empty, so her second card comes from D2 at
    # once: the cards she drew are marked in her hand, on both pages.
    tap_pile(phone, "D1")
    for page in (phone, desktop):
        page.wait_for_selector(".hand .drawn-mark")
        marks = page.locator(".hand .drawn-mark").all_inner_texts()
        assert marks in (["new", "new"], ["2 new"])
    phone.wait_for_selector(".hand-actions button")
    shot(phone, "phone-action")
    shot(phone, "phone-action-whole", full_page=True)
    shot(desktop, "desktop-action")
    desktop.context.close()

    # Her next turn, the discard piles started: she chooses each pile, and after the first
    # only that card is new.
    discard = phone.locator("form.decision button[data-action^=discard]").first
    version = phone.get_attribute("#board", "data-version")
    discard.click()
    phone.wait_for_function(
        """v => document.querySelector("#board").dataset.version !== v
            && document.querySelector("form.decision [data-action='draw X1']")""",
        arg=version,
        timeout=60_000,
    )
    in_view_together(phone, PHONE)
    shot(phone, "phone-draw-second-turn")
    tap_pile(phone, "D1")
    phone.wait_for_selector("form.decision [data-action='draw X1']")
    assert phone.locator(".hand .drawn-mark").all_inner_texts() == ["new"]
    in_view_together(phone, PHONE)
    shot(phone, "phone-drawn")

    # To the end of the round, which ends the quick game: the board names the winner.
    play_on(phone, "#board[data-status=finished]")
    headline = phone.inner_text("#board .headline")
    # The header's count of games waiting for her no longer counts this one.
    phone.wait_for_selector("[data-moves-waiting]", state="detached")
    shot(phone, "phone-final")
    shot(phone, "phone-final-whole", full_page=True)

    phone.click("text=See the result")
    phone.wait_for_selector("table.result")
    places = phone.locator("table.result tr[data-player]").evaluate_all(
        "rows => rows.map(r => [r.dataset.player, r.cells[0].textContent.trim()])"
    )
    winners = [name for name, place in places if place == "1"]
    if winners == ["alice"]:
        assert headline == "You won!"
    else:
        assert headline.startswith(f"{winners[0]} ")
    assert "Task bonus" not in phone.inner_text("main")
    shot(phone, "phone-result", full_page=True)
    assert phone.errors == []
