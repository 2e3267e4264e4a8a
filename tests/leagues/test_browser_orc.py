"""In a browser: an organiser opens a De l'Orc league, a member enters a five-player evening on
her phone, a second member confirms, and a projector's league page shows the new table and
ratings without reloading."""

import pytest
from django.test import Client

from accounts.models import Club, Membership, User
from tests.leagues.test_browser import PHONE, open_as

pytestmark = [pytest.mark.browser, pytest.mark.services]


@pytest.fixture
def sessions(live_server_url):
    """Signed-in sessions for olga (organiser), alice, bob, dave and erin (members), made
    before the browser starts: the ORM cannot run while Playwright's loop is open."""
    club = Club.objects.create(name="Tenno", slug="tenno")
    cookies = {}
    for name in ["olga", "alice", "bob", "dave", "erin"]:
        user = User.objects.create_user(name, password="pw-" + name)
        role = "organiser" if name == "olga" else "member"
        Membership.objects.create(club=club, user=user, role=role)
        client = Client()
        client.force_login(user)
        session = client.cookies["sessionid"].value
        cookies[name] = [{"name": "sessionid", "value": session, "url": live_server_url}]
    return cookies


def enter_round(page, champion: str, winners: list[list[int]]) -> None:
    page.select_option("#id_champion", label=champion)
    for battle, seats in enumerate(winners, start=1):
        for seat in range(5):
            box = page.locator(f"#id_battle_{battle}_{seat}")
            if (seat in seats) != box.is_checked():
                box.click()


def preview_totals(page) -> list[str]:
    return page.locator(".orc-preview-total").all_inner_texts()


def test_it_keeps_a_de_l_orc_evening_on_a_phone_and_updates_an_open_league_page(
    sessions, browser, live_server_url
):
    base = live_server_url
    _c, organiser = open_as(browser, sessions["olga"])
    organiser.goto(f"{base}/clubs/tenno/leagues/new/")
    organiser.fill("#id_name", "Orc nights")
    organiser.select_option("#id_game", "orc")
    organiser.check("text=alice")
    organiser.check("text=bob")
    organiser.click("button:has-text('Create league')")
    organiser.wait_for_selector("h1:has-text('Orc nights')")
    assert "De l'Orc pour les Braves" in organiser.inner_text(".lg-meta")
    league_url = organiser.url

    _c, projector = open_as(browser, sessions["olga"])
    projector.goto(league_url)
    projector.wait_for_selector("body[data-ws=open]")
    projector.evaluate("window.lgNotReloaded = true")
    assert projector.locator("#lg-table .lg-games").all_inner_texts() == ["0", "0"]
    assert projector.locator("#lg-table .lg-rating").all_inner_texts() == ["–", "–"]

    _c, alice = open_as(browser, sessions["alice"], **PHONE)
    alice.goto(league_url)
    alice.click("text=New game on the score pad")
    for seat, name in enumerate(["alice", "bob", "dave", "erin"]):
        alice.select_option(f"#id_member_{seat}", label=name)
    alice.fill("#id_guest_4", "Gus")
    alice.click("button:has-text('Start the score pad')")
    alice.wait_for_selector("h2:has-text('Round 1')")
    pad_url = alice.url
    # The first seat is round 1's wizard.
    assert alice.input_value("#id_wizard") == "0"

    # The wizard cannot win a battle: the pad says so while the round is being entered.
    enter_round(alice, "bob", [[0], [], [], []])
    alice.wait_for_selector("text=Round 1: battle 1 can only be won by players other than")
    # Round 1: bob (champion) wins battles 1 and 4, dave 2, erin 3; the points show live.
    enter_round(alice, "bob", [[1], [2], [3], [1]])
    alice.wait_for_function(
        "[...document.querySelectorAll('.orc-preview-total')].map(e => e.innerText).join()"
        " === '4,4,1,1,0'"
    )
    # Nothing on the page is wider than the phone.
    assert alice.evaluate("document.documentElement.scrollWidth") <= 390
    alice.click("button:has-text('Save round 1')")
    alice.wait_for_selector("h2:has-text('Round 2')")
    # The wizard passed to the left: bob.
    assert alice.input_value("#id_wizard") == "1"
    enter_round(alice, "dave", [[2], [3], [2], [2]])
    alice.wait_for_selector("text=With this round someone reaches the target")
    alice.click("button:has-text('Save round 2')")
    alice.click("button:has-text('Finish and ask for confirmation')")
    alice.wait_for_selector("text=Waiting for another player at the table")
    assert alice.locator(".lg-total").all_inner_texts() == ["4", "9", "6", "2", "0"]

    _c, bob = open_as(browser, sessions["bob"], **PHONE)
    bob.goto(pad_url)
    bob.click("button:has-text('Confirm the result')")
    bob.wait_for_selector("text=Result confirmed")

    # The projector's table changes by itself: bob first, five players with one game each,
    # and the members' ratings arrive once they are recomputed.
    projector.wait_for_function(
        "document.querySelector('#lg-table tr[data-player] td:nth-child(2)')"
        ".textContent.trim() === 'bob'",
        timeout=15000,
    )
    assert projector.locator("#lg-table .lg-games").all_inner_texts() == ["1"] * 5
    projector.wait_for_function(
        "[...document.querySelectorAll('#lg-table tr[data-player]')]"
        ".filter(r => !r.querySelector('small'))"
        ".every(r => /^\\d+$/.test(r.querySelector('.lg-rating').textContent.trim()))",
        timeout=15000,
    )
    ratings = projector.locator("#lg-table .lg-rating").all_inner_texts()
    assert int(ratings[0]) > int(ratings[2])  # bob (1st) above alice (3rd)
    assert projector.evaluate("window.lgNotReloaded") is True
    names = projector.locator("#lg-table tr[data-player] td:nth-child(2)").all_inner_texts()
    assert [n.split(" (")[0] for n in names] == ["bob", "dave", "alice", "erin", "Gus"]
