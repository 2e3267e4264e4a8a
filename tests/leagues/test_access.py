"""Who sees and changes what: members see their club's leagues, organisers manage them."""

import csv
import io

import pytest
from django.db import connection
from django.template.loader import render_to_string
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from leagues import rating_jobs, results, tallies
from leagues.models import RecomputeJob
from leagues.views import profile_ratings_context


@pytest.fixture
def game(league, alice, bob):
    g = results.record_result(
        results.of_rounds([[36], [20], [14]]),
        players=[alice, bob, "Gus"],
        league=league,
        source="pad",
    )
    tallies.tally_league(league.pk)
    return g


def member_urls(league, game):
    return [
        reverse("league_list", args=["tenno"]),
        reverse("league", args=["tenno", league.pk]),
        reverse("league_csv", args=["tenno", league.pk]),
        reverse("pad_new", args=["tenno", league.pk]),
        reverse("pad", args=["tenno", game.pk]),
        reverse("club_ratings", args=["tenno"]),
    ]


def test_it_hides_a_clubs_leagues_from_outsiders(client, charlie, league, game):
    # charlie organises another club: Tenno's leagues do not exist for him.
    client.force_login(charlie)
    for url in member_urls(league, game):
        assert client.get(url).status_code == 404, url
    assert client.get(reverse("league_edit", args=["tenno", league.pk])).status_code == 404


def test_it_shows_members_their_clubs_leagues(client, alice, league, game):
    client.force_login(alice)
    for url in member_urls(league, game):
        assert client.get(url).status_code == 200, url


def test_it_sends_anonymous_visitors_to_log_in(client, league, game):
    response = client.get(reverse("league", args=["tenno", league.pk]))
    assert response.status_code == 302 and "/accounts/login/" in response.url


def test_it_keeps_management_for_organisers(client, alice, olga, league):
    client.force_login(alice)
    assert client.get(reverse("league_create", args=["tenno"])).status_code == 403
    assert client.get(reverse("league_edit", args=["tenno", league.pk])).status_code == 403
    assert client.post(reverse("league_recompute", args=["tenno", league.pk])).status_code == 403
    assert client.get(reverse("league_job", args=["tenno", league.pk])).status_code == 403
    client.force_login(olga)
    assert client.get(reverse("league_edit", args=["tenno", league.pk])).status_code == 200
    assert client.get(reverse("league_job", args=["tenno", league.pk])).status_code == 200


def test_it_exports_the_league_table_as_csv(client, alice, league, game):
    client.force_login(alice)
    response = client.get(reverse("league_csv", args=["tenno", league.pk]))
    rows = list(csv.reader(io.StringIO(response.content.decode())))
    assert rows[0][:3] == ["position", "player", "points"]
    assert rows[1][:5] == ["1", "alice", "3", "1", "1"]
    assert rows[3][:3] == ["3", "Gus", "0"]


def test_it_exports_a_players_results_in_shared_clubs_only(client, alice, bob, charlie, game):
    for job in RecomputeJob.objects.all():
        rating_jobs.recompute_ratings(job.pk)
    client.force_login(bob)
    rows = list(
        csv.reader(io.StringIO(client.get(reverse("player_csv", args=["alice"])).content.decode()))
    )
    assert len(rows) == 2 and rows[1][1] == "Tenno" and rows[1][5] == "1"
    assert rows[1][7] == "bob 20; Gus 14"
    client.force_login(charlie)
    rows = list(
        csv.reader(io.StringIO(client.get(reverse("player_csv", args=["alice"])).content.decode()))
    )
    assert len(rows) == 1


def test_it_shows_the_rating_formula_and_leaderboards(client, alice, league, game):
    for job in RecomputeJob.objects.all():
        rating_jobs.recompute_ratings(job.pk)
    assert "round(1000 + 100 × (μ − 3 × σ))" in client.get(reverse("ratings_help")).content.decode()
    page = client.get(reverse("site_ratings")).content.decode()
    assert "alice" in page and "bob" in page and "Gus" not in page
    context = profile_ratings_context(alice)
    html = render_to_string("leagues/_profile_ratings.html", context)
    assert 'id="lg-profile-ratings"' in html and "1 rated game" in html


def test_it_renders_a_league_page_in_constant_queries(client, alice, bob, olga, league):
    def queries():
        with CaptureQueriesContext(connection) as captured:
            assert client.get(reverse("league", args=["tenno", league.pk])).status_code == 200
        return len(captured)

    client.force_login(alice)
    results.record_result(results.of_rounds([[36], [20]]), players=[alice, bob], league=league)
    tallies.tally_league(league.pk)
    few = queries()
    for _ in range(15):
        results.record_result(
            results.of_rounds([[36], [20], [6]]), players=[alice, bob, olga], league=league
        )
    tallies.tally_league(league.pk)
    assert queries() == few
