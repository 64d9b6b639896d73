"""The architecture's import rules, checked: the import-linter contracts in ``pyproject.toml``
hold, and no module of ``recall/`` takes part in an import cycle.

``lint-imports`` runs as the console script it is (in a subprocess, from the checkout's root, so
it reads this checkout's code and contracts). A second run on a contract the code is known to
break shows the check can fail. The cycle test reads grimp's graph of every import statement,
function-level and ``TYPE_CHECKING`` ones included: a loop closed by a lazy import is still a
loop a reader has to untangle.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
import tomllib
from collections.abc import Iterable, Mapping
from pathlib import Path

import grimp
import pytest

ROOT = Path(__file__).resolve().parent.parent


def _lint_imports(*args: str) -> subprocess.CompletedProcess[str]:
    script = Path(sys.executable).with_name("lint-imports")
    command = str(script) if script.is_file() else shutil.which("lint-imports")
    assert command, "lint-imports is not installed (pip install -e '.[test]')"
    return subprocess.run(
        [command, "--no-cache", *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )


def test_the_import_contracts_hold() -> None:
    done = _lint_imports()
    assert "Contracts:" in done.stdout, done.stderr
    assert done.returncode == 0, done.stdout + done.stderr


def test_the_contracts_named_by_the_architecture_are_declared() -> None:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    contracts = config["tool"]["importlinter"]["contracts"]
    forbidden = {
        (source, target)
        for contract in contracts
        if contract["type"] == "forbidden"
        for source in contract["source_modules"]
        for target in contract["forbidden_modules"]
    }
    wanted = {
        ("recall.cards", "recall.formula"),
        ("recall.cards", "sympy"),
        ("recall.interop", "recall.formula"),
        ("recall.interop", "sqlalchemy"),
        ("recall.store", "textual"),
        ("recall.store", "sympy"),
        ("recall.formula", "recall.store"),
        ("recall.formula", "recall.tui"),
        ("recall.formula", "sqlalchemy"),
        ("recall.tui", "recall.store.models"),
        ("recall.session", "recall.store.models"),
        # The memory model: its pure part (scheduling) draws nothing and reads no store or
        # file; the part that joins them (recall.memory) stays below the TUI and the commands.
        ("recall.scheduling", "recall.memory"),
        ("recall.scheduling", "recall.store"),
        ("recall.scheduling", "recall.interop"),
        ("recall.scheduling", "rich"),
        ("recall.memory", "recall.tui"),
        ("recall.memory", "textual"),
        # recall serve starts the TUI as a command line, never by importing it.
        ("recall.serve", "recall.tui"),
        ("recall.serve", "textual"),
        ("recall.serve", "recall.store"),
    }
    assert wanted <= forbidden
    layers = [c["layers"] for c in contracts if c["type"] == "layers"]
    assert any(
        layer[:5]
        == ["recall.cli", "recall.commands", "recall.serve", "recall.tui", "recall.workspace"]
        for layer in layers
    )


def test_lint_imports_fails_on_a_broken_contract(tmp_path: Path) -> None:
    """The TUI does import the workspace: a contract forbidding it must be reported broken."""
    config = tmp_path / "broken.toml"
    config.write_text(
        "[tool.importlinter]\n"
        'root_package = "recall"\n'
        "[[tool.importlinter.contracts]]\n"
        'name = "a rule the code breaks"\n'
        'type = "forbidden"\n'
        'source_modules = ["recall.tui"]\n'
        'forbidden_modules = ["recall.workspace"]\n',
        encoding="utf-8",
    )
    done = _lint_imports("--config", str(config))
    assert done.returncode != 0
    assert "a rule the code breaks BROKEN" in done.stdout


def cycles(imports: Mapping[str, Iterable[str]]) -> list[list[str]]:
    """The import cycles of a graph (module → the modules it imports directly): each strongly
    connected group of more than one module, or a module importing itself (Tarjan's algorithm,
    iterative so a deep graph cannot overflow the stack)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    for start in sorted(imports):
        if start in index:
            continue
        work: list[tuple[str, list[str]]] = [(start, sorted(imports.get(start, ())))]
        index[start] = low[start] = len(index)
        stack.append(start)
        on_stack.add(start)
        while work:
            node, todo = work[-1]
            if todo:
                nxt = todo.pop()
                if nxt not in index:
                    index[nxt] = low[nxt] = len(index)
                    stack.append(nxt)
                    on_stack.add(nxt)
                    work.append((nxt, sorted(imports.get(nxt, ()))))
                elif nxt in on_stack:
                    low[node] = min(low[node], index[nxt])
                continue
            work.pop()
            if work:
                parent = work[-1][0]
                low[parent] = min(low[parent], low[node])
            if low[node] == index[node]:
                group = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    group.append(member)
                    if member == node:
                        break
                if len(group) > 1 or node in imports.get(node, ()):
                    found.append(sorted(group))
    return found


def test_the_cycle_finder_finds_cycles() -> None:
    assert cycles({"a": ["b"], "b": ["c"], "c": []}) == []
    assert cycles({"a": ["b"], "b": ["c"], "c": ["a"], "d": ["a"]}) == [["a", "b", "c"]]
    assert cycles({"a": ["a"]}) == [["a"]]
    assert sorted(cycles({"a": ["b"], "b": ["a"], "c": ["d"], "d": ["c"]})) == [
        ["a", "b"],
        ["c", "d"],
    ]


@pytest.mark.parametrize("type_checking", [True, False], ids=["all imports", "runtime imports"])
def test_no_import_cycle_among_recall_modules(type_checking: bool) -> None:
    graph = grimp.build_graph(
        "recall", exclude_type_checking_imports=not type_checking, cache_dir=None
    )
    import recall

    assert Path(recall.__file__).resolve().is_relative_to(ROOT)  # this checkout's code
    imports = {module: graph.find_modules_directly_imported_by(module) for module in graph.modules}
    assert len(imports) > 100
    assert cycles(imports) == []


def test_the_package_is_typed() -> None:
    """``py.typed`` is declared in the package data, so it must exist (PEP 561)."""
    import recall

    assert (Path(recall.__file__).parent / "py.typed").is_file()


def test_the_architecture_map_names_only_modules_that_exist() -> None:
    """docs/architecture.md is the first page a newcomer reads: every module it names (``x.py``
    or ``folder/x.py``, relative to any folder) must exist, so a move that forgets the map fails
    here."""
    import re

    text = (ROOT / "docs" / "architecture.md").read_text(encoding="utf-8")
    named = set(re.findall(r"`([\w/]+\.py)`", text))
    assert len(named) > 30
    files = [
        path.relative_to(ROOT).as_posix()
        for folder in ("recall", "benchmarks", "tests")
        for path in (ROOT / folder).rglob("*.py")
    ]
    missing = sorted(
        name for name in named if not any(f == name or f.endswith("/" + name) for f in files)
    )
    assert missing == []


def test_the_architecture_map_names_every_package_module_and_command() -> None:
    """The map is complete as well as true: every package and every top-level module of
    ``recall/``, and every subcommand ``recall --help`` lists, is named on it."""
    import re

    from recall.cli import COMMAND_MODULES

    text = (ROOT / "docs" / "architecture.md").read_text(encoding="utf-8")
    package = ROOT / "recall"
    packages = sorted(
        init.parent.relative_to(package).as_posix()
        for init in package.rglob("__init__.py")
        if init.parent != package and "migrations" not in init.parts
    )
    modules = sorted(p.name for p in package.glob("*.py") if p.name != "__init__.py")
    commands = [module.rsplit(".", 1)[1] for module in COMMAND_MODULES]
    unnamed = [
        f"{name}/" for name in packages if not re.search(rf"`(recall/)?{re.escape(name)}/", text)
    ]
    unnamed += [name for name in modules if not re.search(rf"`(recall/)?{re.escape(name)}`", text)]
    unnamed += [f"recall {name}" for name in commands if f"`{name}`" not in text]
    assert unnamed == []
