"""No De l'Orc frame shows a card not dealt yet, or another seat's committed cards before
the reveal: every frame of every socket, from the deal through the battles, is judged by
the scanner in tests/games/leaks.py against the record."""

import asyncio

import pytest
from channels.db import database_sync_to_async

from ctg_site.asgi import application
from games.models import Table
from tests.conftest import persona
from tests.games.leaks import Watch
from tests.games.orc_helpers import orc_table, set_deal

pytestmark = pytest.mark.django_db(transaction=True)

# alice deals round 1; bob plays (his decisions go to the stand-in when his clock runs out);
# charlie and an anonymous visitor watch.


@database_sync_to_async
def setting_up():
    alice, bob, charlie = (persona(name) for name in ("alice", "bob", "charlie"))
    table = orc_table(alice, [bob], ["heuristic", "expert"], clock="live", clock_seconds=1)
    set_deal(table, 76.5)
    return table, {"alice": alice, "bob": bob, "charlie": charlie, "anonymous": None}


@database_sync_to_async
def round_of(table_id: int) -> tuple[int, str]:
    table = Table.objects.get(pk=table_id)
    state = table.state()
    return state.round, state.pending or ""


@pytest.mark.long
async def test_it_never_shows_an_undealt_card_nor_a_commitment_before_the_reveal(
    redis_channel_layer,
):
    table, users = await setting_up()
    watch = Watch(application)
    for label, user in users.items():
        assert await watch.open_table(user, table.pk, label)
    seen = set()
    for _ in range(600):
        await asyncio.sleep(0.1)
        await watch.settle()
        rnd, pending = await round_of(table.pk)
        seen.add(pending)
        if rnd > 1 or pending == "":
            break
    await watch.close()
    print(f"leak scan: {watch.frames} frames judged, {len(watch.problems)} problems")
    assert watch.problems == []
    assert {"recruit", "champion", "send", "people"} <= seen


def test_the_scanner_catches_an_undealt_card_and_an_army_shown_before_the_reveal():
    from games.orc import engine

    state = engine.new_game(["ann", "bob", "cy", "dee"], seed=7)
    state.deal(20)
    record = engine.to_record(state)
    deck = record["rounds"][0]["deck"]
    stamp = 1 * 10_000_000 + 20 * 10_000
    pile = '<ol data-zone="pile" data-pile="3">{}</ol>'
    honest = pile.format("".join(f'<li data-card="{c}"></li>' for c in deck[2:20:9]))
    # Card 21 goes onto pile 3 (of 9), but only 20 are dealt.
    early = pile.format("".join(f'<li data-card="{c}"></li>' for c in deck[2:21:9]))
    frame = '<template data-deal="{0}"><div data-stamp="{0}">{1}</div></template>'
    from tests.games.leaks import scan_orc

    assert scan_orc(frame.format(stamp, honest), record, None) == []
    assert scan_orc(frame.format(stamp, early), record, None) != []


def test_the_scanner_catches_a_send_before_the_reveal_with_the_players_named_as_shown():
    from games.orc import engine
    from games.orc.dealer import stamp
    from games.orc.engine.views import hidden
    from games.orc.replay import position as orc_position
    from games.records import action_lines
    from tests.games.leaks import scan_orc

    record = engine.to_record(engine.random_game(4, seed=7, names=["ann", "Sergeant-2", "c", "d"]))
    lines = [line for _r, line in action_lines(record)]
    # Sergeant 2 has sent mercenaries, face down until the reveal.
    count, state = next(
        (k, state)
        for k in range(1, len(lines) + 1)
        if lines[k - 1].startswith("Sergeant-2: send ") and hidden(state := orc_position(record, k))
    )
    sent = lines[count - 1].partition(": ")[2]
    shown = ["ann", "Sergent 2", "c", "d"]
    board = '<div id="board" data-stamp="{}"><ol><li>{}</li></ol></div>'
    for line in (f"Sergeant-2: {sent}", f"Sergent 2: {sent}"):
        assert scan_orc(board.format(stamp(state), line), record, 0, shown) != [], line
    honest = board.format(stamp(state), f"Sergent 2: {len(sent.split()) - 1} face down")
    assert scan_orc(honest, record, 0, shown) == []
