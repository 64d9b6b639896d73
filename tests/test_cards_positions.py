"""Line positions recovered from deck text (tomllib gives none)."""

from __future__ import annotations

import subprocess
import sys

from recall.cards.positions import scan

TEXT = '''\
# comment with [[card]] in it
[deck]
id = "x"
"quoted key" = 1
[deck.symbols]
y = { domain = "real" }

[[card]]
id = "a"
model_answer = """
[[card]]
id = "fake"
"""
identities = [
  { lhs = "a, b", rhs = "[c" }, { lhs = "q", rhs = "r" },
  { lhs = "z", rhs = """multi
line""" },
  { lhs = "last", rhs = "w" },
]
symbols.mu = "real"
[card.params]
N = { low = 1, high = 2 }

[[card]]
id = "b"
[[card.identities]]
lhs = "x"
[[card.identities]]
lhs = "y"
'''


def test_headers_keys_and_array_elements_get_their_lines() -> None:
    positions = scan(TEXT)
    assert positions.card_count == 2
    assert positions.line("deck") == 2
    assert positions.line("deck", "quoted key") == 4
    assert positions.line("deck", "symbols", "y") == 6
    assert positions.card_line(0) == 8
    assert positions.line("card", 0, "model_answer") == 10
    assert positions.line("card", 0, "identities") == 14
    assert [positions.line("card", 0, "identities", i) for i in range(4)] == [15, 15, 16, 18]
    assert positions.line("card", 0, "symbols", "mu") == 20
    assert positions.line("card", 0, "params", "N") == 22
    assert positions.card_line(1) == 24
    assert positions.line("card", 1, "identities", 1) == 28
    assert positions.line("card", 1, "identities", 1, "lhs") == 29


def test_unknown_paths_fall_back_to_the_nearest_ancestor() -> None:
    positions = scan(TEXT)
    assert positions.line("card", 0, "params", "N", "low") == 22
    assert positions.line("card", 0, "no-such-key") == 8
    assert positions.line("nowhere") is None


def test_card_modules_import_without_sympy() -> None:
    # recall.cards never loads the engine; the decks command loads it only inside its handlers.
    code = (
        "import sys\n"
        "import recall.cards.loader, recall.interop.text_import, recall.interop.text_export, "
        "recall.cards.matching, recall.cards.params, recall.commands.decks\n"
        "from recall.cards.loader import load_decks\n"
        "load_decks()\n"
        "heavy = [m for m in ('sympy', 'numpy', 'mpmath', 'recall.formula', 'textual', "
        "'sqlalchemy') if m in sys.modules]\n"
        "print(','.join(heavy))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == ""
