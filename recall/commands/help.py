"""``recall help [TOPIC]``: the guides that ship inside recall, readable without the source.

An installed wheel has no ``docs/`` folder beside it, so every message that sends the learner to a
guide names ``recall help TOPIC`` instead of a file path: the text is the same Markdown as the
repository's ``docs/`` (the package carries it as ``recall/_docs``, a link to ``docs/`` in a
checkout, a copy in a wheel), and the project's documentation URL is printed beside it.
"""

from __future__ import annotations

import argparse
import sys

#: The guides, by topic: the file under ``docs/`` and what it tells.
TOPICS: dict[str, tuple[str, str]] = {
    "syntax": ("syntax.md", "what you can type: operators, functions, Greek letters, LaTeX"),
    "decks": ("decks.md", "how to write a deck: every card kind and key, limits, config.toml"),
    "learners": ("learners.md", "several learners on one PostgreSQL server: roles, owner, backups"),
}

#: Where the same guides are read online (``[project.urls]`` in ``pyproject.toml``).
DOCUMENTATION_URL = "https://github.com/recall-authors/recall/tree/main/docs"


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
        print(f"Online: {DOCUMENTATION_URL}")
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
