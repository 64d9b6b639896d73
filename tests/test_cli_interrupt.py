"""Ctrl-C while ``recall`` is still starting (building its parser, importing the command
modules) ends it with status 130 and no traceback, like Ctrl-C at any later moment.

Seen in a real terminal: Ctrl-C in the first fifth of a second after typing ``recall`` printed a
``KeyboardInterrupt`` traceback, because only the command itself ran inside the ``try`` that
turns an interrupt into status 130. The interrupt is raised here where the parser is built and
where the arguments are parsed, in a child process so pytest's own Ctrl-C handling stays out.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from tests.fault_helpers import recall_env

#: Where start-up can be interrupted: the name in :mod:`recall.cli` replaced by one that raises.
INTERRUPTED_STEPS = ["build_parser", "_run"]

CHILD = """
import sys
import recall.cli as cli

def interrupted(*args, **kwargs):
    raise KeyboardInterrupt

setattr(cli, sys.argv[1], interrupted)
sys.exit(cli.main(["today"]))
"""


@pytest.mark.parametrize("step", INTERRUPTED_STEPS)
def test_ctrl_c_during_start_up_is_status_130_without_a_traceback(
    tmp_path: Path, step: str
) -> None:
    done = subprocess.run(
        [sys.executable, "-c", CHILD, step],
        env=recall_env(tmp_path / "home"),
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert "Traceback" not in done.stderr, done.stderr
    assert done.returncode == 130, (done.returncode, done.stderr)
