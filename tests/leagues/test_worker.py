"""Tallies through a real Celery worker on Redis: a confirmed result reaches the ratings."""

import pytest
from django.db import transaction

from leagues import actions
from leagues.models import League, PlayerRating, RecomputeJob
from tests.waiting import wait_for

pytestmark = pytest.mark.services


def test_it_updates_ratings_and_the_table_through_the_worker(celery_worker, league, alice, bob):
    game = actions.start_pad_game(league, alice, [actions.Player(alice), actions.Player(bob)])
    actions.enter_round(game, 1, [36, 20], None)
    actions.submit_for_confirmation(game)
    with transaction.atomic():
        assert actions.confirm(game, bob, is_organiser=False)
        # Nothing is queued before the commit: the worker must see the confirmed game.
        assert not PlayerRating.objects.exists()

    assert wait_for(lambda: PlayerRating.objects.filter(user=alice, games=1).exists())
    assert wait_for(
        lambda: (
            League.objects.get(pk=league.pk).table_version
            == League.objects.get(pk=league.pk).results_version
        )
    )
    league.refresh_from_db()
    assert league.table[0]["name"] == "alice" and league.table[0]["games"] == 1
    job = RecomputeJob.objects.get()
    assert job.status == RecomputeJob.DONE and job.done == job.total == 1
    alice_rating = PlayerRating.objects.get(user=alice)
    assert alice_rating.display > PlayerRating.objects.get(user=bob).display

    # The same job delivered again (a redelivery after a lost ack) changes nothing.
    # Tasks keep no results; this one is asked to, to read its answer.
    again = celery_worker.send_task(
        "leagues.tasks.recompute_ratings", args=[job.pk], ignore_result=False
    )
    assert again.get(timeout=10) is False
    assert PlayerRating.objects.get(user=alice).mu == alice_rating.mu
