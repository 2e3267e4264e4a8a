"""The AI package stays pure: using it pulls in no Django, Channels or Celery."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

PROGRAM = """
import sys
import games.ctg.ai
import games.ctg.ai.arena
from games.ctg.ai import LEVELS, decide
from games.ctg.engine import Options, new_game, view
state = new_game(Options(4, 3, frozenset({"imperial-tasks", "ninja"})), seed=1)
for level in LEVELS:
    decide(level, view(state, 0), seed=1, iterations=20)
bad = sorted(m for m in sys.modules if m.split(".")[0] in ("django", "channels", "celery"))
print(" ".join(bad))
sys.exit(1 if bad else 0)
"""


def test_it_imports_no_web_framework() -> None:
    out = subprocess.run(
        [sys.executable, "-c", PROGRAM], cwd=ROOT, capture_output=True, text=True, timeout=60
    )
    assert out.returncode == 0, f"games.ctg.ai imported: {out.stdout} {out.stderr}"
