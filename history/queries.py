"""Which finished games a person may see, and the history filters (one form for pages and API).

Visibility: a game without a club is public; a club's game is for that club's members and for
the people who played in it. Everything else answers as if it did not exist.
"""

from __future__ import annotations

import operator
from functools import reduce

from django import forms
from django.contrib.auth import get_user_model
from django.db.models import Prefetch, Q
from django.urls import reverse
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from accounts.models import Club, Membership
from games import registry
from games.registry import PlayedFilter
from leagues.models import League, PlayedGame, PlayedSeat
from tournaments.models import Tournament

User = get_user_model()


def visible_games(user):
    """Confirmed games the user may see; subqueries, not joins, so rows never repeat."""
    games = PlayedGame.objects.confirmed()
    if not user.is_authenticated:
        return games.filter(club__isnull=True)
    return games.filter(
        Q(club__isnull=True)
        | Q(club_id__in=Membership.objects.filter(user_id=user.pk).values("club_id"))
        | Q(pk__in=PlayedSeat.objects.filter(user_id=user.pk).values("game_id"))
    )


def with_rows(games):
    """What a list row shows, in a fixed number of queries whatever the page size.

    Clubs and leagues are prefetched rather than joined: the page query then sorts narrow
    rows and joins nothing before its LIMIT.
    """
    return games.prefetch_related(
        "club", "league", Prefetch("seats", queryset=PlayedSeat.objects.select_related("user"))
    )


YES_NO = [("", _("any")), ("yes", _("yes")), ("no", _("no"))]


class HistoryFilter(forms.Form):
    """GET filters; every field optional, unknown or invalid values are simply ignored."""

    game = forms.ChoiceField(label=_("Game"), required=False)
    player = forms.CharField(label=_("Player"), required=False, max_length=150)
    opponent = forms.CharField(label=_("Opponent"), required=False, max_length=150)
    club = forms.ChoiceField(label=_("Club"), required=False)
    league = forms.TypedChoiceField(label=_("League"), required=False, coerce=int)
    tournament = forms.TypedChoiceField(label=_("Tournament"), required=False, coerce=int)
    date_from = forms.DateField(
        label=_("From"), required=False, widget=forms.DateInput(attrs={"type": "date"})
    )
    date_to = forms.DateField(
        label=_("To"), required=False, widget=forms.DateInput(attrs={"type": "date"})
    )
    players = forms.TypedChoiceField(label=_("Number of players"), required=False, coerce=int)
    # Here come the games' own filters (game_filters).
    game_filters_after = "players"
    where = forms.ChoiceField(
        label=_("Played"),
        required=False,
        choices=[
            ("", _("any")),
            ("online", pgettext_lazy("played", "online")),
            ("physical", _("at a table (score pad)")),
        ],
    )
    rated = forms.ChoiceField(label=_("Rated"), required=False, choices=YES_NO)
    result = forms.ChoiceField(
        label=_("Result of the player"),
        required=False,
        choices=[("", _("any")), ("won", _("won")), ("lost", _("lost"))],
    )

    def __init__(self, data, user):
        super().__init__(data)
        self.user = user
        games = registry.all_games()
        if len(games) > 1:
            self.fields["game"].choices = [("", _("any")), *registry.choices()]
        else:
            # With one game there is nothing to choose.
            del self.fields["game"]
        low = min(game.seats.start for game in games.values())
        high = max(game.seats.stop for game in games.values())
        self.fields["players"].choices = [("", _("any")), *((n, str(n)) for n in range(low, high))]
        if "game" in self.fields:
            # Another game's filters come with another game chosen (templates/history/list.html).
            self.fields["game"].widget.attrs |= {
                "hx-get": reverse("history"),
                "hx-include": "closest form",
                "hx-trigger": "change consume",
            }
        chosen = data.get("game") if data.get("game") in games else None
        found = game_filters(chosen)
        self.game_filter_names = list(found)
        self._add_game_filters(found)
        clubs = Club.objects.filter(memberships__user_id=user.pk) if user.is_authenticated else []
        self.fields["club"].choices = [("", _("any"))] + [(c.slug, c.name) for c in clubs]
        leagues = (
            League.objects.filter(club__memberships__user_id=user.pk).select_related("club")
            if user.is_authenticated
            else []
        )
        self.fields["league"].choices = [("", _("any"))] + [
            (lg.pk, f"{lg.club.name}: {lg.name}") for lg in leagues
        ]
        tournaments = (
            Tournament.objects.filter(club__memberships__user_id=user.pk).select_related("club")
            if user.is_authenticated
            else []
        )
        self.fields["tournament"].choices = [("", _("any"))] + [
            (t.pk, f"{t.club.name}: {t.name}") for t in tournaments
        ]

    def _add_game_filters(self, found: dict[str, list[tuple[str, PlayedFilter]]]):
        fields = {}
        for name, field in self.fields.items():
            fields[name] = field
            if name != self.game_filters_after:
                continue
            for filter_name, filters in found.items():
                choices = {value: label for _key, f in filters for value, label, _m in f.choices}
                fields[filter_name] = forms.ChoiceField(
                    label=str(filters[0][1].label),  # the form is made per request
                    required=False,
                    choices=[("", _("any")), *choices.items()],
                )
        self.fields = fields

    def filter(self, games):
        """Apply the valid filters; an invalid field is dropped rather than failing the page."""
        self.is_valid()
        return filter_games(games, self.cleaned_data)


def game_filters(chosen: str | None = None) -> dict[str, list[tuple[str, PlayedFilter]]]:
    """The games' own filters (Game.played_filters) by query parameter, each with the key of
    every game that has it: the chosen game's, or every game's when none is chosen."""
    found: dict[str, list[tuple[str, PlayedFilter]]] = {}
    for key, game in registry.all_games().items():
        if chosen in (None, key):
            for played in game.played_filters():
                found.setdefault(played.name, []).append((key, played))
    return found


def _played_with(key: str, match) -> Q:
    """A played game of game `key` that shows `match` (PlayedFilter)."""
    condition = Q(game=key)
    for name, value in match.items():
        if name == "rounds":
            condition &= Q(rounds=value)
        elif value is False:
            condition &= Q(**{f"options__{name}": False}) | ~Q(options__has_key=name)
        else:
            condition &= Q(**{f"options__{name}": value})
    return condition


def filter_games(games, values: dict):
    """Narrow games by the history filters in ``values``; empty values filter nothing."""
    data = {k: v for k, v in values.items() if v not in ("", None)}
    if data.get("game"):
        games = games.filter(game=data["game"])
    # A game's filter names that game: mode=quick is a quick Call to Glory game, whatever
    # the game chosen.
    for name, filters in game_filters().items():
        if name in data:
            matching = [
                _played_with(key, match)
                for key, played in filters
                for value, _label, match in played.choices
                if value == data[name]
            ]
            games = games.filter(reduce(operator.or_, matching, Q(pk__in=[])))
    player = data.get("player")
    if player:
        player_seats = PlayedSeat.objects.filter(user__username__iexact=player)
        result = data.get("result")
        if result == "won":
            player_seats = player_seats.filter(place=1)
        elif result == "lost":
            player_seats = player_seats.exclude(place=1)
        games = games.filter(pk__in=player_seats.values("game_id"))
    if data.get("opponent"):
        games = games.filter(
            pk__in=PlayedSeat.objects.filter(user__username__iexact=data["opponent"]).values(
                "game_id"
            )
        )
    if data.get("club"):
        games = games.filter(club__slug=data["club"])
    if data.get("league"):
        games = games.filter(league_id=data["league"])
    if data.get("tournament"):
        games = games.filter(tournament_table__round__stage__tournament_id=data["tournament"])
    if data.get("date_from"):
        games = games.filter(played_at__date__gte=data["date_from"])
    if data.get("date_to"):
        games = games.filter(played_at__date__lte=data["date_to"])
    if data.get("players"):
        games = games.filter(
            pk__in=PlayedSeat.objects.filter(seat=data["players"] - 1).values("game_id")
        ).exclude(pk__in=PlayedSeat.objects.filter(seat=data["players"]).values("game_id"))
    if data.get("where") == "online":
        games = games.filter(source=PlayedGame.ONLINE)
    elif data.get("where") == "physical":
        games = games.filter(source=PlayedGame.PAD)
    if data.get("rated"):
        games = games.filter(rated=data["rated"] == "yes")
    return games


def game_result(game: PlayedGame) -> dict | None:
    """The game's own account of its rounds, for games whose score pad keeps its entries in
    the played game's result (ScorePad.keep; De l'Orc's, in the §8 result shape of
    ORC-RULES.md), keyed by the players' names. An imported record's is the engine's; a
    score pad's, and an online game's, has per round what the game reads of its entry
    (PadSheet.rounds) and the scores."""
    pad = registry.get(game.game).pad
    if pad is None or "pad" not in game.result:
        return None
    if "result" in game.result:
        return game.result["result"]
    names = [seat.name for seat in sorted(game.seats.all(), key=lambda s: s.seat)]
    try:
        sheet = pad.sheet(
            names, game.pad_entries, options=game.options, rounds=game.rounds, finished=False
        )
    except registry.PadRefused:
        return None
    out: dict = {
        "rounds": [
            {**r, "scores": dict(zip(names, r["scores"], strict=True))} for r in sheet.rounds
        ],
        "totals": {
            name: sum(scores) for name, scores in zip(names, sheet.round_scores, strict=True)
        },
    }
    if sheet.placings is None:
        out["unfinished"] = True
    else:
        out["placings"] = dict(zip(names, sheet.placings, strict=True))
    return out
