"""What `souvenir chat` and `souvenir run` import before their first prompt: nothing only one command needs."""

from __future__ import annotations

import subprocess
import sys

from tests.fakes.souvenir_process import ROOT


def test_matplotlib_is_not_imported_at_start_up() -> None:
    # ~0.5 s of a cold start; only /mood's chart needs it, and it is imported then.
    code = "import sys, bot.app, bot.cli; print('matplotlib' in sys.modules)"
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "False"
