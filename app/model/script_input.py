"""What a script or a notebook passes for a configuration, read the same way by the script entry
points (:mod:`kinetree.app.scripting`) and the notebook widget (:mod:`kinetree.app.notebook_widget`),
which the entry points import only when a widget is asked for. No Qt here."""

from __future__ import annotations

import warnings
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import numpy as np


def script_configuration(tree, q) -> np.ndarray:
    """``q`` (vector or {joint: value}; None: home) as the tree's vector: an
    InvalidConfigurationError names a bad joint or value; positions outside their limits are
    kept, with a warning (the window shows them; a slider's handle stops at its end)."""
    vec = tree.home_configuration() if q is None else tree.config_to_vector(q)
    outside = tree.limit_violations(vec)
    if outside:
        more = f" (and {len(outside) - 1} more)" if len(outside) > 1 else ""
        warnings.warn(f"kinetree: {outside[0].describe()}{more}", RuntimeWarning, stacklevel=3)
    return vec
