"""In chromium: alice, who just finished a quick game against three AI players, asks for the
analysis of her game on its result page, watches its progress, and steps through the marks
of her decisions in the replay, on a laptop and on a phone.

The screenshots go to artifacts/screenshots/ (not kept in git).
"""

import contextlib
import re
from pathlib import Path

import pytest
from playwright.sync_api import Error as PlaywrightError

from tests.analysis.site import finished_against_ai
from tests.games.test_browser_play import session_cookie

pytestmark = [pytest.mark.browser, pytest.mark.services]

SHOTS = Path(__file__).resolve().parents[2] / "artifacts" / "screenshots"
DESKTOP = {"width": 1280, "height": 800}
PHONE = {"width": 390, "height": 844}
PROGRESS = """() => {
  const bar = document.querySelector('#analysis progress'); return bar ? +bar.value : -1
}"""


def open_page(browser, cookie, url, **context_options):
    context = browser.new_context(**context_options)
    context.add_cookies([cookie])
    page = context.new_page()
    page.errors = []
    page.on("pageerror", lambda e: page.errors.append(str(e)))
    page.goto(url)
    return page


def shot(page, name: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"analysis-{name}.png"))
    page.screenshot(path=str(SHOTS / f"analysis-{name}-whole.png"), full_page=True)


def marked_decision(page) -> dict:
    """The decision shown at this step: its mark, its options and the move list's step."""
    page.wait_for_selector(".analysis-decision")
    return page.evaluate(
        """() => ({
          mark: document.querySelector('.analysis-decision').dataset.mark || null,
          options: document.querySelectorAll('.analysis-options li').length,
          bars: document.querySelectorAll('.analysis-options .bar > span').length,
          current: document.querySelectorAll('.analysis-moves li[aria-current]').length,
          step: +document.querySelector('#replay').dataset.step,
        })"""
    )


def test_alice_analyses_her_game_and_steps_through_its_marks(live_daphne, alice, request):
    table = finished_against_ai(alice)
    # Enough samples that the search takes a few seconds: the progress bar has time to move.
    live_daphne.override(ANALYSIS_SAMPLES=60)
    url = live_daphne.url
    cookie = session_cookie(alice, url)
    browser = request.getfixturevalue("browser")

    page = open_page(browser, cookie, f"{url}/play/t/{table.pk}/result/", viewport=DESKTOP)
    # What each poll of the progress bar showed.
    polled: list[int] = []

    def progress(response) -> None:
        # The last answer draws the page afresh (HX-Refresh): no bar in it.
        if "/progress/" in response.url and not response.headers.get("hx-refresh"):
            found = re.search(r'<progress max="100" value="(\d+)"', response.text())
            if found:
                polled.append(int(found.group(1)))

    page.on("response", progress)
    page.click("button[data-analyse=own]")

    # The replay, seen as her seat saw it, with the analysis under way below it.
    page.wait_for_url(f"**/history/replay/{table.pk}/?seat=0#analysis")
    assert page.evaluate(PROGRESS) >= 0, "no progress bar"
    shot(page, "progress")
    # The bar scrolled into view, unless the analysis ends (and the page is drawn afresh)
    # meanwhile, as on a quick machine it may.
    with contextlib.suppress(PlaywrightError):  # the page was drawn afresh under the call
        page.evaluate("document.querySelector('#analysis progress')?.scrollIntoView()")
        shot(page, "progress-bar")
    # Done: the page is drawn afresh with her marks.
    page.wait_for_selector(".analysis-replay h2", timeout=180_000)
    print("progress polled:", polled)
    assert len(set(polled)) >= 2 and polled == sorted(polled), polled

    # She steps from mark to mark.
    first = page.locator("#analysis-first-mark, #analysis-first-decision").first
    first.click()
    shown = marked_decision(page)
    visited = [shown]
    while page.locator("#analysis-next-mark").count():
        page.click("#analysis-next-mark")
        page.wait_for_function(
            "s => +document.querySelector('#replay').dataset.step > s", arg=shown["step"]
        )
        shown = marked_decision(page)
        visited.append(shown)
    print("decisions visited:", visited)
    for decision in visited:
        assert decision["options"] >= 2 and decision["bars"] == decision["options"]
        assert decision["current"] == 1
    assert [d["step"] for d in visited] == sorted({d["step"] for d in visited})
    assert all(d["mark"] for d in visited[1:])
    page.locator(".analysis-replay").first.scroll_into_view_if_needed()
    shot(page, "replay-desktop")

    # The same replay on a phone: nothing wider than the screen.
    phone = open_page(browser, cookie, page.url, viewport=PHONE)
    marked_decision(phone)
    assert phone.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    phone.locator(".analysis-decision").scroll_into_view_if_needed()
    shot(phone, "replay-phone")
    assert page.errors == [] and phone.errors == []
