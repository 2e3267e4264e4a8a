"""Read API, ``/api/v1/``: plain JSON views over the same queries as the pages.

Session authentication: a signed-in member sees their clubs' data, anyone else the public
part. Lists are paginated (``page``, ``page_size`` up to 100) with ``next``/``previous`` links.
"""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.core.paginator import Paginator
from django.http import Http404, HttpRequest, JsonResponse
from django.shortcuts import get_object_or_404, render
from django.urls import reverse
from django.utils.translation import gettext as _

from accounts.models import Membership
from games.models import Table
from history import queries
from history.views import _finished_table
from leagues import tournaments as tournament_rules
from leagues.models import League, PlayedGame, PlayerRating, Tournament

User = get_user_model()
MAX_PAGE_SIZE = 100


def _paginate(request: HttpRequest, items, serialize) -> JsonResponse:
    try:
        size = max(1, min(int(request.GET.get("page_size", 50)), MAX_PAGE_SIZE))
    except ValueError:
        size = 50
    page = Paginator(items, size).get_page(request.GET.get("page"))

    def link(number: int) -> str:
        query = request.GET.copy()
        query["page"] = str(number)
        return request.build_absolute_uri(f"{request.path}?{query.urlencode()}")

    return JsonResponse(
        {
            "count": page.paginator.count,
            "page": page.number,
            "next": link(page.next_page_number()) if page.has_next() else None,
            "previous": link(page.previous_page_number()) if page.has_previous() else None,
            "results": [serialize(request, item) for item in page.object_list],
        }
    )


def _game_json(request: HttpRequest, game: PlayedGame) -> dict:
    table_id = queries.table_id_of(game)
    flags = (("imperial-tasks", game.imperial_tasks), ("ninja", game.ninja))
    variants = [name for name, on in flags if on]
    return {
        "id": game.pk,
        "url": request.build_absolute_uri(reverse("api_game", args=[game.pk])),
        "played_at": game.played_at.isoformat(),
        "source": game.source,
        "rated": game.rated,
        "rounds": game.rounds,
        "variants": variants,
        "club": game.club.slug if game.club else None,
        "league": {"id": game.league.pk, "name": game.league.name} if game.league else None,
        "table": table_id,
        "record": request.build_absolute_uri(reverse("api_game_record", args=[game.pk]))
        if table_id
        else None,
        "players": [
            {
                "seat": seat.seat,
                "name": seat.name,
                "username": seat.user.username if seat.user else None,
                "place": seat.place,
                "total": seat.total,
            }
            for seat in game.seats.all()
        ],
    }


def games(request: HttpRequest) -> JsonResponse:
    form = queries.HistoryFilter(request.GET, request.user)
    items = queries.with_rows(form.filter(queries.visible_games(request.user)))
    return _paginate(request, items, _game_json)


def game(request: HttpRequest, game_id: int) -> JsonResponse:
    item = get_object_or_404(queries.with_rows(queries.visible_games(request.user)), pk=game_id)
    return JsonResponse(_game_json(request, item))


def game_record(request: HttpRequest, game_id: int) -> JsonResponse:
    item = get_object_or_404(queries.visible_games(request.user), pk=game_id)
    table_id = queries.table_id_of(item)
    if table_id is None:
        raise Http404(_("Only online games have a record."))
    table: Table = _finished_table(request, table_id)
    return JsonResponse(table.record)


def league_table(request: HttpRequest, league_id: int) -> JsonResponse:
    league = get_object_or_404(League.objects.select_related("club"), pk=league_id)
    if not Membership.objects.filter(club=league.club, user_id=request.user.pk).exists():
        raise Http404(_("This club does not exist, or you are not a member of it."))
    return JsonResponse(
        {
            "id": league.pk,
            "name": league.name,
            "club": league.club.slug,
            "current": league.table_is_current,
            "updated": league.table_updated.isoformat() if league.table_updated else None,
            "table": league.table,
        }
    )


def tournament_standings(request: HttpRequest, tournament_id: int) -> JsonResponse:
    tournament = get_object_or_404(Tournament.objects.select_related("club"), pk=tournament_id)
    if not Membership.objects.filter(club=tournament.club, user_id=request.user.pk).exists():
        raise Http404(_("This club does not exist, or you are not a member of it."))
    rounds = tournament_rules.rounds_of(tournament)
    stages = list(tournament.stages.all())
    rows_by_stage = [(stage, tournament_rules.stage_standings(stage, rounds)) for stage in stages]
    ids = {row.player for _stage, rows in rows_by_stage for row in rows}
    usernames = dict(User.objects.filter(pk__in=ids).values_list("pk", "username"))
    return JsonResponse(
        {
            "id": tournament.pk,
            "name": tournament.name,
            "club": tournament.club.slug,
            "status": tournament.status,
            "stages": [
                {
                    "order": stage.order,
                    "kind": stage.kind,
                    "standings": [
                        {
                            "rank": row.rank,
                            "username": usernames.get(row.player),
                            "points": row.points,
                            "wins": row.wins,
                            "relative_score": row.relative_score,
                            "opponents_strength": row.opponents_strength,
                            "best_round": row.best_round,
                            "games": row.games,
                        }
                        for row in rows
                    ],
                }
                for stage, rows in rows_by_stage
            ],
        }
    )


def _rating_json(request: HttpRequest, rating: PlayerRating) -> dict:
    return {
        "username": rating.user.username,
        "name": str(rating.user),
        "rating": rating.display,
        "games": rating.games,
        "provisional": rating.provisional,
    }


def ratings(request: HttpRequest) -> JsonResponse:
    items = PlayerRating.objects.filter(games__gt=0).select_related("user")
    items = items.order_by("-display", "user_id")
    if request.GET.get("username"):
        items = items.filter(user__username__iexact=request.GET["username"])
    return _paginate(request, items, _rating_json)


FILTERS = [
    ("player", "string", "username of a player in the game"),
    ("opponent", "string", "username of another player in the game"),
    ("club", "string", "club slug (members only)"),
    ("league", "integer", "league id"),
    ("tournament", "integer", "tournament id"),
    ("date_from", "string", "first day, YYYY-MM-DD"),
    ("date_to", "string", "last day, YYYY-MM-DD"),
    ("players", "integer", "number of players, 2 to 4"),
    ("mode", "string", "standard, quick or imperial"),
    ("ninja", "string", "yes or no"),
    ("where", "string", "online or physical"),
    ("rated", "string", "yes or no"),
    ("result", "string", "won or lost, for the chosen player"),
]


def schema() -> dict:
    paging = [
        {"name": "page", "in": "query", "schema": {"type": "integer"}},
        {"name": "page_size", "in": "query", "schema": {"type": "integer", "maximum": 100}},
    ]
    filters = [
        {"name": n, "in": "query", "schema": {"type": t}, "description": d} for n, t, d in FILTERS
    ]

    def item(path_name: str) -> list:
        return [{"name": path_name, "in": "path", "required": True, "schema": {"type": "integer"}}]

    def ok(description: str) -> dict:
        return {
            "200": {"description": description, "content": {"application/json": {}}},
            "404": {"description": "missing, or not visible to you"},
        }

    return {
        "openapi": "3.0.3",
        "info": {
            "title": "Call to Glory clubs: read API",
            "version": "1",
            "description": "Session authentication; club data only for the club's members.",
        },
        "paths": {
            "/api/v1/games/": {
                "get": {
                    "summary": "Finished games, newest first",
                    "parameters": filters + paging,
                    "responses": ok("a page of games with next/previous links"),
                }
            },
            "/api/v1/games/{id}/": {
                "get": {"summary": "One game", "parameters": item("id"), "responses": ok("a game")}
            },
            "/api/v1/games/{id}/record/": {
                "get": {
                    "summary": "The ctg-record/1 record of a finished online game",
                    "parameters": item("id"),
                    "responses": ok("a record (RULES.md §10)"),
                }
            },
            "/api/v1/leagues/{id}/table/": {
                "get": {
                    "summary": "A league's table (members of its club)",
                    "parameters": item("id"),
                    "responses": ok("the table"),
                }
            },
            "/api/v1/tournaments/{id}/standings/": {
                "get": {
                    "summary": "A tournament's standings by stage (members of its club)",
                    "parameters": item("id"),
                    "responses": ok("the standings"),
                }
            },
            "/api/v1/ratings/": {
                "get": {
                    "summary": "Player ratings, best first",
                    "parameters": [
                        {"name": "username", "in": "query", "schema": {"type": "string"}},
                        *paging,
                    ],
                    "responses": ok("a page of ratings"),
                }
            },
        },
    }


def openapi(request: HttpRequest) -> JsonResponse:
    return JsonResponse(schema())


def docs(request: HttpRequest):
    return render(request, "history/api.html", {"schema": schema(), "filters": FILTERS})
