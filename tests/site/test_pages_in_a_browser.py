"""The demo club's pages in a real browser on a phone: each fits the screen (nothing scrolls
sideways but the tables meant to, inside their own frame) and passes axe-core's
accessibility checks. The pages a newcomer learns from (the games' rules, the home page and
the lobby) are checked in German too, whose words are the longest, and the rules at a
desktop's width."""

import pytest
from axe_playwright_python.sync_playwright import Axe
from django.core.management import call_command
from django.db.models import F
from django.test import Client

from accounts.models import User
from games.models import Table
from leagues.models import League, PlayedGame, RecomputeJob
from tests.waiting import wait_for
from tournaments.models import Tournament

pytestmark = [pytest.mark.browser]

PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}
PUBLIC_PAGES = [
    "/",
    "/accounts/login/",
    "/accounts/signup/",
    "/play/",
    "/play/rules/ctg/",
    "/play/rules/orc/",
]
LEARNING_PAGES = ["/", "/play/", "/play/rules/ctg/", "/play/rules/orc/"]
DESKTOP = {"viewport": {"width": 1280, "height": 800}}


@pytest.fixture
def demo(live_server_url):
    """The demo club, its tallies done, and the pages a member visits."""
    call_command("demo_data")

    def tallied():
        """The season's table and the ratings, tallied in the background."""
        tables_behind = League.objects.exclude(table_version=F("results_version"))
        jobs_open = RecomputeJob.objects.exclude(status=RecomputeJob.DONE)
        return not tables_behind.exists() and not jobs_open.exists()

    wait_for(tallied, 30)
    client = Client()
    # Dave: the correspondence game waits for his move, so his view of it has the choices.
    client.force_login(User.objects.get(username="dave"))
    league = League.objects.get(name="Autumn season")
    orc_league = League.objects.get(game="orc")
    finished = Table.objects.get(status=Table.FINISHED).pk
    pages = [
        "/",
        "/play/",
        "/play/new/",
        "/play/new/?game=orc",
        "/play/ai/",
        "/play/rules/orc/",
        f"/play/t/{Table.objects.get(status=Table.OPEN).pk}/",
        f"/play/t/{finished}/",
        f"/play/t/{Table.objects.get(status=Table.RUNNING).pk}/",
        league.get_absolute_url(),
        f"{league.get_absolute_url()}games/new/",
        PlayedGame.objects.filter(league=league).first().get_absolute_url(),
        orc_league.get_absolute_url(),
        f"{orc_league.get_absolute_url()}games/new/",
        PlayedGame.objects.filter(league=orc_league).first().get_absolute_url(),
        f"/history/game/{PlayedGame.objects.filter(league=orc_league).first().pk}/",
        "/history/",
        f"/history/replay/{finished}/?step=40",
        Tournament.objects.get().get_absolute_url(),
        "/accounts/u/alice/",
        "/accounts/settings/",
        "/clubs/demo-club/",
        "/ratings/",
    ]
    cookie = {"name": "sessionid", "value": client.cookies["sessionid"].value}
    return pages, [{**cookie, "url": live_server_url}]


def check(context, base: str, paths: list[str]) -> dict[str, str]:
    """What is wrong with each page: too wide for its screen, or axe's violations."""
    axe = Axe()
    page = context.new_page()
    problems = {}
    for path in paths:
        response = page.goto(base + path)
        assert response.status == 200, path
        width = page.evaluate("document.documentElement.scrollWidth")
        if width > page.viewport_size["width"]:
            problems[path] = f"{width} px wide"
        result = axe.run(page)
        if result.violations_count:
            problems[path] = result.generate_snapshot()
    return problems


def test_the_demo_clubs_pages_fit_a_phone_and_pass_accessibility_checks(
    demo, browser, live_server_url
):
    pages, cookies = demo
    member = browser.new_context(**PHONE)
    member.add_cookies(cookies)
    assert check(member, live_server_url, pages) == {}
    assert check(browser.new_context(**PHONE), live_server_url, PUBLIC_PAGES) == {}
    german = browser.new_context(**PHONE)
    german.add_cookies(
        [*cookies, {"name": "django_language", "value": "de", "url": live_server_url}]
    )
    assert check(german, live_server_url, LEARNING_PAGES) == {}
    desktop = browser.new_context(**DESKTOP)
    assert check(desktop, live_server_url, ["/play/rules/orc/", "/play/rules/ctg/"]) == {}
