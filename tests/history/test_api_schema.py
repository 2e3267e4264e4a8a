"""The read API keeps to its published schema: schemathesis drives every operation of
/api/v1/openapi.json in-process, with every check that applies, and finds nothing.

Personas: alice and bob are members of the private club "Kyoto" (bob is the signed-in
member here); dave and erin of the private club "Osaka", whose games, league and tournament
bob must not see; charlie is in no club. Anonymous visitors see the public games only.
"""

from collections import Counter
from contextlib import contextmanager

import pytest
import schemathesis
from django.conf import settings
from django.core.signals import request_finished, request_started
from django.core.wsgi import get_wsgi_application
from django.db import DEFAULT_DB_ALIAS, close_old_connections, connections
from schemathesis.engine import events, from_schema
from schemathesis.engine.statistic import Statistic

from accounts.models import Club, Membership
from analysis import actions as analysis_actions
from leagues import rating_jobs, tallies
from leagues.models import League, PlayedGame
from tests.conftest import persona
from tests.history.conftest import online_game, pad_game
from tournaments import actions as tournaments
from tournaments.models import TournamentRound, TournamentTable

SEED = 20260325
MAX_EXAMPLES = 100


@pytest.fixture
def history(alice, bob, charlie, club, league):
    """Two private clubs with a league and a tournament each, and public games around them."""
    dave, erin = persona("dave"), persona("erin")
    osaka = Club.objects.create(name="Osaka", slug="osaka")
    Membership.objects.create(club=osaka, user=dave, role=Membership.ORGANISER)
    Membership.objects.create(club=osaka, user=erin)
    winter = League.objects.create(club=osaka, name="Winter")
    winter.participants.add(dave, erin)
    league.participants.add(alice, bob)

    pad_game([alice, charlie], [[10], [5]], day=1)
    pad_game([alice, bob, charlie], [[3, 4, 5, 6], [1, 2, 3, 4], [6, 6, 6, 6]], day=2)
    analysed, _game = online_game([alice, bob], seed=3, day=3)
    for seat in (0, 1):
        analysis = analysis_actions.request(analysed, [seat], alice)[0]
        assert analysis_actions.run(analysis.pk), analysis.error
    analysis_actions.request(analysed, [1], alice)  # done already: stays as it is
    online_game([alice, bob, charlie], seed=5, rounds=3, variants=("imperial-tasks",), day=4)
    online_game([bob, charlie], seed=6, variants=("ninja",), day=5, rated=True)
    online_game([alice, bob], seed=7, club=club, day=6)
    pad_game([alice, bob, charlie, dave], [[4], [3], [2], [1]], day=6, rated=False)
    for day in (7, 8, 9):
        pad_game([alice, bob], [[day], [5]], day=day, league=league)
        pad_game([dave, erin], [[day], [5]], day=day, league=winter)
    pad_game([dave, erin, "Guest"], [[9], [8], [7]], day=10, club=osaka, rated=False)

    for event_club, players in ((club, [alice, bob]), (osaka, [dave, erin])):
        event = tournaments.create(event_club, name="Cup", stages=[{"rounds": 1}])
        round_ = TournamentRound.objects.create(stage=event.stages.get(), number=1)
        game = pad_game(players, [[30], [10]], day=11, club=event_club)
        table = TournamentTable.objects.create(round=round_, number=1, game=game)
        table.seat_players([p.pk for p in players])

    # What the background jobs would do after commit; the test transaction never commits.
    for each in (league, winter):
        tallies.tally_league(each.pk)
    rating_jobs.recompute_from(None)
    return {
        "games": list(PlayedGame.objects.values_list("pk", flat=True)),
        "leagues": [league.pk, winter.pk],
        "tournaments": list(club.tournaments.values_list("pk", flat=True))
        + list(osaka.tournaments.values_list("pk", flat=True)),
        "usernames": ["alice", "bob", "charlie", "dave", "erin"],
        "clubs": ["kyoto", "osaka"],
    }


@contextmanager
def on_this_connection(session_key: str | None):
    """A WSGI app answering on the test's own database connection, in the given session.

    Schemathesis sends its requests from worker threads, which would otherwise open
    connections of their own outside the test transaction and see none of its data (the same
    override as Django's live server). Django closes a connection in a transaction at the end
    of each request; the test client avoids that the same way as here. The session cookie
    is set as a browser would (schemathesis's WSGI client keeps only cookies of its own).
    """
    connection = connections[DEFAULT_DB_ALIAS]
    django_app = get_wsgi_application()

    def app(environ, start_response):
        connections[DEFAULT_DB_ALIAS] = connection
        if session_key:
            environ["HTTP_COOKIE"] = f"{settings.SESSION_COOKIE_NAME}={session_key}"
        return django_app(environ, start_response)

    connection.inc_thread_sharing()
    request_started.disconnect(close_old_connections)
    request_finished.disconnect(close_old_connections)
    try:
        yield app
    finally:
        request_started.connect(close_old_connections)
        request_finished.connect(close_old_connections)
        connection.dec_thread_sharing()


def config(data: dict) -> schemathesis.Config:
    def drawn_from(name: str) -> dict:
        # Half the values come from the data, so cases reach real games, leagues and people.
        return {"dictionary": name, "probability": 0.5}

    def ids(path: str, dictionary: str) -> dict:
        return {"include-path": path, "parameters": {"path.id": drawn_from(dictionary)}}

    options = {
        "seed": SEED,
        "generation": {
            "deterministic": True,
            "max-examples": MAX_EXAMPLES,
            "database": "none",
            "allow-x00": True,
        },
        # Every check; max_response_time only once given a limit (seconds, generous: 2 cores).
        "checks": {"enabled": True, "max_response_time": 10},
        "dictionaries": {name: {"values": values} for name, values in data.items()},
        "parameters": {
            "query.player": drawn_from("usernames"),
            "query.opponent": drawn_from("usernames"),
            "query.username": drawn_from("usernames"),
            "query.club": drawn_from("clubs"),
            "query.league": drawn_from("leagues"),
            "query.tournament": drawn_from("tournaments"),
        },
        "operations": [
            ids("/api/v1/games/{id}/", "games"),
            ids("/api/v1/games/{id}/record/", "games"),
            ids("/api/v1/games/{id}/analysis/", "games"),
            ids("/api/v1/games/{id}/analysis/{seat}/", "games"),
            ids("/api/v1/leagues/{id}/table/", "leagues"),
            ids("/api/v1/tournaments/{id}/standings/", "tournaments"),
        ],
    }
    return schemathesis.Config.from_dict(options)


def run_schemathesis(app, config: schemathesis.Config) -> dict:
    schema = schemathesis.openapi.from_wsgi("/api/v1/openapi.json", app, config=config)
    statistic = Statistic()
    operations: set[str] = set()
    checks: Counter[str] = Counter()
    answers: Counter[tuple[str, int]] = Counter()
    errors, failures = [], []
    for event in from_schema(schema).execute():
        if isinstance(event, events.ScenarioFinished):
            statistic.on_scenario_finished(event.recorder)
            operations.add(event.recorder.label)
            for results in event.recorder.checks.values():
                checks.update(result.name for result in results)
            for interaction in event.recorder.interactions.values():
                if interaction.response is not None:
                    answers[event.recorder.label, interaction.response.status_code] += 1
        elif isinstance(event, events.NonFatalError):
            errors.append(repr(event.value))
        elif isinstance(event, events.FatalError):
            errors.append(repr(event.exception))
        elif isinstance(event, events.EngineFinished):
            # Checks over the whole run report here rather than with a scenario.
            failures += [f"{failure.title}\n{failure.message}" for failure in event.failures]
    failures += [
        f"{label}: {failure.title}\n{failure.message}"
        for label, grouped in statistic.failures.items()
        for group in grouped.values()
        for failure in group.failures
    ]
    return {
        "operations": sorted(operations),
        "answers": answers,
        "cases": statistic.total_cases,
        "checks": dict(sorted(checks.items())),
        "failures": failures,
        "errors": errors,
    }


@pytest.mark.parametrize("visitor", ["anonymous", "member"])
def test_it_keeps_to_its_schema(client, bob, history, visitor, record_property):
    session_key = None
    if visitor == "member":
        client.force_login(bob)
        session_key = client.session.session_key
    with on_this_connection(session_key) as app:
        outcome = run_schemathesis(app, config(history))
    operations = [label for label in outcome["operations"] if label.startswith("GET ")]
    # The figures of the run: printed (pytest -s, or on failure) and in a JUnit report.
    figures = (
        f"schemathesis {schemathesis.__version__} as {visitor}: {len(operations)} operations "
        f"(and the stateful phase), {outcome['cases']} cases, {len(outcome['checks'])} checks "
        f"({', '.join(outcome['checks'])}), {len(outcome['failures'])} failures"
    )
    print(figures)
    record_property("schemathesis", figures)
    assert outcome["errors"] == []
    assert outcome["failures"] == []
    assert operations == [
        "GET /api/v1/games/",
        "GET /api/v1/games/{id}/",
        "GET /api/v1/games/{id}/analysis/",
        "GET /api/v1/games/{id}/analysis/{seat}/",
        "GET /api/v1/games/{id}/record/",
        "GET /api/v1/leagues/{id}/table/",
        "GET /api/v1/ratings/",
        "GET /api/v1/tournaments/{id}/standings/",
    ]
    # Members see their club's league table; anyone else is told it does not exist.
    tables = outcome["answers"]["GET /api/v1/leagues/{id}/table/", 200]
    assert tables > 0 if visitor == "member" else tables == 0
    # The analysed game is public: its analysis is given to anyone, seat by seat.
    assert outcome["answers"]["GET /api/v1/games/{id}/analysis/", 200] > 0
    assert outcome["answers"]["GET /api/v1/games/{id}/analysis/{seat}/", 200] > 0
