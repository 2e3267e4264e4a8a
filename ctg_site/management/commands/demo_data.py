import random
from datetime import datetime, time, timedelta

from django.core.management.base import BaseCommand
from django.db import transaction
from django.utils import timezone

from accounts.models import Club, Membership, User
from games import actions as tables
from games.ctg import ai, engine
from games.models import Table
from games.orc import engine as orc_engine
from games.orc import pad as orc_pad
from leagues import actions as leagues
from leagues.models import League, PlayedGame
from leagues.results import of_rounds, record_result
from tournaments import actions as tournaments
from tournaments.models import Stage, Tournament

ORGANISER = ("organiser", "glory-demo-1")
PLAYERS = ["alice", "bob", "charlie", "dave", "erin"]
SEASON = "Autumn season"
CLUB_NIGHTS = 8
ORC_LEAGUE = "De l'Orc evenings"
ORC_EVENINGS = [5, 6, 5, 6]  # players at each evening


def bot_game(options: engine.Options, names: list[str], seed: int) -> engine.State:
    """A whole game played by the card-counting AI in every seat."""
    state = engine.new_game(options, names, seed=seed)
    while not state.game_over:
        seat = state.decider
        assert seat is not None
        state.apply(ai.decide_code("heuristic", engine.view(state, seat), seed=seed), seat)
    return state


def play_until(table: Table, done) -> None:
    """Play the table's decisions with the card-counting AI, through the tables' own moves."""
    table.refresh_from_db()
    while not done():
        state = table.state()
        seat = state.decider
        text = ai.decide("heuristic", engine.view(state, seat), seed=table.version)
        tables.play(table.pk, seat, text, table.version)
        table.refresh_from_db()


class Command(BaseCommand):
    help = (
        "Create a demo club with an organiser, a handful of players, a season of club nights, "
        "a finished online game, a correspondence game waiting for Dave's move, a table "
        "waiting for players, a tournament open for registration and a De l'Orc league of "
        "score-pad evenings (safe to run again)."
    )

    @transaction.atomic
    def handle(self, *args, **options):
        club, _ = Club.objects.get_or_create(
            slug="demo-club",
            defaults={"name": "Demo Club", "description": "A club to try the site with."},
        )
        members = []
        for username, role in [(ORGANISER[0], Membership.ORGANISER)] + [
            (name, Membership.MEMBER) for name in PLAYERS
        ]:
            user, created = User.objects.get_or_create(
                username=username,
                defaults={
                    "display_name": username.capitalize(),
                    "email": f"{username}@example.com",
                },
            )
            if created:
                user.set_password(ORGANISER[1])
                user.save()
            Membership.objects.get_or_create(club=club, user=user, defaults={"role": role})
            members.append(user)
        if not League.objects.filter(club=club, name=SEASON).exists():
            self.season(club, members)
            self.online_game(club, members)
            self.correspondence_game(club, members)
            self.open_table(club, members)
            self.cup(club, members)
        if not League.objects.filter(club=club, name=ORC_LEAGUE).exists():
            self.orc_evenings(club, members)
        self.stdout.write(
            self.style.SUCCESS(
                f"Demo club ready. Organiser login: {ORGANISER[0]} / {ORGANISER[1]} "
                f"(players {', '.join(PLAYERS)} share that password)"
            )
        )

    def season(self, club: Club, members: list[User]) -> None:
        """Weekly club nights of the last two months, each a table of three or four."""
        today = timezone.localdate()
        league = League.objects.create(
            club=club,
            name=SEASON,
            starts_on=today - timedelta(weeks=CLUB_NIGHTS),
            ends_on=today + timedelta(weeks=4),
        )
        league.participants.set(members)
        rng = random.Random(2012)
        for week in range(CLUB_NIGHTS):
            players = rng.sample(members, rng.choice([3, 4]))
            names = [p.username for p in players]
            state = bot_game(engine.Options(len(players), 4), names, seed=week)
            night = today - timedelta(weeks=CLUB_NIGHTS - week)
            record_result(
                of_rounds([[r.scores[i] for r in state.history] for i in range(len(players))]),
                players=players,
                played_at=timezone.make_aware(datetime.combine(night, time(20, 30))),
                league=league,
                source=PlayedGame.PAD,
            )

    def online_game(self, club: Club, members: list[User]) -> None:
        """Alice and Bob's quick game, played through the tables' own moves."""
        alice, bob = members[1], members[2]
        table = tables.create_table(
            alice, club=club, visibility=Table.CLUB, seats_count=2, options={"rounds": 1}, seed=7
        )
        tables.take_seat(table.pk, bob)
        tables.start(table.pk, alice)
        play_until(table, lambda: table.status != Table.RUNNING)

    def correspondence_game(self, club: Club, members: list[User]) -> None:
        """Dave and Erin's game at three days a move, some turns in, waiting for Dave."""
        dave, erin = members[4], members[5]
        table = tables.create_table(
            dave,
            club=club,
            visibility=Table.CLUB,
            seats_count=2,
            seat_order=Table.HOST_ORDER,
            clock=Table.CORRESPONDENCE,
            clock_seconds=3 * 24 * 3600,
            seed=11,
        )
        tables.take_seat(table.pk, erin)
        tables.start(table.pk, dave)
        play_until(table, lambda: table.version >= 30 and table.state().decider == 0)

    def open_table(self, club: Club, members: list[User]) -> None:
        """Charlie waits with an AI player for a third."""
        charlie = members[3]
        table = tables.create_table(charlie, club=club, visibility=Table.CLUB, seats_count=3)
        tables.add_ai(table.pk, charlie, "heuristic")

    def cup(self, club: Club, members: list[User]) -> None:
        cup = tournaments.create(
            club,
            name="Winter cup",
            seeding=Tournament.BY_RATING,
            stages=[{"kind": Stage.SWISS, "rounds": 3}],
        )
        for user in members[1:]:
            tournaments.register(cup, user)

    def orc_evenings(self, club: Club, members: list[User]) -> None:
        """De l'Orc evenings of five and six, entered on the score pad round by round and
        confirmed by a second player, as a club would."""
        today = timezone.localdate()
        league = League.objects.create(club=club, name=ORC_LEAGUE, game="orc")
        league.participants.set(members)
        rng = random.Random(2003)
        for number, size in enumerate(ORC_EVENINGS):
            players = rng.sample(members, size)
            names = [p.username for p in players]
            result = orc_engine.result(orc_engine.random_game(size, seed=number, names=names))
            night = today - timedelta(weeks=len(ORC_EVENINGS) - number, days=2)
            game = leagues.start_pad_game(
                league,
                players[0],
                [leagues.Player(user=p) for p in players],
                played_at=timezone.make_aware(datetime.combine(night, time(20, 0))),
            )
            for round_no, entry in enumerate(orc_pad.from_result(result, names), start=1):
                leagues.enter_pad_entry(game, round_no, entry)
            leagues.submit_for_confirmation(game)
            leagues.confirm(game, players[1], is_organiser=False)
