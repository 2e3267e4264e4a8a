"""In a browser: an organiser runs a 9-player event (two Swiss rounds at tables of 3, then a
cut to a final table of 4) with score pads, while a projector page follows without reloading."""

import pytest
from django.test import Client

from accounts.models import Club, Membership, User
from tournaments import actions as tournaments
from tournaments.models import Stage, Tournament

pytestmark = [pytest.mark.browser, pytest.mark.services]

FINISH_QUESTION = (
    "Finish the tournament? Its standings become final and no more rounds can be drawn."
)
SCORES = {3: ["38", "28", "15"], 4: ["38", "28", "15", "6"]}


@pytest.fixture
def event(live_server_url):
    """The event, its nine registered players and olga's session, made before the browser
    starts: the ORM cannot run while Playwright's loop is open."""
    club = Club.objects.create(name="Tenno", slug="tenno")
    olga = User.objects.create_user("olga", password="pw-olga")
    Membership.objects.create(club=club, user=olga, role=Membership.ORGANISER)
    tournament = tournaments.create(
        club,
        name="Autumn open",
        game_length="quick",
        seeding=Tournament.RANDOM,
        stages=[
            {"kind": Stage.SWISS, "rounds": 2},
            {"kind": Stage.BRACKET, "rounds": 1, "cut": 4},
        ],
    )
    for i in range(1, 10):
        user = User.objects.create_user(f"player{i}", password="pw")
        Membership.objects.create(club=club, user=user)
        tournaments.register(tournament, user)
    client = Client()
    client.force_login(olga)
    cookie = {"name": "sessionid", "value": client.cookies["sessionid"].value}
    return {
        "url": f"{live_server_url}/clubs/tenno/tournaments/{tournament.pk}/",
        "cookies": [{**cookie, "url": live_server_url}],
    }


def open_page(browser, cookies, url, **options):
    context = browser.new_context(**options)
    context.add_cookies(cookies)
    page = context.new_page()
    page.goto(url)
    return page


def play_round(organiser, projector, url, tables):
    """Start the drawn round and enter every table on its score pad, confirmed at once."""
    organiser.click("button:has-text('Start the round')")
    organiser.wait_for_selector("a.tn-pad")
    pads = [a.get_attribute("href") for a in organiser.locator("a.tn-pad").all()]
    assert len(pads) == tables
    for done, pad in enumerate(pads, start=1):
        organiser.goto(url.split("/clubs/")[0] + pad)
        count = organiser.locator("input.lg-big").count()
        for i, score in enumerate(SCORES[count]):
            organiser.fill(f"#id_score_{i}", score)
        organiser.click("button:has-text('Save round 1')")
        organiser.click("button:has-text('Finish and ask for confirmation')")
        organiser.click("button:has-text('Confirm the result')")
        organiser.wait_for_selector("text=Result confirmed")
        # The projector shows each confirmed table by itself.
        projector.wait_for_function(
            f"document.querySelectorAll('#tn-live .tn-card.tn-done').length === {done}"
        )
    organiser.goto(url)


def test_it_runs_a_swiss_event_with_a_final_table_on_a_live_projector(event, browser):
    url = event["url"]
    organiser = open_page(browser, event["cookies"], url)
    projector = open_page(browser, event["cookies"], url + "projector/")
    projector.wait_for_selector("body[data-ws=open]")
    projector.evaluate("window.tnNotReloaded = true")
    assert projector.inner_text("#tn-round-title") == "No round yet"

    organiser.click("button:has-text('Check in everyone registered')")
    organiser.wait_for_selector("text=player9 · present")
    for number in (1, 2):
        organiser.click("button:has-text('Draw the next round')")
        organiser.wait_for_selector("button:has-text('Start the round')")
        projector.wait_for_function(
            f"document.querySelector('#tn-round-title').textContent.includes('round {number} of 2')"
        )
        cards = projector.locator("#tn-live .tn-card")
        assert cards.count() == 3
        assert [c.locator("li").count() for c in cards.all()] == [3, 3, 3]
        play_round(organiser, projector, url, tables=3)

    games = projector.locator("#tn-live .tn-standing .tn-games").all_inner_texts()
    assert games == ["2"] * 9
    leaders = projector.locator("#tn-live .tn-standing tbody tr td:nth-child(2)")
    top_four = leaders.all_inner_texts()[:4]

    organiser.click("button:has-text('Draw the next round')")
    organiser.wait_for_selector("button:has-text('Start the round')")
    projector.wait_for_selector("#tn-live .tn-bracket h3:has-text('Final table')")
    final = projector.locator("#tn-live .tn-card li")
    assert sorted(n.strip() for n in final.all_inner_texts()) == sorted(top_four)
    play_round(organiser, projector, url, tables=1)

    winner = projector.locator("#tn-live .tn-bracket .tn-through")
    winner.wait_for()
    assert winner.count() == 1
    # Finishing cannot be undone: the organiser is asked first, and saying no keeps it running.
    asked: list[str] = []
    organiser.once("dialog", lambda dialog: (asked.append(dialog.message), dialog.dismiss()))
    organiser.click("button:has-text('Finish the tournament')")
    assert asked == [FINISH_QUESTION]
    organiser.goto(url)
    assert organiser.inner_text("h1 .badge") == "running"
    organiser.once("dialog", lambda dialog: dialog.accept())
    organiser.click("button:has-text('Finish the tournament')")
    organiser.wait_for_selector("h1 .badge:has-text('finished')")
    assert projector.evaluate("window.tnNotReloaded") is True
