"""In a browser: an online De l'Orc event of six runs from its start time to its final
standings with no organiser click. p1 … p4 wait on the event page and are taken to their
table; p5 sits on the site's home page in another tab, where the notice that his table is
ready (and his browser's notification) reaches him, and he follows its link; p6 never comes:
an AI player takes his seat and the second round leaves him out.

Whole games are played, every army card dealt: the story's server deals six times as fast
as the table's pace (tests/tournaments/sweeping.py), and a player whose clock runs out has
his decision taken by the AI. It prints how long the tables took to start after each draw
and how long after the last table ended the next round started, and keeps screenshots of
the event page during a round, between rounds and at the end, at a desktop's and a phone's
size and in German.
"""

import pytest
from playwright.sync_api import Page

from leagues.models import RatingHistory
from tests.conftest import start_daphne, stop_daphne, url_of
from tests.tournaments.sweeping import fast_deal_sweeping_server
from tests.tournaments.test_browser_auto import (
    INTERVAL,
    SHOTS,
    cookie_for,
    figures,
    make_event,
    orm,
    report,
    start_at,
)
from tournaments import actions as tournaments
from tournaments.models import Entry, Tournament, TournamentSeat

pytestmark = [pytest.mark.browser, pytest.mark.services]

# Seconds a round of the event may take: a whole game of De l'Orc at the story's deal.
ROUND_WAIT = 600


@pytest.fixture
def server(transactional_db):
    server = start_daphne(setup=fast_deal_sweeping_server)
    yield url_of(server)
    stop_daphne(server)


# What a player's pages do by themselves: on the event page follow the link to his table; on
# any other page follow the notice of his table a few seconds after it shows; at his table take
# the first decision offered (a spy asks the first player offered for the first kind of card)
# and end each pause; once his game is over go back (`BACK`).
PLAYER = """
(() => {
  const act = () => {
    if (!location.pathname.includes("/play/t/")) {
      const link = document.querySelector(".tn-your-table a");
      if (link) { location.assign(link.href); return; }
      const notice = document.querySelector("#person-notices .tn-table-ready a");
      if (notice && !notice.dataset.seen) notice.dataset.seen = String(Date.now());
      else if (notice && Date.now() - Number(notice.dataset.seen) > 8000) notice.click();
      return;
    }
    const board = document.querySelector("#board");
    if (board && board.dataset.status === "finished") { location.assign(BACK); return; }
    for (const first of document.querySelectorAll("form.decision input[required]")) {
      first.checked = true;
    }
    const button = document.querySelector("form.decision button[data-action]")
      || document.querySelector("form.decision button[type=submit]")
      || document.querySelector("form.continue button");
    if (button && !button.dataset.clicked) {
      button.dataset.clicked = "1";
      button.click();
    }
  };
  setInterval(act, 250);
})();
"""

# p5 looks at another tab (away from his tables): the site's notification reaches him there;
# the tab keeps what it was told across his following the notice.
AWAY = """
if (!location.pathname.includes("/play/t/")) {
  Object.defineProperty(document, "hidden", {get: () => true});
  const Real = window.Notification;
  window.Notification = class extends Real {
    constructor(title, options) {
      super(title, options);
      const notes = JSON.parse(sessionStorage.getItem("notes") || "[]");
      sessionStorage.setItem("notes", JSON.stringify([...notes, options.body]));
    }
    static get permission() { return Real.permission; }
  };
}
"""


DESKTOP = {"width": 1280, "height": 800}
PHONE = {"width": 390, "height": 844}


def shoot(watchers: dict[str, Page], moment: str) -> None:
    for name, page in watchers.items():
        page.screenshot(path=SHOTS / f"orc-{moment}-{name}.png", full_page=True)


@pytest.mark.long
@pytest.mark.timeout(1800)
def test_an_online_de_lorc_event_runs_itself_to_its_final_standings(server, request):
    event, olga, users = make_event(
        server, game="orc", players=6, rounds=2, max_table=7, options={"pace": 0.8}
    )
    url = f"{server}/clubs/tenno/tournaments/{event.pk}/"
    cookies = {u.username: cookie_for(u, server) for u in [olga, *users]}
    browser = request.getfixturevalue("browser")
    desktop = request.getfixturevalue("desktop_browser")  # p5's notifications
    SHOTS.mkdir(parents=True, exist_ok=True)

    # The organiser watches on a desktop, on a phone and (in German) on a second desktop.
    watchers = {}
    for name, viewport, language in (
        ("desktop", DESKTOP, "en"),
        ("phone", PHONE, "en"),
        ("german", DESKTOP, "de"),
    ):
        context = browser.new_context(viewport=viewport, locale=language)
        german = {"name": "django_language", "value": language, "url": server}
        context.add_cookies([cookies["olga"], german])
        watchers[name] = context.new_page()
        watchers[name].goto(url)
    players = {}
    for username in ("p1", "p2", "p3", "p4", "p5"):
        chromium = desktop if username == "p5" else browser
        context = chromium.new_context(viewport=PHONE if username == "p2" else DESKTOP)
        context.add_cookies([cookies[username]])
        back = f"{server}/" if username == "p5" else url
        script = f"const BACK = {back!r};" + PLAYER
        if username == "p5":
            context.grant_permissions(["notifications"], origin=server)
            script = AWAY + script
        context.add_init_script(script)
        page = context.new_page()
        page.goto(back)
        players[username] = page
    home = players["p5"]
    home.wait_for_selector("body[data-person-ws=open]")
    for page in [*watchers.values(), *players.values()]:
        page.wait_for_selector("body[data-ws=open], body[data-person-ws=open]")
    orm(lambda: start_at(event, 2))

    # The start time comes: the table is drawn and started, the pages show it.
    home.wait_for_selector("#person-notices .tn-table-ready", timeout=30_000)
    notice = home.locator("#person-notices .tn-table-ready")
    go, close = notice.locator("a").bounding_box(), notice.locator("button").bounding_box()
    assert close["y"] < go["y"] + go["height"], "the notice's × sits on a line of its own"
    home.screenshot(path=SHOTS / "orc-home-notice-p5.png", full_page=True)
    home.wait_for_url("**/play/t/**", timeout=30_000)  # he follows the notice's link
    notes = home.evaluate("JSON.parse(sessionStorage.getItem('notes') || '[]')")
    watchers["desktop"].wait_for_selector(".tn-card", timeout=30_000)
    watchers["desktop"].wait_for_timeout(1500)
    shoot(watchers, "round")

    watchers["desktop"].wait_for_selector(
        "#tn-round-status:has-text('all results in')", timeout=ROUND_WAIT * 1000
    )
    # Each page draws itself afresh for the round's end.
    for page in watchers.values():
        page.wait_for_selector(".tn-countdown", timeout=INTERVAL * 1000)
    shoot(watchers, "countdown")

    watchers["desktop"].wait_for_selector(".tn-final", timeout=2 * ROUND_WAIT * 1000)
    for page in watchers.values():
        page.reload()
    shoot(watchers, "final")
    rows = watchers["desktop"].locator("table.tn-standing tbody tr").count()
    browser.close()
    desktop.close()

    def check():
        numbers = figures(event.pk)
        absent = set(
            Entry.objects.filter(tournament=event, absent=True).values_list(
                "user__username", flat=True
            )
        )
        second = set(
            TournamentSeat.objects.filter(
                table__round__stage__tournament=event, table__round__number=2
            ).values_list("user__username", flat=True)
        )
        rated = set(
            RatingHistory.objects.filter(
                game__tournament_table__round__stage__tournament=event
            ).values_list("user__username", flat=True)
        )
        standing = tournaments.stage_standings(event.stages.get())
        names = dict(TournamentSeat.objects.values_list("user_id", "user__username"))
        last = {names[r.player] for r in standing if r.rank == max(s.rank for s in standing)}
        return numbers, absent, second, rated, last, Tournament.objects.get(pk=event.pk).status

    numbers, absent, second, rated, last, status = orm(check)
    report("De l'Orc", numbers)
    assert status == Tournament.FINISHED
    assert rows == 6
    assert any(note.startswith("Your table is ready: table 1 of") for note in notes), notes
    assert absent == {"p6"}
    assert second == {"p1", "p2", "p3", "p4", "p5"}
    # p6 placed last by the event, and rated for no game the AI played for him.
    assert "p6" in last
    assert "p6" not in rated
