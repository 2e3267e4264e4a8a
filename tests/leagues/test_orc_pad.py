"""De l'Orc's score pad (ORC-RULES.md §7) through the pages: each round's wizard, champion and
battle winners; every refusal names the round and the reason; confirmation and correction.

Personas (tests/leagues/conftest.py): olga organises Tenno; alice and bob are members;
dave and erin are members too, and Gus is a guest, to make up five and six players.
"""

import pytest

from leagues.models import PlayedGame
from tests.leagues.orcpad import ROUND_1, ROUND_2, client_for, enter, round_data


def test_it_starts_a_pad_of_five_with_the_first_seat_as_wizard(five):
    client, game = five
    page = client.get(game.get_absolute_url()).content.decode()
    assert "Round 1" in page and "Round 1 of" not in page
    assert '<option value="0" selected>alice</option>' in page
    assert game.seats.count() == 5 and game.game == "orc"


def test_it_computes_points_totals_and_places(five, bob):
    client, game = five
    assert enter(client, game, 1, ROUND_1).status_code == 302
    page = client.get(game.get_absolute_url()).content.decode()
    # The next round's wizard is prefilled by rotation: bob.
    assert '<option value="1" selected>bob</option>' in page
    assert enter(client, game, 2, ROUND_2).status_code == 302
    page = client.get(game.get_absolute_url()).content.decode()
    totals = [cell.split("<")[0] for cell in page.split('class="lg-total"><strong>')[1:]]
    # alice scores her champion bob's 4; bob 4 + his champion dave's 5; dave 1 + 5.
    assert totals == ["4", "9", "6", "2", "0"]
    assert "Finish and ask for confirmation" in page and "Round 3" not in page
    client.post(f"/clubs/tenno/games/{game.pk}/submit/")
    game.refresh_from_db()
    assert game.status == PlayedGame.AWAITING
    assert [s.place for s in game.seats.order_by("seat")] == [3, 1, 2, 4, 5]
    assert client_for(bob).post(f"/clubs/tenno/games/{game.pk}/confirm/").status_code == 302
    game.refresh_from_db()
    assert game.status == PlayedGame.CONFIRMED


def refused(response) -> str:
    assert response.status_code == 422
    return response.content.decode()


@pytest.mark.parametrize(
    ("data", "message"),
    [
        (round_data(0, 0, [1], [], [], []), "Round 1: the champion must be a player other than"),
        (
            round_data(0, 1, [0], [], [], []),
            "Round 1: battle 1 can only be won by players other than the wizard.",
        ),
        (
            round_data(0, 1, [1], [], [], [2, 0]),
            "Round 1: battle 4 can only be won by players other than the wizard.",
        ),
    ],
)
def test_it_refuses_a_round_the_rules_cannot_produce(five, data, message):
    client, game = five
    assert message in refused(enter(client, game, 1, data))
    assert game.seats.first().round_scores.count() == 0


def test_it_refuses_a_wizard_out_of_turn(five):
    client, game = five
    enter(client, game, 1, ROUND_1)
    page = refused(enter(client, game, 2, round_data(3, 2, [2], [], [], [])))
    assert (
        "Round 2: the wizard passes to the left each round, so this round&#x27;s wizard is bob"
        in page
    )


def test_it_refuses_a_round_after_the_end(five):
    client, game = five
    enter(client, game, 1, ROUND_1)
    enter(client, game, 2, ROUND_2)
    # Round 3 is not offered; posting it anyway is refused with the reason.
    page = refused(enter(client, game, 3, round_data(2, 3, [3], [], [], [])))
    assert "Round 3 cannot be played: the game ended after round 2" in page


def test_it_refuses_to_finish_before_anyone_reached_the_target(five):
    client, game = five
    enter(client, game, 1, ROUND_1)
    response = client.post(f"/clubs/tenno/games/{game.pk}/submit/", follow=True)
    assert "Round 1: nobody has reached 8 points yet, so the game goes on" in (
        response.content.decode()
    )
    game.refresh_from_db()
    assert game.status == PlayedGame.DRAFT


def test_it_refuses_a_changed_round_that_breaks_a_later_one(five):
    client, game = five
    enter(client, game, 1, ROUND_1)
    enter(client, game, 2, ROUND_2)
    # With bob as round 1's wizard, round 2's (bob again) would be out of turn.
    page = refused(enter(client, game, 1, round_data(1, 2, [2], [], [], [])))
    assert (
        "Round 2: the wizard passes to the left each round, so this round&#x27;s wizard is dave"
        in page
    )


def test_it_shows_the_points_of_a_round_while_it_is_entered(five):
    client, game = five
    response = client.post(f"/clubs/tenno/games/{game.pk}/rounds/1/preview/", ROUND_1)
    page = response.content.decode()
    assert response.status_code == 200
    assert [cell.split("<")[0] for cell in page.split('class="orc-preview-score">')[1:]] == [
        "4",
        "4",
        "1",
        "1",
        "0",
    ]
    bad = client.post(f"/clubs/tenno/games/{game.pk}/rounds/1/preview/", round_data(0, 0))
    assert "Round 1: the champion must be a player other than the wizard." in bad.content.decode()


def test_it_asks_for_four_to_seven_players(orc_league, alice, bob):
    client = client_for(alice)
    response = client.post(
        f"/clubs/tenno/leagues/{orc_league.pk}/games/new/",
        {"member_0": alice.pk, "member_1": bob.pk, "guest_2": "Gus"},
    )
    assert "A game has 4 to 7 players." in response.content.decode()


def test_an_organiser_corrects_a_confirmed_round(five, olga, bob):
    client, game = five
    enter(client, game, 1, ROUND_1)
    enter(client, game, 2, ROUND_2)
    client.post(f"/clubs/tenno/games/{game.pk}/submit/")
    client_for(bob).post(f"/clubs/tenno/games/{game.pk}/confirm/")
    organiser = client_for(olga)
    # Battle 2 of round 1 was won by nobody, not dave.
    fixed = round_data(0, 1, [1], [], [3], [1])
    assert enter(organiser, game, 1, fixed).status_code == 302
    game.refresh_from_db()
    assert game.corrected_at is not None
    assert [s.total for s in game.seats.order_by("seat")] == [4, 9, 5, 2, 0]
    # A correction that leaves the game without a winner is refused.
    page = refused(enter(organiser, game, 2, round_data(1, 2, [], [], [], [])))
    assert "Round 2: nobody has reached 8 points yet" in page
    # Members do not correct.
    assert enter(client, game, 1, ROUND_1).status_code == 403


@pytest.mark.parametrize(
    "data",
    [
        {"wizard": "99", "champion": "1"},
        {"wizard": "x", "champion": "-1"},
        {"wizard": "0", "champion": "1", "battle_1": ["7"], "battle_2": ["a"]},
        {"wizard": ["0", "1"], "champion": "1" * 40},
        {},
    ],
)
def test_tampered_rounds_get_a_form_error_never_a_server_error(five, data):
    client, game = five
    assert enter(client, game, 1, data).status_code == 422
    preview = client.post(f"/clubs/tenno/games/{game.pk}/rounds/1/preview/", data)
    assert preview.status_code == 200
    for round_no in (0, 2, 99):
        assert enter(client, game, round_no, round_data(0, 1)).status_code == 404
