"""A database filled by the demo data before the redesign migrates without losing a row.

The dump in tests/migrations_data was made by `migrate` and `demo_data` of the code before
the redesign, with the Winter cup's first round drawn (rows added as that code's
draft_round writes them); here it is loaded into a fresh SQLite file and migrated by
today's code, in a process of its own so the test database is untouched. Rows are counted
before and after, and what moved (ratings per game, game options, league and tournament
options, tournament seats) is compared value by value. Leagues and a tournament of every
length and variant are added to the dump's first, and their options are also migrated back
into the old columns.
"""

import json
import os
import sqlite3
import subprocess
import sys
from datetime import UTC, datetime
from pathlib import Path

DUMP = Path(__file__).parent.parent / "migrations_data" / "demo_before_redesign.sql"
ROOT = Path(__file__).resolve().parents[2]

# Read through today's models, so moved tables and renamed models are found where they are now.
REPORT = """
import json
from games.models import Table
from leagues.models import League, PlayedGame, PlayerRating
from tournaments.models import Tournament, TournamentTable
online = PlayedGame.objects.filter(external_ref__startswith="online:")
print(json.dumps({
    "tables": Table.objects.count(),
    "played": PlayedGame.objects.count(),
    "ratings": PlayerRating.objects.count(),
    "tournaments": Tournament.objects.count(),
    "entries": sum(t.entries.count() for t in Tournament.objects.all()),
    "online": online.count(),
    "online_linked": sorted(
        (g.external_ref, g.table_id) for g in online.select_related("table")
    ),
    "seats": sum(g.seats.count() for g in PlayedGame.objects.all()),
    "games": sorted({g.game for g in PlayedGame.objects.all()}),
    "tournament_tables": sorted(
        [t.pk, t.round_id, t.number, t.players] for t in TournamentTable.objects.all()
    ),
    "table_options": sorted([t.pk, t.game, t.options] for t in Table.objects.all()),
    "played_options": sorted([g.pk, g.options] for g in PlayedGame.objects.all()),
    "league_options": sorted([l.pk, l.options] for l in League.objects.all()),
    "tournament_options": sorted([t.pk, t.options] for t in Tournament.objects.all()),
    "rating_rows": sorted(
        [r.user_id, r.game, r.mu, r.sigma, r.games, r.display, r.updated.isoformat()]
        for r in PlayerRating.objects.all()
    ),
}))
"""


LEAGUE_SETTINGS = "select id, game_length, imperial_tasks, ninja from leagues_league"
TOURNAMENT_SETTINGS = "select id, game_length from leagues_tournament"


def add_every_length_and_variant(conn) -> None:
    """Leagues and a tournament besides the demo's standard ones, as the old code kept them."""
    club, created = conn.execute("select club_id, created from leagues_league").fetchone()
    for name, length, tasks, ninja in [
        ("Quick nights", "quick", 0, 1),
        ("Task season", "quick", 1, 0),
        ("Long season", "standard", 1, 1),
    ]:
        conn.execute(
            "insert into leagues_league (name, game_length, imperial_tasks, ninja, "
            "points_scheme, tie_breaks, is_open, created, results_version, table_version, "
            "\"table\", club_id) values (?, ?, ?, ?, 'fair', 'points', 1, ?, 0, 0, '[]', ?)",
            (name, length, tasks, ninja, created, club),
        )
    conn.execute(
        "insert into leagues_tournament (name, mode, game_length, max_table, seeding, rated, "
        "allow_ai, status, seed, created, club_id) "
        "values ('Quick cup', 'physical', 'quick', 4, 'random', 1, 0, 'registration', 1, ?, ?)",
        (created, club),
    )


def test_it_keeps_tables_played_games_ratings_and_tournaments(tmp_path):
    db = tmp_path / "before.sqlite3"
    with sqlite3.connect(db) as conn:
        conn.executescript(DUMP.read_text())
        add_every_length_and_variant(conn)
        league_settings = sorted(conn.execute(LEAGUE_SETTINGS))
        tournament_settings = sorted(conn.execute(TOURNAMENT_SETTINGS))
        before = {
            "tables": conn.execute("select count(*) from games_table").fetchone()[0],
            "played": conn.execute("select count(*) from leagues_playedgame").fetchone()[0],
            "ratings": conn.execute("select count(*) from leagues_playerrating").fetchone()[0],
            "tournaments": conn.execute("select count(*) from leagues_tournament").fetchone()[0],
            "entries": conn.execute("select count(*) from leagues_entry").fetchone()[0],
            "seats": conn.execute("select count(*) from leagues_seat").fetchone()[0],
        }
        rating_rows = sorted(
            [user, "ctg", mu, sigma, games, display, updated]
            for user, mu, sigma, games, display, updated in conn.execute(
                "select user_id, mu, sigma, games, display, updated from leagues_playerrating"
            )
        )
        tournament_tables = sorted(
            [pk, round_id, number, json.loads(players)]
            for pk, round_id, number, players in conn.execute(
                "select id, round_id, number, players from leagues_tournamenttable"
            )
        )
        table_options = sorted(
            [
                pk,
                "ctg",
                {"rounds": rounds, "imperial_tasks": bool(tasks), "ninja": bool(ninja)}
                | ({"task_distribution": json.loads(dealt)} if dealt else {}),
            ]
            for pk, rounds, tasks, ninja, dealt in conn.execute(
                "select id, rounds, imperial_tasks, ninja, task_distribution from games_table"
            )
        )
        played_options = sorted(
            [pk, {"imperial_tasks": bool(tasks), "ninja": bool(ninja)}]
            for pk, tasks, ninja in conn.execute(
                "select id, imperial_tasks, ninja from leagues_playedgame"
            )
        )
        online_refs = [
            r[0]
            for r in conn.execute(
                "select external_ref from leagues_playedgame where external_ref like 'online:%'"
            )
        ]
    env = {**os.environ, "DEBUG": "1", "DATABASE_URL": f"sqlite:///{db}"}
    env.pop("DJANGO_SETTINGS_MODULE", None)
    manage = [sys.executable, str(ROOT / "manage.py")]
    subprocess.run(
        [*manage, "migrate", "--noinput"], env=env, cwd=ROOT, check=True, capture_output=True
    )
    out = subprocess.run(
        [*manage, "shell", "-c", REPORT],
        env=env,
        cwd=ROOT,
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    after = json.loads(out.strip().splitlines()[-1])

    for key, count in before.items():
        assert after[key] == count, key
    assert online_refs, "the demo data has a finished online game"
    assert after["online"] == len(online_refs)
    # Every online game found its table through the new link, the one named by its old string.
    assert after["online_linked"] == sorted(
        [ref, int(ref.removeprefix("online:"))] for ref in online_refs
    )
    assert after["games"] == ["ctg"]
    # Tournament tables keep their players in seat order, now as seats.
    assert tournament_tables
    assert after["tournament_tables"] == tournament_tables
    # Call to Glory's options moved into the game's own JSON, table by table.
    assert after["table_options"] == table_options
    assert after["played_options"] == played_options
    # So did a league's length and variants, and a tournament's length.
    assert {length for _pk, length, _t, _n in league_settings} == {"standard", "quick"}
    assert after["league_options"] == [
        [pk, {"game_length": length, "imperial_tasks": bool(tasks), "ninja": bool(ninja)}]
        for pk, length, tasks, ninja in league_settings
    ]
    assert after["tournament_options"] == [
        [pk, {"game_length": length}] for pk, length in tournament_settings
    ]
    # Every rating so far is a Call to Glory rating, kept with its values and time.
    assert rating_rows
    assert [row[:6] for row in after["rating_rows"]] == [row[:6] for row in rating_rows]
    assert [datetime.fromisoformat(row[6]) for row in after["rating_rows"]] == [
        datetime.fromisoformat(row[6]).replace(tzinfo=UTC) for row in rating_rows
    ]

    # And back: the old columns hold every league's and tournament's settings again.
    for app, migration in [("leagues", "0013"), ("tournaments", "0004")]:
        subprocess.run(
            [*manage, "migrate", app, migration, "--noinput"],
            env=env,
            cwd=ROOT,
            check=True,
            capture_output=True,
        )
    with sqlite3.connect(db) as conn:
        assert sorted(conn.execute(LEAGUE_SETTINGS)) == league_settings
        assert sorted(conn.execute(TOURNAMENT_SETTINGS)) == tournament_settings
