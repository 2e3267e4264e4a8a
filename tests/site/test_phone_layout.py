"""On a phone, the demo club's pages fit the screen: nothing scrolls sideways but the tables
that are meant to (inside their own frame)."""

import time

import pytest
from django.core.management import call_command
from django.db.models import F
from django.test import Client

from accounts.models import User
from games.models import Table
from leagues.models import League, PlayedGame, RecomputeJob

pytestmark = [pytest.mark.browser]

PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}


@pytest.fixture
def demo(live_server_url):
    call_command("demo_data")
    deadline = time.monotonic() + 30
    # The season's table and the ratings are tallied in the background: wait for them.
    while time.monotonic() < deadline and (
        League.objects.exclude(table_version=F("results_version")).exists()
        or RecomputeJob.objects.exclude(status=RecomputeJob.DONE).exists()
    ):
        time.sleep(0.1)
    client = Client()
    client.force_login(User.objects.get(username="alice"))
    league = League.objects.get()
    pages = [
        "/",
        "/play/",
        f"/play/t/{Table.objects.get(status=Table.OPEN).pk}/",
        league.get_absolute_url(),
        PlayedGame.objects.filter(league=league).first().get_absolute_url(),
        f"/history/replay/{Table.objects.get(status=Table.FINISHED).pk}/?step=40",
        "/history/",
        "/accounts/u/alice/",
        "/clubs/demo-club/",
        "/clubs/demo-club/tournaments/",
        "/ratings/",
    ]
    cookie = {"name": "sessionid", "value": client.cookies["sessionid"].value}
    return pages, [{**cookie, "url": live_server_url}]


def test_the_demo_clubs_pages_fit_a_phone(demo, browser, live_server_url):
    pages, cookies = demo
    context = browser.new_context(**PHONE)
    context.add_cookies(cookies)
    page = context.new_page()
    too_wide = {}
    for path in pages:
        response = page.goto(live_server_url + path)
        assert response.status == 200, path
        width = page.evaluate("document.documentElement.scrollWidth")
        if width > 390:
            too_wide[path] = width
    assert too_wide == {}
