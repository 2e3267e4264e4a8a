"""Benchmark (not a test): the history list page and the API games list over 10,000 games.

    DATABASE_URL=postgres://root@127.0.0.1:5432/ctg_history_bench \\
        .venv/bin/python benchmarks/history_list.py [--games 10000]

Creates the database if it is missing, migrates it and fills it with synthetic confirmed
games (setup is not timed): most in a private club, the rest public. Prints the server time
(median and p95 of GETs through Django's test client, no network) of the history page and
the API list, unfiltered and filtered, and their query counts at two page sizes.
Target: ≤ 100 ms.
"""

import argparse
import random
import statistics
import time
from datetime import timedelta

from bench_db import setup_django


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=10_000)
    parser.add_argument("--players", type=int, default=300)
    parser.add_argument("--runs", type=int, default=40)
    args = parser.parse_args()
    setup_django("postgres://root@127.0.0.1:5432/ctg_history_bench")
    from django.conf import settings
    from django.db import connection
    from django.test import Client
    from django.test.utils import CaptureQueriesContext
    from django.utils import timezone

    settings.ALLOWED_HOSTS = ["*"]

    from accounts.models import Club, Membership, User
    from history import views
    from leagues.models import League, PlayedGame, PlayedSeat, RoundScore

    print("setting up (not timed)…", flush=True)
    if PlayedGame.objects.count() != args.games:
        RoundScore.objects.all().delete()
        PlayedSeat.objects.all().delete()
        PlayedGame.objects.all().delete()
        League.objects.all().delete()
        Membership.objects.all().delete()
        Club.objects.all().delete()
        User.objects.filter(username__startswith="hbench").delete()
        rng = random.Random(11)
        users = User.objects.bulk_create(
            User(username=f"hbench{i}", password="!") for i in range(args.players)
        )
        club = Club.objects.create(name="Bench club", slug="bench-club")
        Membership.objects.bulk_create(Membership(club=club, user=u) for u in users[:60])
        league = League.objects.create(club=club, name="Bench league")
        start = timezone.now() - timedelta(days=500)
        batch = 2_000
        for offset in range(0, args.games, batch):
            n = min(batch, args.games - offset)
            kinds = [rng.random() for _ in range(n)]
            games = PlayedGame.objects.bulk_create(
                PlayedGame(
                    club=club if k < 0.7 else None,
                    league=league if k < 0.3 else None,
                    source="pad" if k < 0.5 else "online",
                    status="confirmed",
                    played_at=start + timedelta(minutes=37 * (offset + i)),
                    rounds=rng.choice([1, 4, 4]),
                    options={"imperial_tasks": False, "ninja": rng.random() < 0.2},
                    rated=k < 0.8,
                    confirmed_at=start,
                )
                for i, k in enumerate(kinds)
            )
            seats = []
            for game, k in zip(games, kinds, strict=True):
                pool = users[:60] if k < 0.7 else users
                players = rng.sample(pool, rng.choice([2, 3, 3, 4]))
                totals = [rng.randrange(0, 300) for _ in players]
                for s, (user, total) in enumerate(zip(players, totals, strict=True)):
                    place = 1 + sum(1 for t in totals if t > total)
                    seats.append(
                        PlayedSeat(
                            game=game, seat=s, user=user, total=total, place=place, best_round=0
                        )
                    )
            PlayedSeat.objects.bulk_create(seats, batch_size=10_000)
        with connection.cursor() as cursor:
            cursor.execute("ANALYZE")
    print(f"{PlayedGame.objects.count()} games, {PlayedSeat.objects.count()} seats")

    member = User.objects.get(username="hbench1")
    client = Client()
    client.force_login(member)
    paths = [
        "/history/",
        "/history/?player=hbench2",
        "/history/?player=hbench2&opponent=hbench3&mode=standard",
        "/history/?club=bench-club&rated=yes&page=40",
        "/api/v1/games/",
        "/api/v1/games/?player=hbench2&where=online",
    ]
    for path in paths:
        assert client.get(path).status_code == 200, path
        times = []
        for _ in range(args.runs):
            started = time.perf_counter()
            client.get(path)
            times.append(1000 * (time.perf_counter() - started))
        times.sort()
        p95 = times[min(len(times) - 1, int(len(times) * 0.95))]
        print(f"{path}: median {statistics.median(times):.1f} ms, p95 {p95:.1f} ms")

    for size in (25, 100):
        views.PAGE_SIZE = size
        with CaptureQueriesContext(connection) as page_queries:
            client.get("/history/")
        with CaptureQueriesContext(connection) as api_queries:
            client.get(f"/api/v1/games/?page_size={size}")
        print(
            f"page size {size}: history page {len(page_queries)} queries, "
            f"API list {len(api_queries)} queries"
        )


if __name__ == "__main__":
    main()
