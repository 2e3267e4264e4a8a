"""The AI stays pure: using it pulls in no Django, Channels or Celery."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]

PROGRAM = """
import sys
import games.orc.ai
import games.orc.ai.arena
from games.orc.ai import LEVELS, decide, react
from games.orc.engine import new_game, view
state = new_game(["ann", "bob", "cy", "dee", "eve"], seed=1)
state.deal(60)
for level in LEVELS:
    react(level, view(state, 1), seed=1)
state.deal(80)
for seat in range(1, 5):
    for _ in range(2):
        state.apply(state.placing_default(seat))
for level in LEVELS:
    decide(level, view(state, 0), seed=1, iterations=10)
bad = sorted(m for m in sys.modules if m.split(".")[0] in ("django", "channels", "celery"))
print(" ".join(bad))
sys.exit(1 if bad else 0)
"""


def test_it_imports_no_web_framework() -> None:
    out = subprocess.run(
        [sys.executable, "-c", PROGRAM], cwd=ROOT, capture_output=True, text=True, timeout=60
    )
    assert out.returncode == 0, f"games.orc.ai imported: {out.stdout} {out.stderr}"
