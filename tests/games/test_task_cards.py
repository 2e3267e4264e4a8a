"""The Imperial Tasks cards are data an administrator can change (RULES.md §7)."""

import pytest
from django.contrib.auth.models import Permission
from django.test import Client
from django.urls import reverse

from accounts.models import User
from games import actions
from games.ctg import ai, engine
from games.ctg.ai.knowledge import read_view
from games.ctg.game import CALL_TO_GLORY
from games.ctg.models import TaskCards
from games.models import Table
from tests.games.conftest import open_table

pytestmark = pytest.mark.django_db

CUSTOM = {"a": "12, 14, 16, 18", "b": "6 7 8 9", "c": "9, 12, 18, 20"}


@pytest.fixture
def admin_client(client):
    client.force_login(User.objects.create_superuser("root", "root@example.com", "pw-root-123"))
    return client


def started_tasks_game(alice, bob) -> Table:
    table = open_table(alice, rounds=3, imperial_tasks=True)
    actions.take_seat(table.pk, bob)
    actions.start(table.pk, alice)
    table.refresh_from_db()
    return table


def open_table_page(user, table) -> str:
    client = Client()
    client.force_login(user)
    return client.get(table.get_absolute_url()).content.decode()


def dealt_values(table: Table) -> dict[str, set[int]]:
    dealt = [card for cards in table.record["tasks"].values() for card in cards]
    return {deck: {int(card[1:]) for card in dealt if card[0] == deck} for deck in "ABC"}


def test_the_administrator_sets_the_cards_and_new_games_are_dealt_from_them(
    admin_client, alice, bob
):
    response = admin_client.post(reverse("admin:ctg_taskcards_add"), CUSTOM)
    assert response.status_code == 302
    assert TaskCards.current() == {"A": [12, 14, 16, 18], "B": [6, 7, 8, 9], "C": [9, 12, 18, 20]}
    # One set of cards: there is nothing more to add.
    assert admin_client.get(reverse("admin:ctg_taskcards_add")).status_code == 403

    table = started_tasks_game(alice, bob)
    dealt = dealt_values(table)
    assert dealt["A"] <= {12, 14, 16, 18} and dealt["B"] <= {6, 7, 8, 9}
    assert dealt["C"] <= {9, 12, 18, 20}
    page = open_table_page(alice, table)
    assert "Task cards of this game" in page
    assert "A, 5 points per card: Samurai (12), Ninja (14), Envoy (16), Monk (18)" in page


@pytest.mark.parametrize(
    ("a", "message"),
    [
        ("6, 7, 8", "A deck has four task cards, each naming a different card."),
        ("6, 6, 7, 8", "A deck has four task cards, each naming a different card."),
        ("6, 7, 8, 10", "Task cards name one of the card values 6, 7, 8, 9, 12, 14, 16, 18, 20."),
        ("six, 7, 8, 9", "Write four card values, such as 6, 7, 8, 9."),
    ],
)
def test_it_refuses_cards_that_cannot_be(admin_client, a, message):
    response = admin_client.post(reverse("admin:ctg_taskcards_add"), CUSTOM | {"a": a})
    assert response.status_code == 200
    assert message in response.content.decode()
    assert not TaskCards.objects.exists()


def test_a_game_keeps_the_cards_it_was_dealt_from_and_plays_to_the_end(alice, bob):
    TaskCards.objects.create(**CUSTOM)
    table = started_tasks_game(alice, bob)
    TaskCards.objects.all().delete()  # back to the default: games under way are not affected
    assert table.options["task_distribution"]["A"] == [12, 14, 16, 18]
    assert "Samurai (12), Ninja (14)" in open_table_page(alice, table)
    # AI players reckon with the game's cards too.
    bot_view = CALL_TO_GLORY.ai_view(table, table.state(), 0)
    assert read_view(bot_view).task_cards["A"] == [12, 14, 16, 18]

    while table.status == Table.RUNNING:
        if table.pause_until is not None:  # a round's end: both have seen it
            actions.continue_round(table.pk, alice)
            actions.continue_round(table.pk, bob)
            table.refresh_from_db()
            continue
        state = table.state()
        text = ai.decide(
            "heuristic", CALL_TO_GLORY.ai_view(table, state, state.decider), seed=table.version
        )
        actions.play(table.pk, state.decider, text, table.version)
        table.refresh_from_db()
    assert table.status == Table.FINISHED
    # Every card dealt is revealed, the replay of the record agrees with the table.
    revealed = [a.split(": reveal ") for r in table.record["rounds"] for a in r["actions"]]
    revealed = sorted((who, card) for who, card in (r for r in revealed if len(r) == 2))
    dealt = sorted((who, card) for who, cards in table.record["tasks"].items() for card in cards)
    assert revealed == dealt
    assert engine.result(engine.from_record(table.record)) == table.result


def test_without_a_setting_games_use_the_rules_default(alice, bob):
    table = started_tasks_game(alice, bob)
    assert dealt_values(table)["A"] <= {6, 7, 8, 9}
    assert "A, 5 points per card: Emperor (6), Empress (7), Daimyo (8), Shogun (9)" in (
        open_table_page(alice, table)
    )


def test_the_cards_old_admin_address_leads_to_where_they_are_now(client):
    # The cards' admin moved with their model from the games app to ctg; a staff member
    # allowed to change them follows an old link or bookmark there.
    clerk = User.objects.create_user("clerk", password="pw-clerk-123", is_staff=True)
    clerk.user_permissions.add(
        Permission.objects.get(codename="change_taskcards", content_type__app_label="ctg")
    )
    cards = TaskCards.objects.create(**CUSTOM)
    client.force_login(clerk)

    response = client.get("/admin/games/taskcards/", follow=True)
    assert response.redirect_chain == [("/admin/ctg/taskcards/", 301)]
    assert response.status_code == 200 and "6 7 8 9" in response.content.decode()

    old = f"/admin/games/taskcards/{cards.pk}/change/?_changelist_filters=o%3D1"
    response = client.get(old, follow=True)
    new = reverse("admin:ctg_taskcards_change", args=[cards.pk])
    assert response.redirect_chain == [(f"{new}?_changelist_filters=o%3D1", 301)]
    assert response.status_code == 200
    assert 'name="a" value="12, 14, 16, 18"' in response.content.decode()
