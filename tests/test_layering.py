"""The import rules of ARCHITECTURE.md, checked in fresh interpreters.

Each case imports one layer in a subprocess and asserts which heavy packages did not load, so a
stray import at module level (Textual in the engine, SymPy in the deck loader) fails here.
"""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

HEAVY = ["textual", "rich", "sqlalchemy", "alembic", "sympy", "numpy", "recall.store", "recall.tui"]

CASES = {
    "recall": HEAVY,
    "recall.cli": HEAVY,
    "recall.errors": HEAVY,
    "recall.paths": HEAVY,
    "recall.formula": ["textual", "rich", "sqlalchemy", "alembic", "recall.store", "recall.tui"],
    "recall.cards.model": HEAVY,
    # The application layer: importing it costs nothing; the store and the engine load on use.
    "recall.workspace": HEAVY,
    # The memory model's package: its modules load the store and NumPy themselves, on use.
    "recall.memory": HEAVY,
}
OPTIONAL = {
    "recall.cards.loader": [
        "textual",
        "sqlalchemy",
        "alembic",
        "sympy",
        "recall.store",
        "recall.tui",
    ],
    "recall.scheduling": [
        "textual",
        "sqlalchemy",
        "alembic",
        "sympy",
        "recall.store",
        "recall.tui",
    ],
    "recall.interop.text_import": HEAVY,
    "recall.interop.text_export": HEAVY,
    "recall.interop.review_csv": HEAVY,
    "recall.interop.apkg_write": HEAVY,
    "recall.interop.apkg_read": HEAVY,
    "recall.interop.anki_convert": HEAVY,
    "recall.store": ["textual", "sympy", "recall.tui"],
    "recall.session": ["textual", "sympy", "recall.tui"],
}


def loaded_after_import(module: str) -> set[str]:
    code = (
        "import importlib, json, sys\n"
        f"importlib.import_module({module!r})\n"
        "print(json.dumps(sorted(sys.modules)))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=120, check=True
    )
    return set(json.loads(done.stdout))


@pytest.mark.parametrize("module", sorted(CASES))
def test_layer_does_not_load_forbidden_packages(module: str) -> None:
    loaded = loaded_after_import(module)
    assert not [name for name in CASES[module] if name in loaded]


@pytest.mark.parametrize("module", sorted(OPTIONAL))
def test_lower_layers_stay_clear_of_upper_ones(module: str) -> None:
    import importlib.util

    if importlib.util.find_spec(module) is None:
        pytest.fail(f"{module} is part of the architecture and must exist")
    loaded = loaded_after_import(module)
    assert not [name for name in OPTIONAL[module] if name in loaded]


def test_no_eval_of_typed_text_in_the_engine() -> None:
    """The engine never hands text to eval/exec/sympify/parse_expr."""
    import pathlib
    import re

    root = pathlib.Path(__file__).resolve().parent.parent / "recall"
    pattern = re.compile(r"\b(eval|exec|sympify|parse_expr)\(")
    offenders = [
        f"{path}:{number}"
        for path in root.rglob("*.py")
        for number, line in enumerate(path.read_text().splitlines(), 1)
        if pattern.search(line) and not line.lstrip().startswith("#")
    ]
    assert offenders == []
