"""The memory-model modules import nothing heavy until used: the TUI imports scheduling before
its first frame, so NumPy and the Rust optimizer wait for the first fit, plan or chart."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

MODULES = [
    "recall.scheduling.history",
    "recall.scheduling.evaluation",
    "recall.scheduling.fitting",
    "recall.scheduling.calibration",
    "recall.scheduling.simulation",
    "recall.memory.charts",
    "recall.scheduling.review_row",
    "recall.interop.review_csv",
    "recall.memory.report",
]


@pytest.mark.parametrize("module", MODULES)
def test_importing_loads_neither_numpy_nor_fsrs_rs_python(module: str) -> None:
    code = (
        "import importlib, json, sys\n"
        f"importlib.import_module({module!r})\n"
        "print(json.dumps(sorted(m for m in sys.modules if m.split('.')[0] in "
        "('numpy', 'fsrs_rs_python', 'sqlalchemy', 'textual'))))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert json.loads(out.stdout) == []
