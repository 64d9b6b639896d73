"""The paperwork of a real project: the licence ships, every dependency recall imports is
declared, and no message sends a learner to a file an installed wheel does not have."""

from __future__ import annotations

import ast
import importlib.metadata
import re
import sys
import tomllib
from pathlib import Path

import pytest

from recall import cli
from recall.cards.template import new_deck_text
from recall.commands import help as help_command
from recall.errors import DeckError

ROOT = Path(__file__).resolve().parent.parent
PROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
SOURCES = sorted((ROOT / "recall").rglob("*.py"))


def test_the_licence_file_exists_and_is_the_one_the_metadata_names() -> None:
    assert PROJECT["license"] == "MIT"
    files = PROJECT["license-files"]
    assert files, "license-files puts the text in the sdist and the wheel"
    text = "\n".join((ROOT / name).read_text(encoding="utf-8") for name in files)
    assert text.startswith("MIT License")
    assert "Copyright (c) 2026 the recall authors" in text
    assert "WITHOUT WARRANTY OF ANY KIND" in text


def test_no_url_names_a_home_the_project_does_not_have() -> None:
    """recall has no public home yet: the metadata and every shipped text name none, rather than
    a made-up address that would not resolve (a learner would follow it)."""
    assert "urls" not in PROJECT
    shipped = [*SOURCES, *(ROOT / "docs").glob("*.md"), ROOT / "README.md"]
    for path in shipped:
        assert "recall-authors" not in path.read_text(encoding="utf-8"), path


def _requirement_name(requirement: str) -> str:
    found = re.match(r"[A-Za-z0-9_.-]+", requirement)
    assert found, requirement
    return re.sub(r"[-_.]+", "-", found.group(0)).lower()


def _imported_top_level_modules() -> set[str]:
    names: set[str] = set()
    for path in SOURCES:
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                names.update(alias.name.split(".")[0] for alias in node.names)
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                names.add(node.module.split(".")[0])
    return names - set(sys.stdlib_module_names) - {"recall", "__future__"}


def test_every_third_party_module_recall_imports_is_a_declared_dependency() -> None:
    declared = {_requirement_name(r) for r in PROJECT["dependencies"]}
    optional = {
        _requirement_name(r)
        for extra in ("postgres", "anki", "serve")
        for r in PROJECT["optional-dependencies"][extra]
    }
    providers = importlib.metadata.packages_distributions()
    undeclared = {}
    for module in sorted(_imported_top_level_modules()):
        distributions = {_requirement_name(d) for d in providers.get(module, [module])}
        if not distributions & (declared | optional):
            undeclared[module] = sorted(distributions)
    assert undeclared == {}, "imported by recall but not in [project] dependencies"


def test_the_anki_oracle_is_its_own_extra_and_ci_installs_it() -> None:
    """The official anki wheel (AGPL) is never a run-time dependency, and not in ``test``:
    its Linux wheels need glibc >= 2.35 and it has no sdist, which no marker can express, so
    in ``test`` it broke ``pip install -e '.[test]'`` on an older glibc. It is the ``oracle``
    extra, which ``.ci/run`` installs, and there requires its tests to run."""
    extras = PROJECT["optional-dependencies"]
    holding = {name for name, reqs in extras.items() if "anki" in map(_requirement_name, reqs)}
    assert holding == {"oracle"}
    assert "anki" not in map(_requirement_name, PROJECT["dependencies"])
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    assert "pip install -e '.[test,oracle]'" in ci
    assert "export RECALL_REQUIRE_ANKI=1" in ci


def _docstring_nodes(tree: ast.AST) -> set[int]:
    ids = set()
    for node in ast.walk(tree):
        body = getattr(node, "body", None)
        if isinstance(body, list) and body and isinstance(body[0], ast.Expr):
            if isinstance(body[0].value, ast.Constant) and isinstance(body[0].value.value, str):
                ids.add(id(body[0].value))
    return ids


def _message_strings() -> list[tuple[str, int, str]]:
    """Every string literal in recall/ that is not a docstring (messages, help, templates)."""
    found = []
    for path in SOURCES:
        tree = ast.parse(path.read_text(encoding="utf-8"))
        docstrings = _docstring_nodes(tree)
        for node in ast.walk(tree):
            if (
                isinstance(node, ast.Constant)
                and isinstance(node.value, str)
                and id(node) not in docstrings
            ):
                found.append((str(path.relative_to(ROOT)), node.lineno, node.value))
    return found


def test_no_message_points_to_a_docs_file_or_prints_a_placeholder() -> None:
    strings = _message_strings()
    assert len(strings) > 1000  # the scan reads the messages, not nothing
    bad = [
        (where, line, text[:80])
        for where, line, text in strings
        if re.search(r"\bdocs/|\w\.md\b|<deck>", text)
        # The one module that opens the guides by file name, inside the package.
        and where != "recall/commands/help.py"
    ]
    assert bad == []


def test_the_deck_template_names_guides_that_resolve() -> None:
    text = new_deck_text("My losses", "my-losses", path_hint="decks/my-losses.toml")
    assert "docs/" not in text
    topics = re.findall(r"`recall help (\w+)`", text)
    assert set(topics) == {"decks", "syntax"}
    for topic in topics:
        assert help_command.guide(topic).startswith("#")


def test_an_unlocated_deck_error_says_no_placeholder() -> None:
    assert str(DeckError("unknown key 'x'")) == "unknown key 'x'"
    assert str(DeckError("bad", line=3, card_id="c")) == "line 3: card 'c': bad"
    assert str(DeckError("bad", path="a.toml", line=3)) == "a.toml:3: bad"


@pytest.mark.parametrize("topic", sorted(help_command.TOPICS))
def test_recall_help_prints_the_guide_that_ships(
    topic: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert cli.main(["help", topic]) == 0
    shown = capsys.readouterr().out
    file_name, _ = help_command.TOPICS[topic]
    assert shown == (ROOT / "docs" / file_name).read_text(encoding="utf-8")
    package_data = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    shipped = package_data["tool"]["setuptools"]["package-data"]["recall"]
    assert f"_docs/{file_name}" in shipped


def test_recall_help_alone_lists_the_topics_and_the_folder_they_are_in(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert cli.main(["help"]) == 0
    out = capsys.readouterr().out
    for topic in help_command.TOPICS:
        assert f"  {topic} " in out
    line = next(row for row in out.splitlines() if row.startswith("Installed in: "))
    folder = Path(line.removeprefix("Installed in: "))
    for file_name, _ in help_command.TOPICS.values():
        assert (folder / file_name).is_file(), file_name


@pytest.mark.parametrize("make", ["missing", "file"])
def test_a_decks_folder_that_is_not_there_is_refused(
    make: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = tmp_path / "my-deckz"
    if make == "file":
        folder.write_text("not a folder\n")
    assert cli.main(["--decks", str(folder), "decks", "list"]) == 2
    err = capsys.readouterr().err
    assert str(folder) in err
    assert ("does not exist" if make == "missing" else "is not a folder") in err


def test_recall_decks_from_the_environment_is_checked_too(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("RECALL_DECKS", str(tmp_path / "nowhere"))
    assert cli.main(["today"]) == 2
    assert "does not exist" in capsys.readouterr().err


def test_an_existing_decks_folder_is_used(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert cli.main(["--decks", str(tmp_path), "decks", "list"]) == 0
    assert "activations" in capsys.readouterr().out
