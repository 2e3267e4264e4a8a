"""A stateful property: organisers, players and tables drive an event that runs itself
through random steps over HTTP, and after every step no page answers 5xx, no table of the
round under way is left without a way forward, and the standings are those recomputed from
the tables' true placings. The steps: players check in, register, leave; the organiser checks
them in and out, pauses, goes on, ends early, replaces, adjudicates, restarts and starts
tables; and odd orders (a round drawn by hand while tables play or in an event that draws its
own, a seat filled twice, a finished table acted on, nonsense posted).

pytest-django does not roll back between hypothesis examples: each example has a club,
event and players of its own.
"""

import itertools
from datetime import timedelta
from fractions import Fraction

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, invariant, rule

from accounts.models import Club, Membership, User
from games.models import Table
from leagues.models import PlayedGame
from tournaments import actions as tournaments
from tournaments import pairing
from tournaments.models import Stage, Tournament, TournamentTable

pytestmark = pytest.mark.django_db

_examples = itertools.count()
PLAYERS = 7


class EventMachine(RuleBasedStateMachine):
    def __init__(self):
        super().__init__()
        n = next(_examples)
        self.club = Club.objects.create(name=f"Club {n}", slug=f"club-{n}")
        olga = User.objects.create_user(f"olga{n}", password="pw")
        Membership.objects.create(club=self.club, user=olga, role=Membership.ORGANISER)
        self.players = []
        for i in range(PLAYERS):
            user = User.objects.create_user(f"m{n}p{i}", password="pw")
            Membership.objects.create(club=self.club, user=user)
            self.players.append(user)
        self.event = tournaments.create(
            self.club,
            name="Machine",
            mode=Tournament.ONLINE,
            options={"game_length": "quick"},
            seeding=Tournament.RANDOM,
            rated=False,
            allow_ai=True,
            starts_at=timezone.now() + timedelta(seconds=1),
            round_interval=30,
            stages=[{"kind": Stage.SWISS, "rounds": 3}],
        )
        # Most check in ahead; the others may check in (or back in) as a step.
        for user in self.players[:5]:
            tournaments.register(self.event, user, checked_in=True)
        self.organiser = self._client(olga)
        self.clients = [self._client(u) for u in self.players]
        self.clock = timezone.now()

    @staticmethod
    def _client(user) -> Client:
        client = Client(raise_request_exception=False)
        client.force_login(user)
        return client

    def _url(self, name: str) -> str:
        return reverse(name, args=[self.club.slug, self.event.pk])

    def _answered(self, response) -> None:
        assert response.status_code < 500, response.status_code

    def _tables(self):
        return TournamentTable.objects.filter(
            round__stage__tournament=self.event, online_table__status=Table.RUNNING
        ).order_by("pk")

    @rule(i=st.integers(0, PLAYERS - 1))
    def check_in(self, i):
        self._answered(self.clients[i].post(self._url("tournament_checkin")))

    @rule(i=st.integers(0, PLAYERS - 1))
    def look(self, i):
        self._answered(self.clients[i].get(self.event.get_absolute_url()))

    @rule(seconds=st.sampled_from([1, 31, 61]))
    def time_passes(self, seconds):
        """Time goes on, and the sweep does what is due."""
        self.clock += timedelta(seconds=seconds)
        tournaments.advance(self.event.pk, now=self.clock)

    @rule(k=st.integers(0, 3), forfeit=st.booleans())
    def a_table_ends(self, k, forfeit):
        tables = list(self._tables())
        if tables:
            table = tables[k % len(tables)]
            data = {"step": "adjudicate", "table": table.pk}
            if forfeit:
                data["forfeit"] = table.players[0]
            self._answered(self.organiser.post(self._url("tournament_step"), data))

    @rule(k=st.integers(0, 3), seat=st.integers(0, 3))
    def a_player_is_away(self, k, seat):
        tables = list(self._tables())
        if tables:
            table = tables[k % len(tables)]
            tournaments.mark_absent(table, table.players[seat % len(table.players)])

    @rule(k=st.integers(0, 3), seat=st.integers(0, 3))
    def the_organiser_gives_a_seat_to_an_ai(self, k, seat):
        tables = list(self._tables())
        if tables:
            table = tables[k % len(tables)]
            player = table.players[seat % len(table.players)]
            data = {"step": "ai", "table": table.pk, "player": player}
            self._answered(self.organiser.post(self._url("tournament_step"), data))

    @rule(step=st.sampled_from(["pause", "resume", "finish-now", "draft", "finish"]))
    def the_organiser_steps_in(self, step):
        """Hold, go on, end early; or odd orders: draw a round by hand (while tables play,
        or in an event that draws its own), finish with rounds left."""
        self._answered(self.organiser.post(self._url("tournament_step"), {"step": step}))

    @rule(i=st.integers(0, PLAYERS - 1))
    def a_player_leaves_the_event(self, i):
        self._answered(self.clients[i].post(self._url("tournament_register"), {"withdraw": "1"}))

    @rule(i=st.integers(0, PLAYERS - 1))
    def a_player_registers(self, i):
        self._answered(self.clients[i].post(self._url("tournament_register")))

    @rule(i=st.integers(0, PLAYERS - 1), action=st.sampled_from(["in", "out", "drop", "return"]))
    def the_organiser_checks_a_player(self, i, action):
        entry = self.event.entries.filter(user=self.players[i]).first()
        data = {"action": action, "entry": entry.pk if entry else 0}
        self._answered(self.organiser.post(self._url("tournament_presence"), data))

    @rule(k=st.integers(0, 3), step=st.sampled_from(["restart", "adjudicate", "ai", "start"]))
    def the_organiser_acts_on_any_table_of_the_event(self, k, step):
        """Running, finished, or of a round before: a table that cannot take the step says so."""
        tables = list(
            TournamentTable.objects.filter(round__stage__tournament=self.event).order_by("pk")
        )
        if tables:
            table = tables[k % len(tables)]
            data = {"step": step, "table": table.pk, "player": table.players[0]}
            self._answered(self.organiser.post(self._url("tournament_step"), data))

    @rule(k=st.integers(0, 3), seat=st.integers(0, 3))
    def the_organiser_fills_a_seat_twice(self, k, seat):
        tables = list(self._tables())
        if tables:
            table = tables[k % len(tables)]
            player = table.players[seat % len(table.players)]
            data = {"step": "ai", "table": table.pk, "player": player}
            for _ in range(2):
                self._answered(self.organiser.post(self._url("tournament_step"), data))

    @rule(
        step=st.sampled_from(["", "nonsense", "ai", "adjudicate", "restart", "start", "swap"]),
        table=st.sampled_from(["", "x", "-1", "0", "99999999999999999999", "1.5"]),
        player=st.sampled_from(["", "abc", "0", "-3", "99999999"]),
    )
    def someone_posts_nonsense(self, step, table, player):
        data = {"step": step, "table": table, "player": player, "forfeit": player}
        data |= {"round": table, "a": player, "b": player}
        self._answered(self.organiser.post(self._url("tournament_step"), data))
        self._answered(self.clients[0].post(self._url("tournament_step"), data))
        self._answered(self.organiser.post(self._url("tournament_presence"), {"entry": table}))

    @invariant()
    def the_event_page_answers(self):
        self._answered(self.organiser.get(self.event.get_absolute_url()))

    @invariant()
    def every_table_has_a_way_forward(self):
        event = Tournament.objects.get(pk=self.event.pk)
        where = tournaments.position(event)
        if where.round is None or event.status == Tournament.FINISHED:
            return
        for table in where.round.tables.all():
            online = table.online_table
            assert online is not None
            # Played on, or over with its result in.
            assert online.status == Table.RUNNING or tournaments.table_result(table) is not None, (
                online.status
            )
        if tournaments.round_complete(where.round):
            # Its end has set the next draw, or the event is over.
            assert event.next_round_at is not None

    @invariant()
    def standings_are_the_tables_true_placings(self):
        event = Tournament.objects.get(pk=self.event.pk)
        stage = event.stages.get()
        rows = {r.player: r for r in tournaments.stage_standings(stage)}
        expected: dict[int, Fraction] = {}
        games: dict[int, int] = {}
        for table in TournamentTable.objects.filter(round__stage=stage).prefetch_related(
            "seats", "game__seats"
        ):
            game = table.game
            if game is None or game.status != PlayedGame.CONFIRMED:
                continue
            drawn = {s.position: s for s in table.seats.all()}
            absent = [s.user_id for s in drawn.values() if s.absent]
            played = [p for p in game.seats.all() if not drawn[p.seat].absent]
            # The seats played in their order, then the absent players, last together.
            order = sorted(played, key=lambda p: p.place or 99)
            places = {}
            for p in order:
                better = sum(1 for q in order if (q.place or 99) < (p.place or 99))
                places[p.seat] = better + 1
            points = pairing.FAIR_POINTS[len(drawn)]
            for p in order:
                seat = drawn[p.seat]
                if seat.replaced:
                    continue
                shared = [q for q in order if places[q.seat] == places[p.seat]]
                start = places[p.seat] - 1
                won = sum(points[start : start + len(shared)], Fraction(0)) / len(shared)
                expected[seat.user_id] = expected.get(seat.user_id, Fraction(0)) + won
                games[seat.user_id] = games.get(seat.user_id, 0) + 1
            start = len(order)
            for user_id in absent:
                won = sum(points[start:], Fraction(0)) / len(absent)
                expected[user_id] = expected.get(user_id, Fraction(0)) + won
                games[user_id] = games.get(user_id, 0) + 1
        for player, points_ in expected.items():
            assert rows[player].points == pytest.approx(float(points_)), player
            assert rows[player].games == games[player]
        for player, row in rows.items():
            if player not in expected:
                assert row.points == 0 and row.games == 0


EventMachine.TestCase.settings = settings(
    max_examples=8,
    stateful_step_count=30,
    derandomize=True,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
test_an_event_that_runs_itself_holds_under_random_steps = EventMachine.TestCase
