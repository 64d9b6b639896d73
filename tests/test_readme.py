"""The README is a welcome: what recall is, the two commands, a picture of the home screen,
the keys and links that resolve. Measured figures live in docs/benchmarks.md."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
README = (ROOT / "README.md").read_text(encoding="utf-8")
BENCHMARKS = (ROOT / "docs" / "benchmarks.md").read_text(encoding="utf-8")


def _shell_blocks(text: str) -> list[str]:
    return [b.strip() for b in re.findall(r"```sh\n(.*?)```", text, flags=re.S)]


def test_the_test_command_is_exactly_what_ci_runs() -> None:
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    ci_command = ci.strip().splitlines()[-1].strip()
    blocks = _shell_blocks(README)
    assert ci_command in blocks
    assert any(b.startswith("python -m pip install -e .") and "recall" in b for b in blocks)


def test_every_relative_link_and_picture_resolves() -> None:
    targets = re.findall(r"\]\(([^)#\s]+)\)", README)
    local = [t for t in targets if "://" not in t]
    assert "docs/screenshots/home.svg" in local
    assert "docs/benchmarks.md" in local
    missing = [t for t in local if not (ROOT / t).exists()]
    assert missing == []


def test_the_keys_are_in_the_readme() -> None:
    assert "### Keys" in README
    assert "Ctrl-Z undo" in README


def test_benchmark_detail_lives_in_docs_benchmarks() -> None:
    assert not re.search(r"\| p50 \|", README)
    assert "bench_" not in README
    scripts = sorted(p.name for p in (ROOT / "benchmarks").glob("bench_*.py")) + ["soak.py"]
    unmentioned = [name for name in scripts if name not in BENCHMARKS]
    assert unmentioned == []


def test_the_project_files_a_newcomer_looks_for_exist() -> None:
    contributing = (ROOT / "CONTRIBUTING.md").read_text(encoding="utf-8")
    ci_command = (ROOT / ".ci" / "run").read_text(encoding="utf-8").strip().splitlines()[-1]
    assert ci_command.split("&&")[-1].strip() in contributing
    assert "lint-imports" in contributing and "benchmarks/" in contributing
    assert (ROOT / "CHANGELOG.md").read_text(encoding="utf-8").startswith("# Changelog")
    manifest = (ROOT / "MANIFEST.in").read_text(encoding="utf-8")
    for name in ("CHANGELOG.md", "CONTRIBUTING.md", "LICENSE"):
        assert name in manifest
