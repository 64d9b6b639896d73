"""An exam plan the learner follows: kept in the data directory until the exam day has passed.

``recall exam DATE`` only shows a plan. Following it (``recall exam DATE --follow``, or ``f`` in
the home screen's exam dialog) makes it drive the days: until the exam, today's new-card count
and the desired retention come from the plan, and the plan is made again on each study day from
what was actually done, so a missed day is absorbed by the days left. What is kept here is what
that needs: the exam and what it covers, the retention, the adoption day with the plan's target
of cards introduced by each day (to say "on track" or "behind by N"), and today's guidance once
it is worked out, so every place that asks on one study day gets the same answer.

Like today's learn-more raise (:mod:`recall.extra_new`), it is a small JSON file written whole
or not at all; a file that is missing, damaged or not ours reads as no plan followed (the
learner is back on the normal schedule, never stuck). After the exam day it is ignored.
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass, field, replace
from datetime import date
from pathlib import Path
from typing import Any

from recall.errors import ConfigError
from recall.paths import data_dir, write_atomically

#: The file's name in the data directory.
FILE_NAME = "exam.json"
#: Bytes read at most (a year's targets take a few kilobytes).
MAX_BYTES = 64 * 1024


@dataclass(frozen=True)
class DayGuidance:
    """What the followed plan asks of one study day, worked out once on that day.

    ``new`` is the day's new-card limit: the cards introduced earlier that day, in any deck
    (the daily limit is charged with them all), and the plan's new cards for the day;
    ``minutes`` the plan's time for the day; ``review_only`` is set on the last days before the
    exam (no new cards, weakest first); ``behind`` is how many cards fewer than the adoption plan
    expected were introduced by the end of the day before (the plan made today spreads them
    over the days left); ``ahead`` the cards the plan reviews that day (reviews it pulls in
    before FSRS would ask for them, so each card is seen twice before the exam, and on the last
    days the weakest cards), which a session takes with the due ones; ``introduce`` the new
    cards the plan introduces that day, which a session introduces instead of its own choice;
    ``later`` the plan's new cards of the days after, in its order, which a raise of the day's
    limit ("learn N more today") introduces next (learning ahead of the plan, absorbed by the
    plan made the next day).
    """

    day: date
    new: int
    minutes: float
    review_only: bool = False
    behind: int = 0
    feasible: bool = True
    ahead: tuple[str, ...] = ()
    introduce: tuple[str, ...] = ()
    later: tuple[str, ...] = ()

    @property
    def new_cards(self) -> tuple[str, ...]:
        """The new cards a session introduces, in order, as far as the day's limit allows."""
        return (*self.introduce, *self.later)


@dataclass(frozen=True)
class FollowedExam:
    """The plan a learner follows (see the module docstring)."""

    exam: date
    adopted: date
    retention: float
    decks: tuple[str, ...] = ()
    topic: str | None = None
    minutes: float | None = None
    #: Cards the adoption plan introduces by the end of each day, cumulative, by ISO date.
    target: dict[str, int] = field(default_factory=dict)
    guidance: DayGuidance | None = None

    def days_left(self, today: date) -> int:
        return (self.exam - today).days

    def target_by(self, day: date) -> int:
        """Cards the adoption plan expected introduced by the end of ``day`` (0 before it)."""
        best = 0
        for iso, count in self.target.items():
            if date.fromisoformat(iso) <= day:
                best = max(best, count)
        return best

    def with_guidance(self, guidance: DayGuidance) -> FollowedExam:
        return replace(self, guidance=guidance)

    def to_json(self) -> dict[str, Any]:
        data = asdict(self)
        data["exam"] = self.exam.isoformat()
        data["adopted"] = self.adopted.isoformat()
        data["decks"] = list(self.decks)
        if self.guidance is not None:
            data["guidance"]["day"] = self.guidance.day.isoformat()
            data["guidance"]["ahead"] = list(self.guidance.ahead)
            data["guidance"]["introduce"] = list(self.guidance.introduce)
            data["guidance"]["later"] = list(self.guidance.later)
        return data

    @classmethod
    def from_json(cls, data: Any) -> FollowedExam:
        """Raises ``ValueError``/``TypeError``/``KeyError`` for anything not written by us."""
        if not isinstance(data, dict):
            raise TypeError("not an object")
        guidance = data.get("guidance")
        target = data.get("target", {})
        if not isinstance(target, dict) or not all(
            isinstance(k, str) and isinstance(v, int) for k, v in target.items()
        ):
            raise TypeError("bad target")
        decks = data.get("decks", [])
        if not isinstance(decks, list) or not all(isinstance(d, str) for d in decks):
            raise TypeError("bad decks")
        retention = float(data["retention"])
        if not 0.5 <= retention < 1:
            raise ValueError("retention out of range")
        minutes = data.get("minutes")
        topic = data.get("topic")
        return cls(
            exam=date.fromisoformat(data["exam"]),
            adopted=date.fromisoformat(data["adopted"]),
            retention=retention,
            decks=tuple(decks),
            topic=topic if isinstance(topic, str) else None,
            minutes=float(minutes) if isinstance(minutes, int | float) else None,
            target=target,
            guidance=None
            if guidance is None
            else DayGuidance(
                day=date.fromisoformat(guidance["day"]),
                new=int(guidance["new"]),
                minutes=float(guidance["minutes"]),
                review_only=bool(guidance.get("review_only", False)),
                behind=int(guidance.get("behind", 0)),
                feasible=bool(guidance.get("feasible", True)),
                ahead=tuple(str(key) for key in guidance.get("ahead", ())),
                introduce=tuple(str(key) for key in guidance.get("introduce", ())),
                later=tuple(str(key) for key in guidance.get("later", ())),
            ),
        )


def exam_file() -> Path:
    """Where the followed plan is kept."""
    return data_dir() / FILE_NAME


def load_followed(today: date, path: Path | None = None) -> FollowedExam | None:
    """The followed plan, or ``None`` when there is none, it cannot be read, or its exam day
    has passed (the normal schedule is back by itself)."""
    path = path or exam_file()
    try:
        with open(path, "rb") as file:
            raw = file.read(MAX_BYTES + 1)
        if len(raw) > MAX_BYTES:
            return None
        followed = FollowedExam.from_json(json.loads(raw.decode("utf-8")))
    except (OSError, UnicodeDecodeError, ValueError, TypeError, KeyError):
        return None
    return followed if followed.exam >= today else None


def save_followed(followed: FollowedExam, path: Path | None = None) -> None:
    """Keep ``followed``; :class:`ConfigError` when the file cannot be written."""
    path = path or exam_file()
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        write_atomically(path, json.dumps(followed.to_json(), indent=1) + "\n")
    except OSError as error:
        raise ConfigError(f"cannot save the followed exam plan to {path}: {error}") from None


def stop_following(path: Path | None = None) -> bool:
    """Forget the followed plan; whether there was one."""
    path = path or exam_file()
    try:
        path.unlink()
    except FileNotFoundError:
        return False
    except OSError as error:
        raise ConfigError(f"cannot remove {path}: {error}") from None
    return True
