"""The organiser's view of a rating recompute, on the league page."""

import pytest
from django.urls import reverse

from leagues.models import RecomputeJob

pytestmark = pytest.mark.django_db


def test_it_shows_no_full_bar_for_a_recompute_with_no_games(client, olga, league):
    RecomputeJob.objects.create(league=league, status=RecomputeJob.DONE, total=0, done=0)
    client.force_login(olga)

    html = client.get(reverse("league_job", args=["tenno", league.pk])).content.decode()

    assert "<progress" not in html and "0/0" not in html
    assert "no games to rate" in html


def test_it_shows_the_bar_of_a_recompute_under_way(client, olga, league):
    RecomputeJob.objects.create(league=league, status=RecomputeJob.RUNNING, total=8, done=2)
    client.force_login(olga)

    html = client.get(reverse("league_job", args=["tenno", league.pk])).content.decode()

    assert '<progress max="100" value="25">' in html and "2/8" in html
