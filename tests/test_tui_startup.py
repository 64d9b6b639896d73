"""The home screen paints before the heavy layers are imported, and they are imported after.

Run in a fresh interpreter (``benchmarks/startup_probe.py``): this test process has usually
imported SymPy long before, so only a new process can show what the first frame waited for.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from recall.tui.app import HEAVY_MODULES

ROOT = Path(__file__).resolve().parent.parent


def _probe(tmp_path: Path, *flags: str) -> dict[str, object]:
    env = {**os.environ, "RECALL_HOME": str(tmp_path)}
    env.pop("RECALL_DB", None)
    env.pop("RECALL_DECKS", None)
    done = subprocess.run(
        [sys.executable, "-m", "benchmarks.startup_probe", *flags],
        cwd=ROOT,  # the checkout's root: the probe lives in benchmarks/, not in the package
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout.strip().splitlines()[-1])


@pytest.mark.slow
def test_first_frame_is_painted_before_sympy_numpy_and_sqlalchemy(tmp_path: Path) -> None:
    report = _probe(tmp_path, "--wait-load")
    assert report["heavy_at_first_paint"] == []
    # ...and the warm-up after the first frame really loads them: the laziness is a deferral.
    assert set(report["heavy_after_warm"]) == set(HEAVY_MODULES)
    assert report["decks"] > 0
