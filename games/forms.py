from django import forms
from django.utils.translation import gettext_lazy as _

from games.models import Table

MODES = [("standard", _("Standard game (4 rounds)")), ("quick", _("Quick game (1 round)"))]
CLOCK_PRESETS = {Table.NO_CLOCK: 0, Table.LIVE: 60, Table.CORRESPONDENCE: 24 * 3600}


class TableForm(forms.Form):
    seats_count = forms.TypedChoiceField(
        label=_("Players"), choices=[(2, "2"), (3, "3"), (4, "4")], coerce=int, initial=4
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
        if data.get("visibility") == Table.CLUB and not data.get("club"):
            self.add_error("club", _("Choose the club whose members may join."))
        if data.get("imperial_tasks") and data.get("mode") == "quick":
            self.add_error(
                "mode", _("Imperial Tasks is played over three rounds, not as a quick game.")
            )
        return data

    def table_options(self) -> dict:
        data = self.cleaned_data
        rounds = 3 if data["imperial_tasks"] else (1 if data["mode"] == "quick" else 4)
        return {
            "seats_count": data["seats_count"],
            "rounds": rounds,
            "imperial_tasks": data["imperial_tasks"],
            "ninja": data["ninja"],
            "visibility": data["visibility"],
            "club": data["club"] if data["visibility"] == Table.CLUB else None,
            "seat_order": data["seat_order"],
            "clock": data["clock"],
            "clock_seconds": data.get("clock_seconds") or CLOCK_PRESETS[data["clock"]] or 60,
            "timeout_policy": data["timeout_policy"],
            "rated": data["rated"],
        }
