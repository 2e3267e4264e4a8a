"""Tournament pages: who may see and run them, and an organiser's round through HTTP.

olga organises Tenno; alice and bob are members; charlie is elsewhere; anonymous is nobody.
"""

import pytest
from django.test import Client
from django.urls import reverse

from tournaments import actions as tournaments
from tournaments.models import Stage, Tournament, TournamentRound

pytestmark = pytest.mark.django_db


def client_for(user):
    client = Client()
    if user is not None:
        client.force_login(user)
    return client


@pytest.fixture
def event(club, olga, alice, bob):
    tournament = tournaments.create(
        club,
        name="Winter cup",
        options={"game_length": "quick"},
        seeding=Tournament.RANDOM,
        stages=[{"kind": Stage.SWISS, "rounds": 2}],
    )
    return tournament


def url(name, event, **extra):
    return reverse(name, args=[event.club.slug, event.pk], **extra)


def test_it_lets_an_organiser_create_a_tournament_with_a_cut(club, olga):
    response = client_for(olga).post(
        reverse("tournament_create", args=[club.slug]),
        {
            "name": "Spring open",
            "mode": "physical",
            "game_length": "standard",
            "max_table": "4",
            "seeding": "rating",
            "first_kind": "swiss",
            "first_rounds": "3",
            "cut": "8",
            "bracket_rounds": "2",
            "advance": "2",
            "rated": "on",
        },
    )
    tournament = Tournament.objects.get(name="Spring open")
    assert response.status_code == 302 and response.url == tournament.get_absolute_url()
    stages = list(tournament.stages.values_list("kind", "rounds", "cut", "advance"))
    assert stages == [("swiss", 3, None, 1), ("bracket", 2, 8, 2)]
    assert tournament.rated


def test_it_refuses_tournament_creation_to_members(club, alice):
    response = client_for(alice).get(reverse("tournament_create", args=[club.slug]))
    assert response.status_code == 403


@pytest.mark.parametrize(
    ("persona", "status"),
    [("olga", 200), ("alice", 200), ("charlie", 404), (None, 302)],
)
def test_it_shows_pages_to_members_only(event, request, persona, status):
    user = request.getfixturevalue(persona) if persona else None
    for name in ["tournament", "tournament_projector"]:
        assert client_for(user).get(url(name, event)).status_code == status
    assert client_for(user).get(reverse("tournament_list", args=["tenno"])).status_code == status


def test_it_lets_members_register_but_only_organisers_run_the_event(event, alice, bob, charlie):
    assert client_for(alice).post(url("tournament_register", event)).status_code == 302
    entry = event.entries.get(user=alice)
    assert not entry.checked_in
    # A member cannot add someone else, check in, or draw a round; an outsider sees nothing.
    add = client_for(alice).post(url("tournament_register", event), {"user": bob.pk})
    assert add.status_code == 403
    assert (
        client_for(alice).post(url("tournament_presence", event), {"action": "all-in"}).status_code
        == 403
    )
    assert (
        client_for(alice).post(url("tournament_step", event), {"step": "draft"}).status_code == 403
    )
    assert client_for(charlie).post(url("tournament_register", event)).status_code == 404
    assert (
        client_for(None).post(url("tournament_step", event), {"step": "draft"}).status_code == 302
    )
    assert not TournamentRound.objects.exists()


def test_an_organiser_who_adds_himself_with_add_and_check_in_is_checked_in(event, olga):
    client_for(olga).post(url("tournament_register", event), {"user": olga.pk})

    assert event.entries.get(user=olga).checked_in


def test_draw_the_next_round_with_nobody_checked_in_says_why_nothing_happened(
    event, olga, alice, bob
):
    for user in (alice, bob):
        client_for(user).post(url("tournament_register", event))
    page = client_for(olga).post(url("tournament_step", event), {"step": "draft"}, follow=True)

    assert not TournamentRound.objects.exists()
    assert "Too few players are present to fill a table." in page.content.decode()


def test_it_runs_a_round_from_the_organiser_page(event, olga, alice, bob):
    organiser = client_for(olga)
    for user in (olga, alice):
        organiser.post(url("tournament_register", event), {"user": user.pk})
    client_for(bob).post(url("tournament_register", event))
    organiser.post(url("tournament_presence", event), {"action": "all-in"})
    assert event.entries.filter(checked_in=True).count() == 3

    organiser.post(url("tournament_step", event), {"step": "draft"})
    round_ = TournamentRound.objects.get()
    (table,) = round_.tables.all()
    a, b = table.players[0], table.players[2]
    organiser.post(
        url("tournament_step", event), {"step": "swap", "round": round_.pk, "a": a, "b": b}
    )
    table.refresh_from_db()
    assert table.players[0] == b and table.players[2] == a
    page = organiser.get(url("tournament", event)).content.decode()
    assert "Start the round" in page

    organiser.post(url("tournament_step", event), {"step": "begin", "round": round_.pk})
    table.refresh_from_db()
    assert table.game is not None
    page = organiser.get(url("tournament", event)).content.decode()
    assert reverse("pad", args=["tenno", table.game_id]) in page
    # Drawing again before the results are in is refused with a reason.
    response = organiser.post(url("tournament_step", event), {"step": "draft"}, follow=True)
    assert "needs a confirmed result first" in response.content.decode()


def test_it_lets_a_mixed_event_play_some_tables_online(event, olga, alice, bob):
    Tournament.objects.filter(pk=event.pk).update(mode=Tournament.MIXED)
    for user in (olga, alice, bob):
        tournaments.register(event, user, checked_in=True)
    organiser = client_for(olga)
    organiser.post(url("tournament_step", event), {"step": "draft"})
    round_ = TournamentRound.objects.get()
    table = round_.tables.get()
    assert not table.online
    organiser.post(url("tournament_step", event), {"step": "online", "table": table.pk})
    organiser.post(url("tournament_step", event), {"step": "begin", "round": round_.pk})
    table.refresh_from_db()
    assert table.online and table.online_table is not None and table.game is None
    page = organiser.get(url("tournament", event)).content.decode()
    assert reverse("table", args=[table.online_table_id]) in page


def test_it_speaks_the_visitor_language(event, olga, alice, bob):
    for user in (olga, alice, bob):
        tournaments.register(event, user, checked_in=True)
    tournaments.draft_round(event)
    client = client_for(olga)
    client.cookies["django_language"] = "nl"
    page = client.get(url("tournament", event), HTTP_ACCEPT_LANGUAGE="nl").content.decode()
    assert "Start the round" not in page
    assert "De ronde beginnen" in page and "Tafel 1" in page


@pytest.mark.parametrize(
    ("name", "data"),
    [
        ("tournament_step", {"step": "ai", "table": "abc", "player": "x"}),
        ("tournament_step", {"step": "swap", "round": "1;drop", "a": "x", "b": "y"}),
        ("tournament_step", {"step": "begin", "round": "9" * 30}),
        ("tournament_register", {"user": "²"}),
        ("tournament_presence", {"action": "in", "entry": "-1"}),
    ],
)
def test_a_tampered_form_gets_not_found_rather_than_an_error(event, olga, name, data):
    assert client_for(olga).post(url(name, event), data).status_code == 404


SETTINGS = {
    "name": "Winter cup",
    "mode": "online",
    "game_length": "standard",
    "max_table": "3",
    "seeding": "random",
    "first_kind": "swiss",
    "first_rounds": "4",
    "cut": "6",
    "bracket_rounds": "1",
    "advance": "1",
}


def test_it_lets_an_organiser_change_the_event_until_a_round_is_drawn(event, olga, alice):
    tournaments.register(event, alice)
    organiser = client_for(olga)
    assert url("tournament_edit", event) in organiser.get(url("tournament", event)).content.decode()
    form = organiser.get(url("tournament_edit", event)).content.decode()
    assert 'value="Winter cup"' in form and 'name="first_rounds" value="2"' in form

    refused = organiser.post(url("tournament_edit", event), SETTINGS | {"first_rounds": "0"})
    assert refused.status_code == 200 and "greater than or equal to 1" in refused.content.decode()
    changed = organiser.post(url("tournament_edit", event), SETTINGS | {"name": "Winter open"})

    assert changed.status_code == 302
    event.refresh_from_db()
    assert (event.name, event.mode, event.max_table) == ("Winter open", "online", 3)
    stages = list(event.stages.values_list("kind", "rounds", "cut"))
    assert stages == [("swiss", 4, None), ("bracket", 1, 6)]
    assert list(event.entries.values_list("user", flat=True)) == [alice.pk]

    for user in (olga, alice):
        tournaments.register(event, user, checked_in=True)
    tournaments.draft_round(event)
    late = organiser.post(url("tournament_edit", event), SETTINGS, follow=True)
    assert "settings can no longer change" in late.content.decode()
    assert event.stages.first().rounds == 4
    assert (
        url("tournament_edit", event)
        not in organiser.get(url("tournament", event)).content.decode()
    )


def test_it_lets_only_organisers_change_or_call_off_an_event(event, alice):
    member = client_for(alice)
    assert member.get(url("tournament_edit", event)).status_code == 403
    assert (
        member.post(url("tournament_edit", event), {"delete": "1", "confirm": "on"}).status_code
        == 403
    )
    assert Tournament.objects.filter(pk=event.pk).exists()


def test_it_calls_off_an_event_only_when_the_organiser_ticks_the_box(event, olga, alice):
    tournaments.register(event, alice)
    organiser = client_for(olga)

    unticked = organiser.post(url("tournament_edit", event), {"delete": "1"}, follow=True)
    assert "Tick the box" in unticked.content.decode()
    assert Tournament.objects.filter(pk=event.pk).exists()

    ticked = organiser.post(url("tournament_edit", event), {"delete": "1", "confirm": "on"})
    assert ticked.url == reverse("tournament_list", args=["tenno"])
    assert not Tournament.objects.filter(pk=event.pk).exists()
    listing = organiser.get(ticked.url).content.decode()
    assert "Winter cup is called off." in listing


def test_registration_closes_once_the_event_runs(event, olga, alice, bob):
    for user in (olga, bob):
        tournaments.register(event, user, checked_in=True)
    tournaments.draft_round(event)

    page = client_for(alice).get(url("tournament", event)).content.decode()
    assert ">Register</button>" not in page
    response = client_for(alice).post(url("tournament_register", event), follow=True)
    assert "Registration has closed: an organiser can still add you." in response.content.decode()
    assert not event.entries.filter(user=alice).exists()
    # An organiser still adds a late arrival.
    client_for(olga).post(url("tournament_register", event), {"user": alice.pk})
    assert event.entries.get(user=alice).checked_in


def test_the_club_page_links_to_its_tournaments(event, alice):
    page = client_for(alice).get(reverse("club", args=["tenno"])).content.decode()

    link = reverse("tournament_list", args=["tenno"])
    assert f'<a class="button secondary" href="{link}">Tournaments</a>' in page


def test_the_pad_tells_an_organiser_who_entered_a_result_that_he_may_confirm_it(
    event, olga, alice, bob
):
    from leagues.actions import enter_round

    for user in (alice, bob):
        tournaments.register(event, user, checked_in=True)
    round_ = tournaments.draft_round(event)
    tournaments.begin_round(round_, olga)
    game = round_.tables.get().game
    enter_round(game, 1, [30, 20], None)

    page = client_for(olga).get(game.get_absolute_url()).content.decode()
    assert "ask another player at the table to confirm" not in page
    assert "as an organiser you may confirm the result yourself" in page
    # A player who entered it still asks another.
    player = client_for(alice).get(game.get_absolute_url()).content.decode()
    assert "ask another player at the table to confirm" in player
