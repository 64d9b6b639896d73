"""The deck format is stdlib-only: ``recall.cards`` never loads the formula engine or SymPy.

The engine checks of a deck live in :mod:`recall.grading`, and the loader takes them as a
callable; these tests catch a lazy import creeping back in, which an import-time check misses.
"""

from __future__ import annotations

import json
import pkgutil
import re
import subprocess
import sys
from pathlib import Path

import pytest

import recall.cards

CARDS_DIR = Path(recall.cards.__file__).parent
MODULES = ["recall.cards"] + [
    f"recall.cards.{info.name}" for info in pkgutil.iter_modules([str(CARDS_DIR)])
]
FORBIDDEN = ("recall.formula", "recall.grading", "sympy", "numpy", "mpmath")


def loaded_after(code: str) -> set[str]:
    script = f"import json, sys\n{code}\nprint(json.dumps(sorted(sys.modules)))\n"
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, timeout=120, check=True
    )
    return set(json.loads(done.stdout.splitlines()[-1]))


def test_every_cards_module_is_found() -> None:
    # a guard on the list below: a renamed package would make the next test vacuous
    assert {"recall.cards.loader", "recall.cards.build", "recall.cards.params"} <= set(MODULES)


@pytest.mark.parametrize("module", MODULES)
def test_importing_a_cards_module_loads_no_engine(module: str) -> None:
    loaded = loaded_after(f"import {module}")
    assert module in loaded
    assert [name for name in FORBIDDEN if name in loaded] == []


def test_loading_every_deck_without_a_check_loads_no_engine() -> None:
    # Reading, building and validating the structure of every built-in deck, and using the
    # parameter helpers, stays stdlib-only: the engine is a check the caller passes in.
    loaded = loaded_after(
        "from recall.cards.loader import load_decks\n"
        "from recall.cards.params import draw, fill_prompt\n"
        "from recall.paths import builtin_decks_dir\n"
        "result = load_decks([builtin_decks_dir()])\n"
        "assert result.ok and result.cards, result.errors\n"
        "card = next(c for c in result.cards if c.params)\n"
        "fill_prompt(card.prompt, draw(card.params, 1))\n"
    )
    assert [name for name in FORBIDDEN if name in loaded] == []


def test_no_cards_source_mentions_the_engine() -> None:
    # Not even inside a function, nor under TYPE_CHECKING: the bridge is recall.grading.
    pattern = re.compile(r"^\s*(from|import)\s+(recall\.formula|recall\.grading|sympy)\b", re.M)
    offenders = [
        path.name for path in sorted(CARDS_DIR.rglob("*.py")) if pattern.search(path.read_text())
    ]
    assert offenders == []
