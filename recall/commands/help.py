"""``recall help [TOPIC]``: the guides that ship inside recall, readable without the source.

An installed wheel has no ``docs/`` folder beside it, so every message that sends the learner to a
guide names ``recall help TOPIC`` instead of a file path: the text is the same Markdown as the
repository's ``docs/`` (the package carries it as ``recall/_docs``, a link to ``docs/`` in a
checkout, a copy in a wheel). ``recall help`` alone also prints the folder the guides are installed
in, a path that exists wherever recall runs: the project has no public home yet, so no URL is
printed that would not resolve.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

#: The guides, by topic: the file under ``docs/`` and what it tells.
TOPICS: dict[str, tuple[str, str]] = {
    "syntax": ("syntax.md", "what you can type: operators, functions, Greek letters, LaTeX"),
    "decks": ("decks.md", "how to write a deck: every card kind and key, limits, config.toml"),
    "learners": ("learners.md", "several learners on one PostgreSQL server: roles, owner, backups"),
}


def register(subparsers: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    parser = subparsers.add_parser(
        "help",
        help="read a guide: the typed syntax, writing decks",
        description="Print one of the guides that ship with recall. Topics: "
        + "; ".join(f"{name}: {about}" for name, (_, about) in TOPICS.items())
        + ".",
    )
    parser.add_argument("topic", nargs="?", choices=sorted(TOPICS), help="the guide to read")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    if args.topic is None:
        print("Guides (recall help TOPIC):")
        for name, (_, about) in TOPICS.items():
            print(f"  {name:<8} {about}")
        print(f"Installed in: {guides_folder()}")
        print("Every command: recall --help, recall COMMAND --help.")
        return 0
    text = guide(args.topic)
    if sys.stdout.isatty():
        import pydoc

        pydoc.pager(text)
    else:
        sys.stdout.write(text)
    return 0


def guide(topic: str) -> str:
    """The Markdown text of the guide ``topic`` (one of :data:`TOPICS`), from the package."""
    from importlib.resources import files

    name, _ = TOPICS[topic]
    return files("recall").joinpath("_docs", name).read_text(encoding="utf-8")


def guides_folder() -> Path:
    """The folder the guides are read from, resolved to a real path (in a checkout ``_docs`` is a
    link to ``docs/``): every Markdown link between the guides resolves inside it. recall is
    installed as files (a wheel or a checkout), never imported from a zip, so the package's
    resource folder is a folder on disk."""
    from importlib.resources import files

    return Path(str(files("recall").joinpath("_docs"))).resolve()
