from django import forms
from django.utils.translation import gettext_lazy as _

from games import registry
from games.models import Table

MODES = [("standard", _("Standard game (4 rounds)")), ("quick", _("Quick game (1 round)"))]
CLOCK_PRESETS = {Table.NO_CLOCK: 0, Table.LIVE: 60, Table.CORRESPONDENCE: 24 * 3600}


PACES = [
    (0.8, _("fast: 0.8 s a card")),
    (1.2, _("normal: 1.2 s a card")),
    (2.0, _("calm: 2 s a card")),
]


def _online_games() -> list[tuple[str, str]]:
    return [(game.key, game.name) for game in registry.all_games().values() if game.online]


class TableForm(forms.Form):
    game = forms.ChoiceField(label=_("Game"), choices=_online_games, initial="ctg", required=False)
    seats_count = forms.TypedChoiceField(
        label=_("Players"), choices=[(n, str(n)) for n in range(2, 8)], coerce=int, initial=4
    )
    pace = forms.TypedChoiceField(
        label=_("Pace of the deal"),
        choices=PACES,
        coerce=float,
        initial=1.2,
        required=False,
        help_text=_("De l'Orc pour les Braves: how fast the army cards are dealt."),
    )
    mode = forms.ChoiceField(label=_("Length"), choices=MODES, initial="standard")
    imperial_tasks = forms.BooleanField(
        label=_("Imperial Tasks"),
        required=False,
        help_text=_("Three rounds; task cards score bonus points."),
    )
    ninja = forms.BooleanField(label=_("Power of the Ninja"), required=False)
    visibility = forms.ChoiceField(label=_("Who may join"), choices=Table.VISIBILITIES)
    club: forms.ModelChoiceField = forms.ModelChoiceField(
        label=_("Club"), queryset=None, required=False
    )
    seat_order = forms.ChoiceField(label=_("Seat order"), choices=Table.SEAT_ORDERS)
    clock = forms.ChoiceField(label=_("Clock"), choices=Table.CLOCKS)
    clock_seconds = forms.IntegerField(
        label=_("Seconds per decision"),
        required=False,
        min_value=10,
        max_value=7 * 24 * 3600,
        help_text=_("Live: e.g. 60 seconds. Correspondence: e.g. 86400 (24 hours)."),
    )
    timeout_policy = forms.ChoiceField(
        label=_("When time runs out"), choices=Table.TIMEOUT_POLICIES
    )
    rated = forms.BooleanField(label=_("Rated"), required=False)

    def __init__(self, *args, user, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["club"].queryset = user.clubs.all()

    def clean(self):
        data = super().clean()
        data["game"] = data.get("game") or "ctg"
        game = registry.all_games().get(data["game"])
        seats = data.get("seats_count")
        if game is not None and seats is not None and seats not in game.seats:
            self.add_error(
                "seats_count",
                _("%(game)s is for %(low)d to %(high)d players.")
                % {"game": game.name, "low": game.seats.start, "high": game.seats.stop - 1},
            )
        if data.get("visibility") == Table.CLUB and not data.get("club"):
            self.add_error("club", _("Choose the club whose members may join."))
        if data.get("game") == "ctg" and data.get("imperial_tasks") and data.get("mode") == "quick":
            self.add_error(
                "mode", _("Imperial Tasks is played over three rounds, not as a quick game.")
            )
        return data

    def table_options(self) -> dict:
        data = self.cleaned_data
        ctg = data["game"] == "ctg"
        rounds = 3 if data["imperial_tasks"] else (1 if data["mode"] == "quick" else 4)
        return {
            "game": data["game"],
            # The game's own options; Call to Glory keeps its options in the table's columns.
            "game_options": {} if ctg else {"pace": data.get("pace") or 1.2},
            "seats_count": data["seats_count"],
            "rounds": rounds if ctg else 4,
            "imperial_tasks": data["imperial_tasks"] and ctg,
            "ninja": data["ninja"] and ctg,
            "visibility": data["visibility"],
            "club": data["club"] if data["visibility"] == Table.CLUB else None,
            "seat_order": data["seat_order"],
            "clock": data["clock"],
            "clock_seconds": data.get("clock_seconds") or CLOCK_PRESETS[data["clock"]] or 60,
            "timeout_policy": data["timeout_policy"],
            "rated": data["rated"],
        }
