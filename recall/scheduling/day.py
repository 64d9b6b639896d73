"""Study days: a day that starts at the rollover hour in the learner's local time.

Reviews at 01:30 count toward the previous day when the rollover hour is 4 (as in Anki), so a
late-night session does not break a streak or spend the next day's new-card allowance. Times go
in and out as UTC; only the day arithmetic happens in local time. ``tz`` defaults to the
machine's local zone (``None``), and tests pass a fixed zone.
"""

from __future__ import annotations

from datetime import UTC, date, datetime, time, timedelta, tzinfo


def study_date(moment: datetime, rollover_hour: int, tz: tzinfo | None = None) -> date:
    """The study day ``moment`` belongs to."""
    local = moment.astimezone(tz)
    return (local - timedelta(hours=rollover_hour)).date()


def day_start(day: date, rollover_hour: int, tz: tzinfo | None = None) -> datetime:
    """The UTC instant study day ``day`` begins."""
    naive = datetime.combine(day, time(hour=rollover_hour))
    # A naive time's astimezone() reads it as system local time with the zone's DST rules;
    # an explicit zone is attached directly (ZoneInfo resolves DST itself).
    local = naive.astimezone() if tz is None else naive.replace(tzinfo=tz)
    return local.astimezone(UTC)


def today_bounds(
    now: datetime, rollover_hour: int, tz: tzinfo | None = None
) -> tuple[datetime, datetime]:
    """(start, end) in UTC of the study day containing ``now``; end is the next day's start."""
    today = study_date(now, rollover_hour, tz)
    return day_start(today, rollover_hour, tz), day_start(
        today + timedelta(days=1), rollover_hour, tz
    )
