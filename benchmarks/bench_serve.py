"""``recall serve`` benchmark: from opening the page to the home screen drawn, and the memory
each browser session costs (one app process per tab).

    python benchmarks/bench_serve.py [--runs 2]

Starts ``recall serve --port 0`` on a fresh temporary ``RECALL_HOME`` (the built-in decks),
opens the printed address in headless chromium (``/usr/bin/chromium`` through playwright, no
browser download) and prints, per run:

* **first frame**: page opened → the app's first bytes drawn in the page (the home screen's
  first frame, "Loading decks…");
* **home drawn**: page opened → the last change of the picture before it stays still for a
  second (the decks counted and painted); the first run also creates and fills the database;
* **RSS per session**: the resident memory of each app process at the home screen, once its
  engine warm-up has run (read from ``/proc``, with two tabs open), and of the server itself.

Figures only, no targets asserted (the issue's research measured ~122 MiB per process).
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

CHROMIUM = "/usr/bin/chromium"
URL = re.compile(r"(https?://\S+/\?token=\S+)")


def rss_mib(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0.0


def app_processes(server: int) -> list[int]:
    """The recall processes under the server (not the shells textual-serve starts them in)."""
    parents: dict[int, int] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            parents[int(entry.name)] = int(fields[1])
    found, frontier = [], [server]
    while frontier:
        parent = frontier.pop()
        for child, its_parent in parents.items():
            if its_parent == parent:
                frontier.append(child)
                try:
                    command = Path(f"/proc/{child}/cmdline").read_bytes().split(b"\0")
                except OSError:
                    continue
                if b"recall" in command and b"-m" in command:
                    found.append(child)
    return found


def open_until_drawn(page: object, url: str) -> tuple[float, float]:
    """Seconds to the first frame and to the home screen drawn and still."""
    start = time.perf_counter()
    page.goto(url)  # type: ignore[attr-defined]
    page.wait_for_selector("body.-first-byte", timeout=120_000)  # type: ignore[attr-defined]
    first = time.perf_counter() - start
    previous, changed = b"", time.perf_counter()
    while time.perf_counter() - changed < 1.0:
        shot = page.screenshot()  # type: ignore[attr-defined]
        if shot != previous:
            previous, changed = shot, time.perf_counter()
        time.sleep(0.05)
    return first, changed - start


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=2, help="page loads to time (2)")
    args = parser.parse_args()
    from playwright.sync_api import sync_playwright

    home = Path(tempfile.mkdtemp(prefix="recall-bench-serve-"))
    server = subprocess.Popen(
        [sys.executable, "-m", "recall", "serve", "--port", "0", "--no-qr"],
        stdout=subprocess.PIPE,
        text=True,
        env={**os.environ, "RECALL_HOME": str(home)},
    )
    try:
        assert server.stdout is not None
        match = URL.search(server.stdout.readline())
        if not match:
            print("recall serve printed no address", file=sys.stderr)
            return 1
        url = match.group(1)
        with sync_playwright() as p:
            no_sandbox = ["--no-sandbox"] if os.geteuid() == 0 else []
            browser = p.chromium.launch(
                executable_path=CHROMIUM, headless=True, args=[*no_sandbox, "--disable-gpu"]
            )
            viewport = {"width": 1000, "height": 700}
            for run in range(1, args.runs + 1):
                page = browser.new_page(viewport=viewport)
                first, drawn = open_until_drawn(page, url)
                note = " (creates the database)" if run == 1 else ""
                print(f"run {run}: first frame {first:.2f} s, home drawn {drawn:.2f} s{note}")
                page.close()
                time.sleep(1.5)  # its app process quits
            pages = [browser.new_page(viewport=viewport) for _ in range(2)]
            for page in pages:
                open_until_drawn(page, url)
            time.sleep(8)  # the engine warm-up after the first frame (SymPy) is part of it
            sizes = [rss_mib(pid) for pid in app_processes(server.pid)]
            shown = ", ".join(f"{size:.0f}" for size in sizes)
            print(f"RSS per session at the home screen: {shown} MiB ({len(sizes)} tabs open)")
            print(f"RSS of the server: {rss_mib(server.pid):.0f} MiB")
            browser.close()
    finally:
        server.terminate()
        server.wait(timeout=30)
        shutil.rmtree(home, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
