"""Issue 17, items 2 and 8: what recall prints of text it did not write is inert.

Every command's output passes :class:`recall.inert.InertWriter` (``recall.cli.main`` puts one in
front of stdout and stderr), error messages quote at most ~80 characters of the input, and a
database password is never partly printed, whatever characters it holds. Through
``recall.cli.main``, the real entry point, with the output captured.
"""

from __future__ import annotations

import io
import re
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from recall.cli import main
from recall.inert import InertWriter
from recall.paths import redact_url

_RAW_CONTROL = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f]")
HOSTILE = "\x1b]0;TITLE\x07\x1b[2J\x1b]52;c;cHduZWQ=\x07\x9b31m"


def _run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str]:
    status = main(list(argv))
    out, err = capsys.readouterr()
    both = out + err
    assert not _RAW_CONTROL.search(both), repr(both)
    return status, both


def test_check_echoes_a_typed_answer_inert(capsys: pytest.CaptureFixture[str]) -> None:
    status, output = _run(capsys, "check", "x + 1", f"x {HOSTILE}")
    assert status == 2
    assert "␛]0;TITLE␇" in output  # shown, as pictures a terminal does not obey


def test_check_json_and_batch_output_is_inert(capsys: pytest.CaptureFixture[str]) -> None:
    _run(capsys, "check", "--json", "x", HOSTILE)


def test_an_unknown_deck_named_on_the_command_line_is_quoted_inert(
    capsys: pytest.CaptureFixture[str],
) -> None:
    status, output = _run(capsys, "decks", "show", HOSTILE)
    assert status != 0 and "no deck" in output


def test_argparse_errors_are_inert(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["decks", HOSTILE])
    out, err = capsys.readouterr()
    assert not _RAW_CONTROL.search(out + err)
    assert "invalid choice" in err


def test_an_error_quotes_at_most_80_characters_of_the_input(
    capsys: pytest.CaptureFixture[str],
) -> None:
    long_value = "x" * 100_000
    status, output = _run(capsys, "config", "theme", long_value)
    assert status != 0
    assert "x" * 81 not in output
    assert "100,002 characters" in output  # the repr's quotes count


def test_a_long_unknown_key_in_an_error_is_cut(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "long.toml"
    path.write_text(
        f'[deck]\nid = "d"\nname = "n"\n[[card]]\nid = "c1"\nkind = "fact"\n'
        f'prompt = "p"\nvalue = 4\n{"Q" * 5000} = 1\n',
        encoding="utf-8",
    )
    status, output = _run(capsys, "decks", "validate", str(path))
    assert status != 0
    assert "Q" * 81 not in output and "5,000 characters" in output


def test_decks_export_to_stdout_keeps_crlf_and_drops_no_data(
    capsys: pytest.CaptureFixture[str],
) -> None:
    status, output = _run(capsys, "decks", "export", "losses", "--format", "csv")
    assert status == 0 and output.count("\n") > 10


def test_the_writer_keeps_crlf_and_bidi_on_a_pipe_but_not_controls() -> None:
    sink = io.StringIO()
    writer = InertWriter(sink)
    writer.write("a,b\r\nשלום\u200f,c\r\n\x1b]0;T\x07\rx")
    assert sink.getvalue() == "a,b\r\nשלום\u200f,c\r\n␛]0;T␇␍x"


class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_the_writer_shows_bidi_and_zero_width_characters_on_a_terminal() -> None:
    sink = _Terminal()
    InertWriter(sink).write("id\u202eevil\u200b")
    assert sink.getvalue() == "id<U+202E>evil<U+200B>"


# ----- passwords in database URLs (item 8) -----------------------------------------------------

_PASSWORD = st.text(
    alphabet=st.characters(blacklist_categories=("Cs",), blacklist_characters="\n"), min_size=1
)


@settings(max_examples=300, deadline=None)
@given(_PASSWORD)
def test_no_character_of_a_password_survives_redaction(password: str) -> None:
    url = f"postgresql+psycopg://learner:{password}@db.example:5432/recall"
    assert redact_url(url) == "postgresql+psycopg://learner:***@db.example:5432/recall"
    message = f"cannot connect to {url}: refused"
    assert redact_url(message) == (
        "cannot connect to postgresql+psycopg://learner:***@db.example:5432/recall: refused"
    )


@settings(max_examples=200, deadline=None)
@given(_PASSWORD.filter(lambda p: not set(p) & set("&;")))
def test_no_character_of_a_query_password_survives_redaction(password: str) -> None:
    url = f"postgresql+psycopg://learner@db.example/recall?password={password}&sslmode=require"
    assert redact_url(url) == (
        "postgresql+psycopg://learner@db.example/recall?password=***&sslmode=require"
    )


def test_sqlalchemys_own_rendering_of_an_unencoded_at_is_redacted() -> None:
    from sqlalchemy.engine import make_url

    rendered = make_url("postgresql://u:p@ss@host/db").render_as_string(hide_password=True)
    assert "ss@host" in rendered  # SQLAlchemy takes "ss@host" for the host
    assert redact_url(rendered) == "postgresql://u:***@host/db"


@pytest.mark.parametrize(
    ("url", "pieces"),
    [
        ("postgresql+psycopg://me:hunter2@xyzzy@127.0.0.1:1/db", ("hunter2", "xyzzy")),
        ("postgresql+psycopg://me:hunter2@xyzzy/plugh@127.0.0.1:1/db", ("xyzzy", "plugh")),
        ("postgresql+psycopg://me:hunter2@xyzzy?plugh@127.0.0.1:1/db", ("xyzzy", "plugh")),
        ("postgresql+psycopg://me:hun ter2@xyzzy@127.0.0.1:1/db", ("ter2", "xyzzy")),
        ("me:hunter2@xyzzy@127.0.0.1/db", ("hunter2", "xyzzy")),
    ],
)
def test_a_password_with_an_unencoded_at_is_never_partly_printed(
    capsys: pytest.CaptureFixture[str], url: str, pieces: tuple[str, ...]
) -> None:
    status, output = _run(capsys, "--db", url, "stats")
    assert status == 2
    for piece in pieces:
        assert piece not in output, (piece, output)
    assert "%40" in output or "***" in output  # says what to do, or shows the URL redacted


@pytest.mark.parametrize(
    "argv",
    [
        ["decks", "show", "{long}"],
        ["--db", "{long}", "stats"],
        ["--db", "postgresql://{long}", "stats"],
        ["config", "{long}"],
        ["config", "theme", "{long}"],
        ["config", "retention", "{long}"],
        ["check", "--card", "losses/{long}", "x"],
        ["check", "--var", "{long}", "x", "x"],
        ["drill", "--minutes", "{long}"],
        ["stats", "--days", "{long}"],
    ],
)
def test_no_error_echoes_a_long_argument_whole(
    capsys: pytest.CaptureFixture[str], argv: list[str]
) -> None:
    long = "b" * 100_000
    try:
        main([part.replace("{long}", long) for part in argv])
    except SystemExit:  # argparse refusing the value
        pass
    out, err = capsys.readouterr()
    assert "b" * 81 not in out + err
    assert len(out + err) < 2_000
