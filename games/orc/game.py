"""De l'Orc pour les Braves as the site hosts it: the shared machinery reaches its engine and AI
here."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.utils.translation import gettext_lazy as _

from games.orc import pad
from games.registry import Game, PadSheet


class DeLOrc(Game):
    key = "orc"
    name = "De l'Orc pour les Braves"
    seats = range(4, 8)
    preferred_seats = (5, 6)
    ai_levels = {
        "beginner": (
            _("Recruit"),
            _("Shields big piles when it thinks of it and sends all its mercenaries or none."),
        ),
        "heuristic": (
            _("Sergeant"),
            _(
                "Claims the pile worth most to its hand, spoils its rivals' best cards and "
                "sends the cheapest mercenaries that win a battle."
            ),
        ),
        "expert": (
            _("Warlord"),
            _(
                "Weighs every pile by the battle points it brings to whom and plays each "
                "decision out many times before it chooses."
            ),
        ),
    }
    default_ai_level = "heuristic"
    stand_in_level = "heuristic"
    online = False  # the table machinery for the real-time deal is not there yet

    # --- score pad (§7): per round the wizard, his champion and each battle's winners
    pad_template = "games/orc/pad.html"
    pad_entries = True

    def pad_form(
        self, data: Any, *, names: Sequence[str], round_no: int, entries: Sequence[Any]
    ) -> pad.RoundForm:
        before = list(entries[: round_no - 1])
        initial = entries[round_no - 1] if round_no <= len(entries) else None
        return pad.RoundForm(
            data,
            names=names,
            initial_entry=initial,
            wizard=pad.next_wizard(before, len(names)),
        )

    def pad_sheet(
        self, names: Sequence[str], entries: Sequence[Any], *, finished: bool
    ) -> PadSheet:
        return pad.sheet(names, entries, finished=finished)


DE_L_ORC = DeLOrc()
