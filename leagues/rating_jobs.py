"""Ratings: jobs that replay a game's rated games in order, in the background.

A result that comes in or changes queues a job from its date on (``queue``); a worker
claims it, replays every later rated game of that game under its ledger's lock
(``leagues.ratings`` does the arithmetic) and rewrites the history and current ratings.
A job lost with its worker is found by the sweeps (``requeue_stuck_jobs``).
"""

from __future__ import annotations

from datetime import datetime, timedelta
from functools import partial
from typing import cast

from django.db import DatabaseError, connection, connections, transaction
from django.db.models import OuterRef, Subquery
from django.utils import timezone

from games import registry
from infra.background import after_commit, enqueue, once_in
from leagues import live, ratings
from leagues.models import (
    League,
    PlayedGame,
    PlayedSeat,
    PlayerRating,
    RatingHistory,
    RatingLedger,
    RecomputeJob,
)

# Smaller recomputes finish before anyone could watch a progress bar.
PROGRESS_FROM = 1000
# A job claimed this long ago without the ledger's lock, or queued this long ago and not
# claimed, has lost its worker or its task. The sweeps run every few seconds.
STUCK_AFTER = timedelta(seconds=10)


def queue(game: str, since: datetime | None, league_id: int | None, reason: str) -> RecomputeJob:
    """A recompute of ``game``'s ratings from ``since`` (all when None), run after commit."""
    from leagues import tasks

    job = RecomputeJob.objects.create(
        game=game, from_played_at=since, league_id=league_id, reason=reason
    )
    enqueue(tasks.recompute_ratings, job.pk)
    return job


def request_full_recompute(league: League | None = None, game: str = "") -> RecomputeJob:
    """An organiser's (or an administrator's) full rebuild of every rating in one game: the
    league's game, or ``game`` without a league (the site's first by default)."""
    with transaction.atomic():
        if league is not None:
            return queue(league.game, None, league.pk, "full recompute")
        return queue(game or registry.first().key, None, None, "full recompute")


def claim_job(job_id: int) -> bool:
    """Mark a queued job running; False when another run already took it."""
    return bool(
        RecomputeJob.objects.filter(pk=job_id, status=RecomputeJob.QUEUED).update(
            status=RecomputeJob.RUNNING, started=timezone.now()
        )
    )


def requeue_stuck_jobs() -> int:
    """Queue again the jobs left "running" by a worker that died, and send again the queued
    jobs whose task was lost (never sent, or held by a worker that died); returns how many.

    A recompute holds its game's rating ledger row lock until it commits: when the lock is
    free, a job of that game marked running for a while has nobody working on it (its writes
    were rolled back). A queued job sent twice runs once (`claim_job`).
    """
    from leagues import tasks

    before = timezone.now() - STUCK_AFTER
    waiting = list(
        RecomputeJob.objects.filter(status=RecomputeJob.QUEUED, created__lt=before).values_list(
            "pk", flat=True
        )
    )
    waiting = [job_id for job_id in waiting if once_in(f"recompute:{job_id}", 30)]
    for job_id in waiting:
        enqueue(tasks.recompute_ratings, job_id)
    stuck = RecomputeJob.objects.filter(status=RecomputeJob.RUNNING, started__lt=before)
    revived = 0
    for game in sorted(set(stuck.values_list("game", flat=True))):
        RatingLedger.objects.get_or_create(game=game)
        with transaction.atomic():
            try:
                RatingLedger.objects.select_for_update(nowait=True).get(game=game)
            except DatabaseError:
                continue  # a recompute of this game is under way
            of_game = stuck.filter(game=game)
            jobs = list(of_game.values_list("pk", flat=True))
            of_game.update(status=RecomputeJob.QUEUED, started=None, done=0)
            for job_id in jobs:
                enqueue(tasks.recompute_ratings, job_id)
            revived += len(jobs)
    return len(waiting) + revived


def recompute_ratings(job_id: int) -> bool:
    """Run a recompute job once: False when it was already taken (safe to run twice)."""
    if not claim_job(job_id):
        return False
    job = RecomputeJob.objects.get(pk=job_id)
    try:
        recompute_from(job.from_played_at, job, game=job.game)
    except Exception as exc:
        RecomputeJob.objects.filter(pk=job_id).update(
            status=RecomputeJob.FAILED, error=repr(exc)[:1000], finished=timezone.now()
        )
        raise
    _push_ratings(job)
    return True


def _push_ratings(job: RecomputeJob) -> None:
    """Open league pages show ratings: those of the recomputed games' leagues redraw."""
    games = PlayedGame.objects.rated_in_order().filter(game=job.game).exclude(league=None)
    if job.from_played_at is not None:
        games = games.filter(played_at__gte=job.from_played_at)
    leagues: set[int] = set(games.order_by().values_list("league_id", flat=True).distinct())
    if job.league_id is not None:
        leagues.add(job.league_id)
    for league_id in leagues:
        after_commit("league ratings push", partial(live.broadcast_table, league_id))


def recompute_from(
    since: datetime | None, job: RecomputeJob | None = None, *, game: str = ""
) -> int:
    """Replay every rated game of one kind (``game``, a registered game's key, the site's first
    by default) played at or after ``since`` (all when None); returns games. Other games'
    ratings are not touched.

    Players start from their last rating in that game before ``since``. Runs in one
    transaction under the game's ledger lock, so readers see either the old ratings or the
    new, never a mix, and two recomputes of a game never interleave.
    """
    game = game or registry.first().key
    RatingLedger.objects.get_or_create(game=game)
    with transaction.atomic():
        RatingLedger.objects.select_for_update().get(game=game)
        if job is not None:
            # Queued jobs of this game starting at or after ours are covered by this run.
            covered = RecomputeJob.objects.filter(status=RecomputeJob.QUEUED, game=game).exclude(
                pk=job.pk
            )
            if since is not None:
                covered = covered.filter(from_played_at__gte=since)
            covered.update(status=RecomputeJob.DONE, covered_by=job, finished=timezone.now())
        games = PlayedGame.objects.rated_in_order().filter(game=game)
        history = RatingHistory.objects.filter(game_key=game)
        if since is not None:
            games = games.filter(played_at__gte=since)
            history = history.filter(played_at__gte=since)
        rows = list(
            PlayedSeat.objects.filter(game__in=games)
            .order_by("game__played_at", "game_id", "seat")
            .values_list("game_id", "game__played_at", "user_id", "place")
        )
        rated_games = _group(rows)
        affected = {u for _g, _t, u, _p in rows if u is not None}
        affected |= set(history.order_by().values_list("user_id", flat=True).distinct())
        start = _skills_before(game, since, affected)
        _progress(job, 0, len(rated_games))

        new_history: list[tuple] = []
        step = max(1, len(rated_games) // 20)
        for index, (rated, after) in enumerate(ratings.replay(rated_games, start), start=1):
            game_id, played_at = cast(tuple[int, datetime], rated.key)
            for (user_id, _place), skill in zip(rated.seats, after, strict=True):
                if user_id is not None:
                    new_history.append(
                        (
                            user_id,
                            game_id,
                            game,
                            played_at,
                            skill.mu,
                            skill.sigma,
                            skill.display,
                            skill.games,
                        )
                    )
            if index % step == 0:
                _progress(job, index, len(rated_games))

        history.delete()
        _insert_history(new_history)
        _save_current(game, affected, start)
        RatingLedger.objects.filter(game=game).update(last_run=timezone.now())
        if job is not None:
            RecomputeJob.objects.filter(pk=job.pk).update(
                status=RecomputeJob.DONE,
                done=len(rated_games),
                total=len(rated_games),
                finished=timezone.now(),
            )
    return len(rated_games)


def _group(rows: list[tuple]) -> list[ratings.RatedGame]:
    out: list[ratings.RatedGame] = []
    seats: list[tuple] = []
    last = None
    for game_id, played_at, user_id, place in rows:
        if last is not None and game_id != last[0]:
            out.append(ratings.RatedGame(last, tuple(seats)))
            seats = []
        last = (game_id, played_at)
        seats.append((user_id, place))
    if last is not None:
        out.append(ratings.RatedGame(last, tuple(seats)))
    return [g for g in out if len(g.seats) >= 2]


def _skills_before(game: str, since: datetime | None, users: set[int]) -> dict:
    if since is None or not users:
        return {}
    history = RatingHistory.objects.filter(game_key=game, played_at__lt=since)
    latest = history.filter(user=OuterRef("user")).order_by("-played_at", "-game_id")
    rows = (
        history.filter(user__in=users)
        .filter(pk=Subquery(latest.values("pk")[:1]))
        .values_list("user_id", "mu", "sigma", "games")
    )
    return {u: ratings.Skill(mu, sigma, games) for u, mu, sigma, games in rows}


def _insert_history(rows: list[tuple]) -> None:
    if not rows:
        return
    columns = ["user_id", "game_id", "game_key", "played_at", "mu", "sigma", "display", "games"]
    if connection.vendor == "postgresql":
        # COPY is several times faster than INSERT for a full rebuild's many rows.
        text = "".join(
            f"{u}\t{g}\t{k}\t{t.isoformat()}\t{mu!r}\t{sigma!r}\t{d}\t{n}\n"
            for u, g, k, t, mu, sigma, d, n in rows
        )
        table = RatingHistory._meta.db_table
        with connection.cursor() as cursor:
            raw = cursor.cursor
            with raw.copy(f"COPY {table} ({', '.join(columns)}) FROM STDIN") as copy:
                copy.write(text)
        return
    RatingHistory.objects.bulk_create(
        (RatingHistory(**dict(zip(columns, row, strict=True))) for row in rows), batch_size=2000
    )


def _save_current(game: str, users: set[int], skills: dict) -> None:
    """Replace the affected players' current ratings in one game (delete and insert: far
    cheaper than a bulk UPDATE of thousands of rows, and we hold the lock)."""
    if not users:
        return
    fresh = ratings.Skill()
    now = timezone.now()
    PlayerRating.objects.filter(game=game, user__in=users).delete()
    PlayerRating.objects.bulk_create(
        (
            PlayerRating(
                user_id=user_id,
                game=game,
                mu=skill.mu,
                sigma=skill.sigma,
                games=skill.games,
                display=skill.display,
                updated=now,
            )
            for user_id in users
            for skill in [skills.get(user_id, fresh)]
        ),
        batch_size=2000,
    )


def _progress(job: RecomputeJob | None, done: int, total: int) -> None:
    """Progress is written on a separate connection, so the organiser sees it while the
    recompute's own transaction is still open. SQLite allows one writer: skipped there."""
    if job is None or total < PROGRESS_FROM or connection.vendor != "postgresql":
        return
    side = connections.create_connection("default")
    try:
        with side.cursor() as cursor:
            cursor.execute(
                f"UPDATE {RecomputeJob._meta.db_table} SET done = %s, total = %s WHERE id = %s",
                [done, total, job.pk],
            )
    finally:
        side.close()


def expected_places(game: PlayedGame) -> list[int]:
    """Each seat's expected place from current ratings in the game's kind (guests count as
    new players)."""
    seats = list(game.seats.all())
    known = {
        r.user_id: r.skill
        for r in PlayerRating.objects.filter(
            game=game.game, user__in=[s.user_id for s in seats if s.user_id]
        )
    }
    return ratings.expected_places(
        [known.get(s.user_id, ratings.Skill()) if s.user_id else ratings.Skill() for s in seats]
    )
