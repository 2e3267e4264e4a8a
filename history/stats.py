"""A player's statistics for the profile page, over the games the visitor may see."""

from __future__ import annotations

from collections import Counter, defaultdict

from django.db.models import Avg, Count, F, Max

from analysis.models import Analysis
from games import registry
from games.models import Table
from history import queries
from leagues.models import PlayedSeat, RoundScore

BAR_WIDTH = 240


def profile_stats_context(person, viewer) -> dict:
    """Context for templates/history/_profile_stats.html."""
    games = queries.visible_games(viewer).filter(seats__user=person)
    mine = list(
        PlayedSeat.objects.filter(user=person, game__in=games).values("game_id", "place", "total")
    )
    game_ids = [row["game_id"] for row in mine]
    sizes = Counter(
        PlayedSeat.objects.filter(game_id__in=game_ids).values_list("game_id", flat=True)
    )
    by_count: dict[int, list] = defaultdict(list)
    for row in mine:
        by_count[sizes[row["game_id"]]].append(row)
    per_count = [
        {
            "players": n,
            "games": len(rows),
            "wins": sum(1 for r in rows if r["place"] == 1),
            "average_score": round(sum(r["total"] for r in rows) / len(rows), 1),
            "average_place": round(sum(r["place"] or 0 for r in rows) / len(rows), 2),
        }
        for n, rows in sorted(by_count.items())
    ]
    best_round = RoundScore.objects.filter(seat__user=person, seat__game_id__in=game_ids).aggregate(
        best=Max(F("score") + F("bonus"))
    )["best"]
    places = Counter(row["place"] for row in mine if row["place"])
    return {
        "hs_person": person,
        "hs_games": len(mine),
        "hs_wins": places.get(1, 0),
        "hs_per_count": per_count,
        "hs_best_round": best_round,
        "hs_places": _bars([(str(p), places[p]) for p in sorted(places)]),
        "hs_tallies": _tallies(person, viewer),
        "hs_opponents": _head_to_head(person, game_ids),
        "hs_accuracy": _accuracy(person, viewer),
    }


def _accuracy(person, viewer) -> list[dict]:
    """Per game, the person's average accuracy over his analysed seats of the finished games
    the visitor may see."""
    tables = Table.objects.visible_to(viewer).filter(status=Table.FINISHED)
    rows = (
        Analysis.objects.of_user(person)
        .filter(status=Analysis.DONE, accuracy__isnull=False, table__in=tables)
        .values("table__game")
        .annotate(average=Avg("accuracy"), games=Count("id"))
    )
    found = {row["table__game"]: row for row in rows}
    return [
        {"game": game.name, "accuracy": round(found[key]["average"]), "games": found[key]["games"]}
        for key, game in registry.all_games().items()
        if key in found
    ]


def _tallies(person, viewer) -> list[dict]:
    """Each game's own chart (its Chart part) over the person's finished online games of it, the
    six most counted first."""
    charts = []
    for key, game in registry.all_games().items():
        chart = game.chart
        if chart is None:
            continue
        counts: Counter[str] = Counter()
        tables = (
            Table.objects.visible_to(viewer)
            .filter(status=Table.FINISHED, game=key, seats__user=person)
            .values_list("record", "seats__name")
        )
        for record, name in tables:
            counts.update(chart.count(record or {}, name))
        if counts:
            charts.append({"title": chart.title, **_bars(counts.most_common(6))})
    return charts


def _head_to_head(person, game_ids: list[int], limit: int = 5) -> list[dict]:
    """Members met most often: games together and how often the person finished ahead."""
    rows = PlayedSeat.objects.filter(game_id__in=game_ids).values_list(
        "game_id", "user_id", "user__username", "place"
    )
    by_game: dict[int, list[tuple]] = defaultdict(list)
    for row in rows:
        by_game[row[0]].append(row)
    met: dict[str, list[int]] = defaultdict(lambda: [0, 0, 0])
    for seats in by_game.values():
        own = next(s[3] for s in seats if s[1] == person.pk)
        for _game, user_id, username, place in seats:
            if user_id is None or user_id == person.pk:
                continue
            tally = met[username]
            tally[0] += 1
            if own is not None and place is not None:
                tally[1] += own < place
                tally[2] += own > place
    frequent = sorted(met.items(), key=lambda kv: (-kv[1][0], kv[0]))[:limit]
    return [
        {"username": name, "games": t[0], "ahead": t[1], "behind": t[2]} for name, t in frequent
    ]


def _bars(items: list[tuple[str, int]]) -> dict:
    """Horizontal bars scaled to the largest count, for an inline SVG."""
    top = max((n for _label, n in items), default=0)
    bars = [
        {"label": label, "count": n, "width": round(BAR_WIDTH * n / top) if top else 0, "y": i * 22}
        for i, (label, n) in enumerate(items)
    ]
    return {"bars": bars, "height": 22 * len(bars)}
