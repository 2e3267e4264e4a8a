"""De l'Orc's real-time deal on the server (ORC-RULES.md §3, §6): who pushes it, and the AI seats
that race it.

Why the deal is a function of time. Each round's deal has a start time (`Deal.started`) and
the table's pace; `dealt = min(80, floor((now - started) / pace))` for whoever asks. No
process deals a card, so no process can deal one twice or skip one, whatever the number of
daphnes and workers, and whichever of them dies. A slap goes through the one door
(`games.actions.play` with no version): under the table's row lock the position is brought
to now and the slap lands on the pile as it is then (`@k` filled by the server); the lock
orders racing slaps, and every viewer is pushed the same piles.

Who pushes. The cards are pushed by one process per table, the holder of a short lease on
the table's `Deal` row (a conditional UPDATE: claimed only where it is free, expired or
already ours), renewed with every card and lasting a pace and a bit. Every process that
deals also watches (`watch`): a lease that runs out because its holder died is taken within
one or two paces, and the new holder first pushes the whole board (a client that missed
something reloads the full state; nothing replays deltas), then each card as a small
update: the pile that received it, the deal counter and the next pile. A card is never
pushed before time has dealt it, and the deck's order never leaves the server.

AI seats. After every event (a card, a slap) a task (`orc_react`, on Celery or
a background thread, never in the dealer's loop) asks each AI seat with no reaction waiting
for one; the slap is set going for the moment the view was read plus the reaction's delay
(never under 0.3 s), and lands if `still_wanted` holds for the view as it was 0.3 s before.
"""

from __future__ import annotations

import logging
import os
import socket
import threading
import time
import uuid
from datetime import timedelta
from typing import Any

from celery import shared_task
from django.core.cache import cache
from django.db import connections
from django.db.models import Q
from django.utils import timezone

from games import actions
from games import tasks as shared_tasks
from games.models import Table
from games.orc import ai, engine
from games.orc.engine.cards import N_CARDS
from games.orc.models import Deal

logger = logging.getLogger(__name__)

LEASE_SLACK = 0.6  # seconds a lease outlives the pace: one late card does not lose it
POLL = 0.25  # how often a watcher looks for deals nobody pushes
TOKEN = f"{socket.gethostname()}:{os.getpid()}:{uuid.uuid4().hex[:8]}"

_running: set[int] = set()
_lock = threading.Lock()
_watching = threading.Event()
_stop = threading.Event()


# ----------------------------------------------------------------------------- the lease


def claim(table_id: int, pace: float) -> bool:
    """Take or renew the lease on the table's deal; False when another process holds it."""

    now = timezone.now()
    free = Q(held_until__isnull=True) | Q(held_until__lt=now) | Q(holder=TOKEN)
    until = now + timedelta(seconds=pace + LEASE_SLACK)
    rows = Deal.objects.filter(Q(table_id=table_id) & free).update(holder=TOKEN, held_until=until)
    return rows == 1


def release(table_id: int) -> None:

    Deal.objects.filter(table_id=table_id, holder=TOKEN).update(holder="", held_until=None)


def take(table_id: int) -> bool:
    """Push the table's deal from this process if nobody else does; True if this one does."""

    ensure_watching()
    with _lock:
        if table_id in _running:
            return True
        deal = Deal.objects.filter(table_id=table_id, ended=False).first()
        if deal is None or deal.started is None or not claim(table_id, deal.card_seconds):
            return False
        _running.add(table_id)
    threading.Thread(target=_run, args=(table_id,), daemon=True, name=f"dealer-{table_id}").start()
    return True


def _run(table_id: int) -> None:
    try:
        _push_deal(table_id)
    except Exception:
        logger.exception("the dealer of table %s stopped; another process takes over", table_id)
    finally:
        try:
            release(table_id)
        finally:
            with _lock:
                _running.discard(table_id)
            connections.close_all()


def _push_deal(table_id: int) -> None:
    """Each turn: renew the lease and read the table ahead of the next card; at the card's
    moment deal it into the position read (unless a slap moved the table meanwhile) and push
    it. A card is pushed the moment it is dealt, never before."""

    last: int | None = None
    while not _stop.is_set():
        deals = Deal.objects.select_related("table").prefetch_related("table__seats")
        deal = deals.filter(table_id=table_id).first()
        if deal is None or deal.ended or deal.started is None:
            return
        table = deal.table
        if table.status != Table.RUNNING or not claim(table_id, deal.card_seconds):
            return
        table.deal = deal
        state = table.state()
        if deal.round != state.rnd:
            return
        # Past the recruitment of this round: its last card is down (the champion is due).
        k = state.dealt if state.pending == "recruit" else N_CARDS
        if last is None and k:  # taken over mid-deal: every viewer gets the whole board once
            actions.push_board(table)
        elif last is not None and k > last:  # late (a slow turn): push what time has dealt
            _push_cards(table, state, last, k)
            actions.enqueue(orc_react, table_id)
        if k >= N_CARDS:
            actions.catch_up(table_id)
            return
        last = k
        due = deal.card_time(k + 1).timestamp()
        if due - time.time() > deal.card_seconds:
            _stop.wait(deal.card_seconds)  # the lead-in: renew the lease meanwhile
            continue
        _stop.wait(max(due - time.time(), 0))
        if not Table.objects.filter(pk=table_id, version=table.version).exists():
            continue  # a slap came meanwhile: read the table again
        state.deal(max(deal.dealt_at(timezone.now()), k + 1))
        _push_cards(table, state, last, state.dealt)
        actions.enqueue(orc_react, table_id)
        last = state.dealt


def _push_cards(table: Table, state: engine.State, last: int, k: int) -> None:
    piles = sorted({(j - 1) % state.npiles + 1 for j in range(last + 1, k + 1)})
    push(table.pk, event(table, state, piles) | {"time": table.deal.card_time(k).timestamp()})


# ----------------------------------------------------------------------------- watching


def due_deals() -> list[int]:
    """Tables whose deal runs (or is about to) with no live lease on it."""

    now = timezone.now()
    unheld = Q(held_until__isnull=True) | Q(held_until__lt=now)
    running = Deal.objects.filter(table__status=Table.RUNNING, started__isnull=False, ended=False)
    return list(running.filter(unheld).values_list("table_id", flat=True))


def watch() -> None:
    """Take every deal nobody pushes, for as long as this process lives (or until
    `stop_watching`)."""
    while not _stop.is_set():
        try:
            for table_id in due_deals():
                take(table_id)
        except Exception:  # the database away a moment: look again
            logger.warning("looking for deals to push failed", exc_info=True)
        finally:
            connections.close_all()
        _stop.wait(POLL)
    _watching.clear()


def ensure_watching() -> None:
    """Start this process's watcher (once)."""
    with _lock:
        if _watching.is_set():
            return
        _watching.set()
        _stop.clear()
    threading.Thread(target=watch, daemon=True, name="dealer-watch").start()


def stop_watching() -> None:
    """Stop this process's watcher and dealers (a test's end: its database goes away)."""
    _stop.set()
    deadline = time.time() + 5
    while (_watching.is_set() or _running) and time.time() < deadline:
        time.sleep(0.05)


# ----------------------------------------------------------------------------- pushes


def stamp(state: engine.State) -> int:
    """Grows with every card and slap: a client keeps the newest of two updates of a pile."""
    return state.round * 10_000_000 + state.dealt * 10_000 + len(state.log)


def event(table: Table, state: engine.State, piles: list[int]) -> dict[str, Any]:
    """The small push for a card or a slap: the piles it changed, the deal counter, the next
    pile and the player cards left. Public knowledge, the same for every viewer (§3.8); the
    seats' stored names and AI levels go with it, so that each socket names the players in
    its own language."""

    seats = list(table.seats.all())
    view = engine.public_view(state)
    deal = view["deal"]
    wizard = view["wizard"]
    return {
        "type": "table.update",
        "game": table.game,
        "table": table.pk,
        # When the server dealt this card or accepted this slap (for measuring pushes).
        "time": time.time(),
        "public": table.visibility == Table.PUBLIC,
        # Who sits where, as for every push: each socket draws its own slap buttons.
        "seats": {str(s.user_id): s.position for s in seats if s.user_id and not s.left},
        "stamp": stamp(state),
        "dealt": deal["dealt"],
        "start_after": deal["start_after"],
        "next": state.dealt % state.npiles + 1 if state.dealt < N_CARDS else None,
        "piles": {str(p): deal["piles"][p - 1] for p in piles},
        "players": [
            [p["name"], p["deserters"], p["shields"], p["name"] == wizard] for p in view["players"]
        ],
        "names": [[seat.name, seat.ai_level] for seat in seats],
    }


def push(table_id: int, message: dict[str, Any]) -> None:
    """Send to the table's group from a dealer's thread."""

    actions.send_to_table(table_id, message)


def set_going(table: Table, state: engine.State) -> dict[str, Any] | None:
    """After a save in the deal or its placing step: the dealer, the placing timer and the AI
    seats go; returns the small push for a slap (None: push the whole board)."""

    if state.pending != "recruit":
        return None
    if state.dealt < N_CARDS:
        actions.enqueue(orc_deal, table.pk)
    elif table.deadline is not None:
        shared_tasks.queue_clock_check(table)
    actions.enqueue(orc_react, table.pk)
    last = state.log[-1][1] if state.log else None
    if last is None or last.verb not in ("desert", "shield") or last.at != state.dealt:
        return None
    return event(table, state, [last.pile]) | {
        "slap": engine.action_text(last, state.names),
        "by": state.names[last.seat],
    }


# ----------------------------------------------------------------------------- AI seats


def _waiting_key(table_id: int, round_no: int, seat: int) -> str:
    return f"orc-react:{table_id}:{round_no}:{seat}"


def react(table_id: int) -> int:
    """Ask each AI seat with no reaction waiting how it reacts to the deal as it stands; set
    the reactions going. Returns how many were set going."""

    table = Table.objects.filter(pk=table_id, status=Table.RUNNING).first()
    if table is None:
        return 0
    state = table.state()
    read_at = time.time()
    if state.pending != "recruit":
        return 0
    set_going_now = 0
    for seat in table.seats.all():
        if not (seat.is_ai or seat.left) or seat.position == state.wizard:
            continue
        key = _waiting_key(table_id, state.round, seat.position)
        if cache.get(key):
            continue
        level = seat.ai_level or table.plugin.stand_in_level
        seed = hash((table.seed, state.round, state.dealt, len(state.log), seat.position))
        reaction = ai.react(level, engine.view(state, seat.position), seed=seed)
        if reaction is None:
            continue
        delay = max(reaction.delay, ai.MIN_DELAY)
        if not cache.add(key, 1, timeout=int(delay) + 10):
            continue
        args = (table_id, seat.position, level, reaction.verb, reaction.pile, reaction.seen)
        actions.enqueue(orc_ai_slap, *args, read_at + delay, countdown=delay)
        set_going_now += 1
    return set_going_now


def view_before(table: Table, state: engine.State, seat: int, seconds: float) -> dict[str, Any]:
    """The seat's view as it was `seconds` ago, as near as the record tells: the deal then,
    and the slaps put down at or before it."""
    k = table.deal.dealt_at(timezone.now() - timedelta(seconds=seconds))
    if k >= state.dealt:
        return engine.view(state, seat)
    record = dict(table.record or {})
    current = dict(record["rounds"][-1])
    current["actions"] = [a for a in current["actions"] if int(a.rsplit("@", 1)[1]) <= k]
    record["rounds"] = [*record["rounds"][:-1], current]
    earlier = engine.from_record(record)
    if k > earlier.dealt:
        earlier.deal(k)
    return engine.view(earlier, seat)


def ai_slap(
    table_id: int, seat: int, level: str, verb: str, pile: int, seen: int, not_before: float
) -> bool:
    """Put an AI seat's reaction down, no sooner than `not_before`, if it still wants it."""

    wait = not_before - time.time()
    if wait > 0:
        time.sleep(wait)
    table = Table.objects.filter(pk=table_id, status=Table.RUNNING).first()
    played = False
    round_no = None
    try:
        if table is None:
            return False
        state = table.state()
        round_no = state.round
        if state.pending != "recruit":
            return False
        view = view_before(table, state, seat, ai.MIN_DELAY)
        if ai.still_wanted(level, view, ai.Reaction(verb, pile, 0.0, seen)):
            try:
                actions.play(table_id, seat, f"{verb} P{pile}", None)
                played = True
            except actions.Refused:
                pass  # the deal moved past it (the last card, a shield gone): let it go
        return played
    finally:
        if round_no is not None:
            cache.delete(_waiting_key(table_id, round_no, seat))
        if not played and table is not None:
            # Ask again: the seat had a reaction waiting and so was not asked meanwhile.
            actions.enqueue(orc_react, table_id)


# --- its tasks: thin, taking ids. The dealer's loop runs in a thread of whichever process
# takes the table's lease, never in a worker's task slot; these only set it, and the AI
# seats' reactions, going. They keep the names they had in the shared `games.tasks`: tasks
# queued before an upgrade still run. Celery finds them through games.orc.tasks.


@shared_task(name="games.tasks.orc_deal")
def orc_deal(table_id: int) -> bool:
    return take(table_id)


@shared_task(name="games.tasks.orc_react", soft_time_limit=8, time_limit=15)
def orc_react(table_id: int) -> int:
    return react(table_id)


@shared_task(name="games.tasks.orc_ai_slap", soft_time_limit=8, time_limit=15)
def orc_ai_slap(
    table_id: int, seat: int, level: str, verb: str, pile: int, seen: int, not_before: float
) -> bool:
    return ai_slap(table_id, seat, level, verb, pile, seen, not_before)
