"""What two people do in a real browser: sign up, found a club, invite, join, switch language."""

import re

import pytest
from playwright.sync_api import expect

PASSWORD = "samurai-honour-2012"

pytestmark = pytest.mark.browser


def sign_up(page, base_url: str, username: str) -> None:
    page.get_by_label("Username:").fill(username)
    page.get_by_label("Email:").fill(f"{username}@example.com")
    page.get_by_label("Password:", exact=True).fill(PASSWORD)
    page.get_by_label("Password confirmation:").fill(PASSWORD)
    page.get_by_role("button", name="Sign up").click()


def test_it_invites_a_second_player_and_switches_to_dutch(live_server_url, browser):
    base = live_server_url
    ann = browser.new_context(locale="en-GB").new_page()
    ann.goto(f"{base}/accounts/signup/")
    sign_up(ann, base, "ann")
    expect(ann.get_by_text("Welcome, ann! Your account is ready.")).to_be_visible()

    ann.get_by_role("link", name="Create a club").first.click()
    ann.get_by_label("Name:").fill("Monk's Table")
    ann.get_by_label("Description:").fill("Thursday evenings at the library.")
    ann.get_by_role("button", name="Create the club").click()
    expect(ann.get_by_role("heading", name="Monk's Table")).to_be_visible()

    copy = ann.get_by_role("button", name="Copy")
    copy.click()
    expect(ann.get_by_role("button", name="Copied!")).to_be_visible()
    invite = ann.locator("#invite-link").input_value()
    assert re.fullmatch(rf"{re.escape(base)}/clubs/join/[\w-]+/", invite), invite

    # A separate context: its own cookies, as a second person on another machine.
    ben = browser.new_context(locale="en-GB").new_page()
    ben.goto(invite)
    expect(ben.get_by_text("Please log in to see this page.")).to_be_visible()
    ben.get_by_role("link", name="Create an account").click()
    sign_up(ben, base, "ben")
    expect(ben.get_by_role("heading", name="Join Monk's Table")).to_be_visible()
    ben.get_by_role("button", name="Join the club").click()
    members = ben.locator("#members")
    expect(members.get_by_role("link", name="ben")).to_be_visible()
    expect(ben.get_by_text("Welcome to “Monk's Table”!")).to_be_visible()

    ann.reload()
    expect(ann.locator("#members").get_by_role("link", name="ben")).to_be_visible()
    expect(ann.locator("#members .member-row")).to_have_count(2)

    ann.locator("#language-select").select_option("nl")
    expect(ann.locator("html")).to_have_attribute("lang", "nl")
    expect(ann.get_by_role("heading", name="Leden")).to_be_visible()
    expect(ann.get_by_role("button", name="Organisator maken")).to_be_visible()
    expect(ann.get_by_role("button", name="Deze club verlaten")).to_be_visible()
