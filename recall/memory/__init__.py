"""The memory model: how well the learner's FSRS parameters predict what they recall, fitting
them to their own reviews, and what each desired retention would cost them.

One concept, one name, in three places by layer:

* :mod:`recall.scheduling` holds the pure mathematics (``history``, ``review_table``,
  ``fitting``, ``evaluation``, ``calibration``, ``simulation``): numbers in, numbers out, no
  store, no settings file, no presentation;
* :mod:`recall.store.memory` keeps the fitted parameter sets and the imported reviews;
* this package joins them for the commands and the TUI: :mod:`recall.memory.model` (fit, health,
  workload plan, review-log import and export, applying a desired retention),
  :mod:`recall.memory.report` (the health report from the log's shapes) and
  :mod:`recall.memory.charts` (the calibration chart and the workload curve as text).

Importing the package costs nothing: each module loads its heavy dependencies itself.
"""
