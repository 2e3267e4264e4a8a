"""Stories of a person at the table, in chromium, with screenshots for the record.

alice plays; three AI players (Beginner) fill a four-seat table, or bob plays against her.
The screenshots go to artifacts/screenshots/ (not kept in git).
"""

from pathlib import Path

import pytest

from games import actions
from games.ctg import engine
from games.ctg.engine.record import logged_actions
from games.ctg.game import CALL_TO_GLORY, table_deck
from games.models import Table
from tests.games.conftest import open_table
from tests.games.test_browser_play import pick, session_cookie
from tests.games.test_browser_table import open_page

pytestmark = pytest.mark.browser

SHOTS = Path(__file__).resolve().parents[2] / "artifacts" / "screenshots"
PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 900}


def shot(page, name: str, full_page: bool = True) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{name}.png"), full_page=full_page)


def alice_decisions_to_round_end(seed: int) -> int:
    """How often alice decides in round 1 at a four-seat table of Beginners, played the way
    the site plays its AI players and the way this test clicks."""
    table = Table(seed=seed, seats_count=4, options={"rounds": 4})
    state = engine.new_game(
        CALL_TO_GLORY.engine_options(table),
        ["alice", "b", "c", "d"],
        decks=[table_deck(table.seed, 0)],
    )
    count = 0
    while not state.history:
        seat = state.decider
        if seat == 0:
            text = pick(engine.view(state, 0)["legal_texts"])
            count += 1
        else:
            version = len(logged_actions(state))
            text = CALL_TO_GLORY.ai_move("greedy", table, state, seat, hash((seed, version)))
        state.apply(engine.parse_action(text, state.names), seat)
    return count


def click_until(page, done: str, limit: int = 120) -> None:
    """Click alice's first decision, as `pick` chooses, until `done` (a selector) shows."""
    for _ in range(limit):
        if page.locator(done).count():
            return
        version = page.get_attribute("#board", "data-version")
        offered = page.locator("form.decision button[data-action]").evaluate_all(
            "buttons => buttons.map(b => b.dataset.action)"
        )
        page.click(f'form.decision button[data-action="{pick(offered)}"]')
        page.wait_for_function(
            """([v, done]) => document.querySelector("#board").dataset.version !== v
                && (document.querySelector("form.decision") || document.querySelector(done))""",
            arg=[version, done],
            timeout=60_000,  # three AI moves and their pushes, on a busy machine
        )
    raise AssertionError(f"{done} did not show")


@pytest.fixture
def minute_to_look(live_daphne):
    """The live server gives players a minute at a round's end."""
    live_daphne.override(ROUND_PAUSE_SECONDS=60)


def test_a_round_ends_against_three_ai_players_and_alice_continues(
    minute_to_look, live_server_url, alice, request
):
    seed = min(range(1, 40), key=alice_decisions_to_round_end)
    table = open_table(alice, seats_count=4, rounds=4)
    Table.objects.filter(pk=table.pk).update(seed=seed)
    for _ in range(3):
        actions.add_ai(table.pk, alice, "greedy")
    actions.start(table.pk, alice)
    cookie = session_cookie(alice, live_server_url)
    browser = request.getfixturevalue("browser")
    url = f"{live_server_url}/play/t/{table.pk}/"
    page = open_page(browser, cookie, url, viewport=DESKTOP)
    page.wait_for_selector("form.decision")
    shot(page, "table-desktop-start")

    # The AI players' moves reach the page; the last of them is marked where it happened.
    click_until(page, "#board .last-move")
    page.wait_for_selector("#board .last-line")
    marked = page.locator("#board .last-move").first
    page.emulate_media(reduced_motion="no-preference")
    assert marked.evaluate("e => getComputedStyle(e).animationName") == "arrive"
    page.emulate_media(reduced_motion="reduce")
    assert marked.evaluate("e => getComputedStyle(e).animationName") == "none"
    shot(page, "table-desktop")

    click_until(page, "#round-pause")
    summary = page.locator("#round-pause")
    assert "Round 1 is over" in summary.inner_text()
    assert "begins once everyone has seen" in page.inner_text("#board .status")
    assert summary.locator("tr[data-seat]").count() == 4
    why = summary.locator(".why").inner_text()
    assert any(w in why for w in ("different types", "All nine types", " empty."))
    assert page.locator("form.decision").count() == 0  # nobody moves while it shows
    assert page.locator(".log li.round-sep").count() == 1
    shot(page, "round-end-summary")
    phone = open_page(browser, cookie, url, viewport=PHONE)
    phone.wait_for_selector("#round-pause")
    assert phone.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    shot(phone, "round-end-phone")
    phone.context.close()

    page.click('button[data-action="continue"]')
    page.wait_for_selector("#round-pause", state="detached")
    page.wait_for_selector("form.decision")
    assert "Round 2 of 4" in page.inner_text("#board .status")
    assert page.errors == []

    # The same table on a phone: what alice acts on comes first, the piles she draws from
    # between her decision and her hand.
    phone = open_page(browser, cookie, url, viewport=PHONE)
    phone.wait_for_selector("form.decision")
    tops = phone.evaluate(
        """() => Object.fromEntries(["form.decision", ".piles", ".hand", ".players"].map(s => [
            s, Math.round(document.querySelector(s).getBoundingClientRect().bottom + scrollY),
        ]))"""
    )
    print("phone 390x844, bottom of each zone in px:", tops)
    assert tops["form.decision"] < tops[".piles"] < tops[".hand"] < tops[".players"]
    assert tops[".players"] <= 1900 - 600  # the others' sets well before the old 1,900 px
    assert phone.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    shot(phone, "table-phone")


def test_the_result_says_who_won(live_server_url, alice, bob, request):
    table = open_table(alice)
    actions.take_seat(table.pk, bob)
    actions.start(table.pk, alice)
    table.refresh_from_db()
    while table.status == Table.RUNNING:
        state = table.state()
        seat = state.decider
        actions.play(table.pk, seat, pick(engine.view(state, seat)["legal_texts"]), table.version)
        table.refresh_from_db()
    places = table.result["placings"]
    cookie = session_cookie(alice, live_server_url)
    browser = request.getfixturevalue("browser")
    page = open_page(browser, cookie, f"{live_server_url}/play/t/{table.pk}/", viewport=DESKTOP)

    words = {1: "You won!", 2: "You placed 2nd of 2."}[places["alice"]]
    assert words in page.inner_text("#board .status")
    page.click("text=See the result")
    page.wait_for_selector("table.result")
    assert words in page.inner_text(".headline")
    assert page.locator("section.round-end").count() == 1
    assert page.locator("a", has_text="Watch the replay").count() == 1
    shot(page, "result")


NOTIFICATION_SPY = """
window.notes = [];
const Real = window.Notification;
window.Notification = class extends Real {
  constructor(title, options) { super(title, options); window.notes.push(options.body); }
  static get permission() { return Real.permission; }
  static requestPermission() { return Real.requestPermission(); }
};
"""


def test_a_hidden_tab_notifies_alice_when_the_move_comes_to_her(
    live_server_url, alice, bob, request
):
    table = open_table(bob)  # bob sits first and moves first
    actions.take_seat(table.pk, alice)
    actions.start(table.pk, bob)
    cookies = [session_cookie(alice, live_server_url), session_cookie(bob, live_server_url)]
    browser = request.getfixturevalue("desktop_browser")  # notifications
    url = f"{live_server_url}/play/t/{table.pk}/"
    context = browser.new_context(viewport=DESKTOP)
    context.add_init_script(NOTIFICATION_SPY)
    context.add_cookies([cookies[0]])
    page = context.new_page()
    page.goto(url)
    page.wait_for_selector("body[data-ws=open]")
    assert page.inner_text("#notify-toggle") == "Notify me when it is my move"

    context.grant_permissions(["notifications"], origin=live_server_url)  # alice says yes
    page.click("#notify-toggle")
    page.wait_for_function("document.querySelector('#notify-toggle').disabled")
    assert page.inner_text("#notify-toggle") == "Notifications: on"
    assert page.inner_text("#sound-toggle") == "Sound: off"  # off until asked for
    page.click("#sound-toggle")
    page.reload()
    page.wait_for_selector("body[data-ws=open]")
    assert page.get_attribute("#sound-toggle", "aria-pressed") == "true"  # remembered
    # alice looks at another tab.
    page.evaluate(
        """Object.defineProperty(document, "hidden", {get: () => true});
           Object.defineProperty(document, "visibilityState", {get: () => "hidden"});"""
    )

    other = open_page(browser, cookies[1], url, viewport=DESKTOP)
    click_until(other, "#board:not(:has(form.decision))")

    page.wait_for_function("window.notes.length === 1")
    assert page.evaluate("window.notes") == [f"Your move at table {table.pk}."]
    assert page.get_attribute("body", "data-turn-alerts") == "1"


def test_a_live_clock_warns_before_it_runs_out(live_server_url, alice, bob, request):
    table = open_table(alice, clock=Table.LIVE, clock_seconds=100)
    actions.take_seat(table.pk, bob)
    actions.start(table.pk, alice)
    cookie = session_cookie(alice, live_server_url)
    browser = request.getfixturevalue("browser")
    page = open_page(browser, cookie, f"{live_server_url}/play/t/{table.pk}/", viewport=DESKTOP)
    assert not page.locator(".clock-warning").is_visible()  # 1:40 to go

    # Time passes (the page is told its deadline is near rather than kept waiting for it).
    page.evaluate(
        """document.querySelector(".clock").dataset.deadline =
           new Date(Date.now() + 15000).toISOString()"""
    )

    page.wait_for_selector(".clock-warning", state="visible")  # 20 s before: a fifth of 100
    assert "nearly up" in page.inner_text(".clock-warning")
    assert "running-out" in page.get_attribute(".clock", "class")
