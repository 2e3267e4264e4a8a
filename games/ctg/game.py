"""Call to Glory as the site hosts it: the shared machinery reaches its engine and AI here."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from django import forms
from django.core.exceptions import ValidationError
from django.utils.text import capfirst
from django.utils.translation import gettext_lazy as _
from django.utils.translation import gettext_noop

from games import records
from games.ctg import ai, engine, replay
from games.ctg import analysis as ctg_analysis
from games.ctg.engine import pad
from games.ctg.engine.cards import VALUES, full_deck
from games.ctg.engine.record import FORMAT as RECORD_FORMAT
from games.ctg.engine.record import logged_actions
from games.ctg.pad import problem_text
from games.registry import (
    Game,
    ImportedRecord,
    MoveRefused,
    PlayedFilter,
    ReplayStep,
    Result,
    ScorePadBase,
    with_forfeits,
)

if TYPE_CHECKING:
    from games.models import Table

MODES = [("standard", _("Standard game (4 rounds)")), ("quick", _("Quick game (1 round)"))]
# A table's options; with Imperial Tasks it also keeps "task_distribution", the task cards
# its game was dealt from (games.ctg.models.TaskCards), once it starts.
DEFAULT_OPTIONS = {"rounds": 4, "imperial_tasks": False, "ninja": False}
# Variant names (records, API) -> option.
VARIANTS = {"imperial-tasks": "imperial_tasks", "ninja": "ninja"}


# ----------------------------------------------------------------------------- its parts
# (games.registry: the optional parts a game may bring)


class CallToGloryReplay:
    """Its replay, action by action (games.ctg.replay); below the board, the discard piles."""

    template = "games/ctg/replay.html"

    def steps(self, record: dict[str, Any]) -> list[ReplayStep]:
        return replay.steps(record)

    def position(self, record: dict[str, Any], step: ReplayStep | None) -> engine.State:
        return replay.position(record, step.actions if step else 0)

    def present(self, table: Table, state: engine.State) -> engine.State:
        # Between rounds the next deck is the table's, from its seed: no record holds it yet.
        return supply_decks(table, state)

    def board(self, context: dict[str, Any]) -> dict[str, Any]:
        return context | {"choices": None, "replay": True}

    def shown_action(
        self, state: engine.State, index: int, text: str, viewer: int | None, names: list[str]
    ) -> str:
        return text

    def context(self, step: ReplayStep | None, board: Mapping[str, Any]) -> dict[str, Any]:
        return {"piles": replay.piles(board)}


class CallToGloryPad(ScorePadBase):
    """Round scores, with the Imperial Tasks' bonus kept apart, checked by the rules (§9)."""

    # Every type's cards in front of one player: all the points a round holds.
    score_max = pad.ROUND_MAX

    def keeps_bonuses(self, options: Mapping[str, Any]) -> bool:
        return bool(options.get("imperial_tasks"))

    def problems(
        self,
        round_no: int,
        scores: Sequence[int],
        bonuses: Sequence[int] | None,
        names: Sequence[str],
        options: Mapping[str, Any],
    ) -> list[str]:
        # A Ninja miniature can leave a set of one card for a task card to pay (§8).
        problems = pad.check_round(round_no, scores, bonuses, ninja=bool(options.get("ninja")))
        return [problem_text(problem, names) for problem in problems]

    def placings(self, round_scores: Sequence[Sequence[int]]) -> list[int]:
        return pad.placings(round_scores)


class CallToGloryChart:
    """The characters a player laid most, over their finished online games."""

    title = _("Favourite characters laid (online games)")

    def count(self, record: dict[str, Any], name: str) -> Mapping[str, int]:
        from games.ctg.board import CHARACTERS

        counts: Counter[str] = Counter()
        prefix = f"{name}: lay "
        for rnd in record.get("rounds", []):
            for line in rnd.get("actions", []):
                if line.startswith(prefix):
                    value, count = line[len(prefix) :].split(" ")
                    counts[f"{CHARACTERS[int(value)]} ({value})"] += int(count)
        return counts


class CallToGloryRecords:
    """ctg-record/1 (RULES.md §10): an imported record becomes a finished online table, as
    if played here."""

    format = RECORD_FORMAT
    spec = "RULES.md §10"

    def import_record(self, record: dict[str, Any]) -> ImportedRecord:
        state = records.replayed(engine, record)
        options = {
            "rounds": state.options.rounds,
            "imperial_tasks": "imperial-tasks" in state.options.variants,
            "ninja": "ninja" in state.options.variants,
        }
        return ImportedRecord(
            record=engine.to_record(state),
            names=list(state.names),
            result=CALL_TO_GLORY.finished_result(state, options, []),
            table_options=options,
        )


# ----------------------------------------------------------------------------- the game


class CallToGlory(Game[engine.State]):
    key = "ctg"
    name = "Call to Glory"
    summary = _(
        "Collect sets of characters and lay them in front of you: each type lying in front of "
        "you when the round ends scores its value."
    )
    seats = range(2, 5)
    preferred_seats = (4,)
    # Each level's name and what a host choosing it should know, in the site's languages.
    ai_levels = {
        "greedy": (
            _("Beginner"),
            _("Lays its most valuable set as soon as it can, otherwise discards its rarest card."),
        ),
        "heuristic": (
            _("Card counter"),
            _(
                "Counts every card it has seen, lays sets that others can hardly beat, keeps "
                "pairs and sets the pace of the round."
            ),
        ),
        "search": (
            _("Tactician"),
            _(
                "Imagines thousands of ways the hidden cards could lie and plays each out to "
                "the end of the round: about a second a turn."
            ),
        ),
        "search-strong": (
            _("Master"),
            _("The tactician thinking twice as long: up to two seconds a turn."),
        ),
    }
    default_ai_level = ai.DEFAULT_LEVEL
    # Quick, and sensible.
    stand_in_level = "heuristic"
    quick_levels = frozenset({"greedy", "heuristic"})
    board_template = "games/ctg/table.html#board"
    page_template = "games/ctg/table.html"
    summary_template = "games/ctg/table.html#round_end"
    legend_template = "games/_card_legend.html"
    stylesheet = "css/ctg.css"
    rounds = (1, 3, 4)
    analysis = ctg_analysis
    variant_names = tuple(VARIANTS)
    replay = CallToGloryReplay()
    pad = CallToGloryPad()
    chart = CallToGloryChart()
    records = CallToGloryRecords()

    def option_fields(self) -> dict[str, Any]:
        return {
            "mode": length_field(_("Length")),
            "imperial_tasks": forms.BooleanField(
                label=_("Imperial Tasks"),
                required=False,
                help_text=_("Three rounds; task cards score bonus points."),
            ),
            "ninja": forms.BooleanField(label=_("Power of the Ninja"), required=False),
        }

    def options_from_form(self, data: Mapping[str, Any]) -> dict[str, Any]:
        if data.get("imperial_tasks") and data.get("mode") == "quick":
            raise ValidationError(
                {"mode": _("Imperial Tasks is played over three rounds, not as a quick game.")}
            )
        tasks = bool(data.get("imperial_tasks"))
        rounds = pad.rounds_for(data.get("mode", "standard"), tasks)
        return {"rounds": rounds, "imperial_tasks": tasks, "ninja": bool(data.get("ninja"))}

    def clean_options(self, options: Mapping[str, Any]) -> dict[str, Any]:
        # The task cards are dealt when a game starts: a new table (a rematch) deals afresh.
        unknown = set(options) - set(DEFAULT_OPTIONS) - {"task_distribution"}
        if unknown:
            raise ValueError(f"Call to Glory has no option {', '.join(sorted(unknown))}")
        cleaned = {key: options.get(key, default) for key, default in DEFAULT_OPTIONS.items()}
        if not all(isinstance(cleaned[key], bool) for key in ("imperial_tasks", "ninja")):
            raise ValueError("Imperial Tasks and Ninja are on or off")
        if cleaned["rounds"] not in ((3,) if cleaned["imperial_tasks"] else (1, 4)):
            raise ValueError("a game has 4 rounds, 1 (quick) or 3 (Imperial Tasks)")
        return cleaned

    def option_labels(self, options: Mapping[str, Any]) -> list[str]:
        if options.get("imperial_tasks"):
            length = _("Imperial Tasks")
        elif options.get("rounds") == 1:
            length = _("quick game")
        else:
            length = _("standard")
        return [str(length)] + ([str(_("Power of the Ninja"))] if options.get("ninja") else [])

    def played_options(self, options: Mapping[str, Any]) -> dict[str, Any]:
        return {
            "imperial_tasks": bool(options.get("imperial_tasks")),
            "ninja": bool(options.get("ninja")),
        }

    def played_labels(self, options: Mapping[str, Any]) -> list[str]:
        labels = [_("Imperial Tasks")] if options.get("imperial_tasks") else []
        if options.get("ninja"):
            labels.append(_("Power of the Ninja"))
        return [str(label) for label in labels]

    def variants(self, options: Mapping[str, Any]) -> list[str]:
        return [name for name, option in VARIANTS.items() if options.get(option)]

    def played_filters(self) -> list[PlayedFilter]:
        yes_no = ("yes", _("yes"), {"ninja": True}), ("no", _("no"), {"ninja": False})
        return [
            PlayedFilter(
                "mode",
                _("Mode"),
                (
                    ("standard", _("standard (4 rounds)"), {"rounds": 4}),
                    ("quick", _("quick (1 round)"), {"rounds": 1}),
                    ("imperial", _("Imperial Tasks"), {"imperial_tasks": True}),
                ),
                gettext_noop("standard, quick or imperial"),
            ),
            PlayedFilter("ninja", _("Power of the Ninja"), yes_no, gettext_noop("yes or no")),
        ]

    # A league plays its length and variants; a tournament its length.
    def league_option_fields(self) -> dict[str, Any]:
        return {
            "game_length": length_field(capfirst(_("game length"))),
            "imperial_tasks": forms.BooleanField(
                label=_("Imperial Tasks variant (3 rounds)"), required=False
            ),
            "ninja": forms.BooleanField(label=_("The Power of the Ninja variant"), required=False),
        }

    def tournament_option_fields(self) -> dict[str, Any]:
        return {"game_length": length_field(_("Game length"))}

    def event_labels(self, options: Mapping[str, Any]) -> list[str]:
        labels = [dict(MODES)[options.get("game_length", "standard")]]
        if options.get("imperial_tasks"):
            labels.append(_("Imperial Tasks"))
        if options.get("ninja"):
            labels.append(_("The Power of the Ninja"))
        return [str(label) for label in labels]

    def event_table_options(self, options: Mapping[str, Any]) -> dict[str, Any]:
        tasks = bool(options.get("imperial_tasks"))
        return {
            "rounds": pad.rounds_for(options.get("game_length", "standard"), tasks),
            "imperial_tasks": tasks,
            "ninja": bool(options.get("ninja")),
        }

    def engine_options(self, table: Table) -> engine.Options:
        return engine.Options(
            table.seats_count, table.options["rounds"], frozenset(self.variants(table.options))
        )

    def new_state(self, table: Table, names: list[str]) -> engine.State:
        tasks = None
        if table.options.get("imperial_tasks"):
            from games.ctg.engine.state import deal_tasks
            from games.ctg.models import TaskCards

            distribution = TaskCards.current()
            table.options = table.options | {"task_distribution": distribution}
            rng = random.Random(f"{table.seed}:tasks")
            tasks = deal_tasks(table.seats_count, rng, distribution)
        return engine.new_game(
            self.engine_options(table), names, decks=[table_deck(table.seed, 0)], tasks=tasks
        )

    def load(self, table: Table) -> engine.State:
        assert table.record is not None, "a table that started keeps its record"
        return supply_decks(table, engine.from_record(table.record))

    def advance(self, table: Table, state: engine.State) -> None:
        supply_decks(table, state)

    def dump(self, state: engine.State) -> dict[str, Any]:
        return engine.to_record(state)

    def clone(self, state: engine.State) -> engine.State:
        return state.clone()

    def version(self, state: engine.State) -> int:
        return len(logged_actions(state))

    def decider(self, state: engine.State) -> int | None:
        return state.decider

    def is_over(self, state: engine.State) -> bool:
        return state.game_over

    def apply(self, state: engine.State, text: str, seat: int) -> None:
        try:
            state.apply(engine.parse_action(text, state.names), seat)
        except engine.NotationError as error:
            raise MoveRefused(str(error), "notation") from None
        except engine.IllegalAction as error:
            raise MoveRefused(error.message, error.code) from None

    def rounds_finished(self, state: engine.State) -> int:
        return len(state.history)

    def board_context(
        self, table: Table, state: engine.State, viewer: int | None
    ) -> dict[str, Any]:
        from games.ctg.board import board_context

        return board_context(table, state, viewer)

    def pile_page(
        self, table: Table, state: engine.State, viewer: int | None, pile: str
    ) -> tuple[str, dict[str, Any]] | None:
        """A discard pile (X1, X2), top card first: everyone sees them whole."""
        from games.ctg.board import card

        cards = engine.public_view(state)["discard_piles"].get(pile)
        if cards is None:
            return None
        shown = [card(value) for value in reversed(cards)]
        return "games/ctg/discard_pile.html", {"pile": pile, "cards": shown}

    def round_summaries(self, state: engine.State, names: list[str]) -> list[dict[str, Any]]:
        from games.ctg.board import round_summary

        view = engine.public_view(state)
        return [round_summary(view, n, names) for n in range(1, len(view["round_scores"]) + 1)]

    def ai_view(self, table: Table, state: engine.State, seat: int) -> dict[str, Any]:
        """What an AI player at `seat` may see: its view and the game's task card faces."""
        return engine.view(state, seat) | {"task_cards": table.options.get("task_distribution")}

    def ai_name(self, level: str) -> str:
        return ai.LEVELS[level][0]

    def ai_move(self, level: str, table: Table, state: engine.State, seat: int, seed: int) -> str:
        return ai.decide(level, self.ai_view(table, state, seat), seed=seed)

    def result(self, table: Table, state: engine.State) -> Result:
        """The engine's result; players who forfeited on time are placed after everyone else."""
        forfeited = [
            name
            for name in table.seats.filter(forfeited=True).values_list("name", flat=True)
            if name in state.names
        ]
        return self.finished_result(state, table.options, forfeited)

    def finished_result(
        self, state: engine.State, options: Mapping[str, Any], forfeited: list[str]
    ) -> Result:
        record = engine.result(state)
        assert record is not None
        names = state.names
        placings = [record["placings"][name] for name in names]
        if forfeited:
            placings = with_forfeits(placings, [name in forfeited for name in names])
            record["placings"] = dict(zip(names, placings, strict=True))
            record["forfeited"] = forfeited
        return Result(
            placings=placings,
            scores=[record["totals"][name] for name in names],
            round_scores=[[r["scores"][name] for r in record["rounds"]] for name in names],
            round_bonuses=task_bonuses(state),
            variants=frozenset(self.variants(options)),
            record=record,
        )

    def interim_result(
        self, table: Table, state: engine.State, forfeited: Sequence[bool]
    ) -> Result:
        """The rounds played, the round under way as its table stands (the sets laid, the
        Imperial Tasks still hidden counting nothing) and nothing for the rounds not begun."""
        n, names = state.n, state.names
        rounds = [list(r.scores) for r in state.history]
        bonuses = [list(r.bonus) for r in state.history]
        if not state.game_over:
            laid = [0] * n
            for t, owner in enumerate(state.owner):
                if owner >= 0:
                    laid[owner] += VALUES[t]
            rounds.append(laid)
            bonuses.append([0] * n)
        while len(rounds) < state.options.rounds:
            rounds.append([0] * n)
            bonuses.append([0] * n)
        round_scores = [[r[seat] for r in rounds] for seat in range(n)]
        totals = [sum(scores) for scores in round_scores]
        placings = with_forfeits(pad.placings(round_scores), forfeited)
        record = {
            "totals": dict(zip(names, totals, strict=True)),
            "placings": dict(zip(names, placings, strict=True)),
            "forfeited": [name for name, out in zip(names, forfeited, strict=True) if out],
            "adjudicated": True,
        }
        return Result(
            placings=placings,
            scores=totals,
            round_scores=round_scores,
            round_bonuses=[[r[seat] for r in bonuses] for seat in range(n)],
            variants=frozenset(self.variants(table.options)),
            record=record,
        )


def table_deck(seed: int, round_index: int) -> list[int]:
    """A round's shuffled deck, as values; follows from the table's secret seed, and no view
    shows a card before it is drawn."""
    deck = full_deck()
    random.Random(f"{seed}:{round_index}").shuffle(deck)
    return [VALUES[t] for t in deck]


def supply_decks(table: Table, state: engine.State) -> engine.State:
    """Deal the next round's deck when the game waits for one."""
    while state.decider is None and not state.game_over:
        state.add_deck(table_deck(table.seed, state.rnd))
    return state


def length_field(label: Any) -> forms.ChoiceField:
    return forms.ChoiceField(label=label, choices=MODES, initial="standard")


def task_bonuses(state: engine.State) -> list[list[int]]:
    """Per seat, per round, the Imperial Tasks part of its round score."""
    return [[r.bonus[seat] for r in state.history] for seat in range(state.n)]


CALL_TO_GLORY = CallToGlory()
