"""Ratings are per player and game: a result in one game never moves a rating in another.

The second game is the toy game "Call a number" (tests/site/toy_game.py), registered here
beside Call to Glory and De l'Orc (which has no rated game yet).
- alice and bob are members of Tenno and play both games; olga organises Tenno;
- charlie is in another club: he sees site-wide ratings, not Tenno's.
"""

import re
from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from leagues import rating_jobs, results
from leagues.models import PlayerRating, RatingHistory, RecomputeJob

T0 = timezone.now() - timedelta(days=10)


@pytest.fixture(autouse=True)
def toy_registered(settings):
    settings.GAMES = [*settings.GAMES, "tests.site.toy_game.TOY"]


def run_jobs():
    for job in RecomputeJob.objects.filter(status=RecomputeJob.QUEUED).order_by("id"):
        rating_jobs.recompute_ratings(job.pk)


def toy_game(club, players, calls, when=T0):
    return results.record_result(
        results.of_rounds([[c] for c in calls]),
        players=players,
        club=club,
        game="toy",
        played_at=when,
    )


def ctg_game(club, players, scores, when=T0):
    return results.record_result(
        results.of_rounds([[s] for s in scores]), players=players, club=club, played_at=when
    )


def ratings_of(game: str) -> dict:
    rows = PlayerRating.objects.filter(game=game).select_related("user")
    return {r.user.username: (r.mu, r.sigma, r.games, r.display) for r in rows}


def leaderboard(page) -> list[str]:
    body = page.content.decode()
    rows = body[body.index("<tbody>") : body.index("</tbody>")]
    return re.findall(r'href="/accounts/u/([^/]+)/"', rows)


def test_it_never_moves_a_rating_in_another_game(club, olga, alice, bob):
    toy_game(club, [bob, alice], [3, 1])
    run_jobs()
    toy = ratings_of("toy")
    assert set(toy) == {"alice", "bob"} and toy["bob"][3] > toy["alice"][3]
    assert not PlayerRating.objects.filter(game="ctg").exists()

    # Call to Glory games before and after the toy game: its replay spans the toy game's time.
    ctg_game(club, [alice, bob, olga], [60, 20, 30], when=T0 - timedelta(days=1))
    ctg_game(club, [alice, bob], [50, 10], when=T0 + timedelta(hours=1))
    run_jobs()
    assert ratings_of("toy") == toy
    ctg = ratings_of("ctg")
    assert ctg["alice"][2] == 2 and ctg["alice"][3] > ctg["bob"][3]
    assert RatingHistory.objects.filter(user=alice, game__game="toy").count() == 1
    assert RatingHistory.objects.filter(user=alice, game__game="ctg").count() == 2

    rating_jobs.request_full_recompute(game="ctg")
    run_jobs()
    assert ratings_of("toy") == toy and ratings_of("ctg") == ctg
    rating_jobs.request_full_recompute(game="toy")
    run_jobs()
    assert ratings_of("toy") == toy and ratings_of("ctg") == ctg


def test_it_keeps_a_recompute_to_its_own_game(club, alice, bob):
    ctg_game(club, [alice, bob], [50, 10])
    toy_game(club, [bob, alice], [3, 1], when=T0 + timedelta(hours=1))
    ctg_job, toy_job = RecomputeJob.objects.order_by("id")
    assert (ctg_job.game, toy_job.game) == ("ctg", "toy")

    # A Call to Glory recompute from an earlier time does not take the toy game's job over.
    assert rating_jobs.recompute_ratings(ctg_job.pk)
    toy_job.refresh_from_db()
    assert toy_job.status == RecomputeJob.QUEUED
    assert set(ratings_of("ctg")) == {"alice", "bob"} and not ratings_of("toy")
    assert rating_jobs.recompute_ratings(toy_job.pk)
    assert ratings_of("toy")["bob"][2] == 1


def test_it_shows_each_games_leaderboard_behind_a_switch(client, club, alice, bob, charlie):
    ctg_game(club, [alice, bob], [50, 10])
    toy_game(club, [alice, bob], [1, 3])
    run_jobs()
    client.force_login(alice)
    url = reverse("club_ratings", args=[club.slug])

    page = client.get(url)  # Call to Glory by default
    assert leaderboard(page) == ["alice", "bob"]
    assert 'aria-current="page">Call to Glory<' in page.content.decode()
    assert 'href="?game=toy"' in page.content.decode()
    assert leaderboard(client.get(url, {"game": "toy"})) == ["bob", "alice"]

    page = client.get(url, {"game": "orc"})
    assert leaderboard(page) == []
    assert "No rated games yet." in page.content.decode()
    assert client.get(url, {"game": "chess"}).status_code == 404

    client.force_login(charlie)
    site = reverse("site_ratings")
    assert leaderboard(client.get(site)) == ["alice", "bob"]
    assert leaderboard(client.get(site, {"game": "toy"})) == ["bob", "alice"]


def test_it_shows_a_players_rating_per_game_on_the_profile(client, club, alice, bob):
    ctg_game(club, [alice, bob], [50, 10])
    toy_game(club, [alice, bob], [1, 3])
    toy_game(club, [alice, bob], [1, 2], when=T0 + timedelta(hours=1))
    run_jobs()
    client.force_login(bob)
    url = reverse("profile", args=["alice"])
    ctg = PlayerRating.objects.get(user=alice, game="ctg")
    toy = PlayerRating.objects.get(user=alice, game="toy")
    assert ctg.display != toy.display

    page = client.get(url).content.decode()
    assert f"<strong>{ctg.display}</strong>" in page and "1 rated game" in page
    page = client.get(url, {"game": "toy"}).content.decode()
    assert f"<strong>{toy.display}</strong>" in page and "2 rated games" in page
    page = client.get(url, {"game": "orc"}).content.decode()
    assert "No rated games yet." in page


def test_it_lists_ratings_per_game_in_the_api(client, club, alice, bob):
    ctg_game(club, [alice, bob], [50, 10])
    toy_game(club, [alice, bob], [1, 3])
    run_jobs()
    items = client.get("/api/v1/ratings/").json()["results"]
    assert [(r["username"], r["game"]) for r in items] == [("alice", "ctg"), ("bob", "ctg")]
    items = client.get("/api/v1/ratings/", {"game": "toy"}).json()["results"]
    assert [(r["username"], r["game"]) for r in items] == [("bob", "toy"), ("alice", "toy")]
    assert client.get("/api/v1/ratings/", {"game": "orc"}).json()["count"] == 0


def test_it_measures_a_games_rating_change_against_the_same_game(client, club, alice, bob):
    toy_game(club, [alice, bob], [3, 1])
    ctg = ctg_game(club, [alice, bob], [50, 10], when=T0 + timedelta(hours=1))
    run_jobs()
    client.force_login(alice)
    changes = client.get(f"/history/game/{ctg.pk}/").context["changes"]
    # Both players' first Call to Glory game: a rating after it, no change to show.
    assert [c["delta"] for c in changes.values()] == [None, None]
