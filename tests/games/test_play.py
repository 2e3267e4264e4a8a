import pytest

from games import actions
from games.ctg import engine
from games.models import Table
from leagues.models import PlayedGame
from tests.games.conftest import open_table

pytestmark = pytest.mark.django_db


def decide(table):
    """The deciding seat's name and first legal move at the table's current position."""
    table.refresh_from_db()
    state = table.state()
    return state.decider, engine.action_text(state.legal_actions()[0], state.names)


def play_to_the_end(table, users):
    """Play each seat's first legal move (as `users[seat]`) until the game is over."""
    for _ in range(5000):
        table.refresh_from_db()
        if table.status != Table.RUNNING:
            return
        if table.pause_until is not None:  # a round's end: everyone has seen it
            for user in users.values():
                actions.continue_round(table.pk, user)
            continue
        seat, text = decide(table)
        actions.play_for(table.pk, users[seat], text, table.version)


def test_it_starts_a_full_table_with_the_record_as_truth(running_table):
    assert running_table.status == Table.RUNNING
    assert running_table.record["players"] == ["alice", "bob"]
    assert len(running_table.record["rounds"]) == 1, "later decks must not be in the record"
    assert running_table.state().decider == 0


def test_it_refuses_to_start_before_every_seat_is_taken(alice):
    table = open_table(alice)
    with pytest.raises(actions.Refused, match="every seat"):
        actions.start(table.pk, alice)


def test_it_applies_a_legal_move_and_bumps_the_version(running_table, alice):
    _, text = decide(running_table)
    actions.play_for(running_table.pk, alice, text, running_table.version)

    running_table.refresh_from_db()
    assert running_table.version >= 1
    assert running_table.record["rounds"][0]["actions"][0] == f"alice: {text}"


def test_it_refuses_a_move_out_of_turn_and_changes_nothing(running_table, bob):
    with pytest.raises(actions.Refused) as refused:
        actions.play_for(running_table.pk, bob, "draw D1", running_table.version)

    assert refused.value.status == 400
    running_table.refresh_from_db()
    assert running_table.version == 0


def test_it_names_the_rule_of_an_illegal_move(running_table, alice):
    with pytest.raises(actions.Refused) as refused:
        actions.play_for(running_table.pk, alice, "draw X1", running_table.version)

    assert "§4" in refused.value.message


def test_it_says_a_stale_move_was_already_played(running_table, alice):
    _, text = decide(running_table)
    actions.play_for(running_table.pk, alice, text, 0)

    with pytest.raises(actions.Refused) as refused:
        actions.play_for(running_table.pk, alice, text, 0)

    assert refused.value.code == "already-played"
    assert "already played" in refused.value.message


def test_it_plays_a_whole_quick_game_to_a_stored_result(running_table, alice, bob):
    play_to_the_end(running_table, {0: alice, 1: bob})

    running_table.refresh_from_db()
    assert running_table.status == Table.FINISHED
    assert set(running_table.result["placings"]) == {"alice", "bob"}
    assert engine.result(engine.from_record(running_table.record)) == running_table.result
    stored = PlayedGame.objects.get(external_ref=f"online:{running_table.pk}")
    assert {seat.user for seat in stored.seats.all()} == {alice, bob}


def test_it_lets_the_ai_move_only_at_the_version_it_was_asked_for(alice):
    table = open_table(alice)
    actions.add_ai(table.pk, alice)
    actions.start(table.pk, alice)
    table.refresh_from_db()
    state = table.state()
    ai_position = 1
    if state.decider == ai_position:
        assert actions.ai_play(table.pk, table.version)
        table.refresh_from_db()
    version = table.version
    assert not actions.ai_play(table.pk, version), "a human decides: the AI must not move"
    assert not actions.ai_play(table.pk, version - 1 if version else 99), "stale: nothing"
    table.refresh_from_db()
    assert table.version == version


def test_it_stores_the_task_bonus_apart_from_the_points_for_sets(alice, bob):
    table = open_table(alice, rounds=3, imperial_tasks=True)
    actions.take_seat(table.pk, bob)
    actions.start(table.pk, alice)
    play_to_the_end(table, {0: alice, 1: bob})
    state = engine.from_record(table.record)
    stored = PlayedGame.objects.get(external_ref=f"online:{table.pk}")
    for seat in stored.seats.all():
        rows = list(seat.round_scores.order_by("round_no"))
        assert [(r.score + r.bonus, r.bonus) for r in rows] == [
            (h.scores[seat.seat], h.bonus[seat.seat]) for h in state.history
        ]
        assert all(r.score <= 110 for r in rows)
    assert any(any(h.bonus) for h in state.history), "the deal gave no bonus to check"
