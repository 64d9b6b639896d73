"""The one place the TUI talks to the lower layers (placeholder until they land)."""

from __future__ import annotations

from typing import Any

DrillRun = Any


class Services:
    pass
