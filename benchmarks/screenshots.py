"""Render the README's screenshots (SVG, straight from Textual) on a throwaway database.

``python -m benchmarks.screenshots docs/screenshots`` (from the checkout's root) drills three
built-in cards headless, answering each with a classic slip first (cram asks a missed card
again, then it is answered right), and saves the feedback on each slip: ``drill.svg`` (a missing
factor of 1/2), ``drill-missing-root.svg`` and ``drill-wrong-sign.svg`` (the part of the answer
that differs marked), then ``summary.svg`` (the end of the session) and ``home.svg`` (the home
screen after it, with its counts, the README's first picture), and ``explain-points.svg`` (a typed
explanation of the cross-entropy card checked point by point). Nothing touches the
learner's own data: ``RECALL_HOME`` is pointed at a temporary folder first.
"""

from __future__ import annotations

import asyncio
import os
import sys
import tempfile
from pathlib import Path

#: (card, the slip typed first, the screenshot of its feedback).
SCRIPT = (
    ("attention-transformers/sdpa-logit", "s/d_k + M", "drill-missing-root.svg"),
    ("gaussians/kl-to-standard-normal", "mu^2 + sigma^2 - log(sigma^2) - 1", "drill.svg"),
    ("losses/mse-summand", "(y_hat - y)^2 + 1", None),
)
#: The second of the kl card's slips: a sign (asked again after the first miss).
SIGN_SLIP = "(mu^2 + sigma^2 + log(sigma^2) - 1)/2"
SIZE = (100, 32)


async def render(out: Path) -> None:
    from textual.widgets import Input

    from recall.session import Mode
    from recall.tui.app import RecallApp
    from recall.tui.screens.drill import DrillScreen
    from recall.tui.services import Services
    from recall.tui.views import SessionPlan

    keys = tuple(key for key, _typed, _shot in SCRIPT)
    plan = SessionPlan(minutes=10, mode=Mode.CRAM, card_keys=keys)
    app = RecallApp(Services(), plan=plan)
    slips: dict[str, list[tuple[str, str | None]]] = {key: [(t, shot)] for key, t, shot in SCRIPT}
    slips[SCRIPT[1][0]].append((SIGN_SLIP, "drill-wrong-sign.svg"))
    async with app.run_test(size=SIZE) as pilot:
        while not isinstance(app.screen, DrillScreen) or app.screen.card is None:
            await pilot.pause(0.05)
        screen = app.screen
        while app.screen is screen and screen.card is not None:
            key = screen.card.key
            box = screen.query_one("#answer", Input)
            # each slip is missed once, then (asked again, as cram does) answered right
            pending = slips.get(key) or []
            typed, shot = pending.pop(0) if pending else (app.services.card(key).answer, None)
            box.value = typed
            box.cursor_blink = False
            await pilot.pause()
            await app.workers.wait_for_complete()
            await pilot.pause()
            await pilot.press("enter")
            await app.workers.wait_for_complete()
            await pilot.pause(0.1)
            if shot is not None:
                (out / shot).write_text(app.export_screenshot(title="recall: drill"))
            await pilot.press("enter")
            await pilot.pause(0.1)
        await pilot.pause(0.2)
        (out / "summary.svg").write_text(app.export_screenshot(title="recall: summary"))
        await pilot.press("escape")
        await _until_home_counted(app, pilot)
        (out / "home.svg").write_text(app.export_screenshot(title="recall: home"))
        await pilot.press("ctrl+q")


#: The explanation typed for ``explain-points.svg``: three of the card's five key points.
EXPLANATION = (
    "Cross-entropy is the negative log probability of the right class, so minimising it is "
    "maximum likelihood. It blows up when the model is confidently wrong; label smoothing helps."
)


async def render_explain(out: Path) -> None:
    """A checked explanation: the points made, with the words that made them, and those missed."""
    from textual.widgets import Input

    from recall.session import Mode
    from recall.tui.app import RecallApp
    from recall.tui.screens.drill import DrillScreen
    from recall.tui.services import Services
    from recall.tui.views import SessionPlan

    plan = SessionPlan(minutes=10, mode=Mode.CRAM, card_keys=("losses/why-cross-entropy",))
    app = RecallApp(Services(), plan=plan)
    async with app.run_test(size=SIZE) as pilot:
        while not isinstance(app.screen, DrillScreen) or app.screen.card is None:
            await pilot.pause(0.05)
        box = app.screen.query_one("#answer", Input)
        box.value = EXPLANATION
        box.cursor_blink = False
        await pilot.pause()
        await pilot.press("enter")
        await app.workers.wait_for_complete()
        await pilot.pause(0.2)
        (out / "explain-points.svg").write_text(app.export_screenshot(title="recall: drill"))
        await pilot.press("ctrl+q")


async def _until_home_counted(app: object, pilot: object) -> None:
    """Wait until the home screen is back and shows counts (not its loading line)."""
    from recall.tui.screens.home import HomeScreen

    for _ in range(200):
        screen = app.screen  # type: ignore[attr-defined]
        if isinstance(screen, HomeScreen) and screen.selected_deck() is not None:
            break
        await pilot.pause(0.05)  # type: ignore[attr-defined]
    await app.workers.wait_for_complete()  # type: ignore[attr-defined]
    await pilot.pause(0.2)  # type: ignore[attr-defined]


def main() -> int:
    out = Path(sys.argv[1] if len(sys.argv) > 1 else "docs/screenshots")
    out.mkdir(parents=True, exist_ok=True)
    (out / "drill.svg").unlink(missing_ok=True)
    with tempfile.TemporaryDirectory() as home:
        os.environ["RECALL_HOME"] = home
        os.environ.pop("RECALL_DB", None)
        os.environ.pop("RECALL_DECKS", None)
        asyncio.run(render(out))
        asyncio.run(render_explain(out))
    shots = [shot for _key, _typed, shot in SCRIPT if shot] + ["drill-wrong-sign.svg"]
    shots += ["summary.svg", "home.svg", "explain-points.svg"]
    print(f"wrote {', '.join(str(out / s) for s in shots)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
