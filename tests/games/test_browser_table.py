"""The table page in a real browser: what a newcomer noticed was wrong, put right."""

import pytest

from games import actions
from tests.games.conftest import open_table
from tests.games.test_browser_play import session_cookie

pytestmark = pytest.mark.browser

# alice plays; bob plays against her in two-person games; AI players fill the other seats.

CONTRAST = """el => {
  const lum = (c) => {
    const [r, g, b] = c.match(/[\\d.]+/g).slice(0, 3).map(Number).map(v => {
      v /= 255;
      return v <= .03928 ? v / 12.92 : ((v + .055) / 1.055) ** 2.4;
    });
    return .2126 * r + .7152 * g + .0722 * b;
  };
  const style = getComputedStyle(el);
  const [a, b] = [lum(style.color), lum(style.backgroundColor)].sort((x, y) => y - x);
  return (a + .05) / (b + .05);
}"""


def open_page(browser, cookie, url, **context_options):
    context = browser.new_context(**context_options)
    context.add_cookies([cookie])
    page = context.new_page()
    page.errors = []
    page.on("console", lambda m: m.type == "error" and page.errors.append(m.text))
    page.on("pageerror", lambda e: page.errors.append(str(e)))
    page.goto(url)
    page.wait_for_selector("body[data-ws=open]")
    return page


def test_it_starts_a_game_with_one_load_of_the_table_and_no_errors(live_server_url, alice, request):
    table = open_table(alice)
    actions.add_ai(table.pk, alice, "greedy")
    url = f"{live_server_url}/play/t/{table.pk}/"
    cookie = session_cookie(alice, live_server_url)
    browser = request.getfixturevalue("browser")
    page = open_page(browser, cookie, url)
    loads, failed = [], []
    page.on("request", lambda r: r.url == url and r.method == "GET" and loads.append(r))
    page.on("requestfailed", lambda r: failed.append(r.url))
    # Counts the frames each page (the table's, once it loads) has taken from its socket.
    page.context.add_init_script(
        "window.frames_taken = 0;"
        " document.addEventListener('htmx:wsAfterMessage', () => window.frames_taken++);"
    )

    page.click("text=Start the game")
    page.wait_for_selector("#board")
    page.wait_for_selector("body[data-ws=open]")
    # The board the table's socket brings when it opens: the start's push, sent before that
    # socket existed, has reached the waiting room (and any reload it set going) by now.
    page.wait_for_function("window.frames_taken > 0")

    assert len(loads) == 1 and failed == []
    assert page.errors == []


def test_it_draws_from_the_pile_the_player_taps(live_server_url, alice, bob, request):
    table = open_table(alice)
    actions.take_seat(table.pk, bob)
    actions.start(table.pk, alice)
    cookie = session_cookie(alice, live_server_url)
    browser = request.getfixturevalue("browser")
    page = open_page(browser, cookie, f"{live_server_url}/play/t/{table.pk}/")
    page.wait_for_selector("form.decision")

    page.click('.pile.draw[data-pile="D1"] button.tap')

    page.wait_for_selector('#board:not([data-version="0"])')
    # The first turn's second card comes from the other pile by force: the tap was the first.
    assert page.locator(".log li").all_inner_texts()[-2:] == [
        "alice draws from D2",
        "alice draws from D1",
    ]
    assert page.inner_text("#notice") == "" and page.errors == []


def test_it_marks_the_players_own_corner_and_shows_a_readable_move_count(
    live_server_url, alice, bob, request
):
    table = open_table(alice)
    actions.take_seat(table.pk, bob)
    actions.start(table.pk, alice)
    cookie = session_cookie(alice, live_server_url)
    browser = request.getfixturevalue("browser")
    page = open_page(browser, cookie, f"{live_server_url}/play/t/{table.pk}/")

    mine = page.locator('.player[data-seat="0"] h2')
    assert "you" in mine.evaluate("h => getComputedStyle(h, '::after').content")
    other = page.locator('.player[data-seat="1"] h2')
    assert other.evaluate("h => getComputedStyle(h, '::after').content") == "none"
    badge = page.locator(".site-nav .badge.your-move")
    assert badge.inner_text().startswith("1")
    assert badge.evaluate(CONTRAST) >= 4.5


def test_it_shows_a_refused_htmx_request_as_a_notice_on_the_page(
    live_server_url, alice, bob, request
):
    table = open_table(alice)
    actions.take_seat(table.pk, bob)
    actions.start(table.pk, alice)
    cookie = session_cookie(alice, live_server_url)
    browser = request.getfixturevalue("browser")
    page = open_page(browser, cookie, f"{live_server_url}/play/t/{table.pk}/")
    page.wait_for_selector("form.decision")
    # As if the session had changed in another tab: the page's token is no longer good.
    page.evaluate("""document.body.setAttribute("hx-headers", '{"X-CSRFToken": "stale"}')""")

    page.click("form.decision button[data-action]")

    page.wait_for_selector("#notice .notice.error")
    assert "reload it" in page.inner_text("#notice")
    assert page.locator(".site-header").count() == 1  # the page is still the table
    assert page.locator("#board form.decision").count() == 1


def test_it_leaves_a_game_against_ai_players_after_saying_it_ends(live_server_url, alice, request):
    table = open_table(alice)
    actions.add_ai(table.pk, alice, "greedy")
    actions.start(table.pk, alice)
    cookie = session_cookie(alice, live_server_url)
    browser = request.getfixturevalue("browser")
    page = open_page(browser, cookie, f"{live_server_url}/play/t/{table.pk}/")
    questions = []
    page.on("dialog", lambda d: (questions.append(d.message), d.accept()))

    page.click(".leave-game button")

    page.wait_for_selector("text=no person was left playing it")
    assert "the game ends" in questions[0]
    assert page.locator("form.decision").count() == 0
    assert page.locator(".leave-game").count() == 0


def test_it_asks_before_cancelling_a_table(live_server_url, alice, request):
    table = open_table(alice)
    cookie = session_cookie(alice, live_server_url)
    browser = request.getfixturevalue("browser")
    page = open_page(browser, cookie, f"{live_server_url}/play/t/{table.pk}/")
    answers = iter([False, True])
    questions = []

    def answer(dialog):
        questions.append(dialog.message)
        dialog.accept() if next(answers) else dialog.dismiss()

    page.on("dialog", answer)
    # Forms that went (their submit not stopped), as the page saw them.
    page.evaluate(
        """() => { window.sent = []; document.addEventListener("submit",
          (e) => e.defaultPrevented || window.sent.push(e.target.action)); }"""
    )

    page.click("text=Cancel the table")
    # The click's submit has been judged (a dialog blocks until answered): nothing went.
    assert page.evaluate("window.sent") == []
    assert "/play/t/" in page.url and page.locator("text=Start the game").count() == 1
    page.click("text=Cancel the table")
    page.wait_for_url(f"{live_server_url}/play/")
    assert questions == ["Cancel this table? Its seats and invite link go with it."] * 2
