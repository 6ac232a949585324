"""Building big trees fast.

Python's cyclic garbage collector runs every few hundred allocations, and its full passes
re-scan every object made so far: a third of loading a 20,000-body robot went there. Loaders
pause it while they build (nothing they make is garbage before they return) and restore it.
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager


@contextmanager
def gc_paused() -> Iterator[None]:
    """Pause the cyclic garbage collector for the block (nests; restores what it found)."""
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()
