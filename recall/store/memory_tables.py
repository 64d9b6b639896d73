"""The memory model's tables: every fit of the learner's FSRS parameters, and reviews imported
from other FSRS tools.

* ``parameter_sets``: one row per fit, kept or not (``status``), with the parameters as a JSON
  list and the held-out comparison as JSON. At most one row has ``in_use`` set; none means the
  FSRS defaults. Reverting moves the mark back; nothing is deleted.
* ``imported_reviews``: review-log CSV rows matched to recall's cards. They feed the fit only:
  kept apart from ``review_log`` so stats, streaks and daily limits count what was drilled here.
  A card and a moment appear once (importing the same file twice adds nothing).

Kept in their own module so the fitting code's storage reads in one place; :mod:`.models`
imports it so ``Base.metadata`` (and so a new database) has these tables.
"""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import (
    Boolean,
    Float,
    ForeignKey,
    Index,
    Integer,
    SmallInteger,
    String,
    Text,
    UniqueConstraint,
)
from sqlalchemy.orm import Mapped, mapped_column

from recall.store.models import Base


class ParameterSetRow(Base):
    __tablename__ = "parameter_sets"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    created_at: Mapped[datetime]
    parameters: Mapped[str] = mapped_column(Text)  # JSON list of 21 floats
    status: Mapped[str] = mapped_column(String(24))  # kept | rejected
    reviews: Mapped[int] = mapped_column(Integer)  # countable reviews the fit saw
    log_loss: Mapped[float | None] = mapped_column(Float)  # held out, these parameters
    rmse_bins: Mapped[float | None] = mapped_column(Float)
    comparison: Mapped[str | None] = mapped_column(Text)  # JSON of the held-out comparison
    in_use: Mapped[bool] = mapped_column(Boolean, default=False)


class ImportedReviewRow(Base):
    __tablename__ = "imported_reviews"
    __table_args__ = (
        UniqueConstraint("card_id", "reviewed_at"),
        Index("ix_imported_reviews_reviewed_at", "reviewed_at"),
    )
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    card_id: Mapped[int] = mapped_column(ForeignKey("cards.id"))
    reviewed_at: Mapped[datetime]
    rating: Mapped[int] = mapped_column(SmallInteger)
    state: Mapped[int | None] = mapped_column(SmallInteger)
    duration_ms: Mapped[int | None] = mapped_column(Integer)
    imported_at: Mapped[datetime]
