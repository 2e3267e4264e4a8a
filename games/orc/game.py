"""De l'Orc pour les Braves as the site hosts it: the shared machinery reaches its engine and AI
here.

The record (§8) is the truth for decisions; the deal is a function of time kept beside it
(`games.orc.models.Deal`, see `games.orc.dealer`): a position rebuilt from the record is brought
to the present by dealing what the clock has dealt (`DealInRealTime.catch_up`). A slap (`desert P3`,
`shield P1`) names no `@k`: the server puts it down at the deal as it stands when the
table's lock is granted, so racing slaps are ordered by that lock.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from datetime import timedelta
from typing import TYPE_CHECKING, Any

from django import forms
from django.conf import settings
from django.template.defaultfilters import floatformat
from django.utils import timezone, translation
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, pgettext_lazy

from games import records
from games.orc import ai, engine, names, pad, replay
from games.orc import analysis as orc_analysis
from games.orc.engine.cards import (
    BATTLE_POINTS,
    CODES,
    COPIES,
    DESERTERS,
    INDEX,
    N_CARDS,
    PEOPLES,
    PILES,
    SHIELDS,
    START_MAX,
    START_MIN,
    TARGET,
)
from games.orc.engine.record import FORMAT as RECORD_FORMAT
from games.orc.engine.state import random_deck
from games.orc.engine.views import last_battle
from games.registry import (
    Game,
    ImportedRecord,
    MoveRefused,
    PadSheet,
    ReplayStep,
    Result,
    ScorePadBase,
    with_forfeits,
)

if TYPE_CHECKING:
    from games.models import Table
    from games.orc.models import Deal

SLAPS = ("desert", "shield")
PACES = (0.8, 1.2, 2.0)
DEFAULT_PACE = 1.2
# Seconds between the save that opens a round and its first card: time to see the new round.
LEAD_IN = 3.0


def table_deck(seed: int, round_index: int) -> tuple[list[str], int]:
    """A round's deck (first dealt first) and start point; they follow from the table's secret
    seed, and no view shows a card before it is dealt."""
    codes, start_after = random_deck(random.Random(f"{seed}:orc:{round_index}"))
    return [CODES[c] for c in codes], start_after


def placing_seconds(pace: float) -> float:
    """§3.6 [online]: the placing step's timer."""
    return max(15.0, pace * 10)


def _refusal(error: engine.IllegalAction) -> MoveRefused:
    """The engine's refusal, in words a player racing the deal understands at a glance."""
    messages = {
        "deal-over": _("Too late: the last army card is down, so deserters no longer count."),
        "before-start": _("Not yet: shields go down once the start card has appeared."),
        "no-deserter": _("You have no deserter left this round."),
        "no-shield": _("You have no shield left this round."),
        "wizard-recruits": _("The wizard plays no shields or deserters this round."),
        "deal-not-begun": _("Wait for the first army card."),
        "commando-card-named": _(
            "The commando takes a card at random: name a player and a group, not a card."
        ),
    }
    return MoveRefused(messages.get(error.code, error.message), error.code)


# ----------------------------------------------------------------------------- its parts
# (games.registry: the optional parts a game may bring)


class DealInRealTime:
    """The deal, a function of time (games.orc.dealer): slaps land whenever they come."""

    def catch_up(self, table: Table, state: engine.State) -> None:
        # The commando's card is drawn at random (§4.4 [online]): from the table's secret
        # seed, so nobody can foresee it.
        state.rng = random.Random(f"{table.seed}:{len(state.log)}")
        if state.pending != "recruit":
            return
        deal = _deal(table)
        if deal.round == state.rnd:
            k = deal.dealt_at(timezone.now())
            if k > state.dealt:
                state.deal(k)

    def live(self, table: Table) -> bool:
        from games.models import Table

        deal = _deal(table)
        return table.status == Table.RUNNING and deal.started is not None and not deal.ended

    def is_realtime(self, text: str) -> bool:
        return text.split()[:1] in (["desert"], ["shield"])

    def set_going(self, table: Table, state: engine.State) -> dict[str, Any] | None:
        from games.orc import dealer

        return dealer.set_going(table, state)

    def render_update(self, event: dict[str, Any], viewer: int | None, language: str) -> str:
        from games.orc.board import render_update

        return render_update(event, viewer, language)

    def timeout_moves(self, table: Table, state: engine.State) -> list[tuple[int, str]]:
        """§3.6 [online]: every shield still held when the placing timer ends goes down where
        the site puts it."""
        moves = []
        probe = state.clone()
        for seat in range(probe.n):
            while (action := probe.placing_default(seat)) is not None:
                probe.apply(action)
                moves.append((seat, f"shield P{action.pile}"))
        return moves

    def watch(self) -> None:
        from games.orc import dealer

        dealer.ensure_watching()


class OrcReplay:
    """Its replay, card by card through a deal (games.orc.replay); above the board, the
    army card dealt or the battle revealed."""

    template = "games/orc/replay.html"

    def steps(self, record: dict[str, Any]) -> list[ReplayStep]:
        return replay.steps(record)

    def position(self, record: dict[str, Any], step: ReplayStep | None) -> engine.State:
        if not isinstance(step, replay.Step):
            return replay.position(record, 0)
        return replay.position(record, step.actions, step.dealt)

    def present(self, table: Table, state: engine.State) -> engine.State:
        return state

    def board(self, context: dict[str, Any]) -> dict[str, Any]:
        return context | {"decisions": [], "can_slap": False, "replay": True}

    def shown_action(
        self, state: engine.State, index: int, text: str, viewer: int | None, names: list[str]
    ) -> str:
        from games.orc.board import shown_action

        return shown_action(state, index, viewer, names)

    def context(self, step: ReplayStep | None, board: Mapping[str, Any]) -> dict[str, Any]:
        shows = isinstance(step, replay.Step) and step.reveal
        return {
            "dealt_card": replay.dealt_card(step),
            "reveal": board.get("last_battle") if shows else None,
        }


class OrcPad(ScorePadBase):
    """§7: per round the wizard, his champion and each battle's winners, which the engine
    scores and a played game keeps in its result ({"pad": [entry per round]}); a played
    game's rounds told from them."""

    template = "games/orc/pad.html"
    played_template = "games/orc/played.html"

    def form(
        self,
        data: Mapping[str, Any] | None,
        *,
        names: Sequence[str],
        round_no: int,
        entries: Sequence[dict[str, Any]],
        options: Mapping[str, Any],
    ) -> pad.RoundForm:
        before = list(entries[: round_no - 1])
        initial = entries[round_no - 1] if round_no <= len(entries) else None
        return pad.RoundForm(
            data,
            names=names,
            initial_entry=initial,
            wizard=pad.next_wizard(before, len(names)),
        )

    def sheet(
        self,
        names: Sequence[str],
        entries: Sequence[dict[str, Any]],
        *,
        options: Mapping[str, Any],
        rounds: int,
        finished: bool,
        entered: int | None = None,
    ) -> PadSheet:
        # Every round is checked: each one's wizard follows from the one before (§2).
        return pad.sheet(names, entries, finished=finished)

    def entries(
        self, result: Mapping[str, Any], round_scores: Sequence[Sequence[tuple[int, int]]]
    ) -> list[dict[str, Any]]:
        return list(result.get("pad", []))

    def keep(self, entries: Sequence[dict[str, Any]]) -> dict[str, Any]:
        return {"pad": list(entries)}

    def played_rounds(
        self, result: dict[str, Any] | None, shown: Mapping[str, str]
    ) -> list[dict[str, Any]] | None:
        return pad.played_rounds(result, shown)


class OrcRecords:
    """orc-record/1 (ORC-RULES.md §8): an imported record becomes a played game of its
    rounds' entries, keeping the record and the engine's result beside them, having no
    table to keep them."""

    format = RECORD_FORMAT
    spec = "ORC-RULES.md §8"

    def import_record(self, record: dict[str, Any]) -> ImportedRecord:
        state = records.replayed(engine, record)
        kept = engine.to_record(state)
        result = engine.result(state)
        names = list(state.names)
        played = {"pad": pad.from_result(result, names), "record": kept, "result": result}
        return ImportedRecord(record=kept, names=names, result=_result(result, names, played))


# ----------------------------------------------------------------------------- the game


class DeLOrc(Game[engine.State]):
    key = "orc"
    name = "De l'Orc pour les Braves"
    summary = gettext_lazy(
        "Race for the piles as the army cards are dealt, then fight four battles; the wizard "
        "scores through the champion he names."
    )
    seats = range(4, 8)
    preferred_seats = (5, 6)
    analysis = orc_analysis
    # Each level's name and what a host choosing it should know, in the site's languages.
    ai_levels = {
        "beginner": (
            pgettext_lazy("orc AI level", "Recruit"),
            gettext_lazy(
                "Shields big piles when it thinks of it and sends all its mercenaries or none."
            ),
        ),
        "heuristic": (
            pgettext_lazy("orc AI level", "Sergeant"),
            gettext_lazy(
                "Claims the pile worth most to its hand, spoils its rivals' best cards and "
                "sends the cheapest mercenaries that win a battle."
            ),
        ),
        "expert": (
            pgettext_lazy("orc AI level", "Warlord"),
            gettext_lazy(
                "Weighs every pile by the battle points it brings to whom and plays each "
                "decision out many times before it chooses."
            ),
        ),
    }
    default_ai_level = "heuristic"
    stand_in_level = "heuristic"
    quick_levels = frozenset({"beginner", "heuristic"})
    # The first seat is round 1's wizard, who plays no shields or deserters: a newcomer against
    # AI players learns the deal first, and is the wizard in round 2.
    learner_seat = 1
    board_template = "games/orc/table.html#board"
    page_template = "games/orc/table.html"
    summary_template = "games/orc/table.html#round_summary"
    stylesheet = "css/orc.css"
    online = True
    realtime = DealInRealTime()
    replay = OrcReplay()
    pad = OrcPad()
    records = OrcRecords()

    # ------------------------------------------------------------------ options

    def option_fields(self) -> dict[str, Any]:
        return {
            "pace": forms.TypedChoiceField(
                label=gettext_lazy("Pace of the deal"),
                choices=[
                    (0.8, gettext_lazy("fast: 0.8 s a card")),
                    (1.2, gettext_lazy("normal: 1.2 s a card")),
                    (2.0, gettext_lazy("calm: 2 s a card")),
                ],
                coerce=float,
                initial=DEFAULT_PACE,
                help_text=gettext_lazy("How fast the army cards are dealt in the recruitment."),
            )
        }

    def options_from_form(self, data: Mapping[str, Any]) -> dict[str, Any]:
        return {"pace": data.get("pace") or DEFAULT_PACE}

    def clean_options(self, options: Mapping[str, Any]) -> dict[str, Any]:
        unknown = set(options) - {"pace"}
        if unknown:
            raise ValueError(f"De l'Orc pour les Braves has no option {', '.join(sorted(unknown))}")
        pace = options.get("pace", DEFAULT_PACE)
        if pace not in PACES:
            raise ValueError(f"the pace is one of {', '.join(map(str, PACES))} seconds a card")
        return {"pace": float(pace)}

    def option_labels(self, options: Mapping[str, Any]) -> list[str]:
        # "2 s", "1,2 s": as the form's choices write the pace, in the reader's language.
        pace = floatformat(options.get("pace", DEFAULT_PACE), -1)
        return [_("%(pace)s s a card") % {"pace": pace}]

    # ------------------------------------------------------------------ rules page

    def rules_context(self) -> dict[str, Any]:
        """The cards with their copies and strength, the numbers per player count and the
        battles' points, from the engine (§1, §2, §4.7, §5), named in the page's language."""

        def card(code: str, group: str = "X") -> dict[str, Any]:
            words = {"code": code, "group": group, "name": names.card(code)}
            return words | {"hint": names.strength_hint(code)} | names.face(code)

        rows: list[dict[str, Any]] = [
            {
                "cards": [card(p + kind, p) for p in PEOPLES],
                "copies": COPIES[INDEX[f"B{kind}"]],
                "per": "people",
                "strength": names.strength(f"B{kind}"),
            }
            for kind in "26C"
        ]
        rows += [
            {"cards": [card(code)], "copies": COPIES[INDEX[code]], "strength": names.strength(code)}
            for code in ("GR", "GI", "TR", "WM", "FM", "CG")
        ]
        rows.append(
            {
                "cards": [card(f"SP{n}") for n in range(1, 5)],
                "copies": 1,
                "per": "spy",
                "strength": names.strength("SP1"),
            }
        )
        return {
            "cards": rows,
            "sizes": [
                {"players": n, "piles": PILES[n], "deserters": DESERTERS[n], "target": TARGET[n]}
                for n in self.seats
            ],
            "battles": [
                {"number": b, "points": points} for b, points in enumerate(BATTLE_POINTS, 1)
            ],
            "shields": SHIELDS,
            "start_min": START_MIN,
            "start_max": START_MAX,
            "paces": PACES,
            "least_placing": int(placing_seconds(min(PACES))),
            # The cards the page's examples name.
            "example": {
                code: names.card(code) for code in ("GI", "TR", "B2", "B6", "BC", "WM", "GR")
            },
        }

    # ------------------------------------------------------------------ play

    def new_state(self, table: Table, names: list[str]) -> engine.State:
        deck = table_deck(table.seed, 0)
        # §8: names without whitespace or ':' ("Sergeant 3" plays as "Sergeant-3").
        names = ["-".join(name.replace(":", " ").split()) for name in names]
        return engine.new_game(names, decks=[deck], pace=table.options.get("pace", DEFAULT_PACE))

    def load(self, table: Table) -> engine.State:
        assert table.record is not None, "a table that started keeps its record"
        return engine.from_record(table.record)

    def advance(self, table: Table, state: engine.State) -> None:
        """A round that waits for its deck gets it, and its deal a start time: once the
        players have seen the end of the round before (the table's pause)."""
        while state.pending is None and not state.game_over:
            state.add_round(*table_deck(table.seed, state.rnd))
        deal = _deal(table)
        waiting = table.pause_until is not None
        if state.pending == "recruit" and (
            deal.round != state.rnd or (deal.started is None and not waiting)
        ):
            deal.round = state.rnd
            deal.started = None if waiting else timezone.now() + timedelta(seconds=LEAD_IN)
            deal.ended = False
            deal.save(update_fields=["round", "started", "ended"])
        ended = state.pending != "recruit" or state.dealt == N_CARDS
        if deal.round == state.rnd and ended and not deal.ended:
            deal.ended = True
            deal.save(update_fields=["ended"])

    def dump(self, state: engine.State) -> dict[str, Any]:
        return engine.to_record(state)

    def clone(self, state: engine.State) -> engine.State:
        return state.clone()

    def version(self, state: engine.State) -> int:
        """Decisions in the record, plus one per deal that reached its last card: the end of
        a deal hands the game to its placing step or its champion, which the clock decides."""
        dealing = state.pending == "recruit" and state.dealt < N_CARDS
        return len(state.log) + len(state.history) - dealing

    def rounds_finished(self, state: engine.State) -> int:
        return sum(len(r.battles) == len(BATTLE_POINTS) for r in state.history)

    def pauses(self, state: engine.State) -> int:
        """Every battle's reveal is a pause (§4.5-§4.7): the armies face up, their strength,
        the winners and points; the fourth is the round's end as well."""
        return sum(len(r.battles) for r in state.history)

    def pause_seconds(self, state: engine.State) -> float:
        battle = last_battle(state)
        if battle is not None and battle["battle"] == len(BATTLE_POINTS):
            return settings.ROUND_PAUSE_SECONDS
        return settings.REVEAL_PAUSE_SECONDS

    def decider(self, state: engine.State) -> int | None:
        return state.decider

    def is_over(self, state: engine.State) -> bool:
        return state.game_over

    def apply(self, state: engine.State, text: str, seat: int) -> None:
        words = text.split()
        if words and words[0] in SLAPS:
            if any(word.startswith("@") for word in words):
                raise MoveRefused(_("The server decides when a card lands."), "notation")
            text = f"{' '.join(words)} @{state.dealt}"
        try:
            # A commando names a player and a group; the card is drawn (§4.4 [online]).
            state.apply(engine.parse_move(text, state.names, seat))
        except engine.NotationError as error:
            raise MoveRefused(str(error), "notation") from None
        except engine.IllegalAction as error:
            raise _refusal(error) from None

    def deadline_seconds(self, table: Table, state: engine.State) -> float | None:
        if state.pending == "recruit":
            if state.dealt < N_CARDS:
                return None
            # As fast as the deal runs (settings.DEAL_SPEED: a test's server deals faster).
            return placing_seconds(state.pace) / settings.DEAL_SPEED
        return super().deadline_seconds(table, state)

    def board_context(
        self, table: Table, state: engine.State, viewer: int | None
    ) -> dict[str, Any]:
        from games.orc.board import board_context

        return board_context(table, state, viewer)

    def round_summaries(self, state: engine.State, names: list[str]) -> list[dict[str, Any]]:
        from games.orc.board import round_summaries

        shown = dict(zip(state.names, names, strict=True))
        return round_summaries(engine.result(state), shown, state.target)

    def ai_name(self, level: str) -> str:
        # Stored and written into the record: English, whatever the language of who added it.
        with translation.override("en"):
            return str(self.ai_levels[level][0])

    def ai_move(self, level: str, table: Table, state: engine.State, seat: int, seed: int) -> str:
        return ai.decide(level, engine.view(state, seat), seed=seed)

    def result(self, table: Table, state: engine.State) -> Result:
        """The engine's §8 result; players who forfeited on time are placed after the rest."""
        record = engine.result(state)
        names = list(state.names)
        forfeited = [
            name
            for name in table.seats.filter(forfeited=True).values_list("name", flat=True)
            if name in names
        ]
        if forfeited:
            placings = [record["placings"][name] for name in names]
            placings = with_forfeits(placings, [name in forfeited for name in names])
            record["placings"] = dict(zip(names, placings, strict=True))
            record["forfeited"] = forfeited
        # Each round's wizard, champion and battle winners, as the score pad keeps them.
        return _result(record, names, {"pad": pad.from_result(record, names)})

    def interim_result(
        self, table: Table, state: engine.State, forfeited: Sequence[bool]
    ) -> Result:
        """The battles fought so far (§8's rounds as far as they have gone), placed by §5."""
        record = engine.result(state)
        names = list(state.names)
        placings = with_forfeits(engine.placings(state.history, state.totals), forfeited)
        record["placings"] = dict(zip(names, placings, strict=True))
        record["forfeited"] = [name for name, out in zip(names, forfeited, strict=True) if out]
        record["adjudicated"] = True
        # No entries for a score pad: the round under way has none to give.
        return _result(record, names, {})


def _result(record: dict[str, Any], names: list[str], played: dict[str, Any]) -> Result:
    """The site's result from the engine's (§8), seat by seat; a played game keeps `played`."""
    round_scores = [[r["scores"][name] for r in record["rounds"]] for name in names]
    return Result(
        placings=[record["placings"][name] for name in names],
        scores=[record["totals"][name] for name in names],
        round_scores=round_scores,
        round_bonuses=[[0] * len(scores) for scores in round_scores],
        record=record,
        played_result=played,
    )


def _deal(table: Table) -> Deal:
    from games.orc.models import Deal

    try:
        return table.deal
    except Deal.DoesNotExist:
        # Made when first asked for (the game starts), with the table's pace.
        pace = table.options.get("pace", DEFAULT_PACE)
        table.deal, _created = Deal.objects.get_or_create(table=table, defaults={"pace": pace})
        return table.deal


DE_L_ORC = DeLOrc()
