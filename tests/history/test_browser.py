"""A player opens the history, filters it, opens a game and steps through its replay."""

import pytest
from django.test import Client

from games.ctg import engine, replay
from games.records import action_lines
from tests.history.conftest import online_game, pad_game

pytestmark = pytest.mark.browser


def session_cookie(user, url):
    client = Client()
    client.force_login(user)
    return {"name": "sessionid", "value": client.cookies["sessionid"].value, "url": url}


def test_it_filters_opens_a_game_and_replays_it_with_the_keyboard(
    live_server_url, alice, bob, charlie, request
):
    table, game = online_game([alice, bob], seed=31, variants=["ninja"], day=3)
    online_game([alice, charlie], seed=32, day=4)
    online_game([alice, bob], seed=33, day=5)
    pad_game([alice, bob], [[10], [5]], day=6)
    total = len(action_lines(table.record))
    cookie = session_cookie(alice, live_server_url)
    browser = request.getfixturevalue("browser")  # after all ORM work: see STACK-NOTES

    context = browser.new_context()
    context.add_cookies([cookie])
    page = context.new_page()
    page.goto(f"{live_server_url}/history/")
    assert page.locator("#results tbody tr").count() == 4
    page.fill("#id_opponent", "bob")
    page.press("#id_opponent", "Enter")
    page.wait_for_url("**opponent=bob**")
    page.wait_for_function("document.querySelectorAll('#results tbody tr').length === 3")
    page.select_option("#id_ninja", "yes")
    page.wait_for_function("document.querySelectorAll('#results tbody tr').length === 1")
    assert "ninja=yes" in page.url and "opponent=bob" in page.url
    page.click(f'#results tr[data-game="{game.pk}"] >> text=Details')
    page.wait_for_url(f"**/history/game/{game.pk}/")
    page.click("text=Replay")
    page.wait_for_selector(f'#replay[data-step="{total}"]')
    page.keyboard.press("Home")
    page.wait_for_selector('#replay[data-step="0"]')
    for step in range(1, total + 1):
        page.keyboard.press("ArrowRight")
        page.wait_for_selector(f'#replay[data-step="{step}"]')
    assert page.url.endswith(f"step={total}")
    assert "The game is over." in page.inner_text("#board")
    page.keyboard.press("ArrowLeft")
    page.wait_for_selector(f'#replay[data-step="{total - 1}"]')
    context.close()


def test_replay_steps_in_place_and_opens_a_discard_pile_as_it_was_then(
    live_server_url, alice, bob, request
):
    table, _game = online_game([alice, bob], seed=35)
    total = len(action_lines(table.record))
    # A position with at least two cards on X1, and how many it holds there.
    step, size = next(
        (s, len(engine.public_view(replay.position(table.record, s))["discard_piles"]["X1"]))
        for s in range(total // 2, total)
        if len(engine.public_view(replay.position(table.record, s))["discard_piles"]["X1"]) > 1
    )
    cookie = session_cookie(alice, live_server_url)
    browser = request.getfixturevalue("browser")

    page = browser.new_context().new_page()
    page.context.add_cookies([cookie])
    page.goto(f"{live_server_url}/history/replay/{table.pk}/?step={step - 2}")
    page.evaluate("window.notReloaded = true")
    for at in (step - 1, step):
        page.click("#replay-next")
        page.wait_for_selector(f'#replay[data-step="{at}"]')
    assert page.url.endswith(f"?step={step}")
    page.click('#board [data-pile="X1"] a.pile-all')
    pile = page.locator("#replay-pile-X1")
    assert pile.get_attribute("open") is not None
    assert pile.locator(".card").count() == size
    assert page.url.endswith(f"?step={step}")
    # The pile stays open while stepping back, and shows the pile of that step.
    page.click("#replay-prev")
    page.wait_for_selector(f'#replay[data-step="{step - 1}"]')
    assert page.locator("#replay-pile-X1").get_attribute("open") is not None
    assert page.evaluate("window.notReloaded") is True
    page.context.close()


def test_history_filters_fold_behind_a_button_on_a_phone(live_server_url, alice, bob, request):
    online_game([alice, bob], seed=36)
    cookie = session_cookie(alice, live_server_url)
    browser = request.getfixturevalue("browser")

    phone = browser.new_context(viewport={"width": 390, "height": 844}, has_touch=True)
    phone.add_cookies([cookie])
    page = phone.new_page()
    page.goto(f"{live_server_url}/history/")
    assert not page.is_visible("#id_opponent")
    assert page.is_visible("#results tbody tr")
    page.click("summary:has-text('Filters')")
    assert page.is_visible("#id_opponent")
    page.fill("#id_opponent", "bob")
    page.press("#id_opponent", "Enter")
    page.wait_for_url("**opponent=bob**")
    page.goto(page.url)
    assert page.inner_text("#filters-fold summary") == "Filters (1)"
    phone.close()

    desktop = browser.new_context(viewport={"width": 1280, "height": 800})
    desktop.add_cookies([cookie])
    page = desktop.new_page()
    page.goto(f"{live_server_url}/history/")
    assert page.is_visible("#id_opponent")
    desktop.close()


def test_choosing_another_game_brings_its_own_filters(live_server_url, alice, bob, request):
    online_game([alice, bob], seed=37, variants=["ninja"], day=2)
    pad_game([alice, bob], [[10], [5]], day=3)
    cookie = session_cookie(alice, live_server_url)
    browser = request.getfixturevalue("browser")

    context = browser.new_context()
    context.add_cookies([cookie])
    page = context.new_page()
    page.goto(f"{live_server_url}/history/")
    page.select_option("#id_ninja", "yes")
    page.wait_for_function("document.querySelectorAll('#results tbody tr').length === 1")
    page.select_option("#id_game", "orc")
    page.wait_for_url("**game=orc**")
    page.wait_for_selector("#id_mode", state="detached")
    assert page.locator("#id_ninja").count() == 0
    assert page.locator("#results tbody tr").count() == 0
    page.select_option("#id_game", "ctg")
    page.wait_for_selector("#id_mode")
    page.wait_for_function("document.querySelectorAll('#results tbody tr').length === 2")
    page.select_option("#id_mode", "quick")
    page.wait_for_url("**mode=quick**")
    assert "game=ctg" in page.url
    context.close()


def test_a_step_pressed_as_soon_as_the_last_is_shown_stays_in_place(
    live_server_url, alice, bob, request
):
    # A held key repeats every few tens of milliseconds: a press can land right after a step
    # was swapped in, before htmx has bound the new step's links.
    table, _game = online_game([alice, bob], seed=37)
    cookie = session_cookie(alice, live_server_url)
    browser = request.getfixturevalue("browser")

    page = browser.new_context().new_page()
    page.context.add_cookies([cookie])
    page.goto(f"{live_server_url}/history/replay/{table.pk}/?step=0")
    page.evaluate("""() => {
      window.notReloaded = true;
      document.body.addEventListener("htmx:afterSwap", () => {
        if (document.getElementById("replay").dataset.step !== "1") return;
        const key = new KeyboardEvent("keydown", {key: "ArrowRight", bubbles: true});
        document.body.dispatchEvent(key);
      });
    }""")
    page.keyboard.press("ArrowRight")
    page.wait_for_selector('#replay[data-step="2"]')
    assert page.url.endswith("?step=2")
    assert page.evaluate("window.notReloaded") is True
    page.context.close()
