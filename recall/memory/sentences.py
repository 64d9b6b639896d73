"""The learner's sentences about their memory model: the calibration verdict and a fit's outcome.

:mod:`recall.scheduling` decides (which :class:`~recall.scheduling.calibration.Health`, which
:class:`~recall.scheduling.fitting.FitStatus`, with the figures behind it) and says nothing; the
words are chosen here, above it, so the stats screen, ``recall stats`` and ``recall optimize``
speak the same sentences and scheduling stays free of presentation.
"""

from __future__ import annotations

from recall.scheduling.calibration import Health, Verdict
from recall.scheduling.fitting import FitResult, FitStatus
from recall.wording import count_of

#: One sentence per verdict; the placeholders are the verdict's ``figures``.
_VERDICT_SENTENCES = {
    Health.GOOD: "The model predicts your recall well.",
    Health.TOO_LITTLE_HISTORY: (
        "Too little history to judge yet: {needed} more reviews of cards seen on an earlier day."
    ),
    Health.OVERESTIMATES_LONG: (
        "It overestimates your recall of long intervals (expects {predicted:.0%}, you recalled "
        "{observed:.0%} after {days}+ days): fit again."
    ),
    Health.UNDERESTIMATES_LONG: (
        "It underestimates your recall of long intervals (expects {predicted:.0%}, you recalled "
        "{observed:.0%} after {days}+ days): fit again to review less often."
    ),
    Health.OVERESTIMATES: (
        "It overestimates your recall (expects {predicted:.0%}, you recalled {observed:.0%}): "
        "fit again."
    ),
    Health.UNDERESTIMATES: (
        "It underestimates your recall (expects {predicted:.0%}, you recalled {observed:.0%}): "
        "fit again to review less often."
    ),
    Health.UNEVEN: (
        "It predicts your reviews well overall, but not all of them: {name} was recalled "
        "{observed:.0%} of the time against {predicted:.0%} predicted. Fitting again may help."
    ),
    Health.OFF: "Its predictions are off by {rmse:.0%} on average across the chart: fit again.",
}


def verdict_sentence(verdict: Verdict) -> str:
    """The verdict in one sentence, its figures filled in (an uneven verdict also says how many
    other rows shown beside it are off)."""
    text = _VERDICT_SENTENCES[verdict.health].format(**verdict.figures)
    others = int(verdict.figures.get("others", 0))
    if others:
        text += f" ({count_of(others, 'other row')} {'is' if others == 1 else 'are'} off too.)"
    return text


def fit_sentence(result: FitResult) -> str:
    """What a fit did, in one sentence with the figures that decided it."""
    if result.status is FitStatus.TOO_LITTLE_HISTORY:
        return (
            "Too little history to fit your memory model: "
            f"{count_of(result.reviews, 'review')} so far, "
            f"{result.reviews_needed} more needed (only reviews a day or more after a card's "
            "previous one count)."
        )
    assert result.comparison is not None
    cur, cand = result.comparison.current, result.comparison.candidate
    figures = (
        f"log loss {cur.log_loss:.4f} → {cand.log_loss:.4f}, "
        f"RMSE {cur.rmse_bins:.2%} → {cand.rmse_bins:.2%} "
        f"on your latest {count_of(cur.reviews, 'review')}"
    )
    if result.kept:
        return f"New parameters predict your recall better ({figures}): they are now in use."
    return (
        f"A fit did not predict your recall clearly better ({figures}): the parameters in use stay."
    )
