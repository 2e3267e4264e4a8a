"""The engine stays pure: importing it (and using it) pulls in no Django, Channels or Celery."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]

PROGRAM = """
import sys
import games.orc
import games.orc.engine
from games.orc.engine import public_view, random_game, to_record, view
state = random_game(5, 1)
view(state, 0), public_view(state), to_record(state)
bad = sorted(m for m in sys.modules if m.split(".")[0] in ("django", "channels", "celery"))
print(" ".join(bad))
sys.exit(1 if bad else 0)
"""


def test_it_imports_no_web_framework() -> None:
    out = subprocess.run(
        [sys.executable, "-c", PROGRAM], cwd=ROOT, capture_output=True, text=True, timeout=60
    )
    assert out.returncode == 0, f"engine imported: {out.stdout} {out.stderr}"


def test_it_has_no_web_framework_import_in_its_source() -> None:
    # The engine and the AI; games/orc/game.py, names.py and pad.py are the site's side.
    pure = [ROOT / "games" / "orc" / "engine", ROOT / "games" / "orc" / "ai"]
    for path in (p for folder in pure for p in folder.rglob("*.py")):
        text = path.read_text()
        for name in ("django", "channels", "celery"):
            assert f"import {name}" not in text and f"from {name}" not in text, path
