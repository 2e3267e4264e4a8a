"""No socket ever shows a hand that is not its user's now, however seats change under it.

Pages stay open while seats are shuffled at the start, swapped by the host, given up and
taken again, and across a rematch. Every frame every socket receives is judged by the
scanner in tests/games/leaks.py against the seats and the state as they truly are.
"""

import random

import pytest
from channels.db import database_sync_to_async

from accounts.models import Club, Membership
from ctg_site.asgi import application
from games import actions
from games.ctg import engine
from games.models import Table
from tests.conftest import persona
from tests.games.conftest import open_table
from tests.games.leaks import Watch

pytestmark = pytest.mark.django_db(transaction=True)

# alice hosts; bob, carol and dave are members of her club and play; erin is no member and
# only watches; None is an anonymous visitor.


@database_sync_to_async
def people():
    users = {name: persona(name) for name in ("alice", "bob", "carol", "dave", "erin")}
    club = Club.objects.create(name="Edo", slug="edo")
    for name in ("alice", "bob", "carol", "dave"):
        role = "organiser" if name == "alice" else "member"
        Membership.objects.create(club=club, user=users[name], role=role)
    return users, club


def sync(function):
    return database_sync_to_async(function)


@sync
def play_random_move(table_id: int, rng: random.Random) -> bool:
    """One move of a person whose decision it is; False when the game is over or an AI's."""
    table = Table.objects.get(pk=table_id)
    if table.status != Table.RUNNING:
        return False
    state = table.state()
    seat = table.seats.get(position=state.decider)
    if seat.user_id is None or seat.left:
        return False
    text = engine.action_text(rng.choice(state.legal_actions()), state.names)
    actions.play(table_id, state.decider, text, table.version)
    return True


@sync
def status_of(table_id: int) -> str:
    return Table.objects.get(pk=table_id).status


async def play_to_the_end(watch: Watch, table_id: int, rng: random.Random) -> int:
    moves = 0
    while await status_of(table_id) == Table.RUNNING:
        if await play_random_move(table_id, rng):
            moves += 1
            await watch.settle(table_id)
        else:
            # An AI's decision, played in the background: its push comes when it comes.
            await watch.settle()
    return moves


async def test_it_never_shows_a_socket_a_hand_not_its_users_across_seat_changes():
    users, club = await people()
    alice, bob, carol, dave, erin = (users[n] for n in ("alice", "bob", "carol", "dave", "erin"))
    watch = Watch(application)
    rng = random.Random(11)

    table = await sync(open_table)(alice, seats_count=3, seat_order="random")
    club_table = await sync(open_table)(bob, seats_count=3, visibility="club", club=club)
    for user, label in [(alice, "lobby alice"), (erin, "lobby erin"), (None, "lobby anon")]:
        await watch.open_lobby(user, label)
    # Waiting-room pages, opened before anyone but the host has a seat.
    for user, label in [(alice, "alice"), (bob, "bob early"), (carol, "carol"), (erin, "erin")]:
        assert await watch.open_table(user, table.pk, label)
    assert await watch.open_table(None, table.pk, "anon")
    assert await watch.open_table(carol, club_table.pk, "carol at the club table")
    assert not await watch.open_table(erin, club_table.pk, "erin at the club table")

    await sync(actions.take_seat)(table.pk, bob)
    await watch.settle(table.pk)
    await watch.open_table(bob, table.pk, "bob seated")
    # carol takes a seat, opens the page, leaves; dave takes the seat she left.
    await sync(actions.take_seat)(table.pk, carol)
    await watch.settle(table.pk)
    await watch.open_table(carol, table.pk, "carol seated")
    await sync(actions.leave_seat)(table.pk, carol)
    await watch.settle(table.pk)
    await sync(actions.take_seat)(table.pk, dave)
    await watch.settle(table.pk)
    await watch.open_table(dave, table.pk, "dave")
    await sync(actions.move_seat)(table.pk, alice, 1, 2)
    await watch.settle(table.pk)

    # The host starts: the random seat order shuffles everybody under open pages.
    await sync(actions.start)(table.pk, alice)
    await watch.settle(table.pk)
    for user, label in [(bob, "bob mid-game"), (carol, "carol mid-game"), (None, "anon 2")]:
        await watch.open_table(user, table.pk, label)
    for _ in range(12):
        await play_random_move(table.pk, rng)
        await watch.settle(table.pk)
    await sync(actions.say)(table.pk, dave, "<b>good luck</b>")
    await watch.settle(table.pk)

    # carol leaves the club while watching its table: she sees nothing more of it.
    await sync(Membership.objects.filter(user=carol).delete)()
    await sync(actions.take_seat)(club_table.pk, dave)
    await watch.settle(club_table.pk)
    still_watching_the_club_table = "carol at the club table" in watch.labels()

    # bob leaves the running game: a stand-in plays his hand, which he no longer sees.
    await sync(actions.leave_game)(table.pk, bob)
    await watch.settle(table.pk)
    await watch.open_table(bob, table.pk, "bob after leaving")
    await play_to_the_end(watch, table.pk, rng)

    # The rematch: pages of the old table stay open while the new one fills and starts.
    following = await sync(actions.rematch)(table.pk, dave)
    await watch.open_table(alice, following.pk, "alice at the rematch")
    await watch.open_table(erin, following.pk, "erin at the rematch")
    await sync(actions.rematch)(table.pk, alice)
    await watch.settle(following.pk)
    await sync(actions.rematch)(table.pk, bob)
    await watch.settle(following.pk)
    await sync(actions.start)(following.pk, dave)
    await watch.settle(following.pk)
    for _ in range(12):
        await play_random_move(following.pk, rng)
        await watch.settle(following.pk)
    await watch.close()

    print(f"leak scan: {watch.frames} frames judged, {len(watch.problems)} problems")
    assert watch.problems == []
    assert not still_watching_the_club_table
    assert watch.frames > 300


async def test_it_shows_each_waiting_player_his_own_hand_when_a_random_order_game_starts():
    """Three players wait with their pages open; the host starts a random-order table."""
    users, _club = await people()
    watch = Watch(application)
    table = await sync(open_table)(users["alice"], seats_count=3, seat_order="random")
    await sync(actions.take_seat)(table.pk, users["bob"])
    await sync(actions.take_seat)(table.pk, users["carol"])
    for name in ("alice", "bob", "carol"):
        await watch.open_table(users[name], table.pk, name)

    await sync(actions.start)(table.pk, users["alice"])
    await watch.settle(table.pk)
    await watch.close()

    assert watch.problems == []
    assert watch.frames == 6


async def test_it_shows_a_player_who_gave_his_seat_up_no_hand_when_the_game_starts():
    """bob takes a seat, opens the page, leaves it; carol takes it; the game starts."""
    users, _club = await people()
    watch = Watch(application)
    table = await sync(open_table)(users["alice"], seats_count=2)
    await sync(actions.take_seat)(table.pk, users["bob"])
    await watch.open_table(users["bob"], table.pk, "bob")
    await sync(actions.leave_seat)(table.pk, users["bob"])
    await sync(actions.take_seat)(table.pk, users["carol"])

    await sync(actions.start)(table.pk, users["alice"])
    await watch.settle(table.pk)
    await watch.close()

    assert watch.problems == []
    assert watch.frames == 4
