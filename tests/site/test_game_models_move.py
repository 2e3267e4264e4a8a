"""The models a game owns moved from the shared games app into the game's app (Call to
Glory's TaskCards, De l'Orc's Deal) without losing a row.

The demo dump of tests/migrations_data is migrated to where the shared app still held both
models, given a set of task cards and a deal as that code wrote them, then migrated to
today's code in a process of its own; the rows are read back through the models where
they live now, and their admin permissions through the content types that followed them.
Migrated back, the rows are still in the tables they always had.
"""

import json
import os
import sqlite3
import subprocess
import sys
from pathlib import Path

DUMP = Path(__file__).parent.parent / "migrations_data" / "demo_before_redesign.sql"
ROOT = Path(__file__).resolve().parents[2]

REPORT = """
import json
from django.contrib.auth.models import Permission
from games.ctg.models import TaskCards
from games.models import Table
from games.orc.models import Deal
deal = Deal.objects.get()
print(json.dumps({
    "task_cards": [[r.a, r.b, r.c] for r in TaskCards.objects.all()],
    "current": TaskCards.current(),
    "deal": [deal.table_id, deal.pace, deal.round, deal.ended, deal.holder],
    "reached_from_its_table": Table.objects.get(pk=deal.table_id).deal.pace,
    "permissions": sorted(
        [p.content_type.app_label, p.codename]
        for p in Permission.objects.filter(codename__in=["change_taskcards", "change_deal"])
    ),
    "permission_ids": sorted(
        Permission.objects.filter(codename__in=["change_taskcards", "change_deal"])
        .values_list("pk", flat=True)
    ),
}))
"""

PERMISSION_IDS = (
    "select auth_permission.id from auth_permission join django_content_type "
    "on django_content_type.id = content_type_id "
    "where codename in ('change_taskcards', 'change_deal') order by auth_permission.id"
)


def run(env, *args: str, text: bool = False) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, str(ROOT / "manage.py"), *args],
        env=env,
        cwd=ROOT,
        check=True,
        capture_output=True,
        text=text,
    )


def test_it_keeps_the_task_cards_and_the_deals_rows_in_their_games_apps(tmp_path):
    db = tmp_path / "before.sqlite3"
    with sqlite3.connect(db) as conn:
        conn.executescript(DUMP.read_text())
    env = {**os.environ, "DEBUG": "1", "DATABASE_URL": f"sqlite:///{db}"}
    env.pop("DJANGO_SETTINGS_MODULE", None)
    # The code before the move: both models in the shared games app.
    run(env, "migrate", "games", "0013_table_managed", "--noinput")
    with sqlite3.connect(db) as conn:
        table_id = conn.execute("select min(id) from games_table").fetchone()[0]
        conn.execute(
            "insert into games_taskcards (a, b, c) values "
            "('12, 14, 16, 18', '6, 7, 8, 9', '9, 12, 18, 20')"
        )
        conn.execute(
            "insert into games_deal (table_id, pace, round, started, ended, holder) "
            "values (?, 2.0, 1, '2026-11-25 12:00:00', 0, 'a worker')",
            (table_id,),
        )
        permissions_before = [row[0] for row in conn.execute(PERMISSION_IDS)]

    run(env, "migrate", "--noinput")
    out = run(env, "shell", "-c", REPORT, text=True).stdout
    after = json.loads(out.strip().splitlines()[-1])

    assert after["task_cards"] == [["12, 14, 16, 18", "6, 7, 8, 9", "9, 12, 18, 20"]]
    assert after["current"] == {"A": [12, 14, 16, 18], "B": [6, 7, 8, 9], "C": [9, 12, 18, 20]}
    assert after["deal"] == [table_id, 2.0, 1, False, "a worker"]
    assert after["reached_from_its_table"] == 2.0
    # An administrator allowed to change the cards still is: the same permission rows, now
    # under the games' apps.
    assert after["permissions"] == [["ctg", "change_taskcards"], ["orc", "change_deal"]]
    if permissions_before:
        assert after["permission_ids"] == permissions_before

    # And back: the rows never left their tables.
    run(env, "migrate", "games", "0013_table_managed", "--noinput")
    with sqlite3.connect(db) as conn:
        assert conn.execute("select a, b, c from games_taskcards").fetchall() == [
            ("12, 14, 16, 18", "6, 7, 8, 9", "9, 12, 18, 20")
        ]
        assert conn.execute("select table_id, pace from games_deal").fetchall() == [(table_id, 2.0)]
        # Their permissions went back with them to the shared app's label.
        back = conn.execute(
            "select model from django_content_type where app_label = 'games' "
            "and model in ('taskcards', 'deal')"
        ).fetchall()
        assert sorted(back) == [("deal",), ("taskcards",)]
