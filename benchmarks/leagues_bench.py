"""Benchmarks for leagues (not tests): a full rating recompute and a league page.

    DATABASE_URL=postgres://root@127.0.0.1:5432/leagues_bench \\
        .venv/bin/python benchmarks/leagues_bench.py [--games 100000] [--league-games 2000]

Creates the database if it is missing, migrates it, and fills it with synthetic games
(setup is not timed). Prints:

- recompute: seconds to replay every rated game from scratch (target: 100,000 in ≤ 15 s),
  split into load, rate and write;
- league page: median server time of GET on a league page over N confirmed games
  (target ≤ 50 ms for 2,000) and its query count, also for a league a tenth that size, to
  show the count does not grow with the number of games.
"""

import argparse
import random
import statistics
import time
from datetime import timedelta

from bench_db import setup_django


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=100_000)
    parser.add_argument("--players", type=int, default=2_000)
    parser.add_argument("--league-games", type=int, default=2_000)
    args = parser.parse_args()

    setup_django("postgres://root@127.0.0.1:5432/leagues_bench")
    from django.conf import settings
    from django.utils import timezone

    settings.ALLOWED_HOSTS = ["*"]

    from accounts.models import Club, Membership, User
    from leagues import rating_jobs, tallies
    from leagues.models import (
        League,
        PlayedGame,
        PlayedSeat,
        PlayerRating,
        RatingHistory,
        RecomputeJob,
    )

    print("setting up (not timed)…", flush=True)
    RatingHistory.objects.all().delete()
    PlayerRating.objects.all().delete()
    RecomputeJob.objects.all().delete()
    PlayedSeat.objects.all().delete()
    PlayedGame.objects.all().delete()
    League.objects.all().delete()
    Membership.objects.all().delete()
    Club.objects.all().delete()
    User.objects.filter(username__startswith="bench").delete()

    rng = random.Random(7)
    users = User.objects.bulk_create(
        User(username=f"bench{i}", password="!") for i in range(args.players)
    )
    club = Club.objects.create(name="Bench club", slug="bench-club")
    Membership.objects.bulk_create(
        Membership(club=club, user=u, role="organiser" if i == 0 else "member")
        for i, u in enumerate(users[:40])
    )

    def make_games(count: int, pool: list, league=None, start=None) -> None:
        start = start or timezone.now() - timedelta(days=400)
        batch = 5_000
        for offset in range(0, count, batch):
            n = min(batch, count - offset)
            games = PlayedGame.objects.bulk_create(
                PlayedGame(
                    club=club,
                    league=league,
                    source="pad",
                    status="confirmed",
                    played_at=start + timedelta(minutes=offset + i),
                    rounds=4,
                    options={"imperial_tasks": False, "ninja": False},
                    confirmed_at=start,
                )
                for i in range(n)
            )
            seats = []
            for game in games:
                players = rng.sample(pool, rng.choice([2, 3, 3, 4]))
                totals = [rng.randrange(0, 300) for _ in players]
                for s, (user, total) in enumerate(zip(players, totals, strict=True)):
                    place = 1 + sum(1 for t in totals if t > total)
                    seats.append(
                        PlayedSeat(
                            game=game,
                            seat=s,
                            user=user,
                            total=total,
                            place=place,
                            best_round=min(110, total),
                        )
                    )
            PlayedSeat.objects.bulk_create(seats, batch_size=10_000)

    make_games(args.games - args.league_games - args.league_games // 10, users)
    league = League.objects.create(club=club, name="Bench league")
    league.participants.add(*users[:30])
    small = League.objects.create(club=club, name="Small league")
    small.participants.add(*users[:30])
    make_games(args.league_games, users[:30], league)
    make_games(args.league_games // 10, users[:30], small)
    from django.db import connection

    with connection.cursor() as cursor:
        # Autovacuum would do this soon after a bulk load; plans need real statistics.
        cursor.execute("ANALYZE")
    total_games = PlayedGame.objects.count()
    print(f"{total_games} games, {PlayedSeat.objects.count()} seats, {args.players} players")

    # --- recompute ------------------------------------------------------------------
    job = RecomputeJob.objects.create(reason="benchmark")
    assert rating_jobs.claim_job(job.pk)
    started = time.perf_counter()
    replayed = rating_jobs.recompute_from(None, job)
    elapsed = time.perf_counter() - started
    print(
        f"recompute: {replayed} rated games in {elapsed:.2f} s "
        f"({RatingHistory.objects.count()} history rows written) — target ≤ 15 s"
    )
    started = time.perf_counter()
    since = PlayedGame.objects.order_by("-played_at").values_list("played_at", flat=True)[99]
    late = rating_jobs.recompute_from(since)
    print(f"recompute of the last {late} games: {1000 * (time.perf_counter() - started):.0f} ms")

    # --- league page ----------------------------------------------------------------
    from django.test import Client
    from django.test.utils import CaptureQueriesContext

    for lg in (league, small):
        lg.results_version = 1
        lg.save(update_fields=["results_version"])
        tallies.tally_league(lg.pk)
    client = Client()
    client.force_login(users[1])
    for lg in (small, league):
        path = f"/clubs/{club.slug}/leagues/{lg.pk}/"
        assert client.get(path).status_code == 200
        times = []
        for _ in range(30):
            started = time.perf_counter()
            client.get(path)
            times.append(1000 * (time.perf_counter() - started))
        with CaptureQueriesContext(connection) as queries:
            client.get(path)
        games = lg.games.count()
        print(
            f"league page, {games} games: median {statistics.median(times):.1f} ms, "
            f"p90 {sorted(times)[int(len(times) * 0.9)]:.1f} ms, {len(queries)} queries"
            + (" — target ≤ 50 ms" if lg == league else "")
        )
    started = time.perf_counter()
    league.results_version += 1
    league.save(update_fields=["results_version"])
    tallies.tally_league(league.pk)
    print(
        f"standings tally of {league.games.count()} games (background task): "
        f"{1000 * (time.perf_counter() - started):.0f} ms"
    )


if __name__ == "__main__":
    main()
