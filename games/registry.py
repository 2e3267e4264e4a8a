"""The games this site hosts, and what the shared machinery asks of each.

A game is a Django app under `games/` (e.g. `games/ctg/`) holding its pure engine, its AI,
its models, templates and static files, and a `game.py` with one `Game` instance.
`settings.GAMES` names those instances; tables, results, leagues, ratings, tournaments and
history look a game up here by its key and never import a game's package themselves.

`Game` is the core every game brings; the optional parts (`RealTime`, `Replay`, `ScorePad`,
`Chart`, `Records`, room for `Analysis`) are objects a game may hang on it, each with its
own small protocol. The entry points a game's own code calls back into are in
games.actions (`play`, `push_board`, `send_to_table`, `enqueue`, `catch_up`) and
games.tasks (`queue_clock_check`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache
from typing import TYPE_CHECKING, Any, Protocol

from django.conf import settings
from django.utils.functional import Promise
from django.utils.module_loading import import_string
from django.utils.translation import gettext as _

from games.analysis import GameAnalysis
from games.pad import RoundScoresForm

if TYPE_CHECKING:
    from games.models import Table


class MoveRefused(Exception):
    """A move the game does not accept: `message` for the player, `code` for programs."""

    def __init__(self, message: str, code: str = "refused"):
        super().__init__(message)
        self.message = message
        self.code = code


@dataclass(frozen=True)
class Result:
    """A finished game, per seat in seat order, as leagues, ratings and history keep it."""

    placings: list[int]  # sport style: 1, 1, 3
    scores: list[int]
    # Per seat, per round: the round score (all of it) and the part a score pad keeps apart.
    round_scores: list[list[int]]
    round_bonuses: list[list[int]]
    variants: frozenset[str] = frozenset()
    record: dict[str, Any] = field(default_factory=dict)  # what the table keeps as its result
    # The game's own account of its rounds, as a played game keeps it (PlayedGame.result):
    # what its score pad keeps of its round entries (ScorePad.keep; De l'Orc's {"pad": [...]}).
    played_result: dict[str, Any] = field(default_factory=dict)


class PadRefused(Exception):
    """Round entries on a score pad the rules cannot produce: `problems` (for the reader), each
    naming its round and the reason."""

    def __init__(self, *problems: str):
        super().__init__(*problems)
        self.problems = list(problems)

    @property
    def message(self) -> str:
        return " ".join(self.problems)


@dataclass(frozen=True)
class PadSheet:
    """A score pad's rounds as the game reads them (ScorePad.sheet)."""

    round_scores: list[list[int]]  # per seat, per round entered: all of each round's score
    placings: list[int] | None  # sport style; None while the game is not over
    rounds: list[dict[str, Any]] = field(default_factory=list)  # per row of the pad page
    # Per seat, per round: the part of round_scores the pad keeps apart; empty: none.
    round_bonuses: list[list[int]] = field(default_factory=list)


@dataclass(frozen=True)
class PlayedFilter:
    """A choice history and the API offer to narrow a game's played games by what they were
    played with; `name` is its query parameter.

    Each choice is (value, label, match): `match` names what a played game of the game shows
    when it matches, by its round count ("rounds") and its kept options
    (Game.played_options) by name; an option matched as False also matches a game that
    does not name it.
    """

    name: str
    label: str | Promise
    choices: tuple[tuple[str, str | Promise, Mapping[str, Any]], ...]
    description: str = ""  # the API's, in English; mark it with gettext_noop


@dataclass(frozen=True)
class ReplayStep:
    """One step of a game's replay (`Replay.steps`): the record's first `actions`
    actions taken. A game may subclass it to keep what its own steps show besides."""

    actions: int
    # The action the step takes, as the record writes it; "" for a step the game takes by
    # itself (an army card De l'Orc deals).
    text: str = ""
    # Steps a replay may skip to the end of together (De l'Orc's deal of one round), named
    # alike; None for a step in no such stretch.
    stretch: int | None = None


class RecordRefused(Exception):
    """A record that cannot be imported; `message` (for the importer) says why, in the
    engine's words when its rules refuse it."""

    def __init__(self, message: str):
        super().__init__(message)
        self.message = message


@dataclass(frozen=True)
class ImportedRecord:
    """A finished game's record as its game has checked it: what history stores of it."""

    record: dict[str, Any]  # as the game keeps it: the same game always gives the same one
    names: list[str]  # the players, seat by seat
    result: Result
    # The options of the finished online table it becomes, which then keeps `record` and
    # `result.record` and is announced like any finished table; None: it becomes a played
    # game only, which keeps `result.played_result`.
    table_options: dict[str, Any] | None = None


def most_points_first(round_scores: Sequence[Sequence[int]]) -> list[int]:
    """Final places from per-player round scores, sport style, most points first: how a
    game without a score pad of its own is placed from scores entered by hand."""
    totals = [sum(scores) for scores in round_scores]
    return [1 + sum(other > mine for other in totals) for mine in totals]


def with_forfeits(placings: Sequence[int], forfeited: Sequence[bool]) -> list[int]:
    """Places after forfeits: every player who forfeited comes after all who did not.

    Within each group the game's order holds, ties included (sport style: 1, 1, 3).
    """
    order = sorted(range(len(placings)), key=lambda i: (forfeited[i], placings[i]))
    places = [0] * len(placings)
    for rank, i in enumerate(order):
        before = order[rank - 1] if rank else None
        tied = (
            before is not None
            and forfeited[before] == forfeited[i]
            and placings[before] == placings[i]
        )
        places[i] = places[before] if tied and before is not None else rank + 1
    return places


# ----------------------------------------------------------------------------- optional parts
# What only some games have, each one object with its own small protocol, on the game's
# attribute of that name; None: the game has no such part, and the shared code asks
# (`game.pad is not None`) rather than branching on flags. A part is added the same way:
# a protocol here, an attribute on Game defaulting to None, and the shared code asking for it.


class RealTime[S](Protocol):
    """Play that runs with the clock and no single decider (De l'Orc's deal): the position
    moves on with time alone, and anyone may act at any moment."""

    def catch_up(self, table: Table, state: S) -> None:
        """Bring a position rebuilt from the record to the present: what the clock alone moves
        on, with no decision. Called for every `table.state()`."""
        ...

    def live(self, table: Table) -> bool:
        """Whether the position changes with time alone right now: its renders are then
        drawn afresh, never taken from a cache keyed by version."""
        ...

    def is_realtime(self, text: str) -> bool:
        """Whether `text` is a move anyone may make at any moment (a slap): it names no
        version; the table's lock orders it among others."""
        ...

    def set_going(self, table: Table, state: S) -> dict[str, Any] | None:
        """After a save that leaves no single decider: set going what runs it (before the
        save commits: use games.actions.enqueue). May return a small push for the table's
        group to send instead of the whole board."""
        ...

    def render_update(self, event: dict[str, Any], viewer: int | None, language: str) -> str:
        """A small push of the game's own (its "type" is "table.update", its "game" the
        game's key) as `viewer`'s socket shows it, in `language`."""
        ...

    def timeout_moves(self, table: Table, state: S) -> list[tuple[int, str]]:
        """What the site plays when time runs out where no single seat decides."""
        ...

    def watch(self) -> None:
        """Start what the game keeps running beside each web and worker process (a watcher
        of deals nobody pushes any longer)."""
        ...


class Replay[S](Protocol):
    """Stepping through a table's record in history's replay."""

    @property
    def template(self) -> str:
        """A template whose partials draw what a step shows besides its board and its last
        action: "step" above the board, "below" under it, from `context`; "": nothing."""
        ...

    def steps(self, record: dict[str, Any]) -> list[ReplayStep]:
        """Every step of the replay, in order; the position before the first is step 0."""
        ...

    def position(self, record: dict[str, Any], step: ReplayStep | None) -> S:
        """The position after `step`, one of `steps(record)` (None: the start), rebuilt from
        the record as `Game.board_context` draws it; never one that could not be seen."""
        ...

    def present(self, table: Table, state: S) -> S:
        """The last step of a running game's replay (its own players watch it): the record's
        position brought to what the table shows without anyone deciding."""
        ...

    def board(self, context: dict[str, Any]) -> dict[str, Any]:
        """The board's context (`Game.board_context`) as a replay draws it: nothing to decide
        and nothing to put down."""
        ...

    def shown_action(
        self, state: S, index: int, text: str, viewer: int | None, names: list[str]
    ) -> str:
        """Action `index` (from 0) of the record, `text`, as `viewer` may read it at `state`
        (`names`: the players as the page shows them, seat by seat)."""
        ...

    def context(self, step: ReplayStep | None, board: Mapping[str, Any]) -> dict[str, Any]:
        """What `template` draws of `step` (None: the start), with `board`: the board's
        context at it, in the page's language."""
        ...


class PadForm(Protocol):
    """The form of one round of a score pad."""

    def is_valid(self) -> bool: ...

    @property
    def errors(self) -> Mapping[str, Any]: ...

    def entry(self) -> dict[str, Any]: ...


class ScorePad(Protocol):
    """The game kept on paper at a club's table, entered round by round on a league's score
    pad, and a played game's rounds as history tells them.

    Each round is an entry (JSON) of the game's own: what `form` asks for, and what `sheet`
    checks, scores and places. A played game keeps its round scores (leagues' RoundScore
    rows, from the sheet); `keep` says what it keeps of the entries besides, in its result,
    and `entries` reads them back from both. `template` holds the partials "sheet" (the pad
    page's rounds), "fields" (a round's fields) and "preview" (a round's points as it is being
    entered).
    """

    @property
    def template(self) -> str: ...

    @property
    def score_max(self) -> int | None:
        """The most one player scores in a round; None: no limit."""
        ...

    @property
    def played_template(self) -> str:
        """The game's own account of a played game's rounds on its history page (a partial,
        given `result`: what `played_rounds` makes of it); "": none."""
        ...

    def keeps_bonuses(self, options: Mapping[str, Any]) -> bool:
        """Whether the pad of a game played with `options` asks for a bonus apart from each
        round score."""
        ...

    def form(
        self,
        data: Mapping[str, Any] | None,
        *,
        names: Sequence[str],
        round_no: int,
        entries: Sequence[dict[str, Any]],
        options: Mapping[str, Any],
    ) -> PadForm:
        """The form of round `round_no` (from 1) after `entries`, of a game played with
        `options` by `names`; its `entry()` is the round."""
        ...

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
        """Score the entered rounds of a game played with `options` and, once the game is
        over, place them (`rounds`: the played game's count, the end of a game of so many
        rounds). Raise PadRefused with what the rules refuse: round `entered` (just entered;
        the others were checked when they were) and whatever the game checks of its rounds
        together, and when `finished` a game that is not over."""
        ...

    def entries(
        self, result: Mapping[str, Any], round_scores: Sequence[Sequence[tuple[int, int]]]
    ) -> list[dict[str, Any]]:
        """A played game's entries, from what it keeps: its `result` (PlayedGame.result) and
        its round scores (per round, per seat: the score and the bonus kept apart)."""
        ...

    def keep(self, entries: Sequence[dict[str, Any]]) -> dict[str, Any]:
        """What a played game keeps of `entries` in its result, besides the round scores."""
        ...

    def played_rounds(
        self, result: dict[str, Any] | None, shown: Mapping[str, str]
    ) -> list[dict[str, Any]] | None:
        """What `played_template` shows of a played game's account of its rounds (`shown`:
        the players' names as the page shows them, by their names in it); None: nothing."""
        ...


class ScorePadBase:
    """The plain pad, which a game's pad subclasses: each round is each player's score and the
    bonus kept apart (`{"scores": [...], "bonuses": [...]}`, seat by seat), as the round
    scores keep it; `problems` checks a round as entered (nothing by default), and once every
    round is in, `placings` places the game (most points first)."""

    template = "leagues/_score_pad.html"
    score_max: int | None = None
    played_template = ""

    def keeps_bonuses(self, options: Mapping[str, Any]) -> bool:
        return False

    def problems(
        self,
        round_no: int,
        scores: Sequence[int],
        bonuses: Sequence[int] | None,
        names: Sequence[str],
        options: Mapping[str, Any],
    ) -> list[str]:
        """What cannot be right about one entered round of a game played with `options`, in
        the reader's language, naming the round, the players (`names`, in seat order) and the
        reason."""
        return []

    def placings(self, round_scores: Sequence[Sequence[int]]) -> list[int]:
        """Final places from per-player round scores, sport style."""
        return most_points_first(round_scores)

    def form(
        self,
        data: Mapping[str, Any] | None,
        *,
        names: Sequence[str],
        round_no: int,
        entries: Sequence[dict[str, Any]],
        options: Mapping[str, Any],
    ) -> PadForm:
        return RoundScoresForm(
            data,
            names=names,
            entry=entries[round_no - 1] if round_no <= len(entries) else None,
            score_max=self.score_max,
            bonuses=self.keeps_bonuses(options),
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
        if entered is not None:
            entry = entries[entered - 1]
            problems = self.problems(entered, entry["scores"], entry["bonuses"], names, options)
            if problems:
                raise PadRefused(*problems)
        if finished and len(entries) < rounds:
            raise PadRefused(_("Enter every round first."))
        seats = range(len(names))
        bonuses = [[entry["bonuses"][seat] for entry in entries] for seat in seats]
        scores = [[entry["scores"][seat] for entry in entries] for seat in seats]
        round_scores = [
            [s + b for s, b in zip(scores[seat], bonuses[seat], strict=True)] for seat in seats
        ]
        return PadSheet(
            round_scores=round_scores,
            placings=self.placings(round_scores) if len(entries) >= rounds else None,
            # Every round of the game, those still to enter without scores.
            rounds=[
                {
                    "round": r,
                    "cells": [
                        (scores[seat][r - 1], bonuses[seat][r - 1])
                        if r <= len(entries)
                        else (None, None)
                        for seat in seats
                    ],
                }
                for r in range(1, max(rounds, len(entries)) + 1)
            ],
            round_bonuses=bonuses,
        )

    def entries(
        self, result: Mapping[str, Any], round_scores: Sequence[Sequence[tuple[int, int]]]
    ) -> list[dict[str, Any]]:
        return [
            {"scores": [s for s, _b in seats], "bonuses": [b for _s, b in seats]}
            for seats in round_scores
        ]

    def keep(self, entries: Sequence[dict[str, Any]]) -> dict[str, Any]:
        return {}

    def played_rounds(
        self, result: dict[str, Any] | None, shown: Mapping[str, str]
    ) -> list[dict[str, Any]] | None:
        return None


class Chart(Protocol):
    """A chart on a player's page, counted over their finished online games' records."""

    @property
    def title(self) -> str | Promise: ...

    def count(self, record: dict[str, Any], name: str) -> Mapping[str, int]:
        """What the player `name` did in one finished game's record, counted by label."""
        ...


class Records(Protocol):
    """The game's records as files: exported as kept, and imported when checked."""

    @property
    def format(self) -> str:
        """The "format" its records name, e.g. "ctg-record/1"."""
        ...

    @property
    def spec(self) -> str:
        """Where that format is described, e.g. "RULES.md §10"."""
        ...

    def import_record(self, record: dict[str, Any]) -> ImportedRecord:
        """Check a finished game's record (its `played_at` taken off) with the game's rules,
        and say what it becomes; raise RecordRefused naming what is wrong."""
        ...


# The analysis of a finished game: games.analysis.GameAnalysis (each game's `analysis` module).
Analysis = GameAnalysis


# ----------------------------------------------------------------------------- the core


class Game[S]:
    """What a game brings to the site. Subclass it in `games/<game>/game.py`.

    `S` is the game's position, its engine's own state: the site only hands it back to these
    methods. The core below is what every game brings: its seats and AI levels, a position
    started, loaded, saved (`dump`), copied and moved on by a decision (`apply`), who
    decides, the board's context for a seat, an AI player's move and the result. The rest
    of the core has defaults; the optional parts above are None unless the game has them.
    """

    key: str = ""  # stored on tables, played games and leagues; never change it
    name: str = ""
    # The game in a sentence, for the pages that offer it (the home page, the lobby).
    summary: str | Promise = ""
    seats: range  # players at one table
    preferred_seats: tuple[int, ...]  # what a tournament seats when it can
    # level -> (name, description), weakest first
    ai_levels: Mapping[str, tuple[str | Promise, str | Promise]] = {}
    default_ai_level: str = ""
    stand_in_level: str = ""  # plays for people who left or ran out of time
    # The seat a person takes at a game against AI players (actions.play_against_ai).
    learner_seat = 0
    # Levels that decide in milliseconds: they decide under the table's lock, in the one
    # transaction that saves the move (the others decide first, then save if still current).
    quick_levels: frozenset[str] = frozenset()
    board_template: str = ""  # the table page's board partial
    # The table page around it: the site's, or the game's own that extends it.
    page_template: str = "games/table.html"
    summary_template: str = ""  # a round of `round_summaries`
    stylesheet: str = ""  # a static stylesheet for the pages that show the game's partials
    legend_template: str = ""  # the game's pieces, shown below the form that opens a table
    # Round counts a table's options may name ("rounds").
    rounds: tuple[int, ...] = ()
    variant_names: tuple[str, ...] = ()  # every name `variants` may give
    online = True  # whether tables can be opened for it

    # The optional parts (see their protocols above); None: the game has none.
    realtime: RealTime[S] | None = None
    replay: Replay[S] | None = None
    pad: ScorePad | None = None
    chart: Chart | None = None
    records: Records | None = None
    analysis: Analysis | None = None

    # --- the core every game brings: a position, and play on it
    def new_state(self, table: Table, names: list[str]) -> S:
        """The position a table starts from, its players seated as `names`."""
        raise NotImplementedError

    def load(self, table: Table) -> S:
        """The position of a table, rebuilt from `table.record`."""
        raise NotImplementedError

    def dump(self, state: S) -> dict[str, Any]:
        """The record (JSON) a table keeps; `load` rebuilds the position from it."""
        raise NotImplementedError

    def clone(self, state: S) -> S:
        raise NotImplementedError

    def version(self, state: S) -> int:
        """How many decisions the record holds: a move names the version it was made at."""
        raise NotImplementedError

    def decider(self, state: S) -> int | None:
        raise NotImplementedError

    def is_over(self, state: S) -> bool:
        raise NotImplementedError

    def apply(self, state: S, text: str, seat: int) -> None:
        """Apply one decision of `seat`, in the game's notation; raise MoveRefused if it is not
        one, or not legal now."""
        raise NotImplementedError

    def board_context(self, table: Table, state: S, viewer: int | None) -> dict[str, Any]:
        """The board template's context for `viewer` (a seat, or None for a spectator)."""
        raise NotImplementedError

    def ai_move(self, level: str, table: Table, state: S, seat: int, seed: int) -> str:
        raise NotImplementedError

    def result(self, table: Table, state: S) -> Result:
        raise NotImplementedError

    # --- the rest of the core, with defaults a game may override
    # --- options: the game's own, kept as JSON on a table (`Table.options`) and on a played
    # game (`PlayedGame.options`); the shared models hold no column of any one game.
    def option_fields(self) -> dict[str, Any]:
        """Form fields (name -> django.forms.Field) the table-creation form shows for the
        game's options, right after the number of players."""
        return {}

    def options_from_form(self, data: Mapping[str, Any]) -> dict[str, Any]:
        """A table's options from those fields' cleaned values; raise
        django.core.exceptions.ValidationError ({field: message}) for a bad combination."""
        return {}

    def clean_options(self, options: Mapping[str, Any]) -> dict[str, Any]:
        """The options a new table keeps, defaults filled in; ValueError for options the
        game does not have or values it does not take."""
        if options:
            raise ValueError(f"{self.name} has no options")
        return {}

    def option_labels(self, options: Mapping[str, Any]) -> list[str]:
        """A table's options as a player reads them in lists (the lobby)."""
        return []

    def played_options(self, options: Mapping[str, Any]) -> dict[str, Any]:
        """What a played game keeps of a table's (or a score pad's) options."""
        return {}

    def played_labels(self, options: Mapping[str, Any]) -> list[str]:
        """A played game's kept options as a player reads them in history."""
        return []

    def variants(self, options: Mapping[str, Any]) -> list[str]:
        """The variants named in records and the API, from a table's or a played game's
        options."""
        return []

    def played_filters(self) -> list[PlayedFilter]:
        """How history and the API filter the game's played games by their options; shown
        when the game is chosen, or when no game is."""
        return []

    # --- a league's or a tournament's options (`League.options`, `Tournament.options`): what
    # every game it holds is played with. Their form keeps each field's cleaned value by name.
    def league_option_fields(self) -> dict[str, Any]:
        """Form fields (name -> django.forms.Field) a league's form shows for the game's
        options."""
        return {}

    def tournament_option_fields(self) -> dict[str, Any]:
        """Form fields (name -> django.forms.Field) a tournament's form shows for the game's
        options."""
        return {}

    def event_labels(self, options: Mapping[str, Any]) -> list[str]:
        """A league's or a tournament's options as its page shows them."""
        return []

    def event_table_options(self, options: Mapping[str, Any]) -> dict[str, Any]:
        """The options (as `clean_options` takes them) of every table and score pad of a
        league or a tournament with `options`."""
        return {}

    # --- its rules page, games/rules/<key>.html
    def rules_context(self) -> dict[str, Any]:
        """What the rules page shows besides its text, in the page's language (De l'Orc: its
        cards and the numbers that depend on the player count, from its engine); nothing by
        default."""
        return {}

    def advance(self, table: Table, state: S) -> None:
        """Deal whatever the position waits for that no player decides (a new round's deck);
        called before every save."""

    def deadline_seconds(self, table: Table, state: S) -> float | None:
        """Seconds the position waits before the site moves for the absent; None: no limit."""
        if table.clock == table.Clock.NO_CLOCK:
            return None
        return float(table.clock_seconds)

    def rounds_finished(self, state: S) -> int:
        """How many rounds the position has behind it: players see each round's end before
        the next begins. A game without rounds keeps 0."""
        return 0

    def pauses(self, state: S) -> int:
        """How many pauses the position has behind it: players see each round's end before
        the next begins, and a game may stop at moments of its own (De l'Orc's reveal of a
        battle). A move that adds one pauses the table (`pause_seconds`)."""
        return self.rounds_finished(state)

    def pause_seconds(self, state: S) -> float:
        """How long the pause that `state` has just reached lasts, unless everyone continues."""
        return settings.ROUND_PAUSE_SECONDS

    def pile_page(
        self, table: Table, state: S, viewer: int | None, pile: str
    ) -> tuple[str, dict[str, Any]] | None:
        """The page listing the cards of one of the table's piles as `viewer` may see them
        (the board links to it): its template and context (with the table), or None for a
        pile the game does not have, which answers 404. None by default."""
        return None

    def round_summaries(self, state: S, names: list[str]) -> list[dict[str, Any]]:
        """Each finished round as the result page tells it (`names`: the players as the page
        shows them); none by default."""
        return []

    def ai_name(self, level: str) -> str:
        """An AI player's name at a table (stored; the same in every language)."""
        return level

    def seat_name(self, name: str, ai_level: str) -> str:
        """A seat's name as pages show it: an AI player's stored name (`ai_name` and a number,
        as the record knows it) with its level's name in the active language; a person's as
        it is."""
        level = self.ai_levels.get(ai_level) if ai_level else None
        if level is None:
            return name
        stored = f"{self.ai_name(ai_level)} "
        if not name.startswith(stored):
            return name
        return f"{level[0]} {name[len(stored) :]}"

    def interim_result(self, table: Table, state: S, forfeited: Sequence[bool]) -> Result:
        """The result of a game its event ends before its end (a tournament's organiser
        adjudicating a table): each seat's scores so far, the round under way counted as it
        stands, the seats `forfeited` (seat by seat) placed after all the others. Only a game
        whose tables an event may end has it."""
        raise NotImplementedError

    def __repr__(self) -> str:
        return f"<Game {self.key}>"


@cache
def _load(paths: tuple[str, ...]) -> dict[str, Game]:
    games: dict[str, Game] = {}
    for path in paths:
        game = import_string(path)
        games[game.key] = game
    return games


def all_games() -> dict[str, Game]:
    """The registered games by key, in the order settings name them."""
    return _load(tuple(settings.GAMES))


def playable() -> list[Game]:
    """The games tables can be opened for (Game.online), in the order settings name them."""
    return [game for game in all_games().values() if game.online]


def get(key: str) -> Game:
    return all_games()[key]


def first() -> Game:
    """The site's own game, named first in settings.GAMES: forms start with it, rating
    pages show it unless asked for another, and lists name the others beside it."""
    return next(iter(all_games().values()))


def first_key() -> str:
    """The key of the site's own game: what a table, a played game, a league or a rating
    is of when nobody names a game (a model field's default)."""
    return first().key


def for_record(record: Mapping[str, Any]) -> Game | None:
    """The game whose records name the format `record` does; None when no game's do."""
    named = record.get("format")
    games = all_games().values()
    return next((g for g in games if g.records is not None and named == g.records.format), None)


def keep_running() -> None:
    """Start what the games keep running beside this web or worker process (RealTime.watch:
    De l'Orc watches for deals nobody pushes, when a process holding one died)."""
    for game in all_games().values():
        if game.realtime is not None:
            game.realtime.watch()


def choices() -> list[tuple[str, str]]:
    return [(game.key, game.name) for game in all_games().values()]
