"""The one door for league writes: results in, tallies and ratings out.

Every function here validates, writes inside a transaction, and leaves the slow parts
(standings, ratings) to background tasks that run after commit (ctg_site.background).
"""

from __future__ import annotations

import secrets
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from functools import partial
from typing import Any, cast

from django.contrib.auth import get_user_model
from django.db import DatabaseError, connection, connections, transaction
from django.db.models import Count, F, Min, OuterRef, Subquery
from django.utils import timezone

from accounts.models import Club
from accounts.models import User as Member
from ctg_site.background import after_commit, enqueue, once_in
from games import registry
from leagues import live, ratings, signals, standings
from leagues.models import (
    League,
    PlayedGame,
    PlayedSeat,
    PlayerRating,
    RatingHistory,
    RatingLedger,
    RecomputeJob,
    RoundScore,
)

User = get_user_model()
# Smaller recomputes finish before anyone could watch a progress bar.
PROGRESS_FROM = 1000
# A job claimed this long ago without the ledger's lock, or queued this long ago and not
# claimed, has lost its worker or its task. The sweeps run every few seconds.
STUCK_AFTER = timedelta(seconds=10)


class RoundInvalid(Exception):
    """The entered round cannot be right; ``problems`` say which scores and why, in the
    reader's language."""

    def __init__(self, problems: list[str]):
        super().__init__(problems)
        self.problems = problems


class NotAllowed(Exception):
    pass


@dataclass(frozen=True)
class Player:
    """A seat to create: a member, or a guest by name."""

    user: Member | None = None
    guest_name: str = ""


# --- results in -----------------------------------------------------------------------------


@transaction.atomic
def record_result(
    *,
    players: Sequence[Member | str],
    round_scores: Sequence[Sequence[int]],
    round_bonuses: Sequence[Sequence[int]] | None = None,
    placings: Sequence[int] | None = None,
    played_at: datetime | None = None,
    club: Club | None = None,
    league: League | None = None,
    options: Mapping[str, Any] | None = None,
    rated: bool = True,
    external_ref: str = "",
    source: str = PlayedGame.ONLINE,
    game: str = "",
    table=None,
    result: dict | None = None,
) -> PlayedGame:
    """Store a finished game; the online table calls this when a game ends.

    - ``players``: in seat order, each a User or a guest's name (str).
    - ``round_scores``: per player, per round, the round score INCLUDING any bonus, as in
      the game's result (Result.round_scores).
    - ``round_bonuses``: per player, per round, the part of those scores a score pad keeps
      apart (Call to Glory's Imperial Tasks); none when None.
    - ``placings``: the game's final places per player (sport style, 1, 1, 3); computed
      here by the game (Game.placings) when None.
    - ``played_at``: when the game ended (default now). A game older than others already
      rated makes the ratings recompute from that point.
    - ``club`` / ``league``: where the result counts; both optional for online games.
    - ``options``: the game's options it was played with (a table's, say); the game keeps
      what a played game needs of them (Game.played_options).
    - ``external_ref``: a stable id such as ``"online:<game id>"``. Recording the same
      ref twice returns the first game unchanged, so callers may retry safely.
    - ``game``: the registered game's key (the site's first by default); ``table``: the
      online table that was played.
    - ``result``: the game's own account of its rounds (``PlayedGame.result``).

    Returns the confirmed PlayedGame. Standings and ratings update in the background after
    the transaction commits.
    """
    if external_ref:
        existing = PlayedGame.objects.filter(external_ref=external_ref).first()
        if existing is not None:
            return existing
    game = game or registry.first().key
    rules = registry.get(game)
    if len(players) not in rules.seats or len(round_scores) != len(players):
        raise ValueError(
            f"a game has {rules.seats.start} to {rules.seats.stop - 1} players, "
            "each with round scores"
        )
    rounds = len(round_scores[0])
    # A game without fixed round counts (De l'Orc) has as many as it took.
    fixed = rules.rounds or (rounds,)
    if rounds not in fixed or any(len(scores) != rounds for scores in round_scores):
        raise ValueError(
            f"a game has {', '.join(map(str, fixed[:-1]))} or {fixed[-1]} rounds, "
            "the same for every player"
        )
    if league is not None:
        if league.game != game:
            raise ValueError(f"the league is for {league.game}, not {game}")
        club = league.club
    now = timezone.now()
    played = PlayedGame.objects.create(
        game=game,
        table=table,
        club=club,
        league=league,
        source=source,
        status=PlayedGame.CONFIRMED,
        played_at=played_at or now,
        rounds=rounds,
        options=rules.played_options(options or {}),
        rated=rated,
        external_ref=external_ref,
        confirmed_at=now,
        result=result or {},
    )
    if round_bonuses is None:
        round_bonuses = [[0] * rounds for _ in players]
    for index, (player, scores, bonuses) in enumerate(
        zip(players, round_scores, round_bonuses, strict=True)
    ):
        seat = PlayedSeat.objects.create(
            game=played,
            seat=index,
            user=None if isinstance(player, str) else player,
            guest_name=player if isinstance(player, str) else "",
        )
        RoundScore.objects.bulk_create(
            RoundScore(seat=seat, round_no=r, score=s - b, bonus=b)
            for r, (s, b) in enumerate(zip(scores, bonuses, strict=True), start=1)
        )
    _finish(played, placings)
    _after_result_change(played, played.played_at, "result recorded")
    return played


def start_pad_game(
    league: League, by, players: Sequence[Player], played_at: datetime | None = None
) -> PlayedGame:
    """A new score pad in a league, in seat order; guests are named, members are Users."""
    if not league.is_open:
        raise NotAllowed("the league is closed")
    rules = registry.get(league.game)
    if len(players) not in rules.seats:
        raise ValueError(f"a game has {rules.seats.start} to {rules.seats.stop - 1} players")
    with transaction.atomic():
        game = PlayedGame.objects.create(
            game=league.game,
            club=league.club,
            league=league,
            source=PlayedGame.PAD,
            played_at=played_at or timezone.now(),
            rounds=league.rounds_per_game,
            options=rules.played_options(league.table_options),
            created_by=by,
            result={"pad": []} if rules.pad is not None and rules.pad.entries else {},
        )
        PlayedSeat.objects.bulk_create(
            PlayedSeat(
                game=game, seat=i, user=p.user, guest_name="" if p.user else p.guest_name.strip()
            )
            for i, p in enumerate(players)
        )
    return game


def enter_round(
    game: PlayedGame, round_no: int, scores: Sequence[int], bonuses: Sequence[int] | None
) -> None:
    """Save one round after the rule-aware checks; raises RoundInvalid naming the problem.

    Re-entering a round replaces it. On a confirmed game (an organiser's correction) the
    totals, places, table and ratings follow.
    """
    if not 1 <= round_no <= game.rounds:
        raise ValueError("no such round")
    if not game.keeps_bonuses:
        bonuses = None
    pad = registry.get(game.game).pad
    problems = pad.problems(round_no, scores, bonuses, seat_names(game)) if pad else []
    if problems:
        raise RoundInvalid(problems)
    with transaction.atomic():
        game = PlayedGame.objects.select_for_update().get(pk=game.pk)
        seats = list(game.seats.order_by("seat"))
        if len(seats) != len(scores):
            raise ValueError("one score per player")
        for i, seat in enumerate(seats):
            RoundScore.objects.update_or_create(
                seat=seat,
                round_no=round_no,
                defaults={"score": scores[i], "bonus": bonuses[i] if bonuses else 0},
            )
        if game.status == PlayedGame.CONFIRMED:
            game.corrected_at = timezone.now()
            game.save(update_fields=["corrected_at"])
            _finish(game, None)
            _after_result_change(game, game.played_at, "result corrected")


def seat_names(game: PlayedGame) -> list[str]:
    return [seat.name for seat in game.seats.order_by("seat").select_related("user")]


def pad_sheet(game: PlayedGame, *, finished: bool = False) -> registry.PadSheet:
    """The game's reading of a pad of round entries (raises registry.PadRefused)."""
    pad = registry.get(game.game).pad
    assert pad is not None and pad.entries, "a pad of round entries"
    return pad.sheet(seat_names(game), game.pad_entries, finished=finished)


def enter_pad_entry(game: PlayedGame, round_no: int, entry: dict) -> None:
    """Save round `round_no` of a pad of round entries (a new round after the last, or one
    entered before) once the game accepts every round with it; raises RoundInvalid with the
    game's message. Round scores follow; on a confirmed game (a correction) so do the totals,
    places, table and ratings."""
    pad = registry.get(game.game).pad
    assert pad is not None and pad.entries, "a pad of round entries"
    with transaction.atomic():
        game = PlayedGame.objects.select_for_update().get(pk=game.pk)
        entries = game.pad_entries
        if not 1 <= round_no <= len(entries) + 1:
            raise ValueError("no such round")
        entries[round_no - 1 : round_no] = [entry]
        try:
            sheet = pad.sheet(
                seat_names(game), entries, finished=game.status == PlayedGame.CONFIRMED
            )
        except registry.PadRefused as refused:
            raise RoundInvalid([refused.message]) from None
        game.result = {**game.result, "pad": entries}
        game.rounds = len(entries)
        fields = ["result", "rounds"]
        if game.status == PlayedGame.CONFIRMED:
            game.corrected_at = timezone.now()
            fields.append("corrected_at")
        game.save(update_fields=fields)
        _save_round_scores(game, sheet.round_scores)
        if game.status == PlayedGame.CONFIRMED:
            _finish(game, None)
            _after_result_change(game, game.played_at, "result corrected")


def _save_round_scores(game: PlayedGame, round_scores: Sequence[Sequence[int]]) -> None:
    seats = list(game.seats.order_by("seat"))
    RoundScore.objects.filter(seat__game=game).delete()
    RoundScore.objects.bulk_create(
        RoundScore(seat=seat, round_no=r, score=score)
        for seat, scores in zip(seats, round_scores, strict=True)
        for r, score in enumerate(scores, start=1)
    )


def entered_rounds(game: PlayedGame) -> int:
    """How many rounds have scores for every player."""
    counts = (
        RoundScore.objects.filter(seat__game=game)
        .values("round_no")
        .annotate(n=Count("id"))
        .filter(n=game.seats.count())
    )
    return len(counts)


def submit_for_confirmation(game: PlayedGame) -> None:
    with transaction.atomic():
        game = PlayedGame.objects.select_for_update().get(pk=game.pk)
        if game.status != PlayedGame.DRAFT:
            raise NotAllowed("not a draft")
        if game.keeps_entries:
            try:
                pad_sheet(game, finished=True)
            except registry.PadRefused as refused:
                raise RoundInvalid([refused.message]) from None
        elif entered_rounds(game) < game.rounds:
            raise NotAllowed("rounds missing")
        game.status = PlayedGame.AWAITING
        game.save(update_fields=["status"])
        _finish(game, None)


def reopen(game: PlayedGame) -> None:
    """Back to entering, from awaiting confirmation (someone spotted a mistake)."""
    PlayedGame.objects.filter(pk=game.pk, status=PlayedGame.AWAITING).update(
        status=PlayedGame.DRAFT
    )


def confirm(game: PlayedGame, by, is_organiser: bool) -> bool:
    """Confirm a pad result; True when this call confirmed it (a second click is a no-op)."""
    with transaction.atomic():
        game = PlayedGame.objects.select_for_update().get(pk=game.pk)
        if not game.can_be_confirmed_by(by, is_organiser):
            return False
        game.status = PlayedGame.CONFIRMED
        game.confirmed_by = by
        game.confirmed_at = timezone.now()
        game.save(update_fields=["status", "confirmed_by", "confirmed_at"])
        _finish(game, None)
        if game.league is not None:
            users = [s.user_id for s in game.seats.all() if s.user_id]
            game.league.participants.add(*users)
        _after_result_change(game, game.played_at, "result confirmed")
    return True


def reset_projector_link(league: League) -> str:
    """A new projector link for the league; screens still showing the old one go blank."""
    token = secrets.token_urlsafe(24)
    with transaction.atomic():
        League.objects.filter(pk=league.pk).update(projector_token=token)
        transaction.on_commit(lambda: live.broadcast_table(league.pk))
    league.projector_token = token
    return token


def by_projector_token(token: str) -> League | None:
    """The league whose projector link this is; None for an old (reset) or unknown link."""
    if not token:
        return None
    return League.objects.select_related("club").filter(projector_token=token).first()


def link_guest(club: Club, guest_name: str, user) -> int:
    """Give a guest's past games in this club to a member; ratings recompute from the first."""
    with transaction.atomic():
        seats = PlayedSeat.objects.filter(game__club=club, user__isnull=True, guest_name=guest_name)
        # A member already seated in the same game cannot also have been the guest.
        seats = seats.exclude(game__seats__user=user)
        # Each game's ratings recompute from the first of the guest's games in it.
        starts = dict(
            seats.order_by()
            .values("game__game")
            .annotate(first=Min("game__played_at"))
            .values_list("game__game", "first")
        )
        leagues = set(seats.values_list("game__league", flat=True))
        count = seats.update(user=user)
        if count:
            for league_id in leagues - {None}:
                _bump_league(league_id)
            for key, start in sorted(starts.items()):
                _queue_recompute(key, start, None, "guest linked")
    return count


def _finish(game: PlayedGame, placings: Sequence[int] | None) -> None:
    """Totals, best rounds and final places from the round scores."""
    seats = list(game.seats.order_by("seat").prefetch_related("round_scores"))
    rounds = [[rs.total for rs in seat.round_scores.all()] for seat in seats]
    pad = registry.get(game.game).pad
    if placings is None and pad is not None and pad.entries:
        # Ties are broken by the battles won (De l'Orc §5): the game reads its entries.
        try:
            placings = pad_sheet(game).placings
        except registry.PadRefused:
            placings = None
    if placings:
        places = list(placings)
    else:
        places = pad.placings(rounds) if pad else registry.most_points_first(rounds)
    for seat, rs, place in zip(seats, rounds, places, strict=True):
        seat.total = sum(rs)
        seat.best_round = max(rs, default=0)
        seat.place = place
    PlayedSeat.objects.bulk_update(seats, ["total", "best_round", "place"])


def league_changed(league: League) -> None:
    """Settings or players of a league changed: its table is out of date."""
    _bump_league(league.pk)


def _bump_league(league_id: int) -> None:
    League.objects.filter(pk=league_id).update(results_version=F("results_version") + 1)
    from leagues import tasks

    enqueue(tasks.tally_league, league_id)


def _after_result_change(game: PlayedGame, since: datetime, reason: str) -> None:
    if game.status != PlayedGame.CONFIRMED:
        return
    signals.result_changed.send(sender=PlayedGame, game=game)
    if game.league_id:
        _bump_league(game.league_id)
    if game.rated:
        _queue_recompute(game.game, since, game.league_id, reason)


def _queue_recompute(
    game: str, since: datetime | None, league_id: int | None, reason: str
) -> RecomputeJob:
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
            return _queue_recompute(league.game, None, league.pk, "full recompute")
        return _queue_recompute(game or registry.first().key, None, None, "full recompute")


# --- tallies (run by leagues.tasks) -------------------------------------------------------


def tally_league(league_id: int) -> bool:
    """Rebuild a league's table snapshot; True when it changed (then it is broadcast).

    Safe to run twice: the write happens only while the stored table is behind the
    results version read before computing.
    """
    league = League.objects.filter(pk=league_id).first()
    if league is None or league.table_version >= league.results_version:
        return False
    version = league.results_version
    rows = _compute_table(league)
    with transaction.atomic():
        changed = League.objects.filter(pk=league_id, table_version__lt=version).update(
            table=rows, table_version=version, table_updated=timezone.now()
        )
        if changed:
            transaction.on_commit(lambda: live.broadcast_table(league_id))
    return bool(changed)


def _compute_table(league: League) -> list[dict]:
    counted = PlayedSeat.objects.filter(game__league=league, game__status=PlayedGame.CONFIRMED)
    seats = counted.order_by("game__played_at", "game_id", "seat").values_list(
        "pk", "game_id", "user_id", "guest_name", "place"
    )
    rounds: dict[int, list[int]] = {}
    for seat_id, score, bonus in RoundScore.objects.filter(seat__in=counted).values_list(
        "seat_id", "score", "bonus"
    ):
        rounds.setdefault(seat_id, []).append(score + bonus)
    games: list[standings.Game] = []
    current: list[standings.Seat] = []
    last = None
    for seat_id, game_id, user_id, guest, place in seats:
        if game_id != last and current:
            games.append(standings.Game(tuple(current)))
            current = []
        last = game_id
        key = f"u{user_id}" if user_id else f"g{guest}"
        current.append(standings.Seat(key, place or 0, tuple(rounds.get(seat_id, ()))))
    if current:
        games.append(standings.Game(tuple(current)))
    participants = [f"u{pk}" for pk in league.participants.values_list("pk", flat=True)]
    rows = standings.table(games, participants, league.points_scheme, league.tie_break_list)
    keys = [str(r.player) for r in rows]  # "u<user id>" or "g<guest name>"
    user_ids = [int(key[1:]) for key in keys if key.startswith("u")]
    names = {u.pk: str(u) for u in User.objects.filter(pk__in=user_ids)}
    out = []
    for key, r in zip(keys, rows, strict=True):
        is_user = key.startswith("u")
        out.append(
            {
                "key": key,
                "user_id": int(key[1:]) if is_user else None,
                "name": names.get(int(key[1:]), "?") if is_user else key[1:],
                "guest": not is_user,
                "position": r.position,
                "points": _num(r.points),
                "games": r.games,
                "wins": r.wins,
                "average": _num(r.average, 1),
                "ratio": _num(r.ratio, 2),
                "best_round": r.best_round,
                "form": [list(f) for f in r.form],
            }
        )
    return out


def _num(value, places: int = 2) -> str:
    text = f"{float(value):.{places}f}"
    return text.rstrip("0").rstrip(".") if "." in text else text


# --- ratings ---------------------------------------------------------------------------


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
