"""The score pad end to end over HTTP: enter, check, confirm, correct."""

import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse

from leagues import actions, rating_jobs, results, tallies
from leagues.models import League, PlayedGame, PlayerRating, RecomputeJob, RoundScore


def url(name, *args):
    return reverse(name, args=args)


def post_round(client, game, round_no, scores, bonuses=None):
    data = {f"score_{i}": s for i, s in enumerate(scores)}
    for i, b in enumerate(bonuses or []):
        data[f"bonus_{i}"] = b
    return client.post(url("pad_round", "tenno", game.pk, round_no), data)


def start(client, league, *seats):
    data = {}
    for i, seat in enumerate(seats):
        if isinstance(seat, str):
            data[f"guest_{i}"] = seat
        else:
            data[f"member_{i}"] = seat.pk
    response = client.post(url("pad_new", "tenno", league.pk), data)
    assert response.status_code == 302, response.content
    return PlayedGame.objects.latest("id")


def test_it_lets_an_organiser_create_a_league(client, olga, alice, club):
    client.force_login(olga)
    response = client.post(
        url("league_create", "tenno"),
        {
            "name": "Autumn",
            "game_length": "standard",
            "points_scheme": "borda",
            "tie_break_order": "points, h2h, wins",
            "is_open": "on",
            "participants": [olga.pk, alice.pk],
        },
    )
    league = League.objects.get(name="Autumn")
    assert response.status_code == 302 and response.url == league.get_absolute_url()
    assert league.tie_break_list == ["points", "h2h", "wins"]
    assert set(league.participants.all()) == {olga, alice}
    assert league.results_version == 1


def test_it_refuses_unknown_tie_breaks(client, olga):
    client.force_login(olga)
    response = client.post(
        url("league_create", "tenno"),
        {
            "name": "X",
            "game_length": "standard",
            "points_scheme": "fair",
            "tie_break_order": "luck",
        },
    )
    assert response.status_code == 200
    assert "Unknown tie-breaks: luck" in response.content.decode()


def test_it_enters_and_confirms_a_game_round_by_round(client, league, alice, bob):
    league.options = {"game_length": "standard"}
    league.save()
    client.force_login(alice)
    game = start(client, league, alice, bob, "Gus")
    assert game.rounds == 4 and game.status == PlayedGame.DRAFT
    page = client.get(game.get_absolute_url()).content.decode()
    assert "Round 1 of 4" in page and "Expected place" in page
    assert page.count('max="110"') == 3  # the most one player scores in a round

    for round_no, scores in enumerate([[60, 36, 0], [20, 20, 20], [30, 40, 18], [0, 50, 14]], 1):
        response = post_round(client, game, round_no, scores)
        assert response.status_code == 302, response.content.decode()

    client.post(url("pad_submit", "tenno", game.pk))
    game.refresh_from_db()
    assert game.status == PlayedGame.AWAITING
    assert [(s.total, s.place) for s in game.seats.order_by("seat")] == [
        (110, 2),
        (146, 1),
        (52, 3),
    ]

    # The player who entered it cannot confirm it alone.
    client.post(url("pad_confirm", "tenno", game.pk))
    game.refresh_from_db()
    assert game.status == PlayedGame.AWAITING

    client.force_login(bob)
    assert "Confirm the result" in client.get(game.get_absolute_url()).content.decode()
    client.post(url("pad_confirm", "tenno", game.pk))
    game.refresh_from_db()
    assert game.status == PlayedGame.CONFIRMED and game.confirmed_by == bob

    assert tallies.tally_league(league.pk) is True
    league.refresh_from_db()
    assert [(r["name"], r["points"], r["games"]) for r in league.table[:3]] == [
        ("bob", "3", 1),
        ("alice", "1.5", 1),
        ("Gus", "0", 1),
    ]
    job = RecomputeJob.objects.get()
    assert rating_jobs.recompute_ratings(job.pk) is True
    assert PlayerRating.objects.get(user=bob).games == 1


def test_it_says_which_round_and_score_cannot_be_right(client, league, alice, bob, olga):
    client.force_login(alice)
    game = start(client, league, alice, bob, olga, "Gus")
    response = post_round(client, game, 1, [20, 20, 20, 20])
    assert response.status_code == 422
    text = response.content.decode()
    assert "Round 1: alice&#x27;s 20, bob&#x27;s 20, olga&#x27;s 20 and Gus&#x27;s 20" in text
    assert "each type lies before at most one player" in text
    response = post_round(client, game, 1, [99, 0, 0, 0])
    assert "Round 1: alice&#x27;s 99 cannot be right" in response.content.decode()
    assert post_round(client, game, 1, [20, 20, 20, 0]).status_code == 302


def test_it_checks_imperial_task_bonuses(client, league, alice, bob):
    league.options |= {"imperial_tasks": True}
    league.save()
    client.force_login(alice)
    game = start(client, league, alice, bob)
    assert game.rounds == 3
    response = post_round(client, game, 1, [20, 14], [7, 0])
    assert response.status_code == 422
    assert "task bonus alice&#x27;s 7 cannot be right" in response.content.decode()
    assert post_round(client, game, 1, [20, 14], [10, 8]).status_code == 302
    assert game.seats.get(seat=0).round_scores.get().total == 30


def test_it_takes_a_bonus_on_a_set_a_ninja_cut_to_one_card(client, league, alice, bob):
    # Bob's two 9s, one taken by alice's miniature, then paid 4 × 1 by a B9 (a real round of
    # an engine game: tests/leagues/test_scorepad.py, NINJA_GAME).
    league.options |= {"imperial_tasks": True, "ninja": True}
    league.save()
    client.force_login(alice)
    game = start(client, league, alice, bob)
    response = post_round(client, game, 1, [88, 9], [6, 2])
    assert response.status_code == 422
    assert "a Ninja miniature may leave one" in response.content.decode()
    assert post_round(client, game, 1, [88, 9], [6, 4]).status_code == 302
    assert game.seats.get(seat=1).round_scores.get().total == 13


def test_it_lets_an_organiser_correct_a_confirmed_result(client, league, alice, bob, olga):
    client.force_login(alice)
    game = start(client, league, alice, bob)
    post_round(client, game, 1, [36, 20])
    client.post(url("pad_submit", "tenno", game.pk))
    client.force_login(bob)
    client.post(url("pad_confirm", "tenno", game.pk))
    tallies.tally_league(league.pk)
    version = League.objects.get(pk=league.pk).results_version

    # A member cannot correct; the organiser can, and the result follows.
    client.force_login(alice)
    assert post_round(client, game, 1, [20, 36]).status_code == 403
    client.force_login(olga)
    assert post_round(client, game, 1, [20, 36]).status_code == 302
    game.refresh_from_db()
    assert game.corrected_at is not None
    assert [s.place for s in game.seats.order_by("seat")] == [2, 1]
    league.refresh_from_db()
    assert league.results_version == version + 1
    tallies.tally_league(league.pk)
    league.refresh_from_db()
    assert league.table[0]["name"] == "bob"
    assert RecomputeJob.objects.filter(reason="result corrected").exists()


def test_it_links_a_guest_to_a_member_later(client, league, alice, bob, olga):
    game = results.record_result(
        results.of_rounds([[30], [20]]), players=[alice, "Gus"], league=league, source="pad"
    )
    tallies.tally_league(league.pk)
    client.force_login(olga)
    client.post(url("league_link_guest", "tenno", league.pk), {"guest": "Gus", "user": bob.pk})
    assert game.seats.get(seat=1).user == bob
    tallies.tally_league(league.pk)
    league.refresh_from_db()
    assert {r["name"] for r in league.table if r["games"]} == {"alice", "bob"}


def test_it_asks_again_when_the_member_to_link_is_not_one(client, league, olga):
    client.force_login(olga)
    response = client.post(
        url("league_link_guest", "tenno", league.pk), {"guest": "Gus", "user": "abc"}, follow=True
    )
    assert "Choose a guest and a member." in response.content.decode()


@pytest.mark.parametrize("status", [PlayedGame.DRAFT, PlayedGame.AWAITING])
def test_it_does_not_count_unconfirmed_games(league, alice, bob, status):
    game = actions.start_pad_game(league, alice, [actions.Player(alice), actions.Player(bob)])
    actions.enter_round(game, 1, [36, 20], None)
    if status == PlayedGame.AWAITING:
        actions.submit_for_confirmation(game)
    league.results_version += 1
    league.save()
    tallies.tally_league(league.pk)
    league.refresh_from_db()
    assert all(row["games"] == 0 for row in league.table)


def test_the_home_page_points_each_player_to_the_pads_waiting_for_them(client, league, alice, bob):
    client.force_login(alice)
    game = start(client, league, alice, bob)
    link = f'href="{game.get_absolute_url()}"'

    def home(user):
        client.force_login(user)
        return client.get("/").content.decode()

    assert link in home(alice) and "being entered" in home(alice)
    post_round(client, game, 1, [40, 20])
    client.post(url("pad_submit", "tenno", game.pk))

    assert link not in home(alice)  # someone else confirms what alice entered
    page = home(bob)
    assert link in page and "Confirm the result" in page
    client.post(url("pad_confirm", "tenno", game.pk))
    assert link not in home(bob)


def test_league_best_round_is_a_round_not_the_rest_of_the_game(league, alice, bob):
    """A 4-round game of 40, 36, 38, 39 has a best round of 40, not 113."""
    league.options = {"game_length": "standard"}
    league.save()
    game = actions.start_pad_game(league, alice, [actions.Player(alice), actions.Player(bob)])
    for round_no, scores in enumerate([[40, 20], [36, 22], [38, 18], [39, 24]], start=1):
        actions.enter_round(game, round_no, scores, None)
    actions.submit_for_confirmation(game)
    actions.confirm(game, bob, is_organiser=False)
    tallies.tally_league(league.pk)

    league.refresh_from_db()
    best = {row["name"]: row["best_round"] for row in league.table if row["games"]}
    assert best == {"alice": 40, "bob": 24}


def test_the_admin_keeps_a_played_game_to_its_games_rounds_and_limits(league, alice, bob):
    # The database holds every game's rows; the game's own rules are asked by `clean`.
    game = results.record_result(
        results.of_rounds([[60], [50]]), players=[alice, bob], league=league
    )
    score = RoundScore.objects.filter(seat__game=game).first()
    score.score = 111
    with pytest.raises(ValidationError) as refused:
        score.full_clean()
    assert list(refused.value.message_dict) == ["score"]
    game.rounds = 2
    with pytest.raises(ValidationError) as refused:
        game.full_clean()
    assert list(refused.value.message_dict) == ["rounds"]
    game.game, game.rounds = "orc", 9  # as many as it took
    game.full_clean()


def test_it_keeps_a_round_entered_past_a_missing_one_when_the_missing_one_comes(
    client, league, alice, bob
):
    # Rounds were once open in any order: round 3 of this pad came before round 2.
    league.options = {"game_length": "standard"}
    league.save()
    client.force_login(alice)
    game = start(client, league, alice, bob)
    assert post_round(client, game, 1, [30, 20]).status_code == 302
    for seat, score in zip(game.seats.order_by("seat"), [10, 40], strict=True):
        RoundScore.objects.create(seat=seat, round_no=3, score=score)

    assert post_round(client, game, 2, [25, 25]).status_code == 302
    kept = RoundScore.objects.filter(seat__game=game).order_by("round_no", "seat__seat")
    assert [(r.round_no, r.score) for r in kept] == [
        (1, 30),
        (1, 20),
        (2, 25),
        (2, 25),
        (3, 10),
        (3, 40),
    ]
    assert "Round 4 of 4" in client.get(game.get_absolute_url()).content.decode()
