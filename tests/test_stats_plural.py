"""``recall stats`` counts days as a person writes them: "1 day", never "1 days"."""

from __future__ import annotations

from recall.commands.stats import render


def _figures(study_days: int, streak: int) -> dict:
    return {
        "since": "2026-11-01",
        "until": "2026-12-01",
        "reviews": 3,
        "study_days": study_days,
        "streak": streak,
        "retention": {"rate": None, "passed": 0, "total": 0},
        "first_try_accuracy": None,
        "due_today": 0,
        "due_tomorrow": 0,
        "due_next_7_days": 0,
        "retention_by_deck": {},
        "retention_by_topic": {},
        "mistakes": [],
        "forecast": [],
        "heatmap": [],
    }


def test_one_day_is_singular_and_others_plural() -> None:
    text = render(_figures(1, 1))
    assert "3 on 1 day\n" in text and "streak           1 day\n" in text
    assert "1 days" not in text
    text = render(_figures(2, 0))
    assert "3 on 2 days" in text and "streak           0 days" in text
