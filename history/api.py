"""Read API, ``/api/v1/``: plain JSON views over the same queries as the pages.

Session authentication: a signed-in member sees their clubs' data, anyone else the public
part. Lists are paginated (``page``, ``page_size`` up to 100) with ``next``/``previous`` links.

The query parameters are declared once, in ``Param`` tables: the views validate against them
and the OpenAPI schema is built from them, so the two cannot disagree. Every answer is JSON,
errors included (``{"detail": ...}``); methods other than GET and HEAD answer 405.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date
from functools import wraps

from django import forms
from django.contrib.auth import get_user_model
from django.core import validators
from django.core.exceptions import ValidationError
from django.core.paginator import Paginator
from django.http import Http404, HttpRequest, JsonResponse
from django.shortcuts import render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop
from django.views.decorators.csrf import csrf_exempt

from accounts.access import is_member
from accounts.models import Club
from analysis import shown as analysis_shown
from analysis.models import Analysis
from games import registry
from games.models import Seat as TableSeat
from games.models import Table
from history import queries, records
from history.views import _finished_table
from leagues.models import League, PlayedGame, PlayerRating
from tournaments import actions as tournament_rules
from tournaments.models import Stage, Tournament

User = get_user_model()
MAX_PAGE_SIZE = 100
DEFAULT_PAGE_SIZE = 50
# Ids are BigAutoField keys; a larger number can name nothing, and PostgreSQL refuses it.
MAX_ID = 2**63 - 1
READ_METHODS = ("GET", "HEAD")
# PostgreSQL refuses NUL in text, so no string parameter may hold one.
NO_NUL = "^[^\\x00]*$"


class InvalidQuery(Exception):
    def __init__(self, errors: dict[str, list[str]]):
        super().__init__(errors)
        self.errors = errors


def _error(status: int, detail: str, **extra) -> JsonResponse:
    return JsonResponse({"detail": detail, **extra}, status=status)


def api_view(view):
    """JSON for every outcome, and 405 for any method but GET and HEAD.

    CSRF is exempt because no view here changes anything; without the exemption an
    unsafe method would meet the CSRF check's 403 before the 405 it deserves.
    """

    @wraps(view)
    def wrapper(request: HttpRequest, *args, **kwargs):
        if request.method not in READ_METHODS:
            response = _error(
                405,
                _("The method %(method)s is not allowed: this API only reads.")
                % {"method": request.method},
            )
            response["Allow"] = ", ".join(READ_METHODS)
            return response
        try:
            return view(request, *args, **kwargs)
        except Http404 as missing:
            return _error(404, str(missing))
        except InvalidQuery as invalid:
            return _error(400, _("Some query parameters are not valid."), errors=invalid.errors)

    return csrf_exempt(wrapper)


@csrf_exempt
def not_found(request: HttpRequest) -> JsonResponse:
    """Any other address under /api/v1/: a JSON 404, not the site's HTML page."""
    return _error(404, _("There is nothing here, or it is not visible to you."))


# --- query parameters ----------------------------------------------------------------------


@dataclass(frozen=True)
class Param:
    """A query parameter: its JSON schema is both what the OpenAPI schema publishes and what
    a request is checked against."""

    name: str
    schema: dict
    description: str = ""
    # What the description names (a %(name)s in it), for descriptions that follow the games:
    # a number, or words to join with "or".
    values: tuple[tuple[str, int | tuple[str, ...]], ...] = ()

    def described(self, translate=str) -> str:
        """The description, in words of `translate` (a gettext), its values filled in."""
        text = translate(self.description)
        if not self.values:
            return text
        return text % {
            name: _either(value, translate) if isinstance(value, tuple) else value
            for name, value in self.values
        }

    def parse(self, raw: str):
        kind = self.schema["type"]
        if kind == "integer":
            if not re.fullmatch("-?[0-9]+", raw):
                raise ValidationError(forms.IntegerField.default_error_messages["invalid"])
            if len(raw.lstrip("-").lstrip("0")) > 30:
                # Converting thousands of digits is slow; a number that long is out of range.
                too_far = raw.startswith("-")
                value = self.schema["minimum"] - 1 if too_far else self.schema["maximum"] + 1
            else:
                value = int(raw)
            validators.MinValueValidator(self.schema["minimum"])(value)
            validators.MaxValueValidator(self.schema["maximum"])(value)
            return value
        validators.ProhibitNullCharactersValidator()(raw)
        if "enum" in self.schema and raw not in self.schema["enum"]:
            raise ValidationError(
                forms.ChoiceField.default_error_messages["invalid_choice"] % {"value": raw}
            )
        if "maxLength" in self.schema:
            validators.MaxLengthValidator(self.schema["maxLength"])(raw)
        if self.schema.get("format") == "date":
            try:
                # fromisoformat alone also takes week dates and basic format (20260301).
                if not re.fullmatch("[0-9]{4}-[0-9]{2}-[0-9]{2}", raw):
                    raise ValueError(raw)
                return date.fromisoformat(raw)
            except ValueError:
                raise ValidationError(forms.DateField.default_error_messages["invalid"]) from None
        return raw

    def openapi(self) -> dict:
        parameter = {"name": self.name, "in": "query", "schema": self.schema}
        if self.description:
            parameter["description"] = self.described()
        return parameter


EITHER = gettext_noop("%(list)s or %(last)s")


def _either(words: tuple[str, ...], translate) -> str:
    """ "a, b or c", in words of `translate`."""
    if len(words) < 2:
        return "".join(words)
    return translate(EITHER) % {"list": ", ".join(words[:-1]), "last": words[-1]}


def _integer(minimum: int = 1, maximum: int = MAX_ID) -> dict:
    return {"type": "integer", "minimum": minimum, "maximum": maximum}


def _text(max_length: int) -> dict:
    return {"type": "string", "maxLength": max_length, "pattern": NO_NUL}


def _one_of(*values: str) -> dict:
    return {"type": "string", "enum": list(values)}


USERNAME: int = User._meta.get_field("username").max_length or 150
SLUG: int = Club._meta.get_field("slug").max_length or 50


def filters() -> list[Param]:
    """The parameters of the games list; the games' own (Game.played_filters) come after the
    number of players."""
    games = registry.all_games().values()
    low, high = min(g.seats.start for g in games), max(g.seats.stop - 1 for g in games)
    games_own = [
        Param(
            name,
            _one_of(*dict.fromkeys(value for _key, f in found for value, _l, _m in f.choices)),
            found[0][1].description,
        )
        for name, found in queries.game_filters().items()
    ]
    return [
        Param(
            "game",
            _text(16),
            gettext_noop("the game's key: %(keys)s"),
            (("keys", tuple(g.key for g in games)),),
        ),
        Param("player", _text(USERNAME), gettext_noop("username of a player in the game")),
        Param("opponent", _text(USERNAME), gettext_noop("username of another player in the game")),
        Param("club", _text(SLUG), gettext_noop("club slug (members only)")),
        Param("league", _integer(), gettext_noop("league id")),
        Param("tournament", _integer(), gettext_noop("tournament id")),
        Param(
            "date_from", {"type": "string", "format": "date"}, gettext_noop("first day, YYYY-MM-DD")
        ),
        Param(
            "date_to", {"type": "string", "format": "date"}, gettext_noop("last day, YYYY-MM-DD")
        ),
        Param(
            "players",
            _integer(low, high),
            gettext_noop("number of players, %(low)s to %(high)s"),
            (("low", low), ("high", high)),
        ),
        *games_own,
        Param("where", _one_of("online", "physical"), gettext_noop("online or physical")),
        Param("rated", _one_of("yes", "no"), gettext_noop("yes or no")),
        Param("result", _one_of("won", "lost"), gettext_noop("won or lost, for the chosen player")),
    ]


PAGING = [
    Param("page", _integer(), "page number; one past the last gives the last page"),
    Param("page_size", _integer(1, MAX_PAGE_SIZE), f"items per page (default {DEFAULT_PAGE_SIZE})"),
]


def rating_filters() -> list[Param]:
    first = registry.first().key
    return [
        Param(
            "game", _text(16), f"the game's key, e.g. {first} (the default): ratings are per game"
        ),
        Param("username", _text(USERNAME), "one player's rating"),
    ]


def _query(request: HttpRequest, params: list[Param]) -> dict:
    """The valid values of the given parameters; InvalidQuery naming every invalid one.

    Parameters the API does not know are ignored, as before.
    """
    values, errors = {}, {}
    for param in params:
        given = request.GET.getlist(param.name)
        if not given:
            continue
        if len(given) > 1:
            errors[param.name] = [_("Give this parameter only once.")]
            continue
        try:
            values[param.name] = param.parse(given[0])
        except ValidationError as invalid:
            errors[param.name] = list(invalid.messages)
    if errors:
        raise InvalidQuery(errors)
    return values


# --- views ---------------------------------------------------------------------------------


def _paginate(request: HttpRequest, items, serialize, query: dict) -> JsonResponse:
    size = query.get("page_size", DEFAULT_PAGE_SIZE)
    page = Paginator(items, size).get_page(query.get("page", 1))

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
    table_id = game.table_id
    variants = registry.get(game.game).variants(game.options)
    return {
        "id": game.pk,
        "url": request.build_absolute_uri(reverse("api_game", args=[game.pk])),
        "game": game.game,
        "played_at": game.played_at.isoformat(),
        "source": game.source,
        "imported": records.is_imported(game),
        "rated": game.rated,
        "rounds": game.rounds,
        "variants": variants,
        "club": game.club.slug if game.club else None,
        "league": {"id": game.league.pk, "name": game.league.name} if game.league else None,
        "table": table_id,
        "record": request.build_absolute_uri(reverse("api_game_record", args=[game.pk]))
        if table_id or "record" in game.result
        else None,
        "result": queries.game_result(game),
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


def _visible_game(games, game_id: int) -> PlayedGame:
    item = games.filter(pk=game_id).first()
    if item is None:
        raise Http404(_("There is nothing here, or it is not visible to you."))
    return item


@api_view
def games(request: HttpRequest) -> JsonResponse:
    query = _query(request, filters() + PAGING)
    items = queries.filter_games(queries.visible_games(request.user), query)
    return _paginate(request, queries.with_rows(items), _game_json, query)


@api_view
def game(request: HttpRequest, game_id: int) -> JsonResponse:
    games = queries.with_rows(queries.visible_games(request.user))
    return JsonResponse(_game_json(request, _visible_game(games, game_id)))


@api_view
def game_record(request: HttpRequest, game_id: int) -> JsonResponse:
    item = _visible_game(queries.visible_games(request.user), game_id)
    table_id = item.table_id
    if table_id is None and "record" in item.result:
        return JsonResponse(item.result["record"])  # an imported record, as the engine wrote it
    if table_id is None or not Table.objects.filter(pk=table_id, status=Table.FINISHED).exists():
        raise Http404(_("Only online games have a record."))
    table: Table = _finished_table(request, table_id)
    return JsonResponse(table.record)


def _analysed_table(request: HttpRequest, game_id: int) -> Table:
    item = _visible_game(queries.visible_games(request.user), game_id)
    table_id = item.table_id
    if table_id is None or not Table.objects.filter(pk=table_id, status=Table.FINISHED).exists():
        raise Http404(_("Only online games and imported records have an analysis."))
    return _finished_table(request, table_id)


def _seat_analysis_json(seat: TableSeat, analysis: Analysis | None) -> dict:
    return {
        "seat": seat.position,
        "name": seat.name,
        "username": seat.user.username if seat.user else None,
        "status": analysis.status if analysis else "none",
        "done": analysis.done if analysis else 0,
        "total": analysis.total if analysis else 0,
        "finished": analysis.finished.isoformat() if analysis and analysis.finished else None,
        "analysis": analysis_shown.as_documented(analysis.result)
        if analysis and analysis.status == Analysis.DONE and analysis.result
        else None,
    }


def _analyses(table: Table) -> list[dict]:
    analyses = {a.seat: a for a in table.analyses.all()}
    seats = table.seats.select_related("user").order_by("position")
    return [_seat_analysis_json(seat, analyses.get(seat.position)) for seat in seats]


@api_view
def game_analysis(request: HttpRequest, game_id: int) -> JsonResponse:
    table = _analysed_table(request, game_id)
    return JsonResponse({"game": game_id, "table": table.pk, "seats": _analyses(table)})


@api_view
def seat_analysis(request: HttpRequest, game_id: int, seat: int) -> JsonResponse:
    table = _analysed_table(request, game_id)
    found = [row for row in _analyses(table) if row["seat"] == seat]
    if not found:
        raise Http404(_("This game has no such seat."))
    return JsonResponse(found[0])


def _members_only(queryset, pk: int, user):
    item = queryset.select_related("club").filter(pk=pk).first()
    if item is None or not is_member(user, item.club_id):
        raise Http404(_("This club does not exist, or you are not a member of it."))
    return item


@api_view
def league_table(request: HttpRequest, league_id: int) -> JsonResponse:
    league = _members_only(League.objects, league_id, request.user)
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


@api_view
def tournament_standings(request: HttpRequest, tournament_id: int) -> JsonResponse:
    tournament = _members_only(Tournament.objects, tournament_id, request.user)
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
        "game": rating.game,
        "rating": rating.display,
        "games": rating.games,
        "provisional": rating.provisional,
    }


@api_view
def ratings(request: HttpRequest) -> JsonResponse:
    query = _query(request, rating_filters() + PAGING)
    game = query.get("game") or registry.first().key
    items = PlayerRating.objects.filter(game=game, games__gt=0).select_related("user")
    items = items.order_by("-display", "user_id")
    if query.get("username"):
        items = items.filter(user__username__iexact=query["username"])
    return _paginate(request, items, _rating_json, query)


# --- schema --------------------------------------------------------------------------------


def _object(properties: dict) -> dict:
    """An object with exactly these properties, all present: a field added to a view but
    not here fails the schema test."""
    return {
        "type": "object",
        "properties": properties,
        "required": list(properties),
        "additionalProperties": False,
    }


def _nullable(schema: dict) -> dict:
    return {**schema, "nullable": True}


def _ref(name: str) -> dict:
    return {"$ref": f"#/components/schemas/{name}"}


def _page_of(name: str) -> dict:
    link = _nullable({"type": "string", "format": "uri"})
    return _object(
        {
            "count": {"type": "integer", "minimum": 0},
            "page": {"type": "integer", "minimum": 1},
            "next": link,
            "previous": link,
            "results": {"type": "array", "items": _ref(name)},
        }
    )


def _either_english(words: list[str]) -> str:
    return _either(tuple(words), str)


def _seat_analysis_schema(most: int) -> dict:
    """One seat's analysis as the API gives it: where its job stands, and once done what
    `python manage.py analyse --format json` prints for it (games.analysis)."""
    value = {"type": "number", "minimum": 0, "maximum": 1}
    number = {"type": "number"}
    decision = _object(
        {
            "index": {"type": "integer", "minimum": 0},
            "round": {"type": "integer", "minimum": 1},
            "played": {"type": "string"},
            "best": {"type": "string"},
            "loss": number,
            "error": {"type": "number", "minimum": 0},
            "mark": _nullable({"type": "string", "enum": ["?!", "?", "??"]}),
            "options": {
                "type": "array",
                "minItems": 2,
                "items": _object(
                    {
                        "option": {"type": "string"},
                        "value": value,
                        "error": {"type": "number", "minimum": 0},
                    }
                ),
            },
            "expected": value,
        }
    )
    count = {"type": "integer", "minimum": 0}
    analysis = _object(
        {
            "seat": {"type": "string"},
            "accuracy": _nullable({"type": "number", "minimum": 0, "maximum": 100}),
            "decisions": {"type": "array", "items": decision},
            "seconds": {"type": "number", "minimum": 0},
            "rounds": {
                "type": "array",
                "description": "the seat's expected placing score after each round",
                "items": value,
            },
            "deal": {
                "type": "array",
                "description": "De l'Orc: the real-time deal of each round, summarised",
                "items": {"type": "object"},
            },
            "samples": count,
            "summary": _object(
                {
                    "matches": count,
                    "decisions": count,
                    "marks": _object({"?!": count, "?": count, "??": count}),
                    "costliest": {
                        "type": "array",
                        "maxItems": 3,
                        "description": "the indexes of the three costliest decisions",
                        "items": count,
                    },
                }
            ),
        }
    )
    return _object(
        {
            "seat": {"type": "integer", "minimum": 0, "maximum": most - 1},
            "name": {"type": "string"},
            "username": _nullable({"type": "string"}),
            "status": {
                "type": "string",
                "enum": ["none", *Analysis.Status.values],
                "description": "none: nobody asked for it yet",
            },
            "done": count,
            "total": count,
            "finished": _nullable({"type": "string", "format": "date-time"}),
            "analysis": _nullable(
                {**analysis, "description": "values are expected placing scores, 1 first … 0 last"}
            ),
        }
    )


def _components() -> dict:
    number = {"type": "number"}
    games = list(registry.all_games().values())
    most = max(game.seats.stop - 1 for game in games)
    rounds = [
        f"{game.name}: {_either_english([str(n) for n in game.rounds]) or 'as many as it took'}"
        for game in games
    ]
    with_records = [game.records for game in games if game.records is not None]
    formats = [f"{records.format} ({records.spec})" for records in with_records]
    accounts = [
        f"{game.name} ({game.records.spec})"
        for game in games
        if game.pad is not None and game.pad.played_template and game.records is not None
    ]
    return {
        "Game": _object(
            {
                "id": {"type": "integer"},
                "url": {"type": "string", "format": "uri"},
                "game": {"type": "string", "enum": list(registry.all_games())},
                "played_at": {"type": "string", "format": "date-time"},
                "source": {"type": "string", "enum": [PlayedGame.PAD, PlayedGame.ONLINE]},
                "imported": {"type": "boolean"},
                "rated": {"type": "boolean"},
                "rounds": {
                    "type": "integer",
                    "minimum": 1,
                    "description": "; ".join(rounds),
                },
                "variants": {
                    "type": "array",
                    "items": {
                        "type": "string",
                        "enum": [name for game in games for name in game.variant_names],
                    },
                },
                "club": _nullable({"type": "string"}),
                "league": _nullable(
                    _object({"id": {"type": "integer"}, "name": {"type": "string"}})
                ),
                "table": _nullable({"type": "integer"}),
                "record": _nullable({"type": "string", "format": "uri"}),
                "result": _nullable(
                    {
                        "type": "object",
                        "description": "for a game whose score pad keeps round entries, its "
                        f"own account of the rounds, totals and placings: {', '.join(accounts)}",
                    }
                ),
                "players": {
                    "type": "array",
                    "minItems": min(game.seats.start for game in games),
                    "maxItems": most,
                    "items": _object(
                        {
                            "seat": {"type": "integer", "minimum": 0, "maximum": most - 1},
                            "name": {"type": "string"},
                            "username": _nullable({"type": "string"}),
                            "place": _nullable({"type": "integer", "minimum": 1}),
                            "total": {"type": "integer"},
                        }
                    ),
                },
            }
        ),
        "GamePage": _page_of("Game"),
        "Record": {
            "type": "object",
            "description": f"a record in its game's format: {_either_english(formats)}",
            "properties": {
                "format": {"type": "string", "enum": [records.format for records in with_records]},
                "players": {"type": "array", "items": {"type": "string"}},
                "options": {"type": "object"},
                "rounds": {"type": "array", "items": {"type": "object"}},
            },
            "required": ["format", "players", "options", "rounds"],
        },
        "LeagueTable": _object(
            {
                "id": {"type": "integer"},
                "name": {"type": "string"},
                "club": {"type": "string"},
                "current": {"type": "boolean"},
                "updated": _nullable({"type": "string", "format": "date-time"}),
                "table": {
                    "type": "array",
                    "description": "rows in order of position, as the league page shows them",
                    "items": {"type": "object"},
                },
            }
        ),
        "TournamentStandings": _object(
            {
                "id": {"type": "integer"},
                "name": {"type": "string"},
                "club": {"type": "string"},
                "status": {
                    "type": "string",
                    "enum": [s for s, _label in Tournament.STATUSES],
                },
                "stages": {
                    "type": "array",
                    "items": _object(
                        {
                            "order": {"type": "integer"},
                            "kind": {"type": "string", "enum": [k for k, _label in Stage.KINDS]},
                            "standings": {
                                "type": "array",
                                "items": _object(
                                    {
                                        "rank": {"type": "integer", "minimum": 1},
                                        "username": _nullable({"type": "string"}),
                                        "points": number,
                                        "wins": {"type": "integer", "minimum": 0},
                                        "relative_score": number,
                                        "opponents_strength": number,
                                        "best_round": {"type": "integer"},
                                        "games": {"type": "integer", "minimum": 0},
                                    }
                                ),
                            },
                        }
                    ),
                },
            }
        ),
        "Rating": _object(
            {
                "username": {"type": "string"},
                "name": {"type": "string"},
                "game": {"type": "string", "enum": list(registry.all_games())},
                "rating": {"type": "integer"},
                "games": {"type": "integer", "minimum": 1},
                "provisional": {"type": "boolean"},
            }
        ),
        "RatingPage": _page_of("Rating"),
        "SeatAnalysis": _seat_analysis_schema(most),
        "GameAnalysis": _object(
            {
                "game": {"type": "integer"},
                "table": {"type": "integer"},
                "seats": {"type": "array", "maxItems": most, "items": _ref("SeatAnalysis")},
            }
        ),
        "Error": {
            "type": "object",
            "properties": {
                "detail": {"type": "string"},
                "errors": {
                    "type": "object",
                    "description": "for each invalid parameter, what is wrong with it",
                    "additionalProperties": {"type": "array", "items": {"type": "string"}},
                },
            },
            "required": ["detail"],
            "additionalProperties": False,
        },
    }


def schema() -> dict:
    def json_body(description: str, name: str) -> dict:
        return {"description": description, "content": {"application/json": {"schema": _ref(name)}}}

    def read(summary: str, name: str, description: str, parameters: list, *, query=False):
        responses = {
            "200": json_body(description, name),
            "404": json_body("missing, or not visible to you", "Error"),
        }
        if query:
            responses["400"] = json_body("an invalid query parameter", "Error")
        return {"get": {"summary": summary, "parameters": parameters, "responses": responses}}

    def item(path_name: str) -> list:
        return [{"name": path_name, "in": "path", "required": True, "schema": _integer()}]

    paging = [p.openapi() for p in PAGING]
    most = max(game.seats.stop - 1 for game in registry.all_games().values())
    seat_param = {
        "name": "seat",
        "in": "path",
        "required": True,
        "description": "the seat's position, from 0",
        "schema": _integer(0, most - 1),
    }
    return {
        "openapi": "3.0.3",
        "info": {
            "title": "Call to Glory clubs: read API",
            "version": "1",
            "description": "Session authentication (the site's session cookie, as signed in "
            "on the site); club data only for the club's members.",
        },
        # No securitySchemes: signing in is optional, and a declared scheme would let a
        # checker excuse a 401/403 where this API owes a 405.
        "components": {"schemas": _components()},
        "paths": {
            "/api/v1/games/": read(
                gettext_noop("Finished games, newest first"),
                "GamePage",
                "a page of games with next/previous links",
                [p.openapi() for p in filters()] + paging,
                query=True,
            ),
            "/api/v1/games/{id}/": read(gettext_noop("One game"), "Game", "a game", item("id")),
            "/api/v1/games/{id}/record/": read(
                gettext_noop("The record of a finished online game or an imported one"),
                "Record",
                "a record in its game's format",
                item("id"),
            ),
            "/api/v1/games/{id}/analysis/": read(
                gettext_noop("The analysis of a finished game, seat by seat"),
                "GameAnalysis",
                "every seat, with its analysis once done",
                item("id"),
            ),
            "/api/v1/games/{id}/analysis/{seat}/": read(
                gettext_noop("The analysis of one seat of a finished game"),
                "SeatAnalysis",
                "the seat, with its analysis once done",
                [*item("id"), seat_param],
            ),
            "/api/v1/leagues/{id}/table/": read(
                gettext_noop("A league's table (members of its club)"),
                "LeagueTable",
                "the table",
                item("id"),
            ),
            "/api/v1/tournaments/{id}/standings/": read(
                gettext_noop("A tournament's standings by stage (members of its club)"),
                "TournamentStandings",
                "the standings",
                item("id"),
            ),
            "/api/v1/ratings/": read(
                gettext_noop("Player ratings, best first"),
                "RatingPage",
                "a page of ratings",
                [p.openapi() for p in rating_filters()] + paging,
                query=True,
            ),
        },
    }


@api_view
def openapi(request: HttpRequest) -> JsonResponse:
    return JsonResponse(schema())


def docs(request: HttpRequest):
    """The schema in words of the visitor's language (the schema itself stays in English)."""
    paths = [(path, _(ops["get"]["summary"])) for path, ops in schema()["paths"].items()]
    described = [(p.name, p.schema["type"], p.described(_)) for p in filters()]
    return render(request, "history/api.html", {"paths": paths, "filters": described})
