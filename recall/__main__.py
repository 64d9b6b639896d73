"""``python -m recall``: the same as the ``recall`` command (``recall serve`` starts the TUI this
way, with the running interpreter, so no ``PATH`` lookup decides which recall runs)."""

import sys

from recall.start import main

sys.exit(main())
