"""The engine's own shape: no import cycle inside ``recall/formula/`` and no oversized module.

grimp (which import-linter brings) reads every import, function-level ones included, so a lazy
import that closes a loop (``nodes`` → ``printer`` → ``nodes``) fails here, not only a top-level
one.
"""

from __future__ import annotations

from pathlib import Path

import grimp
import pytest

import recall.formula

ENGINE = "recall.formula"
MAX_LINES = 600


@pytest.fixture(scope="module")
def graph() -> grimp.ImportGraph:
    return grimp.build_graph("recall")


def test_no_import_cycle_inside_the_engine(graph: grimp.ImportGraph) -> None:
    modules = sorted(m for m in graph.modules if m == ENGINE or m.startswith(ENGINE + "."))
    assert len(modules) > 10
    cycles = [
        (a, b)
        for i, a in enumerate(modules)
        for b in modules[i + 1 :]
        if a != ENGINE
        and b != ENGINE
        and graph.chain_exists(importer=a, imported=b)
        and graph.chain_exists(importer=b, imported=a)
    ]
    assert cycles == []


def test_no_engine_module_is_over_the_size_limit() -> None:
    folder = Path(recall.formula.__file__).parent
    sizes = {path.name: len(path.read_text().splitlines()) for path in folder.glob("*.py")}
    assert sizes
    assert {name: n for name, n in sizes.items() if n > MAX_LINES} == {}
