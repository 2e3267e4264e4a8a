"""Who may ask for an analysis, what the pages say when it cannot be made, and what they
show once it is: the marks in the replay, the option preferred and every option's value, the
summary and graph on the game page, the player's average accuracy.

alice played seat 0 of a public game against three AI players; charlie, in no club, may
see it (it is public) but did not play; anonymous visitors may see it too. Jobs queued on
commit never run here (the test's transaction never commits): a test makes one itself with
`actions.run`, the real analyser searching with the tests' few samples.
"""

import pytest
from django.template.defaultfilters import floatformat
from django.test import Client

from accounts.models import Club, Membership
from analysis import actions, shown
from analysis.models import Analysis
from games import actions as game_actions
from games.models import Table
from leagues.models import PlayedGame
from tests.analysis.site import ask, finished_against_ai, signed_in
from tests.games.conftest import open_table
from tests.games.orc_helpers import finished_orc_table

pytestmark = pytest.mark.django_db


def analysed(table: Table, seat: int = 0) -> Analysis:
    analysis = Analysis.objects.filter(table=table, seat=seat).first()
    if analysis is None:
        analysis = actions.request(table, [seat], None)[0]
    assert actions.run(analysis.pk), analysis.error
    analysis.refresh_from_db()
    return analysis


@pytest.fixture
def game(alice) -> Table:
    return finished_against_ai(alice)


@pytest.fixture
def running_table(alice, bob) -> Table:
    table = open_table(alice)
    game_actions.take_seat(table.pk, bob)
    game_actions.start(table.pk, alice)
    return Table.objects.get(pk=table.pk)


def test_a_player_asks_for_his_own_seat_and_anyone_signed_in_for_all_seats(game, alice, charlie):
    assert ask(signed_in(alice), game, seat="0").status_code == 302
    assert list(game.analyses.values_list("seat", "status")) == [(0, Analysis.QUEUED)]

    refused = ask(signed_in(charlie), game, seat="1", HTTP_HX_REQUEST="true")
    assert refused.status_code == 403
    assert "You may ask for the analysis of your own seat, or of all seats." in refused.text

    assert ask(signed_in(charlie), game, seat="all").status_code == 302
    assert ask(signed_in(alice), game, seat="all").status_code == 302  # nothing twice
    assert sorted(game.analyses.values_list("seat", flat=True)) == [0, 1, 2, 3]
    assert game.analyses.get(seat=0).requested_by == alice


def test_the_game_page_offers_each_what_he_may_ask(game, alice, charlie):
    page = f"/history/game/{PlayedGame.objects.get(table=game).pk}/"
    mine = signed_in(alice).get(page).text
    assert 'data-analyse="own"' in mine and 'data-analyse="all"' in mine
    theirs = signed_in(charlie).get(page).text
    assert 'data-analyse="own"' not in theirs and 'data-analyse="all"' in theirs
    anonymous = Client().get(page).text
    assert "data-analyse" not in anonymous
    assert "Sign in to ask for an analysis." in anonymous
    replay = Client().get(f"/history/replay/{game.pk}/").text
    assert "Sign in to ask for an analysis." in replay


def test_visitors_who_are_not_signed_in_may_not_ask(game):
    response = ask(Client(), game)
    assert response.status_code == 302 and response.url.startswith("/accounts/login/")
    assert not game.analyses.exists()


def test_a_running_game_cannot_be_analysed(running_table, alice):
    refused = ask(signed_in(alice), running_table, HTTP_HX_REQUEST="true")
    assert refused.status_code == 409
    assert "Only a finished game can be analysed." in refused.text
    assert not running_table.analyses.exists()
    replay = signed_in(alice).get(f"/history/replay/{running_table.pk}/").text
    assert "data-analyse" not in replay and 'id="analysis"' not in replay


@pytest.mark.parametrize(
    ("seat", "status", "message"),
    [
        ("x", 400, "Say which seat to analyse."),
        ("", 400, "Say which seat to analyse."),
        ("7", 400, "This game has no such seat."),
        ("-1", 400, "This game has no such seat."),
        ("9" * 40, 400, "This game has no such seat."),
    ],
)
def test_bad_input_is_answered_in_words(game, alice, seat, status, message):
    for headers in ({}, {"HTTP_HX_REQUEST": "true"}):
        refused = ask(signed_in(alice), game, seat=seat, **headers)
        assert refused.status_code == status
        assert message in refused.text
    assert not game.analyses.exists()


def test_a_table_one_may_not_see_is_not_there(alice, bob, charlie):
    club = Club.objects.create(name="Kyoto", slug="kyoto")
    Membership.objects.create(club=club, user=alice)
    game = finished_against_ai(alice)
    Table.objects.filter(pk=game.pk).update(club=club, visibility="club")
    assert ask(signed_in(charlie), game, seat="all").status_code == 404
    assert ask(signed_in(charlie), Table(pk=10**6), seat="all").status_code == 404
    assert signed_in(charlie).get(f"/analysis/table/{game.pk}/progress/").status_code == 404
    assert signed_in(alice).get(f"/analysis/table/{game.pk}/").status_code == 405
    assert not game.analyses.exists()


def test_the_progress_is_polled_until_done_then_the_page_is_drawn_afresh(game, alice):
    ask(signed_in(alice), game)
    analysis = game.analyses.get()
    Analysis.objects.filter(pk=analysis.pk).update(status=Analysis.RUNNING, done=3, total=12)
    polled = signed_in(alice).get(
        f"/analysis/table/{game.pk}/progress/?next=/history/replay/{game.pk}/",
        HTTP_HX_REQUEST="true",
    )
    assert 'hx-trigger="every 1s"' in polled.text
    assert '<progress max="100" value="25"' in polled.text
    assert "analysing: 3 of 12 decisions" in polled.text

    Analysis.objects.filter(pk=analysis.pk).update(status=Analysis.QUEUED, done=0, total=0)
    analysed(game)
    done = signed_in(alice).get(f"/analysis/table/{game.pk}/progress/", HTTP_HX_REQUEST="true")
    assert done.headers["HX-Refresh"] == "true"


def test_a_failed_analysis_says_so_and_anyone_signed_in_may_try_it_again(game, alice, charlie):
    ask(signed_in(alice), game)
    game.analyses.update(status=Analysis.FAILED, error="RuntimeError()")
    page = signed_in(charlie).get(f"/history/replay/{game.pk}/").text
    assert "The analysis failed." in page and 'data-analyse="retry"' in page
    assert "Try again" not in Client().get(f"/history/replay/{game.pk}/").text
    assert ask(signed_in(charlie), game, seat="0").status_code == 302
    assert game.analyses.get(seat=0).status == Analysis.QUEUED


def test_the_replay_shows_the_marks_the_preferred_option_and_every_value(game, alice):
    analysis = analysed(game)
    decisions = analysis.result["decisions"]
    widest = max(decisions, key=lambda d: (len(d["options"]), d["index"]))
    page = Client().get(f"/history/replay/{game.pk}/?seat=0&decision={widest['index']}").text

    assert "Analysis of alice" in page
    assert f"Decision {widest['index'] + 1}, round {widest['round']}" in page
    for option in widest["options"]:
        assert f"<code>{option['option']}</code>" in page
    if widest["played"] == widest["best"]:
        assert "as the AI would" in page
    else:
        assert f"the AI prefers <code>{widest['best']}</code>" in page
    # The move list: every decision, its mark, a link to its step.
    assert page.count('class="analysis-moves"') == 1
    marked = [d for d in decisions if d["mark"]]
    assert page.count('<span class="mark" title=') == len(marked)
    assert '<polyline points="' in page


def test_each_decision_is_at_the_step_where_its_seat_took_it(game, alice, bob, charlie):
    orc = finished_orc_table([alice, bob, charlie, "Sergeant 4"])
    for table in (game, orc):
        analysis = analysed(table)
        record = table.record
        steps = table.plugin.replay.steps(record)
        name = record["players"][0]
        decisions = analysis.result["decisions"]
        at = shown.decision_steps(record, steps, name, decisions)
        assert None not in at and at == sorted(at)
        for decision, step in zip(decisions, at, strict=True):
            # The step after it takes the decision played.
            taken = steps[step].text
            assert taken == f"{name}: {decision['played']}" or taken.startswith(
                f"{name}: {decision['played']} "
            )


def test_the_game_page_sums_each_seat_up(game, alice):
    analysis = analysed(game)
    summary = shown.summary(analysis.result)
    page = Client().get(f"/history/game/{PlayedGame.objects.get(table=game).pk}/").text
    assert f"accuracy {floatformat(analysis.accuracy, 0)}" in page
    assert f"{summary['matches']} of {summary['decisions']} decisions as the AI" in page
    for mark in summary["marks"]:
        assert f"{mark['mark']} {mark['count']}" in page
    for decision in summary["costliest"]:
        assert f"?seat=0&amp;decision={decision['index']}" in page
    assert '<svg viewBox="-30 -8 638 170" role="img"' in page


def test_the_player_page_shows_his_average_accuracy_per_game(game, alice, bob):
    first = analysed(game)
    second = analysed(finished_against_ai(alice, levels=("greedy",)))
    analysed(game, seat=1)  # an AI player's seat, not alice's
    average = round((first.accuracy + second.accuracy) / 2)
    page = signed_in(bob).get("/accounts/u/alice/").text
    assert "Accuracy in analysed games" in page
    assert f"Call to Glory: <strong>{average}</strong> (over 2 analysed games)" in page
