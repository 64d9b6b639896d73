"""The TUI starts with fewer garbage collections (recall.tui.startup_gc): the youngest
generation's threshold is raised while it starts and put back once the start is over (after the
engine warm-up, or with the counts when there is no warm-up), never left raised."""

from __future__ import annotations

import asyncio
import gc
from collections.abc import Iterator

import pytest

from recall.config import Settings
from recall.tui import startup_gc
from recall.tui.app import RecallApp
from recall.tui.services import Services


@pytest.fixture(autouse=True)
def _thresholds_kept() -> Iterator[tuple[int, int, int]]:
    before = gc.get_threshold()
    yield before
    startup_gc.restore()
    gc.set_threshold(*before)


def test_relax_raises_only_the_youngest_threshold_and_restore_puts_it_back(
    _thresholds_kept: tuple[int, int, int],
) -> None:
    before = _thresholds_kept
    startup_gc.relax()
    assert startup_gc.relaxed()
    assert gc.get_threshold() == (startup_gc.START_THRESHOLD, before[1], before[2])
    assert gc.isenabled()  # collection is never off
    startup_gc.relax()  # a second call changes nothing, and keeps what the first found
    startup_gc.restore()
    assert gc.get_threshold() == before and not startup_gc.relaxed()
    startup_gc.restore()  # nothing to restore: nothing changes
    assert gc.get_threshold() == before


def _run(warm: bool) -> tuple[bool, bool, tuple[int, int, int]]:
    """Relax, run the app until its counts (and with ``warm``, the warm-up) are in; whether the
    start's threshold was still in force when the counts were shown, and at the end."""
    startup_gc.relax()
    at_counts: list[bool] = []
    app = RecallApp(
        Services(Settings()),
        Settings(),
        warm_engine=warm,
        after_load=lambda _app: at_counts.append(startup_gc.relaxed()),
    )

    async def flow() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            for _ in range(600):
                await pilot.pause(0.05)
                if at_counts and (not warm or app.engine_warm_seconds is not None):
                    break

    asyncio.run(flow())
    assert at_counts, "the counts never came"
    return at_counts[0], startup_gc.relaxed(), gc.get_threshold()


def test_the_start_ends_after_the_engine_warm_up(_thresholds_kept) -> None:
    at_counts, at_end, thresholds = _run(warm=True)
    assert at_counts  # the load ran with the start's threshold
    assert not at_end and thresholds == _thresholds_kept


def test_without_a_warm_up_the_start_ends_with_the_counts(_thresholds_kept) -> None:
    _at_counts, at_end, thresholds = _run(warm=False)
    assert not at_end and thresholds == _thresholds_kept
