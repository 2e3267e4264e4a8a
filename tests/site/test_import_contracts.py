"""The import contracts in pyproject.toml hold, and break when a lower layer reaches up."""

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
APPS = ["infra", "accounts", "games", "leagues", "tournaments", "analysis", "history", "ctg_site"]
LINT_IMPORTS = Path(sys.executable).parent / "lint-imports"


def lint_imports(cwd: Path) -> subprocess.CompletedProcess:
    return subprocess.run(
        [str(LINT_IMPORTS), "--no-cache"], cwd=cwd, capture_output=True, text=True, timeout=120
    )


def test_it_keeps_every_contract():
    out = lint_imports(ROOT)
    assert out.returncode == 0, out.stdout + out.stderr
    assert "0 broken" in out.stdout


@pytest.mark.parametrize(
    ("module", "line", "contract"),
    [
        ("games/signals.py", "import leagues.models", "games imports neither leagues"),
        ("accounts/models.py", "import games.models", "accounts imports no other app"),
        ("leagues/receivers.py", "import tournaments.models", "leagues does not import"),
        ("games/ctg/engine/cards.py", "import django.db", "are pure"),
        ("tournaments/pairing/swiss.py", "import django.db", "are pure"),
        ("leagues/signals.py", "import history.queries", "Apps form layers"),
        ("leagues/views.py", "import games.ctg.engine.pad", "only through games.registry"),
        ("tournaments/actions.py", "import games.orc.game", "only through games.registry"),
        ("history/replay.py", "import games.ctg.engine", "History reaches a game only"),
        ("history/records.py", "import games.orc.game", "History reaches a game only"),
        ("analysis/shown.py", "import games.ctg.analysis", "Analysis reaches a game only"),
        ("analysis/models.py", "import history.queries", "Apps form layers"),
        ("games/models.py", "import analysis.models", "Apps form layers"),
        ("infra/background.py", "import games.models", "with infra at the bottom"),
        ("infra/liveness.py", "import accounts.limits", "with infra at the bottom"),
        ("games/orc/engine/cards.py", "import infra.background", "are pure"),
        ("games/enginekit/arena.py", "import django.db", "are pure"),
        ("games/enginekit/errors.py", "import games.registry", "are pure"),
        ("infra/celery.py", "import ctg_site.settings", "No app imports ctg_site"),
        ("games/actions.py", "import ctg_site.views", "No app imports ctg_site"),
        ("tournaments/tasks.py", "from ctg_site import urls", "No app imports ctg_site"),
        ("games/models.py", "import games.ctg.models", "shared games app imports no game"),
        ("games/tasks.py", "import games.orc.dealer", "shared games app imports no game"),
        ("games/registry.py", "from games.ctg import game", "shared games app imports no game"),
        ("games/orc/game.py", "import games.ctg.board", "shared games app imports no game"),
        ("games/ctg/pad.py", "import games.orc.pad", "shared games app imports no game"),
        ("games/orc/ai/deal.py", "import django.db", "are pure"),
        ("games/orc/ai/deal.py", "import games.orc.models", "are pure"),
        ("games/orc/dealer.py", "import games.orc.tasks", "dealer does not import its tasks"),
    ],
)
def test_it_breaks_on_a_forbidden_import(tmp_path, module, line, contract):
    shutil.copy(ROOT / "pyproject.toml", tmp_path)
    for app in APPS:
        shutil.copytree(ROOT / app, tmp_path / app, ignore=shutil.ignore_patterns("__pycache__"))
    target = tmp_path / module
    target.write_text(target.read_text() + f"\n{line}\n")
    out = lint_imports(tmp_path)
    assert out.returncode != 0
    broken = [row for row in out.stdout.splitlines() if row.endswith("BROKEN")]
    assert any(contract in row for row in broken), out.stdout
