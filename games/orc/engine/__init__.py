"""The rules engine of De l'Orc pour les Braves: pure Python, typed, no Django, Channels or Celery.

ORC-RULES.md (the project's specification) is implemented in full, for 4 to 7 players.
Cards and peoples are codes (§1: ``B2`` … ``SP4``; peoples ``B M S D``); display names
belong to the site.

Setting up
    ``new_game(names, *, seed=None, decks=None, pace=1.2) -> State`` -- from a seed (each
    round's deck and start point follow from it) or explicit ``decks``: per round the 80
    codes, first dealt first, and ``start_after`` (27-53). Seat 0 is round 1's wizard. A
    game given fewer decks than it needs waits (``pending`` None) until
    ``state.add_round(deck, start_after)``.

The deal (real time, §3)
    ``state.dealt`` is the number of army cards dealt; ``state.deal(k)`` moves the deal on
    (never back); the site calls it on its clock, up to 80, whatever the players do.
    ``state.deciders()`` lists the seats that may still play a card;
    ``state.recruit_options(seat)`` says how many deserters and shields it holds, the
    piles (1..P) and from which k each may go down (deserters up to 79, shields up to 80,
    the placing step). ``desert(seat, pile, k)`` and ``shield(seat, pile, k)`` build the
    actions; one with k above ``dealt`` moves the deal on to k first.
    ``state.placing_default(seat)`` is the shield the site puts down for a player whose
    placing timer ran out (§3.6 [online]). The champion is due once the deal reached 80 and
    every shield is down (a record implies the end of the deal before its champion).

Turn decisions
    ``state.decider`` is the seat that must decide now (None in the deal or when the game
    is over), ``state.pending`` the decision (champion, spy, people, send, commando, fly;
    "recruit" in the deal). ``state.legal_actions(seat=None)`` lists the options (in the
    deal: the cards ``seat`` may put down at the current k). ``state.apply(action)``
    validates and raises ``IllegalAction(code, message)`` -- a stable short code and a
    message naming the rule ("§4.4: ...") -- without touching the state; it returns the
    actions applied: the action itself (a commando with the drawn card filled in, when its
    ``code`` was left empty) and every forced decision after it (§8). ``state.clone()``
    copies. ``state.game_over``, ``state.totals``, ``state.history`` (RoundResult per
    round so far, with its Battles), ``state.log`` ((round index, Action) pairs).

Notation (§8, without ``"name: "``)
    ``action_text(action, names)``; ``parse_action(text, names, seat)`` raises
    NotationError (a ValueError). ``parse_move(text, names, seat)`` reads a player's
    decision as the site takes it: the same, but a commando names a player and a group only
    (``commando bob mercenary``) and the engine draws the card; a commando naming its card
    is a record's line, refused (IllegalAction ``commando-card-named``) whatever the cards
    face down, so that no refusal tells what they are.

Views
    ``public_view(state)`` and ``view(state, seat)`` return JSON-safe dicts: piles during
    the deal (the start point only once reached), every player's hand counts and spied
    copies (public knowledge, §3.8), player cards left, battle, people, strengths after
    the reveal, the §8 result so far. Between commit and reveal each player shows his
    holding (hand and committed cards together) and how many cards of each group he
    committed, never which. ``view`` adds the seat's own committed cards, its deal options
    and, for the decider, its legal actions as text. ``pile_outcome(contents)`` reads a
    pile of the deal as §3.8 would if the deal ended now: who takes it, which cards go.

Records
    ``to_record(state) -> dict`` (``orc-record/1``, forced decisions written out),
    ``from_record(dict) -> State`` (raises RecordError when malformed, IllegalAction with
    ``round``/``index``/``action`` filled on a rule breach), ``result(state) -> dict``
    (§8: ``placings`` once over, else ``"unfinished": true``).

Score pad (§7)
    ``score_pad(players, [PadRound(wizard, champion, (winners1, …, winners4)), …])`` checks
    a game played at the table and returns its points in the §8 result shape; raises
    PadError (round, reason, and a ``code`` with ``params`` for callers that word it
    themselves). ``finished=False`` checks a pad still being entered: it may stop before the
    target is reached (then ``"unfinished": true``).

Command line
    ``python -m games.orc.engine replay FILE.json`` prints the §8 result (exit 0; an
    illegal action: one line on stderr, exit 2; a malformed record: exit 3).
    ``python -m games.orc.engine random --players N --seed S`` prints a random game's record.
    ``python -m games.orc.engine bench --players 5 --seconds 10`` prints random full-game
    throughput, new game included.
"""

from games.enginekit.errors import IllegalAction, NotationError, RecordError

from .actions import Action, action_text, desert, parse_action, parse_move, shield
from .cards import CODES, PEOPLES
from .pad import PadError, PadRound, score_pad
from .playout import random_game, random_playout
from .record import from_record, result, to_record
from .state import Battle, RecruitOptions, RoundResult, State, new_game, placings
from .views import pile_outcome, public_view, view

__all__ = [
    "CODES",
    "PEOPLES",
    "Action",
    "Battle",
    "IllegalAction",
    "NotationError",
    "PadError",
    "PadRound",
    "RecordError",
    "RecruitOptions",
    "RoundResult",
    "State",
    "action_text",
    "desert",
    "from_record",
    "new_game",
    "parse_action",
    "parse_move",
    "pile_outcome",
    "placings",
    "public_view",
    "random_game",
    "random_playout",
    "result",
    "score_pad",
    "shield",
    "to_record",
    "view",
]
