"""A tournament seats its rounds by its game's table sizes, and a drawn player who left the
club holds the round back instead of breaking it."""

import pytest

from accounts.models import Membership, User
from games import registry
from leagues.models import PlayedGame
from tests.site.toy_game import CallANumber
from tests.tournaments.pairing.sizes import CALL_TO_GLORY
from tournaments import actions as tournaments
from tournaments import pairing
from tournaments.models import Stage, Tournament, TournamentRound

pytestmark = pytest.mark.django_db


class Crowd(CallANumber):
    """Seated like De l'Orc pour les Braves: 4 to 7 players, best with 5 or 6."""

    key = "crowd"
    seats = range(4, 8)
    preferred_seats = (5, 6)


CROWD = Crowd()


@pytest.fixture
def players(club):
    users = []
    for i in range(1, 10):
        user = User.objects.create_user(f"p{i}", password="pw")
        Membership.objects.create(club=club, user=user)
        users.append(user)
    return users


def event(club, players, **options):
    tournament = tournaments.create(
        club,
        name="Spring open",
        options={"game_length": "quick"},
        seeding=Tournament.RANDOM,
        stages=[{"kind": Stage.SWISS, "rounds": 1}],
        **options,
    )
    for user in players:
        tournaments.register(tournament, user, checked_in=True)
    return tournament


def test_it_seats_a_round_by_the_table_sizes_of_its_game(settings, club, players):
    settings.GAMES = [*settings.GAMES, "tests.tournaments.test_games.CROWD"]
    crowd = tournaments.draft_round(event(club, players, game="crowd", max_table=7))
    ctg = tournaments.draft_round(event(club, players[:8], max_table=4))
    assert [len(t.players) for t in crowd.tables.all()] == [5, 4]
    assert [len(t.players) for t in ctg.tables.all()] == [4, 4]


def test_the_pairing_tests_seat_call_to_glory_at_the_games_own_sizes():
    game = registry.get("ctg")
    assert pairing.SizeRule(game.seats, game.preferred_seats) == CALL_TO_GLORY


def test_it_holds_a_round_whose_player_left_the_club(club, players, olga):
    round_ = tournaments.draft_round(event(club, players))
    leaver = round_.tables.first().players[0]
    Membership.objects.filter(club=club, user_id=leaver).delete()

    with pytest.raises(tournaments.NotReady) as refused:
        tournaments.begin_round(round_, olga)

    assert refused.value.code == "player-left"
    assert TournamentRound.objects.get(pk=round_.pk).status == TournamentRound.DRAFT
    assert not PlayedGame.objects.exists()
