from typing import cast

from django import forms
from django.core.exceptions import ValidationError
from django.utils.translation import gettext_lazy as _

from games import registry
from games.models import Table
from games.registry import Game

CLOCK_PRESETS = {Table.NO_CLOCK: 0, Table.LIVE: 60, Table.CORRESPONDENCE: 24 * 3600}


class TableForm(forms.Form):
    """A new table: the site's settings, with the game's own option fields
    (Game.option_fields) right after the number of players."""

    seats_count = forms.TypedChoiceField(label=_("Players"), choices=[], coerce=int)
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

    def __init__(self, *args, user, game: str | None = None, **kwargs):
        super().__init__(*args, **kwargs)
        self.game = registry.get(game) if game else registry.first()
        club = cast(forms.ModelChoiceField, self.fields["club"])
        club.queryset = user.clubs.all()
        seats = cast(forms.TypedChoiceField, self.fields["seats_count"])
        seats.choices = [(n, str(n)) for n in self.game.seats]
        seats.initial = max(self.game.seats)
        option_fields = self.game.option_fields()
        self.option_names = list(option_fields)
        fields = list(self.fields.items())
        self.fields = dict(fields[:1]) | option_fields | dict(fields[1:])

    def clean(self):
        data = super().clean()
        if data.get("visibility") == Table.CLUB and not data.get("club"):
            self.add_error("club", _("Choose the club whose members may join."))
        try:
            self.options = self.game.options_from_form(
                {name: data.get(name) for name in self.option_names}
            )
        except ValidationError as error:
            self.add_error(None, error)
        return data

    def table_options(self) -> dict:
        data = self.cleaned_data
        return {
            "game": self.game.key,
            "options": self.options,
            "seats_count": data["seats_count"],
            "visibility": data["visibility"],
            "club": data["club"] if data["visibility"] == Table.CLUB else None,
            "seat_order": data["seat_order"],
            "clock": data["clock"],
            "clock_seconds": data.get("clock_seconds") or CLOCK_PRESETS[data["clock"]] or 60,
            "timeout_policy": data["timeout_policy"],
            "rated": data["rated"],
        }


class AgainstAIForm(forms.Form):
    """A game against AI players in one click (actions.play_against_ai): how many players and
    how strong the AI players are; the rest is what a newcomer wants."""

    seats_count = forms.TypedChoiceField(label=_("Players"), choices=[], coerce=int)
    level = forms.ChoiceField(label=_("Level of the AI players"), choices=[])

    def __init__(self, *args, game: Game, **kwargs):
        # Each game's form has ids of its own: a page shows one per game.
        kwargs.setdefault("auto_id", f"id_{game.key}_%s")
        super().__init__(*args, **kwargs)
        self.game = game
        seats = cast(forms.TypedChoiceField, self.fields["seats_count"])
        seats.choices = [(n, str(n)) for n in game.seats]
        seats.initial = game.preferred_seats[0]
        level = cast(forms.ChoiceField, self.fields["level"])
        level.choices = [(key, name) for key, (name, _about) in game.ai_levels.items()]
        level.initial = game.default_ai_level


def games_offered(data=None, game: str | None = None) -> list[dict]:
    """Each game tables can be opened for, with its form of a game against AI players if it
    has any (bound to `data` for `game`): what the home page and the lobby offer."""
    return [
        {
            "game": g,
            "against_ai": AgainstAIForm(data if g.key == game else None, game=g)
            if g.ai_levels
            else None,
        }
        for g in registry.playable()
    ]
