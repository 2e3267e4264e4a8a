"""Times show in the visitor's own time zone, which the browser tells the site."""

from datetime import UTC, datetime

import pytest
from django.test import Client

from leagues.results import of_rounds, record_result

pytestmark = pytest.mark.django_db


@pytest.fixture
def game():
    return record_result(
        of_rounds([[40], [30]]),
        players=["Ann", "Ben"],
        played_at=datetime(2026, 11, 5, 20, 30, tzinfo=UTC),
        source="pad",
    )


@pytest.mark.parametrize(
    ("zone", "shown"),
    [
        ("Europe/Amsterdam", "11/05/2026 9:30 p.m."),
        ("America/New_York", "11/05/2026 3:30 p.m."),
        ("", "11/05/2026 8:30 p.m."),
        ("Mars/Olympus_Mons", "11/05/2026 8:30 p.m."),
    ],
)
def test_the_history_shows_when_a_game_was_played_in_the_visitors_zone(game, zone, shown):
    client = Client()
    client.cookies["tz"] = zone
    response = client.get("/history/")
    assert response.status_code == 200
    assert shown in response.content.decode()


@pytest.mark.browser
def test_a_browser_tells_the_site_its_zone(game, live_server_url, browser):
    page = browser.new_context(timezone_id="Asia/Tokyo").new_page()
    page.goto(f"{live_server_url}/history/")
    page.goto(f"{live_server_url}/history/")
    assert "11/06/2026 5:30 a.m." in page.inner_text("main")
