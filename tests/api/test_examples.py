"""The worked example for researchers runs as a plain script (its own checks of the
published figures included) and reaches the engine through the front door alone."""
import ast
import os
import subprocess
import sys
from pathlib import Path

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


def test_the_researchers_example_runs():
    env = {k: v for k, v in os.environ.items() if k != "KNIGHTGUI_SCHEDULER"}
    done = subprocess.run([sys.executable, str(EXAMPLES / "researcher.py")], env=env,
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]
    assert "14,258 closed Warnsdorff tours" in done.stdout
    assert "the longest uncrossed path has 17 moves" in done.stdout


def test_the_example_uses_only_the_front_door():
    tree = ast.parse((EXAMPLES / "researcher.py").read_text(encoding="utf-8"))
    ours = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            ours |= {a.name for a in node.names if a.name.startswith("knightgui")}
        elif isinstance(node, ast.ImportFrom) and (node.module or "").startswith("knightgui"):
            ours.add(node.module)
    assert ours == {"knightgui_core"}, ours
