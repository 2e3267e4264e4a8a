"""Running a tournament through the manager: seats saved, drop-outs left out, the cut."""

import pytest
from django.db import transaction
from django.test import Client
from django.urls import reverse

from accounts.models import Membership, User
from leagues import actions, results
from leagues.models import PlayedGame, RecomputeJob
from tournaments import actions as tournaments
from tournaments.models import Stage, Tournament, TournamentRound

pytestmark = pytest.mark.django_db


@pytest.fixture
def players(club):
    users = []
    for i in range(1, 10):
        user = User.objects.create_user(f"p{i}", password="pw")
        Membership.objects.create(club=club, user=user)
        users.append(user)
    return users


@pytest.fixture
def event(club, players):
    tournament = tournaments.create(
        club,
        name="Autumn open",
        options={"game_length": "quick"},
        seeding=Tournament.RANDOM,
        stages=[
            {"kind": Stage.SWISS, "rounds": 2},
            {"kind": Stage.BRACKET, "rounds": 1, "cut": 4},
        ],
    )
    for user in players:
        tournaments.register(tournament, user, checked_in=True)
    return tournament


def play(round_, by):
    """Enter and confirm every table: the lower the seat, the higher the score."""
    for table in round_.tables.all():
        game = table.game
        scores = [38, 28, 15, 6][: len(table.players)]
        actions.enter_round(game, 1, scores, None)
        actions.submit_for_confirmation(game)
        with transaction.atomic():
            assert actions.confirm(game, by, is_organiser=True)


def test_it_seats_every_present_player_once(event, players, olga):
    round_ = tournaments.draft_round(event)
    seated = [p for t in round_.tables.all() for p in t.players]
    assert sorted(seated) == sorted(u.pk for u in players)
    assert [len(t.players) for t in round_.tables.all()] == [3, 3, 3]
    event.refresh_from_db()
    assert event.status == Tournament.RUNNING


def test_it_leaves_out_drop_outs_and_absent_players(event, players, olga):
    entry = event.entries.get(user=players[0])
    tournaments.set_presence(entry, dropped=True)
    tournaments.set_presence(event.entries.get(user=players[1]), checked_in=False)
    round_ = tournaments.draft_round(event)
    seated = [p for t in round_.tables.all() for p in t.players]
    assert players[0].pk not in seated and players[1].pk not in seated
    assert sorted(len(t.players) for t in round_.tables.all()) == [3, 4]


def test_it_opens_a_rated_score_pad_per_table_and_waits_for_results(event, olga):
    round_ = tournaments.draft_round(event)
    tournaments.begin_round(round_, olga)
    games = [t.game for t in round_.tables.all()]
    assert all(g.source == PlayedGame.PAD and g.rated and g.rounds == 1 for g in games)
    assert [[s.user_id for s in g.seats.order_by("seat")] for g in games] == [
        t.players for t in round_.tables.all()
    ]
    with pytest.raises(tournaments.NotReady):
        tournaments.draft_round(event)


def test_it_swaps_players_before_the_round_starts(event, olga):
    round_ = tournaments.draft_round(event)
    first, second = round_.tables.all()[:2]
    a, b = first.players[0], second.players[1]
    tournaments.swap(round_, a, b)
    first.refresh_from_db()
    second.refresh_from_db()
    assert first.players[0] == b and second.players[1] == a
    tournaments.begin_round(round_, olga)
    with pytest.raises(tournaments.NotReady):
        tournaments.swap(round_, a, b)


def test_it_swaps_two_seats_of_one_table(event):
    round_ = tournaments.draft_round(event)
    table = round_.tables.first()
    before = table.players
    tournaments.swap(round_, before[0], before[2])
    assert table.players == [before[2], before[1], before[0], *before[3:]]
    with pytest.raises(tournaments.NotReady):
        tournaments.swap(round_, before[0], before[0])


def test_it_runs_two_swiss_rounds_and_cuts_to_a_final_table(event, olga, players):
    for _ in range(2):
        round_ = tournaments.draft_round(event)
        tournaments.begin_round(round_, olga)
        play(round_, olga)
    swiss = event.stages.get(order=1)
    standing = tournaments.stage_standings(swiss)
    assert len(standing) == 9 and standing[0].points == 6
    final = tournaments.draft_round(event)
    assert final.stage.kind == Stage.BRACKET
    (table,) = final.tables.all()
    assert sorted(table.players) == sorted(r.player for r in standing[:4])
    tournaments.begin_round(final, olga)
    play(TournamentRound.objects.get(pk=final.pk), olga)
    tournaments.finish(event)
    event.refresh_from_db()
    assert event.status == Tournament.FINISHED
    picture = tournaments.bracket(event, tournaments.rounds_of(event))
    winners = [p["id"] for t in picture[0]["tables"] for p in t["players"] if p["through"]]
    assert winners == [table.players[0]]


def test_it_marks_who_can_still_qualify(event, olga):
    round_ = tournaments.draft_round(event)
    tournaments.begin_round(round_, olga)
    play(round_, olga)
    swiss = event.stages.get(order=1)
    rows = tournaments.stage_standings(swiss)
    marks = tournaments.qualification(swiss, rows)
    # One round left, 3 points a round at most: the three winners are not yet through.
    assert set(marks.values()) == {"open"}
    round_ = tournaments.draft_round(event)
    tournaments.begin_round(round_, olga)
    play(round_, olga)
    rows = tournaments.stage_standings(swiss)
    marks = tournaments.qualification(swiss, rows)
    # No rounds left: only a tie on points across the cut stays open.
    qualified = {p for p, m in marks.items() if m == "qualified"}
    assert qualified and qualified <= {r.player for r in rows[:4]}
    assert "eliminated" in marks.values()


@pytest.mark.parametrize("rated", [True, False])
def test_it_feeds_ratings_when_the_tournament_is_rated(event, olga, rated):
    Tournament.objects.filter(pk=event.pk).update(rated=rated)
    event.refresh_from_db()
    round_ = tournaments.draft_round(event)
    tournaments.begin_round(round_, olga)
    play(round_, olga)
    games = PlayedGame.objects.filter(tournament_table__round=round_)
    assert games.count() == 3
    assert set(games.values_list("rated", flat=True)) == {rated}
    assert set(games.values_list("status", flat=True)) == {PlayedGame.CONFIRMED}
    assert RecomputeJob.objects.exists() == rated


def online_round(club, players, olga, **options):
    """An online event of three, its one round begun: (tournament, round, its table)."""
    tournament = tournaments.create(
        club,
        name="Online night",
        mode=Tournament.ONLINE,
        options={"game_length": "quick"},
        seeding=Tournament.RANDOM,
        allow_ai=True,
        stages=[{"kind": Stage.SWISS, "rounds": 1}],
        **options,
    )
    for user in players[:3]:
        tournaments.register(tournament, user, checked_in=True)
    round_ = tournaments.draft_round(tournament)
    tournaments.begin_round(round_, olga)
    return tournament, round_, round_.tables.get()


def test_it_opens_online_tables_and_takes_their_results(club, players, olga):
    from games.models import Table

    _tournament, round_, table = online_round(club, players, olga, rated=False)
    online = table.online_table
    assert online.status == Table.OPEN and not online.rated and online.club == club
    assert list(online.seats.order_by("position").values_list("user_id", flat=True)) == (
        table.players
    )
    # A no-show's seat goes to an AI player; the others play on.
    absent = table.players[2]
    tournaments.fill_with_ai(table, absent)
    # He stays drawn at the table, replaced: he takes no place there.
    assert table.seats.get(user_id=absent).replaced
    assert online.seats.filter(user__isnull=True).exclude(ai_level="").count() == 1
    # The online game ends: the result arrives through leagues and lands on the table.
    users = {u.pk: u for u in players}
    seats = list(online.seats.order_by("position"))
    results.record_result(
        results.of_rounds([[38], [28], [15]]),
        players=[users[s.user_id] if s.user_id else s.name for s in seats],
        club=club,
        rated=False,
        external_ref=f"online:{online.pk}",
        table=online,
    )
    table.refresh_from_db()
    result = tournaments.table_result(table)
    assert result is not None
    assert result.places == {table.players[0]: 1, table.players[1]: 2}
    assert tournaments.round_complete(TournamentRound.objects.get(pk=round_.pk))


def test_it_takes_late_arrivals_and_drop_outs_between_rounds(event, players, olga, club):
    round_ = tournaments.draft_round(event)
    tournaments.begin_round(round_, olga)
    play(round_, olga)
    tournaments.set_presence(event.entries.get(user=players[0]), dropped=True)
    late = [User.objects.create_user(f"late{i}", password="pw") for i in range(2)]
    for user in late:
        Membership.objects.create(club=club, user=user)
        tournaments.register(event, user, checked_in=True)
    second = tournaments.draft_round(event)
    seated = [p for t in second.tables.all() for p in t.players]
    assert players[0].pk not in seated
    assert sorted(seated) == sorted([u.pk for u in players[1:]] + [u.pk for u in late])
    assert sorted(len(t.players) for t in second.tables.all()) == [3, 3, 4]
    # Late arrivals start at the bottom of the standing: they share the last table.
    assert {u.pk for u in late} <= set(list(second.tables.all())[-1].players)


def test_it_advances_the_top_two_of_each_bracket_table_to_a_final(club, players, olga):
    tournament = tournaments.create(
        club,
        name="Knock-out",
        options={"game_length": "quick"},
        seeding=Tournament.RANDOM,
        stages=[
            {"kind": Stage.SWISS, "rounds": 1},
            {"kind": Stage.BRACKET, "rounds": 2, "cut": 8, "advance": 2},
        ],
    )
    for user in players:
        tournaments.register(tournament, user, checked_in=True)
    for _ in range(2):
        round_ = tournaments.draft_round(tournament)
        tournaments.begin_round(round_, olga)
        play(round_, olga)
    semis = list(round_.tables.all())
    assert [len(t.players) for t in semis] == [4, 4]
    final = tournaments.draft_round(tournament)
    (table,) = final.tables.all()
    # The first two seats of each semi-final scored best there and go through.
    assert sorted(table.players) == sorted(semis[0].players[:2] + semis[1].players[:2])
    columns = tournaments.bracket(tournament, tournaments.rounds_of(tournament))
    assert [len(c["tables"]) for c in columns] == [2, 1]
    through = [p["id"] for t in columns[0]["tables"] for p in t["players"] if p["through"]]
    assert sorted(through) == sorted(table.players)
    origin = {p["id"]: p["from_table"] for p in columns[1]["tables"][0]["players"]}
    assert origin == {p: 1 if p in semis[0].players else 2 for p in table.players}


def test_it_plays_a_two_player_round_robin(club, players, olga):
    tournament = tournaments.create(
        club,
        name="Duels",
        options={"game_length": "quick"},
        max_table=2,
        stages=[{"kind": Stage.ROUND_ROBIN, "rounds": 3}],
    )
    for user in players[:4]:
        tournaments.register(tournament, user, checked_in=True)
    pairs = []
    for _ in range(3):
        round_ = tournaments.draft_round(tournament)
        pairs += [frozenset(t.players) for t in round_.tables.all()]
        tournaments.begin_round(round_, olga)
        play(round_, olga)
    assert len(pairs) == len(set(pairs)) == 6
    with pytest.raises(tournaments.NotReady):
        tournaments.draft_round(tournament)
    tournaments.finish(tournament)


def test_the_organiser_starts_an_online_table_whose_host_did_not_come(client, club, players, olga):
    from games.models import Table

    tournament, _round, table = online_round(club, players, olga)
    host, *others = table.players  # the first player drawn, who hosts nothing

    client.force_login(olga)
    step = reverse("tournament_step", args=[club.slug, tournament.pk])
    page = client.get(tournament.get_absolute_url()).content.decode()
    assert "Start table 1 now" in page
    client.post(step, {"step": "ai", "table": table.pk, "player": host})
    online = Table.objects.get(pk=table.online_table_id)
    assert not online.seats.filter(user_id=host).exists()

    client.post(step, {"step": "ai", "table": table.pk, "player": others[0]})
    last = {"step": "ai", "table": table.pk, "player": others[1]}
    response = client.post(step, last, follow=True)
    assert "At least one player must stay at the table." in response.content.decode()

    response = client.post(step, {"step": "start", "table": table.pk}, follow=True)
    online.refresh_from_db()
    assert online.status == Table.RUNNING
    assert "Start table 1 now" not in response.content.decode()
    response = client.post(step, {"step": "start", "table": table.pk}, follow=True)
    assert "This online table has already started." in response.content.decode()


def test_tournament_best_round_is_a_round_not_the_game_total(club, players, olga):
    """Four rounds of 40, 36, 38, 34 (148 in all) show a best round of 40 in the standings."""
    tournament = tournaments.create(
        club,
        name="Long games",
        options={"game_length": "standard"},
        seeding=Tournament.RANDOM,
        stages=[{"kind": Stage.SWISS, "rounds": 1}],
    )
    for user in players[:2]:
        tournaments.register(tournament, user, checked_in=True)
    round_ = tournaments.draft_round(tournament)
    tournaments.begin_round(round_, olga)
    (table,) = round_.tables.all()
    for round_no, scores in enumerate([[40, 20], [36, 22], [38, 18], [34, 24]], start=1):
        actions.enter_round(table.game, round_no, scores, None)
    actions.submit_for_confirmation(table.game)
    with transaction.atomic():
        assert actions.confirm(table.game, olga, is_organiser=True)

    standing = tournaments.stage_standings(tournament.stages.get())
    assert {r.player: r.best_round for r in standing} == {
        table.players[0]: 40,
        table.players[1]: 24,
    }
    client = Client()
    client.force_login(olga)
    page = client.get(tournament.get_absolute_url()).content.decode()
    assert '<td class="lg-wide">148</td>' not in page
    assert '<td class="lg-wide">40</td>' in page
