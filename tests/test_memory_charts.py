"""The terminal charts: plain text both the CLI and the TUI can show."""

from __future__ import annotations

from recall.memory.charts import bar, calibration_chart, workload_curve
from recall.scheduling.calibration import CalibrationBin
from recall.scheduling.simulation import Plan, PlanPoint


def test_bar_resolution_and_width() -> None:
    assert bar(0.0, 4) == "    "
    assert bar(1.0, 4) == "████"
    assert bar(0.5, 4) == "██  "
    assert bar(1 / 16, 2) == "▏ "  # one eighth of one cell of two
    assert bar(2.0, 3) == "███"  # clamped
    assert bar(0.5, 4, unicode=False) == "##  "


def test_calibration_chart_marks_the_prediction_on_the_observed_bar() -> None:
    bins = [
        CalibrationBin(0.0, 0.5, 0, None, None),
        CalibrationBin(0.5, 1.0, 20, 0.75, 0.5),
    ]
    lines = calibration_chart(bins, width=20).splitlines()
    assert len(lines) == 3
    assert lines[1].rstrip().endswith("0")  # empty bin: zero reviews, no bar
    row = lines[2]
    bar_cells = row[11:31]
    assert bar_cells[:10] == "█" * 10 and bar_cells[15] == "│"
    assert "50%" in row and "75%" in row and row.rstrip().endswith("20")
    assert "|" in calibration_chart(bins, width=20, unicode=False)


def test_workload_curve_scales_to_the_largest_and_marks_the_setting() -> None:
    plan = Plan(
        days=90,
        cards=10,
        seed=0,
        points=(
            PlanPoint(0.8, 5.0, 400.0, 100, 10),
            PlanPoint(0.9, 10.0, 450.0, 200, 10, current=True),
        ),
    )
    lines = workload_curve(plan, width=10).splitlines()
    assert "90 days" in lines[0]
    assert "█████     " in lines[1] and "5.0" in lines[1] and "400 cards" in lines[1]
    assert "██████████" in lines[2] and lines[2].endswith("◀ your setting")
    assert "<" in workload_curve(plan, unicode=False)
