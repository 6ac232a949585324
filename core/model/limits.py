"""Joint limits of a configuration: which positions lie outside their joint's limits.

Used by :meth:`RigidBodyTree.within_limits` and :meth:`RigidBodyTree.limit_violations` (thin
delegations in :mod:`.configuration`). Only the positions of a configuration vector are
checked: a mimic joint has no position of its own, so its limits are not (its value follows its
leader's, as the GUI shows it). Quaternion rows carry no limits.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, NamedTuple

import numpy as np

if TYPE_CHECKING:
    from ..tree import RigidBodyTree
    from .configuration import Configuration

#: Relative slack at a bound: a value typed exactly at a limit (in degrees, say, and converted)
#: may land an ulp or two outside it.
LIMIT_TOLERANCE = 1e-12


class LimitViolation(NamedTuple):
    """One position outside its limits."""

    joint: str
    #: index in the configuration vector
    index: int
    #: row within the joint's positions (0 for revolute and prismatic joints)
    row: int
    value: float
    lower: float
    upper: float
    #: "angle" (radians) or "length" (metres)
    kind: str

    def describe(self, degrees: bool = False) -> str:
        """``joint 'j1' position 3.2 is outside its limits [-2.9, 2.9] rad`` (angles in degrees
        when asked)."""
        scale, unit = (180.0 / math.pi, "deg") if degrees and self.kind == "angle" else (1.0, "rad")
        if self.kind == "length":
            unit = "m"
        where = f" row {self.row}" if self.row else ""
        return (f"joint {self.joint!r}{where} position {self.value * scale:.10g} is outside its limits "
                f"[{self.lower * scale:.10g}, {self.upper * scale:.10g}] {unit}")

    def __str__(self) -> str:
        return self.describe()


def limit_arrays(tree: RigidBodyTree) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``(lower, upper, is_angle)`` per configuration row; quaternion rows are (−inf, inf)."""
    n = tree.position_count
    lo, hi = np.full(n, -np.inf), np.full(n, np.inf)
    angle = np.zeros(n, dtype=bool)
    for b, i in tree.position_slots():
        j = b.joint
        lim = j._limits
        k = lim.shape[0]
        ok = ~np.isnan(lim[:, 0])
        lo[i : i + k] = np.where(ok, lim[:, 0], -np.inf)
        hi[i : i + k] = np.where(ok, lim[:, 1], np.inf)
        angle[i : i + k] = ok & ~np.isin(np.arange(k), list(j.length_rows))
    return lo, hi, angle


def outside(q: np.ndarray, lo: np.ndarray, hi: np.ndarray) -> np.ndarray:
    """Boolean mask of the rows of ``q`` beyond ``[lo, hi]`` by more than the tolerance."""
    with np.errstate(invalid="ignore"):  # inf·tolerance at an infinite bound
        slack_lo = LIMIT_TOLERANCE * np.maximum(1.0, np.abs(lo))
        slack_hi = LIMIT_TOLERANCE * np.maximum(1.0, np.abs(hi))
    return (q < lo - slack_lo) | (q > hi + slack_hi)


def limit_violations(tree: RigidBodyTree, q: Configuration) -> list[LimitViolation]:
    """Every position of ``q`` outside its joint's limits, in configuration order."""
    q = tree.config_to_vector(q)
    lo, hi, angle = limit_arrays(tree)
    bad = np.flatnonzero(outside(q, lo, hi))
    if not bad.size:
        return []
    owner = {}
    for b, i in tree.position_slots():
        for r in range(b.joint.position_count):
            owner[i + r] = (b.joint.name, r)
    return [LimitViolation(owner[k][0], int(k), owner[k][1], float(q[k]), float(lo[k]), float(hi[k]),
                           "angle" if angle[k] else "length") for k in bad.tolist()]
