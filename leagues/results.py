"""Results in: a finished game recorded, its totals and places, and what follows a result.

A result that comes in or changes is announced (``signals.result_changed``), and its
league's table (``leagues.tallies``) and its game's ratings (``leagues.rating_jobs``) are
rebuilt by background tasks after commit.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import datetime
from typing import Any

from django.db import transaction
from django.utils import timezone

from accounts.models import Club
from accounts.models import User as Member
from games import registry
from leagues import rating_jobs, signals, tallies
from leagues.models import League, PlayedGame, PlayedSeat, RoundScore


def of_rounds(
    round_scores: Sequence[Sequence[int]],
    *,
    round_bonuses: Sequence[Sequence[int]] | None = None,
    placings: Sequence[int] | None = None,
) -> registry.Result:
    """A result known by its round scores (per seat, per round, bonus included) and perhaps
    its bonuses and places: a score pad's, or one typed in. Without places the game places
    it when it is recorded."""
    return registry.Result(
        placings=list(placings or []),
        scores=[sum(scores) for scores in round_scores],
        round_scores=[list(scores) for scores in round_scores],
        round_bonuses=[list(bonuses) for bonuses in round_bonuses or []],
    )


@transaction.atomic
def record_result(
    result: registry.Result,
    *,
    players: Sequence[Member | str],
    played_at: datetime | None = None,
    club: Club | None = None,
    league: League | None = None,
    options: Mapping[str, Any] | None = None,
    rated: bool = True,
    external_ref: str = "",
    source: str = PlayedGame.ONLINE,
    game: str = "",
    table=None,
) -> PlayedGame:
    """Store a finished game; the online table calls this when a game ends.

    - ``result``: the game's result, per seat in seat order (``of_rounds`` makes one from
      round scores alone): its round scores INCLUDING any bonus (``round_scores``), the part
      of them a score pad keeps apart (``round_bonuses``, Call to Glory's Imperial Tasks;
      none when empty), its final places (``placings``, sport style, 1, 1, 3; placed here by
      the game, Game.placings, when empty) and its own account of its rounds
      (``played_result``, kept as ``PlayedGame.result``).
    - ``players``: in seat order, each a User or a guest's name (str).
    - ``played_at``: when the game ended (default now). A game older than others already
      rated makes the ratings recompute from that point.
    - ``club`` / ``league``: where the result counts; both optional for online games.
    - ``options``: the game's options it was played with (a table's, say); the game keeps
      what a played game needs of them (Game.played_options).
    - ``external_ref``: a stable id such as ``"online:<game id>"``. Recording the same
      ref twice returns the first game unchanged, so callers may retry safely.
    - ``game``: the registered game's key (the site's first by default); ``table``: the
      online table that was played.

    Returns the confirmed PlayedGame. Standings and ratings update in the background after
    the transaction commits.
    """
    if external_ref:
        existing = PlayedGame.objects.filter(external_ref=external_ref).first()
        if existing is not None:
            return existing
    game = game or registry.first().key
    rules = registry.get(game)
    round_scores = result.round_scores
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
        result=result.played_result,
    )
    round_bonuses = result.round_bonuses or [[0] * rounds for _ in players]
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
    finish(played, result.placings or None)
    changed(played, played.played_at, "result recorded")
    return played


def seat_names(game: PlayedGame) -> list[str]:
    return [seat.name for seat in game.seats.order_by("seat").select_related("user")]


def pad_sheet(game: PlayedGame, *, finished: bool = False) -> registry.PadSheet:
    """The game's reading of its score pad's entries (raises registry.PadRefused)."""
    pad = registry.get(game.game).pad
    assert pad is not None, "a game with a score pad"
    return pad.sheet(
        seat_names(game),
        game.pad_entries,
        options=game.options,
        rounds=game.rounds,
        finished=finished,
    )


def finish(game: PlayedGame, placings: Sequence[int] | None) -> None:
    """Totals, best rounds and final places from the round scores."""
    seats = list(game.seats.order_by("seat").prefetch_related("round_scores"))
    rounds = [[rs.total for rs in seat.round_scores.all()] for seat in seats]
    if placings is None and registry.get(game.game).pad is not None:
        # The game places what its score pad reads (De l'Orc breaks ties by battles won).
        try:
            placings = pad_sheet(game).placings
        except registry.PadRefused:
            placings = None
    places = list(placings) if placings else registry.most_points_first(rounds)
    for seat, rs, place in zip(seats, rounds, places, strict=True):
        seat.total = sum(rs)
        seat.best_round = max(rs, default=0)
        seat.place = place
    PlayedSeat.objects.bulk_update(seats, ["total", "best_round", "place"])


def changed(game: PlayedGame, since: datetime, reason: str) -> None:
    """A confirmed result came in or changed: higher layers hear of it, and the league's
    table and the game's ratings follow from ``since`` in the background."""
    if game.status != PlayedGame.CONFIRMED:
        return
    signals.result_changed.send(sender=PlayedGame, game=game)
    if game.league_id:
        tallies.bump(game.league_id)
    if game.rated:
        rating_jobs.queue(game.game, since, game.league_id, reason)
