"""The engine stays pure: importing it (and using it) pulls in no Django, Channels or Celery."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

PROGRAM = """
import sys
import games.ctg.engine
from games.ctg.engine import Options, random_game, to_record, view
view(random_game(Options(4, 3, frozenset({"imperial-tasks", "ninja"})), 1), 0)
bad = sorted(m for m in sys.modules if m.split(".")[0] in ("django", "channels", "celery"))
print(" ".join(bad))
sys.exit(1 if bad else 0)
"""


def test_it_imports_no_web_framework() -> None:
    out = subprocess.run(
        [sys.executable, "-c", PROGRAM], cwd=ROOT, capture_output=True, text=True, timeout=60
    )
    assert out.returncode == 0, f"engine imported: {out.stdout} {out.stderr}"
