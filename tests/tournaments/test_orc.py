"""De l'Orc tournaments: tables of 4-7 preferring 5 and 6, from the game, in every format;
score pads of round entries settle the tables."""

from itertools import combinations

import pytest
from django.core.exceptions import ValidationError
from django.db import transaction

from accounts.models import Membership, User
from games import registry
from leagues import actions, results
from tournaments import actions as tournaments
from tournaments import pairing
from tournaments.models import Stage, Tournament

pytestmark = pytest.mark.django_db

ORC = registry.get("orc")
RULE = pairing.SizeRule(ORC.seats, ORC.preferred_seats)


@pytest.mark.parametrize(
    ("players", "sizes"),
    [(4, [4]), (7, [7]), (8, [4, 4]), (11, [6, 5]), (13, [7, 6]), (17, [6, 6, 5])],
)
def test_it_splits_players_into_legal_tables_near_five_and_six(players, sizes):
    assert pairing.table_sizes(players, max_size=7, rule=RULE) == sizes


def test_it_cannot_seat_three():
    with pytest.raises(pairing.PairingError):
        pairing.table_sizes(3, max_size=7, rule=RULE)


def make_players(club, count):
    users = []
    for i in range(1, count + 1):
        user = User.objects.create_user(f"orc{i}", password="pw")
        Membership.objects.create(club=club, user=user)
        users.append(user)
    return users


def play(round_, by):
    """Settle every table on its pad: each round the wizard's left neighbour is champion and
    wins every battle, until someone reaches the target."""
    for table in round_.tables.all():
        game = table.game
        n = len(table.players)
        round_no = 1
        while results.pad_sheet(game).placings is None:
            wizard = (round_no - 1) % n
            champion = (wizard + 1) % n
            entry = {"wizard": wizard, "champion": champion, "winners": [[champion]] * 4}
            actions.enter_pad_entry(game, round_no, entry)
            game.refresh_from_db()
            round_no += 1
        actions.submit_for_confirmation(game)
        with transaction.atomic():
            assert actions.confirm(game, by, is_organiser=True)


def repeats(rounds):
    seen, again = set(), 0
    for round_ in rounds:
        for table in round_:
            for pair in combinations(sorted(table), 2):
                again += pair in seen
                seen.add(pair)
    return again


def fewest_repeats(old: list[int], new: list[int]) -> int:
    """The fewest pairs meeting again when tables of sizes `old` are redrawn as `new`: each
    new table takes k players from each old one, and k players from one table are
    k(k-1)/2 repeats."""
    if not new:
        return 0
    size, rest = new[0], new[1:]
    best = None

    def take(i: int, left: int, taken: list[int]) -> None:
        nonlocal best
        if i == len(old):
            if left == 0:
                remaining = [o - t for o, t in zip(old, taken, strict=True)]
                cost = sum(k * (k - 1) // 2 for k in taken) + fewest_repeats(remaining, rest)
                best = cost if best is None else min(best, cost)
            return
        for k in range(min(old[i], left) + 1):
            take(i + 1, left - k, [*taken, k])

    take(0, size, [])
    assert best is not None
    return best


@pytest.mark.parametrize("count", [11, 17])
def test_a_swiss_tournament_seats_everyone_at_legal_tables(club, olga, count):
    people = make_players(club, count)
    event = tournaments.create(
        club, name="Orc open", game="orc", max_table=7, stages=[{"kind": Stage.SWISS, "rounds": 3}]
    )
    for user in people:
        tournaments.register(event, user, checked_in=True)
    drawn = []
    for _ in range(3):
        round_ = tournaments.draft_round(event)
        tables = [t.players for t in round_.tables.all()]
        drawn.append(tables)
        assert sorted(p for t in tables for p in t) == sorted(u.pk for u in people)
        assert all(len(t) in (5, 6) for t in tables)
        tournaments.begin_round(round_, olga)
        games = [t.game for t in round_.tables.all()]
        assert all(g.game == "orc" and g.pad_entries == [] for g in games)
        play(round_, olga)
    # Tables of 5 and 6 cannot avoid every rematch in round 2; the draw has no more than
    # the sizes force.
    first = [len(t) for t in drawn[0]]
    second = [len(t) for t in drawn[1]]
    assert repeats(drawn[:2]) == fewest_repeats(first, second)
    standing = tournaments.stage_standings(event.stages.get())
    assert len(standing) == count


def test_a_bracket_of_tables_takes_the_winners_to_a_final(club, olga):
    people = make_players(club, 17)
    event = tournaments.create(
        club,
        name="Orc cup",
        game="orc",
        max_table=7,
        seeding=Tournament.RANDOM,
        stages=[
            {"kind": Stage.SWISS, "rounds": 1},
            {"kind": Stage.BRACKET, "rounds": 1, "cut": 10},
        ],
    )
    for user in people:
        tournaments.register(event, user, checked_in=True)
    round_ = tournaments.draft_round(event)
    tournaments.begin_round(round_, olga)
    play(round_, olga)
    semis = tournaments.draft_round(event)
    assert sorted(len(t.players) for t in semis.tables.all()) == [5, 5]
    tournaments.begin_round(semis, olga)
    play(semis, olga)


def test_a_round_robin_of_tables(club, olga):
    people = make_players(club, 11)
    event = tournaments.create(
        club,
        name="Orc league day",
        game="orc",
        max_table=6,
        stages=[{"kind": Stage.ROUND_ROBIN, "rounds": 2}],
    )
    for user in people:
        tournaments.register(event, user, checked_in=True)
    for _ in range(2):
        round_ = tournaments.draft_round(event)
        assert sorted(len(t.players) for t in round_.tables.all()) == [5, 6]
        tournaments.begin_round(round_, olga)
        play(round_, olga)


def test_the_form_offers_the_game_and_its_table_sizes(client, club, olga):
    client.force_login(olga)
    base = {"name": "Orc open", "mode": "physical", "game_length": "standard"}
    base |= {"seeding": "rating", "first_kind": "swiss", "first_rounds": 3, "rated": "on"}
    response = client.post("/clubs/tenno/tournaments/new/", base | {"game": "orc", "max_table": 3})
    assert "seats 4 to 7 players" in response.content.decode()
    response = client.post("/clubs/tenno/tournaments/new/", base | {"game": "orc", "max_table": 6})
    assert response.status_code == 302
    assert Tournament.objects.get(name="Orc open").game == "orc"


def test_it_sets_up_an_event_only_with_tables_its_game_has(club):
    # The database bounds a table for any game (2 to 8); the game's own sizes are its own.
    stages = [{"kind": Stage.SWISS, "rounds": 1}]
    for game, size in (("orc", 3), ("ctg", 5)):
        with pytest.raises(ValueError):
            tournaments.create(club, name="Odd", game=game, max_table=size, stages=stages)
    event = tournaments.create(club, name="Orc open", game="orc", max_table=5, stages=stages)
    with pytest.raises(ValueError):
        tournaments.change(event, stages=stages, game="ctg")
    event.max_table = 3
    with pytest.raises(ValidationError) as refused:
        event.full_clean()
    assert refused.value.message_dict == {
        "max_table": ["A table of De l'Orc pour les Braves seats 4 to 7 players."]
    }
    assert Tournament.objects.get().max_table == 5


def test_an_online_round_opens_de_l_orc_tables_at_the_usual_pace(club, olga):
    people = make_players(club, 9)
    event = tournaments.create(
        club,
        name="Orc online",
        game="orc",
        mode=Tournament.ONLINE,
        max_table=7,
        seeding=Tournament.RANDOM,
        stages=[{"kind": Stage.SWISS, "rounds": 1}],
    )
    for user in people:
        tournaments.register(event, user, checked_in=True)
    round_ = tournaments.draft_round(event)
    tournaments.begin_round(round_, olga)
    tables = [t.online_table for t in round_.tables.all()]
    assert sorted(t.seats.count() for t in tables) == [4, 5]
    assert {(t.game, t.options["pace"]) for t in tables} == {("orc", 1.2)}
