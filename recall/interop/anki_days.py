"""Anki's day numbering, in both directions.

Anki stores a review card's due date (and an interday learning card's) as a day number counted
from the collection's creation (``col.crt``), where a day starts at the rollover hour in local
time (4 am unless the collection says otherwise). The reading, as its scheduler does it with a
known creation offset: the day of a moment is its local calendar date, one less before the
rollover hour, minus the local date of ``crt``. A package we write declares its creation offset,
so the numbering is the same wherever it is opened; a collection without one (older Anki) is
read with the local offset now, as Anki itself would read it.

Learning cards due within the day keep an epoch-seconds ``due`` instead, which needs no
conversion.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, date, datetime, timedelta, timezone

#: The hour a new Anki day starts at when a collection does not say (Anki's own default).
DEFAULT_ROLLOVER = 4


@dataclass(frozen=True)
class DayClock:
    """One collection's day numbering: its creation time, the offset it was created in
    (minutes *west* of UTC, Anki's sign) and its rollover hour."""

    crt: int
    offset_minutes_west: int
    rollover: int = DEFAULT_ROLLOVER

    @property
    def zone(self) -> timezone:
        """The fixed offset days are counted in."""
        return timezone(timedelta(minutes=-self.offset_minutes_west))

    def _local_day(self, moment: datetime) -> date:
        local = moment.astimezone(self.zone)
        return (local - timedelta(hours=self.rollover)).date()

    def day_number(self, moment: datetime) -> int:
        """The collection day ``moment`` falls in (``today`` for the moment now)."""
        created = datetime.fromtimestamp(self.crt, tz=UTC).astimezone(self.zone).date()
        return (self._local_day(moment) - created).days

    def day_start(self, number: int) -> datetime:
        """When collection day ``number`` starts, in UTC (the rollover hour, local)."""
        created = datetime.fromtimestamp(self.crt, tz=UTC).astimezone(self.zone).date()
        day = created + timedelta(days=number)
        start = datetime(day.year, day.month, day.day, self.rollover, tzinfo=self.zone)
        return start.astimezone(UTC)

    def next_day_at(self, moment: datetime) -> datetime:
        """When the collection day after the one ``moment`` falls in starts."""
        return self.day_start(self.day_number(moment) + 1)


def local_minutes_west(moment: datetime) -> int:
    """This machine's UTC offset at ``moment``, in minutes west (Anki's convention)."""
    offset = moment.astimezone().utcoffset() or timedelta(0)
    return -int(offset.total_seconds() // 60)


def clock_for_export(now: datetime, rollover: int = DEFAULT_ROLLOVER) -> DayClock:
    """A day numbering for a package written at ``now``: created at the start of the local day
    a year back (so every due date of a real schedule is a positive day number)."""
    west = local_minutes_west(now)
    zone = timezone(timedelta(minutes=-west))
    start = (now.astimezone(zone) - timedelta(days=365)).date()
    crt = datetime(start.year, start.month, start.day, rollover, tzinfo=zone)
    return DayClock(crt=int(crt.timestamp()), offset_minutes_west=west, rollover=rollover)
