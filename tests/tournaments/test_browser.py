"""In a browser: an organiser runs a 9-player event (two Swiss rounds at tables of 3, then a
cut to a final table of 4) with score pads, while a projector page follows without reloading."""

from pathlib import Path

import pytest
from django.db import transaction
from django.test import Client

from accounts.models import Club, Membership, User
from leagues import actions as league_actions
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
        options={"game_length": "quick"},
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
    # Each entry's two actions read as two links apart, not as words of one sentence.
    entry = organiser.locator("li[data-entry]").first
    out, drop = entry.locator("button[value=out]"), entry.locator("button[value=drop]")
    first, second = out.bounding_box(), drop.bounding_box()
    assert second["x"] - (first["x"] + first["width"]) >= 8, (first, second)
    assert out.evaluate("e => getComputedStyle(e).textDecorationLine") == "underline"
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


SCREENSHOTS = Path(__file__).resolve().parents[2] / "artifacts" / "screenshots"
# An element's font size, and the contrast (WCAG) of its text with the first opaque
# background behind it.
READABILITY = r"""(selector) => {
  const element = document.querySelector(selector);
  const channels = (colour) => colour.match(/[\d.]+/g).map(Number);
  let behind = element;
  while (behind.parentElement && channels(getComputedStyle(behind).backgroundColor)[3] === 0) {
    behind = behind.parentElement;
  }
  const luminance = (colour) => {
    const [r, g, b] = channels(colour).slice(0, 3).map((v) => {
      v /= 255;
      return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4;
    });
    return 0.2126 * r + 0.7152 * g + 0.0722 * b;
  };
  const text = luminance(getComputedStyle(element).color);
  const ground = luminance(getComputedStyle(behind).backgroundColor);
  const size = parseFloat(getComputedStyle(element).fontSize);
  return [size, (Math.max(text, ground) + 0.05) / (Math.min(text, ground) + 0.05)];
}"""


@pytest.fixture
def running_event(live_server_url):
    """Twelve players at three tables: round 1 played, round 2 drawn; the projector's link."""
    club = Club.objects.create(name="Tenno", slug="tenno")
    olga = User.objects.create_user("olga", password="pw-olga")
    Membership.objects.create(club=club, user=olga, role=Membership.ORGANISER)
    tournament = tournaments.create(
        club,
        name="Winter open",
        options={"game_length": "quick"},
        seeding=Tournament.RANDOM,
        rated=False,
        stages=[{"kind": Stage.SWISS, "rounds": 3}],
    )
    names = ["Aiko Tanaka", "Bram de Vries", "Chloé Martin", "Dieter Schmidt", "Emma Jansen"]
    names += ["Farid Haddad", "Greta Müller", "Hiro Sato", "Inès Dubois", "Jan Peeters"]
    names += ["Katarzyna Nowak", "Lars Eriksson"]
    for name in names:
        user = User.objects.create_user(name.split()[0].lower(), password="pw")
        user.display_name = name
        user.save()
        Membership.objects.create(club=club, user=user)
        tournaments.register(tournament, user, checked_in=True)
    first = tournaments.draft_round(tournament)
    tournaments.begin_round(first, olga)
    for table in first.tables.all():
        league_actions.enter_round(table.game, 1, [38, 28, 15, 6], None)
        league_actions.submit_for_confirmation(table.game)
        with transaction.atomic():
            league_actions.confirm(table.game, olga, is_organiser=True)
    tournaments.draft_round(tournament)
    token = tournaments.reset_projector_link(tournament)
    client = Client()
    client.force_login(olga)
    return {
        "screen": f"{live_server_url}/projector/tournament/{token}/",
        "organiser": f"{live_server_url}/clubs/tenno/tournaments/{tournament.pk}/",
        "cookies": [
            {
                "name": "sessionid",
                "value": client.cookies["sessionid"].value,
                "url": live_server_url,
            }
        ],
    }


def test_the_projector_shows_the_whole_event_on_a_1080p_screen_through_its_link(
    running_event, browser
):
    screen = browser.new_context(viewport={"width": 1920, "height": 1080}).new_page()
    screen.goto(running_event["screen"])
    screen.wait_for_selector("body[data-ws=open]")
    screen.evaluate("window.notReloaded = true")
    assert screen.locator(".site-nav").count() == 0
    assert screen.locator("#tn-live .tn-card").count() == 3
    assert screen.locator("#tn-live .tn-standing tbody tr").count() == 12
    width, height = screen.evaluate(
        "[document.documentElement.scrollWidth, document.documentElement.scrollHeight]"
    )
    assert width <= 1920 and height <= 1080
    # Everything on screen at once, in type readable from the back of the room.
    for selector in ("#tn-live .tn-card", "#tn-live .tn-standing tbody tr"):
        for box in [item.bounding_box() for item in screen.locator(selector).all()]:
            assert box and box["x"] >= 0 and box["x"] + box["width"] <= 1920
            assert box["y"] >= 0 and box["y"] + box["height"] <= 1080
    for selector in ("#tn-live .tn-card li", "#tn-live .tn-standing tbody td"):
        size, contrast = screen.evaluate(READABILITY, selector)
        assert size >= 24 and contrast >= 7, (selector, size, contrast)
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    screen.screenshot(path=str(SCREENSHOTS / "projector-1920x1080.png"))

    # The organiser starts the drawn round: the screen follows without reloading.
    organiser = open_page(browser, running_event["cookies"], running_event["organiser"])
    organiser.click("button:has-text('Start the round')")
    screen.wait_for_selector("#tn-round-status:has-text('playing')")
    assert screen.evaluate("window.notReloaded") is True
