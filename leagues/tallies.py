"""Tallies: a league's table, rebuilt in the background whenever its results change.

The table is a snapshot (``League.table``) computed by the pure ``leagues.standings`` from
the confirmed games and written only while it is behind the league's results version, so
a tally run twice, or two running at once, write it once.
"""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.db import transaction
from django.db.models import F
from django.utils import timezone

from infra.background import enqueue
from leagues import live, standings
from leagues.models import League, PlayedGame, PlayedSeat, RoundScore

User = get_user_model()


def league_changed(league: League) -> None:
    """Settings or players of a league changed: its table is out of date."""
    bump(league.pk)


def bump(league_id: int) -> None:
    """The league's results changed: its table is rebuilt after commit."""
    League.objects.filter(pk=league_id).update(results_version=F("results_version") + 1)
    from leagues import tasks

    enqueue(tasks.tally_league, league_id)


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
