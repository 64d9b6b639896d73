"""recall: drill machine-learning formulas with spaced repetition and CAS grading.

The package root imports nothing heavy: SymPy, NumPy, SQLAlchemy and Textual are loaded only by
the subpackages that need them, so ``import recall`` (and the CLI's argument parsing) stays cheap.
"""

__version__ = "0.1.0"
