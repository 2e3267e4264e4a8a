"""A leak scanner: does a piece of HTML show a viewer only what that viewer may know?

The board marks every zone it draws (`data-zone`): hands, task cards, draw piles, cards
known to be in a hand. The scanner reads them back and compares with the true state.
"""

import asyncio
import re
from collections import Counter
from html import unescape
from html.parser import HTMLParser

from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.db import transaction
from django.test import Client

from games.ctg.engine.cards import VALUES, task_text
from games.ctg.replay import position
from games.models import Table


class _Zones(HTMLParser):
    def __init__(self):
        super().__init__()
        self.stack: list[tuple[str, dict]] = []
        self.found: list[tuple[dict, dict]] = []  # (zone attrs, card attrs)
        self.zones: list[dict] = []

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if "data-zone" in attrs:
            self.zones.append(attrs)
        zone = next((a for _, a in reversed(self.stack) if "data-zone" in a), None)
        if ("data-card" in attrs or "data-task" in attrs) and zone is not None:
            self.found.append((zone, attrs))
        if tag not in {"br", "img", "input", "meta", "link", "hr"}:
            self.stack.append((tag, attrs))

    def handle_endtag(self, tag):
        while self.stack:
            open_tag, _ = self.stack.pop()
            if open_tag == tag:
                break


def scan(html: str, state, viewer: int | None) -> list[str]:
    """Every problem found: empty when the HTML keeps to what `viewer` may know."""
    parser = _Zones()
    parser.feed(html)
    problems = []
    for zone in parser.zones:
        kind = zone["data-zone"]
        if kind in ("hand", "tasks") and (
            viewer is None or zone.get("data-seat", str(viewer)) != str(viewer)
        ):
            problems.append(f"a {kind} zone of seat {zone.get('data-seat')} shown to {viewer}")
    hand = Counter()
    for zone, card in parser.found:
        kind = zone["data-zone"]
        if kind == "draw":
            problems.append("a card of a draw pile is shown")
        elif kind == "hand":
            hand[int(card["data-card"])] += 1
        elif kind == "tasks":
            own = {task_text(c) for c in state.tasks[viewer]} if viewer is not None else set()
            if card["data-task"] not in own:
                problems.append(f"task card {card['data-task']} is not the viewer's to see")
    if viewer is not None and any(z["data-zone"] == "hand" for z in parser.zones):
        truth = {VALUES[t] for t, c in enumerate(state.hands[viewer]) if c}
        if set(hand) != truth:
            problems.append(f"hand shows {sorted(hand)}, the viewer holds {sorted(truth)}")
    for zone, card in parser.found:
        if zone["data-zone"] == "known":
            seat, value = int(zone["data-seat"]), int(card["data-card"])
            if not state.known[seat][VALUES.index(value)]:
                problems.append(f"{value} shown as known in seat {seat}'s hand, but it is not")
    return problems


# ----------------------------------------------------------------------------- sockets
# The scanner judges what every open socket received by its user's seat *now*, read
# straight from the seats (not through the code under test), and by the state at the
# version each board was drawn at. It opens sockets at every stage and never closes them.

SOCKET_ORIGIN = (b"origin", b"http://localhost")


def session_cookie(user) -> bytes:
    client = Client()
    client.force_login(user)
    return f"sessionid={client.cookies['sessionid'].value}".encode()


def _attribute(html: str, name: str) -> str | None:
    found = re.search(rf'{name}="([^"]*)"', html)
    return None if found is None else unescape(found.group(1))


class Truth:
    """Who may watch which table and where each person sits, read once from the database."""

    def __init__(self):
        self.tables = {}
        self.members = {}

    def table(self, table_id: int):
        if table_id not in self.tables:
            table = Table.objects.select_related("club").prefetch_related("seats")
            self.tables[table_id] = table = table.get(pk=table_id)
            club = table.club
            self.members[table_id] = (
                set(club.memberships.values_list("user_id", flat=True)) if club else set()
            )
        return self.tables[table_id]

    def seat(self, table_id: int, user) -> int | None:
        """The position `user` plays now, or None."""
        if user is None:
            return None
        seats = self.table(table_id).seats.all()
        return next((s.position for s in seats if s.user_id == user.pk and not s.left), None)

    def may_watch(self, table_id: int, user) -> bool:
        table = self.table(table_id)
        if table.visibility == "public" or self.seat(table_id, user) is not None:
            return True
        return user is not None and user.pk in self.members[table_id]


def judge_table_frame(frame: str, table_id: int, user, truth: Truth) -> list[str]:
    """Problems with one frame a table socket of `user` received, judged by the truth now."""
    if not truth.may_watch(table_id, user):
        return [f"a frame reached {user}, who may not watch table {table_id}"]
    if truth.table(table_id).game == "orc":
        table = truth.table(table_id)
        names = [seat.display_name for seat in table.seats.all()]
        return scan_orc(frame, table.record, truth.seat(table_id, user), names)
    if 'id="board"' not in frame:
        return ["cards outside a board"] if "data-zone" in frame else []
    table = truth.table(table_id)
    seat = truth.seat(table_id, user)
    shown = _attribute(frame, "data-viewer")
    problems = []
    if shown != ("public" if seat is None else str(seat)):
        problems.append(f"{user} sits at {seat} but got the board of viewer {shown}")
    version = int(_attribute(frame, "data-version") or 0)
    key = (table.identity, version)
    if key not in _positions:
        _positions[key] = position(table.record, version)
    problems += scan(frame, _positions[key], seat)
    return problems


# The state at a version never changes once played: rebuild each one once.
_positions: dict = {}


def judge_lobby_frame(frame: str, user, truth: Truth) -> list[str]:
    """Every table a lobby push links to must be one this user may open."""
    return [
        f"the lobby of {user} lists table {table_id}"
        for table_id in sorted({int(i) for i in re.findall(r"/play/t/(\d+)/", frame)})
        if not truth.may_watch(table_id, user)
    ]


def judge(frames: list[tuple[dict, str]]) -> list[str]:
    truth = Truth()
    problems = []
    for socket, frame in frames:
        if socket["table"] is None:
            found = judge_lobby_frame(frame, socket["user"], truth)
        else:
            found = judge_table_frame(frame, socket["table"], socket["user"], truth)
        problems += [f"{socket['label']}: {p}" for p in found]
    return problems


def showing(frame: str) -> tuple | None:
    """What state of the table a frame draws: ('board', version, status) or ('stamp', stamp)."""
    if 'id="board"' in frame:
        return ("board", int(_attribute(frame, "data-version")), _attribute(frame, "data-status"))
    if 'id="waiting-stamp"' in frame:
        return ("stamp", _attribute(frame, "data-stamp"))
    return None


def current(table_id: int) -> tuple:
    table = Table.objects.get(pk=table_id)
    if table.record is None:
        return ("stamp", table.waiting_stamp())
    return ("board", table.version, table.status)


def caught_up(shows: tuple | None, now: tuple) -> bool:
    # AI players move on in the background: a board drawn later than `now` is as good.
    if shows is None or shows == now:
        return shows == now
    return shows[0] == now[0] == "board" and shows[1] > now[1]


class Watch:
    """Sockets left open as a person would leave pages open; `settle` judges all they got."""

    def __init__(self, application):
        self.application = application
        self.sockets: list[dict] = []
        self.problems: list[str] = []
        self.received: list[tuple[dict, str]] = []
        self.frames = 0

    async def open_table(self, user, table_id: int, label: str) -> bool:
        return await self._open(user, f"/ws/tables/{table_id}/", label, table_id)

    async def open_lobby(self, user, label: str) -> bool:
        return await self._open(user, "/ws/lobby/", label, None)

    async def _open(self, user, path: str, label: str, table_id: int | None) -> bool:
        headers = [SOCKET_ORIGIN]
        if user is not None:
            headers.append((b"cookie", await database_sync_to_async(session_cookie)(user)))
        communicator = WebsocketCommunicator(self.application, path, headers=headers)
        connected, _ = await communicator.connect()
        if connected:
            socket = {"c": communicator, "user": user, "label": label, "table": table_id}
            self.sockets.append(socket)
            await self.settle(table_id, only=socket)
        return connected

    async def settle(self, table_id: int | None = None, only: dict | None = None) -> None:
        """Judge what the sockets received. `table_id`: something changed there; wait until
        each of its sockets has a frame showing the table as it is now (or is closed)."""
        now = await database_sync_to_async(current)(table_id) if table_id else None
        sockets = [only] if only else list(self.sockets)
        await asyncio.gather(
            *(self._drain(s, now if s["table"] == table_id else None) for s in sockets)
        )
        self.frames += len(self.received)
        self.problems += await database_sync_to_async(judge)(self.received)
        self.received = []

    async def _drain(self, socket: dict, until: tuple | None) -> None:
        communicator = socket["c"]
        fresh = until is None
        while not (fresh and await communicator.receive_nothing(timeout=0.05)):
            output = await communicator.receive_output(timeout=10)
            if output["type"] == "websocket.close":
                self.sockets.remove(socket)
                return
            frame = output.get("text", "")
            self.received.append((socket, frame))
            socket["shows"] = showing(frame) or socket.get("shows")
            fresh = fresh or caught_up(socket["shows"], until)

    def labels(self) -> set[str]:
        return {socket["label"] for socket in self.sockets}

    async def close(self) -> None:
        for socket in self.sockets:
            await socket["c"].disconnect()


# ----------------------------------------------------------------------------- De l'Orc
# Every hand is public knowledge (§3.8). What a frame may never show: an army card not dealt
# yet (the deck's order is secret), or, between the commit and the reveal of a battle, the
# cards another seat committed (§6). A frame names the moment it was drawn at (`data-stamp`:
# round, cards dealt, decisions taken); it is judged by the record at that moment.


def _orc_moment(stamp: int) -> tuple[int, int, int]:
    return stamp // 10_000_000, stamp // 10_000 % 1000, stamp % 10_000


def scan_orc(
    frame: str, record: dict, viewer: int | None, names: list[str] | None = None
) -> list[str]:
    """Every problem with one De l'Orc frame (a whole board or a small update); `names`: the
    players as the frame names them, seat by seat, when not as the record does."""
    from games.orc.engine.cards import PILES
    from games.orc.engine.views import hidden
    from games.orc.replay import position as orc_position

    stamps = [int(s) for s in re.findall(r'data-stamp="(\d+)"', frame)]
    if not stamps:
        return ["cards outside a board"] if "data-zone" in frame else []
    round_no, dealt, decisions = _orc_moment(max(stamps))
    problems = []
    parser = _Zones()
    parser.feed(frame)
    deck = record["rounds"][round_no - 1]["deck"]
    piles = PILES[len(record["players"])]
    shown: dict[int, list[str]] = {}
    for zone, card in parser.found:
        if zone["data-zone"] == "pile":
            shown.setdefault(int(zone["data-pile"]), []).append(card["data-card"])
    for pile, cards in shown.items():
        if cards != deck[pile - 1 : dealt : piles]:
            problems.append(f"pile {pile} shows {cards} with {dealt} cards dealt")
    if 'id="board"' not in frame:
        return problems
    state = orc_position(record, decisions)
    problems += _orc_sends_shown(frame, state, viewer, names)
    for zone in parser.zones:
        kind, seat = zone["data-zone"], zone.get("data-seat")
        if kind == "army" and hidden(state):
            problems.append(f"seat {seat}'s army is shown before the reveal")
        if kind == "my-army" and (viewer is None or seat != str(viewer)):
            problems.append(f"seat {seat}'s committed cards are shown to {viewer}")
    if viewer is not None and hidden(state):
        from games.orc.engine.cards import CODES

        mine = {
            card["data-card"]: int(card["data-count"])
            for zone, card in parser.found
            if zone["data-zone"] == "my-army"
        }
        truth = {CODES[c]: n for c, n in enumerate(state.army[viewer]) if n}
        if mine and mine != truth:
            problems.append(f"the viewer's committed cards show {mine}, not {truth}")
    return problems


def _orc_sends_shown(frame: str, state, viewer: int | None, shown: list[str] | None) -> list[str]:
    """Between the commit and the reveal, which mercenaries another seat sent is secret: its
    `send` in notation (a log line, a replay's last action), with the players named as in
    the record or as the frame shows them, may not be in the frame, beyond the same line
    written in earlier, revealed battles."""
    from games.orc import engine
    from games.orc.engine.views import hidden

    if not hidden(state):
        return []
    start = max(i for i, (_r, a) in enumerate(state.log) if a.verb == "people")
    problems = []
    for names in {tuple(state.names), tuple(shown or state.names)}:
        lines = [f"{names[a.seat]}: {engine.action_text(a, names)}" for _r, a in state.log]
        for i in range(start + 1, len(lines)):
            seat = state.log[i][1].seat
            if seat == viewer or not state.log[i][1].cards:
                continue
            line = lines[i]
            if frame.count(f">{line}<") > lines[:start].count(line):
                problems.append(f"{line!r} is shown before the reveal")
    return problems


# ----------------------------------------------------------------------------- refusals
# No answer to a move may depend on what the mover cannot see: a move about face-down cards
# is refused in the same words whatever those cards are. The scanner posts the same moves,
# as the page posts them, at two tables that look alike to the movers, and compares the
# answers (status and words). Each move is answered at the position as it was: what an
# accepted move changes is rolled back before the next.


def _words(response) -> str:
    return " ".join(unescape(re.sub(r"<[^>]*>", " ", response.content.decode())).split())


def answers(
    client, table_id: int, users: dict, moves, version: int, before=None
) -> dict[tuple[str, str], tuple[int, str]]:
    """(status, words) of each of `moves` posted by each of `users` (label -> user) at the
    table's position `version`; `before` runs before each move (to hold a deal's clock)."""
    out = {}
    for label, user in users.items():
        client.force_login(user)
        for text in moves:
            # A slap names no position (real time); a turn decision names the one it saw.
            realtime = text.split()[:1] in (["desert"], ["shield"])
            data = {"action": text} if realtime else {"action": text, "version": version}
            with transaction.atomic():
                if before is not None:
                    before()
                response = client.post(f"/play/t/{table_id}/play/", data, HTTP_HX_REQUEST="true")
                transaction.set_rollback(True)
            out[label, text] = (response.status_code, _words(response))
    return out


def differences(first: dict, second: dict) -> list[str]:
    """Every move answered differently at two tables that look alike to its mover."""
    return [
        f"{label} {text!r}: {first[label, text]} at one table, {second[label, text]} at the other"
        for label, text in first
        if first[label, text] != second[label, text]
    ]
