"""In a browser: an online Swiss event runs from its start time to its final standings with
no organiser click. Players wait on the event page and are taken to their tables; two never
come, one leaves mid-game, and AI players take their seats; the round after leaves them out.

The story prints how long a round's tables took to start after its draw, and how long after
a round's last table ended the next round started, against the event's interval.
"""

from concurrent.futures import ThreadPoolExecutor
from datetime import timedelta
from pathlib import Path

import pytest
from django.test import Client
from django.utils import timezone
from playwright.sync_api import TimeoutError as PageTimeout

from accounts.models import Club, Membership, User
from games.models import Table
from tests.conftest import start_daphne, stop_daphne, url_of
from tests.tournaments.sweeping import sweeping_server
from tournaments import actions as tournaments
from tournaments.models import Entry, Stage, Tournament, TournamentRound

pytestmark = [pytest.mark.browser, pytest.mark.services]

SHOTS = Path("/tmp/shots-tourauto")
# Seconds between rounds: long enough for every watching page of a loaded machine to be
# redrawn with the countdown before the next round is drawn.
INTERVAL = 20
# Milliseconds a round may take on a loaded machine: a quick game, 10 s a decision at most.
ROUND_WAIT = 600_000


@pytest.fixture
def server(transactional_db):
    server = start_daphne(setup=sweeping_server)
    yield url_of(server)
    stop_daphne(server)


def orm(work):
    """ORM work while Playwright's loop runs in this thread: on a thread of its own."""
    with ThreadPoolExecutor(1) as pool:
        return pool.submit(work).result()


def cookie_for(user, url):
    client = Client()
    client.force_login(user)
    return {"name": "sessionid", "value": client.cookies["sessionid"].value, "url": url}


def make_event(server, *, game, players, rounds, max_table, options):
    club = Club.objects.create(name="Tenno", slug="tenno")
    olga = User.objects.create_user("olga", password="pw")
    Membership.objects.create(club=club, user=olga, role=Membership.ORGANISER)
    event = tournaments.create(
        club,
        name=f"Self-running {game}",
        game=game,
        mode=Tournament.ONLINE,
        max_table=max_table,
        options=options,
        seeding=Tournament.RANDOM,
        rated=True,
        clock=Table.LIVE,
        clock_seconds=10,
        timeout_policy=Table.AI_MOVES,
        starts_at=timezone.now() + timedelta(hours=1),
        round_interval=INTERVAL,
        # Long enough for a page of a loaded machine to reach its table.
        no_show_seconds=20,
        stages=[{"kind": Stage.SWISS, "rounds": rounds}],
    )
    users = []
    for i in range(1, players + 1):
        user = User.objects.create_user(f"p{i}", password="pw")
        Membership.objects.create(club=club, user=user)
        tournaments.register(event, user, checked_in=True)
        users.append(user)
    # Not due before every page is open, however slow the machine is to open them.
    start_at(event, 600)
    return event, olga, users


def start_at(event, seconds: float) -> None:
    """Make the event due in `seconds`, with no timer in this process (whose pushes would
    reach no page): the live server's sweep draws it, as it would any event whose timer was
    lost."""
    start = timezone.now() + timedelta(seconds=seconds)
    Tournament.objects.filter(pk=event.pk).update(starts_at=start, next_round_at=start)


def report(game: str, numbers: dict) -> None:
    """Print the story's figures, and keep them beside its screenshots (an xdist worker's
    output is not shown)."""
    text = (
        f"{game}: tables started after the draw (s): {numbers['start_after_draw']}\n"
        f"{game}: next round after the last table ended (s): {numbers['next_after_end']}"
        f" (interval {INTERVAL} s)\n"
    )
    print("\n" + text, end="")
    with (SHOTS / "figures.txt").open("a") as out:
        out.write(text)


def tables_seen(event_id: int) -> str:
    """Where the event and each of its tables are, for a story that waited in vain."""
    event = Tournament.objects.get(pk=event_id)
    absent = Entry.objects.filter(tournament=event, absent=True).values_list("user__username")
    lines = [
        f"event {event.status}, next round at {event.next_round_at}, waiting for "
        f"{event.waiting_for} more, absent {sorted(name for (name,) in absent)}"
    ]
    for table in Table.objects.filter(tournament_table__round__stage__tournament_id=event_id):
        seats = ", ".join(
            f"{s.position}:{s.user.username if s.user else s.ai_level}{' (left)' if s.left else ''}"
            for s in table.seats.select_related("user")
        )
        decider = table.decider_seat()
        lines.append(
            f"table {table.pk} of round {table.tournament_table.round.number}: {table.status} "
            f"v{table.version}, updated {table.updated:%H:%M:%S}, deadline {table.deadline}, "
            f"pause until {table.pause_until} (continued {table.continued}), "
            f"deciding {decider.position if decider else None}; seats {seats}"
        )
    return "\n".join(lines)


def waiting(page, selector: str, event_id: int) -> None:
    """Wait for the selector on the page a round's length; if it never shows, say where each
    table of the event was."""
    try:
        page.wait_for_selector(selector, timeout=ROUND_WAIT)
    except PageTimeout as error:
        raise AssertionError(
            f"no {selector}; the tables:\n{orm(lambda: tables_seen(event_id))}"
        ) from error


def figures(event_id: int) -> dict:
    """Per round: seconds from the draw to its last table's start, and from the last table
    of the round before ending to the draw."""
    rounds = list(TournamentRound.objects.filter(stage__tournament_id=event_id).order_by("number"))
    out = {"start_after_draw": [], "next_after_end": []}
    ended = None
    for round_ in rounds:
        tables = list(Table.objects.filter(tournament_table__round=round_))
        out["start_after_draw"].append(
            max((t.started - round_.created).total_seconds() for t in tables)
        )
        if ended is not None:
            out["next_after_end"].append((round_.created - ended).total_seconds())
        ended = max(t.finished for t in tables if t.finished)
    return out


# What a player's pages do by themselves: follow the link to his table, take a decision
# there as soon as one is his (the first of the first kind offered, as in
# tests/games/test_browser_play), and go back to the event page once his game is over.
PLAYER = """
(() => {
  const KINDS = ["lay", "bury", "draw", "discard", "reveal", "end"];
  const act = () => {
    if (!location.pathname.includes("/play/t/")) {
      const link = document.querySelector(".tn-your-table a");
      if (link) location.assign(link.href);
      return;
    }
    const board = document.querySelector("#board");
    if (board && board.dataset.status === "finished") {
      location.assign(EVENT_URL);
      return;
    }
    const buttons = [...document.querySelectorAll("form.decision button[data-action]")];
    const kind = KINDS.find((k) => buttons.some((b) => b.dataset.action.split(" ")[0] === k));
    const button = buttons.find((b) => b.dataset.action.split(" ")[0] === kind) || buttons[0]
      || document.querySelector("form.decision button[type=submit]");
    if (button && !button.dataset.clicked) {
      button.dataset.clicked = "1";
      button.click();
    }
  };
  setInterval(act, 250);
})();
"""


def run_story(browser, server, event, cookies, *, shows, leaver=None, name):
    url = f"{server}/clubs/tenno/tournaments/{event.pk}/"
    SHOTS.mkdir(parents=True, exist_ok=True)
    organiser = browser.new_context(viewport={"width": 1280, "height": 1400})
    organiser.add_cookies([cookies["olga"]])
    watch = organiser.new_page()
    watch.goto(url)
    pages = {}
    for username in shows:
        context = browser.new_context(viewport={"width": 900, "height": 900})
        context.add_cookies([cookies[username]])
        context.add_init_script(f"const EVENT_URL = {url!r};" + PLAYER)
        page = context.new_page()
        page.goto(url)
        pages[username] = page
    for page in [watch, *pages.values()]:
        page.wait_for_selector("body[data-ws=open], body[data-person-ws=open]")
    orm(lambda: start_at(event, 2))
    # The first round starts: the organiser's page shows its tables.
    watch.wait_for_selector(".tn-card", timeout=40_000)
    watch.wait_for_timeout(1500)
    watch.screenshot(path=SHOTS / f"{name}-round.png", full_page=True)
    if leaver:
        # The leaver has his table open a few seconds, then closes it for good.
        pages[leaver].wait_for_url("**/play/t/**", timeout=30000)
        pages[leaver].wait_for_timeout(3000)
        pages[leaver].context.close()
    # Between rounds: the countdown.
    waiting(watch, "#tn-round-status:has-text('all results in')", event.pk)
    watch.wait_for_selector(".tn-countdown", timeout=INTERVAL * 1000)
    watch.screenshot(path=SHOTS / f"{name}-countdown.png", full_page=True)
    waiting(watch, ".tn-final", event.pk)
    watch.reload()
    watch.screenshot(path=SHOTS / f"{name}-final.png", full_page=True)
    return watch.locator("table.tn-standing tbody tr").count()


@pytest.mark.long
@pytest.mark.timeout(1500)
def test_an_online_call_to_glory_event_runs_itself_to_its_final_standings(server, request):
    event, olga, users = make_event(
        server, game="ctg", players=10, rounds=2, max_table=4, options={"game_length": "quick"}
    )
    shows = users[:8]  # p9 and p10 never come
    cookies = {u.username: cookie_for(u, server) for u in [olga, *users]}
    browser = request.getfixturevalue("browser")
    rows = run_story(
        browser, server, event, cookies, shows=[u.username for u in shows], leaver="p3", name="ctg"
    )
    browser.close()
    assert rows == 10

    def check():
        numbers = figures(event.pk)
        absent = set(
            Entry.objects.filter(tournament=event, absent=True).values_list(
                "user__username", flat=True
            )
        )
        seated = set(
            User.objects.filter(
                tournament_seats__table__round__stage__tournament=event,
                tournament_seats__table__round__number=2,
            ).values_list("username", flat=True)
        )
        return numbers, absent, seated, Tournament.objects.get(pk=event.pk).status

    numbers, absent, seated, status = orm(check)
    report("Call to Glory", numbers)
    assert status == Tournament.FINISHED
    assert {"p9", "p10", "p3"} <= absent
    assert not seated & {"p9", "p10", "p3"} and len(seated) == 7
    assert all(s < 2 for s in numbers["start_after_draw"])
    assert all(INTERVAL <= s < INTERVAL + 2 for s in numbers["next_after_end"])
