"""A league's options are its game's: the form shows the chosen game's fields, the league keeps
their values and its page and score pads follow them.

Personas (tests/leagues/conftest.py): olga organises Tenno; alice and bob are members.
"""

import pytest
from django.test import Client

from accounts.models import Club, Membership, User
from leagues import actions
from leagues.models import League
from tests.leagues.orcpad import client_for
from tests.leagues.test_browser import open_as

NEW = "/clubs/tenno/leagues/new/"
LEAGUE = {"name": "Autumn", "points_scheme": "fair", "is_open": "on"}


def test_it_keeps_a_call_to_glory_league_s_length_and_variants(olga, alice, bob):
    client = client_for(olga)
    form = client.get(NEW).content.decode()
    assert 'id="id_game_length"' in form and 'id="id_ninja"' in form
    client.post(NEW, LEAGUE | {"game": "ctg", "game_length": "quick", "ninja": "on"})
    league = League.objects.get(name="Autumn")
    assert league.options == {"game_length": "quick", "imperial_tasks": False, "ninja": True}
    page = client.get(league.get_absolute_url()).content.decode()
    assert "Call to Glory · Quick game (1 round) · The Power of the Ninja" in page

    edit = client.get(f"/clubs/tenno/leagues/{league.pk}/edit/").content.decode()
    assert '<option value="quick" selected>' in edit
    assert 'name="ninja" id="id_ninja" checked' in edit
    game = actions.start_pad_game(league, alice, [actions.Player(alice), actions.Player(bob)])
    assert (game.rounds, game.options) == (1, {"imperial_tasks": False, "ninja": True})


def test_imperial_tasks_make_a_league_s_games_three_rounds(club, alice, bob):
    league = League.objects.create(
        club=club, name="Tasks", options={"game_length": "standard", "imperial_tasks": True}
    )
    game = actions.start_pad_game(league, alice, [actions.Player(alice), actions.Player(bob)])
    assert (game.rounds, game.keeps_bonuses) == (3, True)


def test_choosing_another_game_shows_its_options_and_saves_nothing(olga):
    client = client_for(olga)
    sent = LEAGUE | {"game": "orc", "game_length": "quick", "show_options": "1"}
    page = client.post(NEW, sent).content.decode()
    assert not League.objects.exists()
    assert '<option value="orc" selected>' in page and 'value="Autumn"' in page
    assert 'id="id_game_length"' not in page and "errorlist" not in page
    # With htmx, only the region of the game's options comes back.
    swapped = client.post(NEW, sent | {"game": "ctg"}, HTTP_HX_REQUEST="true").content.decode()
    assert swapped.startswith('<div id="game-options">') and 'id="id_game_length"' in swapped
    assert "<form" not in swapped


def test_without_javascript_it_offers_a_button_to_show_the_chosen_game_s_options(olga):
    page = client_for(olga).get(NEW).content.decode()
    assert '<noscript><button type="submit" name="show_options"' in page


def test_a_de_l_orc_league_has_no_options_to_show(orc_league, olga):
    client = client_for(olga)
    edit = client.get(f"/clubs/tenno/leagues/{orc_league.pk}/edit/").content.decode()
    assert 'id="id_game_length"' not in edit and 'id="id_imperial_tasks"' not in edit
    page = client.get(orc_league.get_absolute_url()).content.decode()
    assert "De l&#x27;Orc pour les Braves" in page and "Standard game" not in page


@pytest.fixture
def organiser_session(live_server_url):
    """olga, organiser of Tenno, signed in before the browser starts."""
    club = Club.objects.create(name="Tenno", slug="tenno")
    olga = User.objects.create_user("olga", password="pw-olga")
    Membership.objects.create(club=club, user=olga, role=Membership.ORGANISER)
    client = Client()
    client.force_login(olga)
    return [
        {"name": "sessionid", "value": client.cookies["sessionid"].value, "url": live_server_url}
    ]


@pytest.mark.browser
@pytest.mark.services
def test_in_a_browser_the_options_follow_the_game_choice(
    organiser_session, browser, live_server_url
):
    _c, page = open_as(browser, organiser_session)
    page.goto(f"{live_server_url}{NEW}")
    page.fill("#id_name", "Orc nights")
    page.select_option("#id_game", "orc")
    page.wait_for_selector("#id_game_length", state="detached")
    assert page.input_value("#id_name") == "Orc nights"
    page.select_option("#id_game", "ctg")
    page.select_option("#id_game_length", "quick")
    page.click("button:has-text('Create league')")
    page.wait_for_selector("h1:has-text('Orc nights')")
    assert "Quick game (1 round)" in page.inner_text(".lg-meta")
