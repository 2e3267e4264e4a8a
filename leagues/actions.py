"""The one door for league writes: score pads, confirmation, projector links and guests.

Every function here validates and writes inside a transaction. Results themselves come in
through ``leagues.results``; the slow parts that follow them (a league's table, ratings)
run in background tasks after commit (``leagues.tallies``, ``leagues.rating_jobs``).
"""

from __future__ import annotations

import secrets
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

from django.db import transaction
from django.db.models import Min
from django.utils import timezone

from accounts.models import Club
from accounts.models import User as Member
from games import registry
from leagues import live, rating_jobs, tallies
from leagues.models import League, PlayedGame, PlayedSeat, RoundScore
from leagues.results import changed, finish, pad_sheet, seat_names


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
            result=rules.pad.keep([]) if rules.pad is not None else {},
        )
        PlayedSeat.objects.bulk_create(
            PlayedSeat(
                game=game, seat=i, user=p.user, guest_name="" if p.user else p.guest_name.strip()
            )
            for i, p in enumerate(players)
        )
    return game


def last_round(game: PlayedGame, entries: Sequence[dict]) -> int:
    """The last round of `game` that may be entered now, its pad's `entries` entered: the one
    after them, or on a confirmed game (an organiser's correction) the last of them; never
    one beyond a game of so many rounds."""
    last = len(entries) + (game.status != PlayedGame.CONFIRMED)
    # A game that goes on until someone wins (no round counts of its own) has no last round.
    return min(last, game.rounds) if registry.get(game.game).rounds else last


def enter_pad_entry(game: PlayedGame, round_no: int, entry: dict) -> None:
    """Save round `round_no` of a score pad (a new round after the last, or one entered before)
    once the game accepts it (ScorePad.sheet); raises RoundInvalid with the game's reasons.
    Round scores follow; on a confirmed game (an organiser's correction) so do the totals,
    places, table and ratings."""
    pad = registry.get(game.game).pad
    assert pad is not None, "a game with a score pad"
    with transaction.atomic():
        game = PlayedGame.objects.select_for_update().get(pk=game.pk)
        entries = game.pad_entries
        if not 1 <= round_no <= last_round(game, entries):
            raise ValueError("no such round")
        entries[round_no - 1 : round_no] = [entry]
        game.rounds = max(game.rounds, len(entries))
        try:
            sheet = pad.sheet(
                seat_names(game),
                entries,
                options=game.options,
                rounds=game.rounds,
                finished=game.status == PlayedGame.CONFIRMED,
                entered=round_no,
            )
        except registry.PadRefused as refused:
            raise RoundInvalid(refused.problems) from None
        game.result = {**game.result, **pad.keep(entries)}
        fields = ["result", "rounds"]
        if game.status == PlayedGame.CONFIRMED:
            game.corrected_at = timezone.now()
            fields.append("corrected_at")
        game.save(update_fields=fields)
        _save_round_scores(game, sheet)
        if game.status == PlayedGame.CONFIRMED:
            finish(game, None)
            changed(game, game.played_at, "result corrected")


def enter_round(
    game: PlayedGame, round_no: int, scores: Sequence[int], bonuses: Sequence[int] | None
) -> None:
    """`enter_pad_entry` of a round of the plain pad (ScorePadBase): each player's score and,
    if the pad keeps them apart, bonus."""
    kept = bonuses if bonuses and game.keeps_bonuses else [0] * len(scores)
    enter_pad_entry(game, round_no, {"scores": list(scores), "bonuses": list(kept)})


def _save_round_scores(game: PlayedGame, sheet: registry.PadSheet) -> None:
    seats = list(game.seats.order_by("seat"))
    bonuses = sheet.round_bonuses or [[0] * len(scores) for scores in sheet.round_scores]
    # Rows after the rounds read as entries (a round entered past a missing one, before the
    # pad took rounds in order) stay, so that entering the missing round loses none.
    rounds = len(sheet.round_scores[0]) if sheet.round_scores else 0
    RoundScore.objects.filter(seat__game=game, round_no__lte=rounds).delete()
    RoundScore.objects.bulk_create(
        RoundScore(seat=seat, round_no=r, score=total - bonus, bonus=bonus)
        for seat, totals, kept in zip(seats, sheet.round_scores, bonuses, strict=True)
        for r, (total, bonus) in enumerate(zip(totals, kept, strict=True), start=1)
    )


def submit_for_confirmation(game: PlayedGame) -> None:
    with transaction.atomic():
        game = PlayedGame.objects.select_for_update().get(pk=game.pk)
        if game.status != PlayedGame.DRAFT:
            raise NotAllowed("not a draft")
        try:
            pad_sheet(game, finished=True)
        except registry.PadRefused as refused:
            raise RoundInvalid(refused.problems) from None
        game.status = PlayedGame.AWAITING
        game.save(update_fields=["status"])
        finish(game, None)


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
        finish(game, None)
        if game.league is not None:
            users = [s.user_id for s in game.seats.all() if s.user_id]
            game.league.participants.add(*users)
        changed(game, game.played_at, "result confirmed")
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
                tallies.bump(league_id)
            for key, start in sorted(starts.items()):
                rating_jobs.queue(key, start, None, "guest linked")
    return count
