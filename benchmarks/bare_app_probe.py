"""The yardstick for recall's start-up: a bare Textual app with a header, a 17-row table and a
footer (what recall's home screen shows, without recall), timed exactly as
:mod:`cli_start_probe` times recall: from the parent's spawn until the frame that shows the
filled table has been drawn, headless at 80x24. Prints one JSON line
``{"seconds": …, "cpu": …}``.

    python benchmarks/bare_app_probe.py SPAWN_TIME
"""

from __future__ import annotations

import asyncio
import json
import sys
import time
from typing import Any

#: The rows of recall's home table (one per built-in deck).
ROWS = 17


def main() -> int:
    started = float(sys.argv[1]) if len(sys.argv) > 1 else time.time()
    from textual.app import App, ComposeResult
    from textual.widgets import DataTable, Footer, Header

    report: dict[str, object] = {}

    class Bare(App[None]):
        BINDINGS = [("s", "bell", "Start"), ("t", "bell", "Stats"), ("b", "bell", "Decks")]

        def compose(self) -> ComposeResult:
            yield Header()
            yield DataTable(id="decks", cursor_type="row")
            yield Footer()

        def on_mount(self) -> None:
            table = self.query_one("#decks", DataTable)
            for name in ("Topic", "Deck", "New", "Learn", "Due", "Today"):
                table.add_column(name)
            for row in range(ROWS):
                table.add_row("Topic", f"Deck {row}", "20", "·", "3", "4")

    async def pilot(driver: Any) -> None:
        app = driver.app
        table = None
        # As cli_start_probe watches recall: the table looked up once, then its rows asked.
        while table is None or not table.row_count:
            if table is None:
                found = list(app.screen.query("#decks"))
                table = found[0] if found else None
            await asyncio.sleep(0.002)
        await app.screen.wait_for_refresh()
        report["seconds"] = time.time() - started
        report["cpu"] = time.process_time()
        print(json.dumps(report), flush=True)
        app.exit()

    Bare().run(headless=True, size=(80, 24), auto_pilot=pilot)
    return 0 if report else 1


if __name__ == "__main__":
    sys.exit(main())
