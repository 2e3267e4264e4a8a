"""Ratings in the database: against openskill directly, late results, and run-twice safety."""

import threading
from datetime import timedelta

import pytest
from django.db import connection, transaction
from django.utils import timezone
from openskill.models import PlackettLuce

from leagues import rating_jobs, results, tallies
from leagues.models import PlayerRating, RatingHistory, RatingLedger, RecomputeJob
from tests import services
from tests.waiting import wait_for

OPENSKILL = PlackettLuce()
T0 = timezone.now() - timedelta(days=30)


def run_jobs():
    for job in RecomputeJob.objects.filter(status=RecomputeJob.QUEUED).order_by("id"):
        rating_jobs.recompute_ratings(job.pk)


def direct(games):
    """The same games rated with openskill directly, in played order."""
    state = {}
    for _when, players, places in sorted(games, key=lambda g: g[0]):
        teams = [[state.get(p.pk, OPENSKILL.rating())] for p in players]
        for p, team in zip(players, OPENSKILL.rate(teams, ranks=places), strict=True):
            state[p.pk] = team[0]
    return state


def record(when, players, scores, league=None):
    return results.record_result(
        results.of_rounds([[s] for s in scores]), players=players, played_at=when, league=league
    )


def assert_matches(games, users):
    expected = direct(games)
    for user in users:
        rating = PlayerRating.objects.get(user=user)
        assert rating.mu == pytest.approx(expected[user.pk].mu, abs=1e-9)
        assert rating.sigma == pytest.approx(expected[user.pk].sigma, abs=1e-9)


def test_it_rates_confirmed_games_like_openskill_ties_included(league, olga, alice, bob):
    games = [
        (T0, [olga, alice, bob], [1, 2, 3], [60, 36, 14]),
        (T0 + timedelta(hours=1), [olga, alice, bob], [1, 1, 3], [40, 40, 30]),
        (T0 + timedelta(hours=2), [alice, bob], [1, 2], [50, 20]),
        (T0 + timedelta(hours=3), [bob, olga, alice], [1, 1, 1], [20, 20, 20]),
    ]
    for when, players, _places, scores in games:
        record(when, players, scores, league)
    run_jobs()
    assert_matches([(w, p, pl) for w, p, pl, _s in games], [olga, alice, bob])
    assert RatingHistory.objects.filter(user=alice).count() == 4
    assert PlayerRating.objects.get(user=alice).games == 4


def test_it_recomputes_from_a_late_result(league, olga, alice, bob):
    games = [
        (T0, [olga, alice], [1, 2], [60, 36]),
        (T0 + timedelta(hours=2), [alice, bob], [1, 2], [50, 20]),
        (T0 + timedelta(hours=3), [bob, olga], [1, 2], [40, 20]),
    ]
    for when, players, _places, scores in games:
        record(when, players, scores, league)
    run_jobs()
    late = (T0 + timedelta(hours=1), [bob, alice, olga], [1, 2, 2], [50, 20, 20])
    record(late[0], late[1], late[3], league)
    job = RecomputeJob.objects.get(status=RecomputeJob.QUEUED)
    assert job.from_played_at == late[0]
    run_jobs()
    job.refresh_from_db()
    # The late game and the two after it are replayed, not the first.
    assert job.status == RecomputeJob.DONE and job.total == 3
    assert_matches([(w, p, pl) for w, p, pl, _s in [*games, late]], [olga, alice, bob])


def test_it_runs_a_job_only_once(league, alice, bob):
    record(T0, [alice, bob], [36, 20], league)
    job = RecomputeJob.objects.get()
    assert rating_jobs.recompute_ratings(job.pk) is True
    before = list(RatingHistory.objects.values_list("id", "mu"))
    assert rating_jobs.recompute_ratings(job.pk) is False
    assert list(RatingHistory.objects.values_list("id", "mu")) == before


def test_it_covers_later_queued_jobs_in_one_run(league, olga, alice, bob):
    record(T0 + timedelta(hours=1), [alice, bob], [36, 20], league)
    record(T0, [olga, bob], [36, 20], league)
    later, earlier = RecomputeJob.objects.order_by("id")
    rating_jobs.recompute_ratings(earlier.pk)
    later.refresh_from_db()
    assert later.status == RecomputeJob.DONE and later.covered_by_id == earlier.pk
    assert rating_jobs.recompute_ratings(later.pk) is False
    assert PlayerRating.objects.get(user=bob).games == 2


def test_it_tallies_only_when_behind(league, alice, bob):
    record(T0, [alice, bob], [36, 20], league)
    assert tallies.tally_league(league.pk) is True
    assert tallies.tally_league(league.pk) is False


def test_it_accepts_the_same_online_result_once(league, alice, bob):
    first = results.record_result(
        results.of_rounds([[36], [20]]),
        players=[alice, bob],
        league=league,
        external_ref="online:7",
    )
    again = results.record_result(
        results.of_rounds([[36], [20]]),
        players=[alice, bob],
        league=league,
        external_ref="online:7",
    )
    assert first.pk == again.pk
    assert RecomputeJob.objects.count() == 1


def test_it_takes_the_engines_placings_for_online_games(league, alice, bob):
    game = results.record_result(
        results.of_rounds([[30, 30, 0, 0], [40, 20, 0, 0]], placings=[2, 1]),
        players=[alice, bob],
        league=league,
    )
    assert [s.place for s in game.seats.order_by("seat")] == [2, 1]


def test_it_rebuilds_everything_on_request(league, olga, alice, bob):
    for i in range(3):
        record(T0 + timedelta(hours=i), [olga, alice, bob], [36, 20, 14], league)
    run_jobs()
    before = {r.user_id: (r.mu, r.sigma) for r in PlayerRating.objects.all()}
    job = rating_jobs.request_full_recompute(league)
    rating_jobs.recompute_ratings(job.pk)
    after = {r.user_id: (r.mu, r.sigma) for r in PlayerRating.objects.all()}
    assert after.keys() == before.keys()
    for key in before:
        assert after[key] == pytest.approx(before[key])
    assert RatingHistory.objects.count() == 9


def stuck(job: RecomputeJob) -> None:
    """As a worker that died mid-recompute leaves its job: running, its writes rolled back."""
    job.status, job.started = RecomputeJob.RUNNING, timezone.now() - timedelta(minutes=10)
    job.save()


def test_it_runs_again_a_job_whose_worker_died(league, olga, alice):
    record(T0, [olga, alice], [40, 20], league)
    job = RecomputeJob.objects.get()
    stuck(job)
    assert not PlayerRating.objects.exists()

    assert rating_jobs.requeue_stuck_jobs() == 1
    job.refresh_from_db()
    assert job.status == RecomputeJob.QUEUED
    run_jobs()
    assert PlayerRating.objects.get(user=alice).games == 1
    assert rating_jobs.requeue_stuck_jobs() == 0


@pytest.mark.django_db(transaction=True)
def test_it_leaves_alone_a_job_that_is_still_running():
    services.need("PostgreSQL", connection.vendor == "postgresql", "row locks need it")
    RatingLedger.objects.create(pk=1)
    job = RecomputeJob.objects.create()
    stuck(job)
    locked, release = threading.Event(), threading.Event()

    def recompute_under_way():
        with transaction.atomic():
            RatingLedger.objects.select_for_update().get(pk=1)
            locked.set()
            release.wait(10)
        connection.close()

    worker = threading.Thread(target=recompute_under_way)
    worker.start()
    assert locked.wait(10)
    try:
        assert rating_jobs.requeue_stuck_jobs() == 0
        job.refresh_from_db()
        assert job.status == RecomputeJob.RUNNING
    finally:
        release.set()
        worker.join()

    assert rating_jobs.requeue_stuck_jobs() == 1
    assert wait_for(lambda: RecomputeJob.objects.get(pk=job.pk).status == RecomputeJob.DONE)
