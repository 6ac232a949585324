"""Configurations of a tree: home, random, vector ↔ ``{joint name: value}``, validation.

A mixin of :class:`~kinetree.core.tree.RigidBodyTree` (its own module to keep tree.py short),
also holding which slots of a configuration vector each joint takes (``position_slots()``,
``position_index``).
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

import numpy as np
from numpy.typing import ArrayLike

from ..errors import InvalidConfigurationError, KineTreeError, UnknownBodyError
from ..transforms import MAX_LENGTH
from .joint import QUATERNION_ROWS
from .limits import limit_violations
from .real_numbers import complex_entries, complex_problem, complex_text

if TYPE_CHECKING:
    from .body import RigidBody
    from .joint import Joint

Configuration = ArrayLike | Mapping[str, Any]
#: Half-width of the window :meth:`ConfigurationMixin.random_configuration` samples in where
#: the limits are unbounded or huge (radians for angles, metres for lengths).
SAMPLE_WINDOW = {"angle": math.pi, "length": 1.0}
#: On a tree with closed loops, the draws :meth:`ConfigurationMixin.random_configuration` makes
#: before it gives up on assembling the mechanism.
MAX_LOOP_DRAWS = 1000


def finite_range(lo: float, hi: float, home: float, kind: str) -> tuple[float, float]:
    """``(lo, hi)`` when both are finite and span at most ``2 * MAX_LENGTH``; else the limits
    intersected with ``home ± SAMPLE_WINDOW[kind]`` (``kind`` is "angle" or "length"). What
    random configurations are drawn from, and what a slider spans."""
    if hi / 2 - lo / 2 <= MAX_LENGTH:  # halves: hi − lo may overflow; NaN/inf fail the test
        return lo, hi
    w = SAMPLE_WINDOW[kind]
    return max(lo, home - w), min(hi, home + w)


def sampling_ranges(tree) -> tuple[np.ndarray, np.ndarray, list[int]]:
    """Per position of ``tree``'s configurations: the range random configurations are drawn
    from (the limits, or their intersection with a window around home where a bound is
    infinite: :func:`finite_range`), and the start of every quaternion (its rows: 0, 0)."""
    n = tree.position_count
    lo, hi, quats = np.zeros(n), np.zeros(n), []
    for b, i in tree.position_slots():
        j = b.joint
        lengths = j.length_rows
        for k in range(j.position_count):
            a, z = j._limits[k]
            if math.isnan(a):
                continue
            kind = "length" if k in lengths else "angle"
            lo[i + k], hi[i + k] = finite_range(a, z, float(j._home[k]), kind)
        qrows = QUATERNION_ROWS.get(j.type)
        if qrows is not None:
            quats.append(i + qrows.start)
    return lo, hi, quats


class ConfigurationMixin:
    """Configuration methods of :class:`~kinetree.core.tree.RigidBodyTree`."""

    # --- the slots of a configuration vector ---------------------------------------------------
    def position_slots(self) -> list[tuple[RigidBody, int]]:
        """Movable bodies with the start index of their joint's positions (cached until the tree
        changes; callers must not modify the list; :class:`~kinetree.core.model.protocol.TreeLike`)."""
        if self._position_cache is None:
            out, slots, i = [], {}, 0
            for b in self._bodies:
                n = b.joint.position_count
                if n:
                    out.append((b, i))
                    slots[b.joint.name] = slice(i, i + n)  # joint names only, never body names
                    i += n
            self._position_cache, self._slot_cache, self._position_total = out, slots, i
        return self._position_cache

    _positions = position_slots  # its former private name (app code, other branches)

    @property
    def position_count(self) -> int:
        """Length of a configuration vector (cached with the slots: it is checked on every FK call)."""
        self.position_slots()
        return self._position_total

    def position_index(self, name: str) -> slice:
        """Slice of a configuration vector held by the joint called ``name``.

        Joint names only: a body may be called like another body's joint (URDF allows it), so
        a body name is never taken for a joint name."""
        self.position_slots()
        try:
            sl = self._slot_cache.get(name)
        except TypeError:  # unhashable
            raise UnknownBodyError(f"no joint named {name!r}") from None
        if sl is not None:
            return sl
        raise self._not_a_position(name)

    def _not_a_position(self, name: str) -> KineTreeError:
        """The error for ``name`` that is not a movable joint's name (saying what it is)."""
        b = self._by_joint.get(name)
        if b is not None:
            return InvalidConfigurationError(f"joint {name!r} {self._no_position_reason(b.joint)}")
        b = self._by_name.get(name)
        if b is self._base:
            return InvalidConfigurationError(f"{name!r} is the base body, not a joint: it has no position")
        if b is not None:
            j = b.joint
            what = f"{j.name!r}" + ("" if j.position_count else f", which {self._no_position_reason(j)}")
            return InvalidConfigurationError(f"{name!r} is a body, not a joint (positions are named by "
                                             f"joint; the joint of body {name!r} is {what})")
        return UnknownBodyError(f"no joint named {name!r}")

    @staticmethod
    def _no_position_reason(joint: Joint) -> str:
        if joint.mimic is not None:
            return f"mimics {joint.mimic.joint!r}: it has no position of its own"
        return "is fixed: it has no position"

    @property
    def movable_joint_names(self) -> list[str]:
        return [b.joint.name for b, _ in self.position_slots()]

    def home_configuration(self) -> np.ndarray:
        """Every movable joint at its home position, as a flat vector."""
        parts = [np.atleast_1d(b.joint.home_position) for b, _ in self.position_slots()]
        return np.concatenate(parts) if parts else np.zeros(0)

    def random_configuration(self, rng: np.random.Generator | int | None = None) -> np.ndarray:
        """A random configuration, always within the limits and finite.

        Each position is uniform within its limits. Where a bound is infinite, or the limits
        span more than ``2 * MAX_LENGTH``, it is uniform in the limits intersected with a window
        around the home position: ±π for angles, ±1 m for lengths (:data:`SAMPLE_WINDOW`).
        Quaternions are uniform on the unit sphere.

        On a tree with closed loops it is a closed configuration: the actuated positions drawn
        as above (the same draws, in the same order), the passive ones solved by
        :meth:`solve_loops`, warm-started from home and walked to the draw in small steps (so
        it is on home's assembly branch). A draw the mechanism cannot be assembled at is drawn
        again, at most :data:`MAX_LOOP_DRAWS` times; then :class:`LoopClosureError` names the loop."""
        try:
            rng = np.random.default_rng(rng)
        except (TypeError, ValueError):
            raise InvalidConfigurationError(f"random_configuration: {rng!r:.80} is not a seed or a "
                                            "numpy Generator") from None
        q = self._random_open_configuration(rng)
        return self._close_random(q, rng) if self._loops else q

    def _random_open_configuration(self, rng: np.random.Generator) -> np.ndarray:
        """One draw of every position as :meth:`random_configuration` describes, loops left open."""
        lo, hi, quats = sampling_ranges(self)
        q = np.zeros(self.position_count)
        starts = set(quats)
        for b, i in self.position_slots():  # drawn joint by joint, in order: a seed gives the same q
            j = b.joint
            for k in range(j.position_count):
                if not math.isnan(j._limits[k][0]):  # quaternion rows have no limits
                    q[i + k] = min(max(rng.uniform(lo[i + k], hi[i + k]), lo[i + k]), hi[i + k])
            qrows = QUATERNION_ROWS.get(j.type)
            if qrows is not None and i + qrows.start in starts:
                v = rng.normal(size=4)
                q[i + qrows.start : i + qrows.stop] = v / np.linalg.norm(v)
        return q

    def limit_violations(self, q: Configuration) -> list:
        """Every position of ``q`` outside its joint's limits, as
        :class:`~kinetree.core.model.limits.LimitViolation` (joint, value, limits), in configuration
        order. A relative slack of 1e-12 lets a value typed exactly at a limit pass."""
        return limit_violations(self, q)

    def within_limits(self, q: Configuration) -> bool:
        """Whether every position of ``q`` lies within its joint's limits (see :meth:`limit_violations`)."""
        return not self.limit_violations(q)

    def config_to_vector(self, config: Configuration) -> np.ndarray:
        """A flat configuration vector from a vector or a ``{joint name: value}`` mapping.

        A mapping may leave joints out: they take their home position.
        Raises :class:`InvalidConfigurationError` naming the bad joint or value.
        """
        n = self.position_count
        if isinstance(config, Mapping):
            q = self.home_configuration()
            slots = {b.joint.name: (b, i) for b, i in self.position_slots()}
            for name, value in config.items():
                if name not in slots:
                    err = self._not_a_position(name)
                    raise InvalidConfigurationError(
                        f"configuration names unknown joint {name!r}" if isinstance(err, UnknownBodyError)
                        else str(err))
                b, i = slots[name]
                if (problem := complex_problem(value)) is not None:
                    raise InvalidConfigurationError(f"joint {name!r}: {problem}")
                try:
                    v = np.array(value, dtype=float).reshape(-1)
                except (TypeError, ValueError):
                    raise InvalidConfigurationError(f"joint {name!r}: value {value!r} is not numeric") from None
                if v.size != b.joint.position_count:
                    raise InvalidConfigurationError(
                        f"joint {name!r} takes {b.joint.position_count} values, got {v.size}"
                    )
                q[i : i + v.size] = v
            self._check_finite(q)
            return q
        self._refuse_complex(config)
        try:
            q = np.array(config, dtype=float)
        except (TypeError, ValueError):
            raise InvalidConfigurationError(f"configuration is not numeric: {config!r}") from None
        if q.ndim != 1 or q.shape[0] != n:
            raise InvalidConfigurationError(
                f"configuration has {q.size} values of shape {q.shape}; this tree needs {n}"
            )
        self._check_finite(q)
        return q

    def config_to_dict(self, q: ArrayLike) -> dict[str, float | np.ndarray]:
        """``{joint name: value}`` for a flat configuration vector."""
        q = self.config_to_vector(q)
        out: dict[str, float | np.ndarray] = {}
        for b, i in self.position_slots():
            n = b.joint.position_count
            out[b.joint.name] = float(q[i]) if n == 1 else q[i : i + n].copy()
        return out

    def _refuse_complex(self, q: Any) -> None:
        """:class:`InvalidConfigurationError` naming the joint of the first complex entry of a
        configuration (or a batch of them)."""
        mask = complex_entries(q)
        if mask is None or not mask.any():
            return
        index = int(np.flatnonzero(mask.reshape(-1))[0])
        k = index % max(self.position_count, 1)
        what = f"position {k}"
        for b, i in self.position_slots():
            if i <= k < i + b.joint.position_count:
                what = f"joint {b.joint.name!r}: position {k}"
                break
        raise InvalidConfigurationError(f"{what}: {complex_text(q, index)}")

    def _check_finite(self, q: np.ndarray) -> None:
        if q.shape[-1] == 0:
            return
        rows = q.reshape(-1, q.shape[-1])
        bad_cols = np.flatnonzero(~np.isfinite(rows).all(axis=0))
        if bad_cols.size:
            k = int(bad_cols[0])
            value = rows[~np.isfinite(rows[:, k]), k][0]
            for b, i in self.position_slots():
                if i <= k < i + b.joint.position_count:
                    raise InvalidConfigurationError(
                        f"joint {b.joint.name!r}: position {k} is {value} (must be finite)"
                    )
        for b, i in self.position_slots():
            qrows = QUATERNION_ROWS.get(b.joint.type)
            if qrows is None:
                continue
            # norms of the small ones only: squaring huge components would overflow
            a = np.abs(rows[:, i + qrows.start : i + qrows.stop])
            small = a[a.max(axis=1) < 1e-12]
            if small.size and np.any(np.linalg.norm(small, axis=1) < 1e-12):
                raise InvalidConfigurationError(f"joint {b.joint.name!r}: the quaternion is zero")

    def config_array(self, q: Configuration) -> np.ndarray:
        """A (n,) or (N, n) validated configuration array (:class:`~kinetree.core.model.protocol.TreeLike`)."""
        if isinstance(q, np.ndarray):  # before the Mapping check: an ABC isinstance costs more
            if (q.dtype == np.float64 and q.ndim == 1 and q.shape[0] == self.position_count
                    and math.isfinite(sum(q.tolist()) if q.shape[0] <= 64 else q.sum())):
                # the common case, checked cheaply: a NaN or ±inf makes the sum non-finite (an
                # overflowing sum only sends a finite q the long way); Python's sum of a short
                # list costs a fifth of numpy's
                return q
        elif isinstance(q, Mapping):
            return self.config_to_vector(q)
        self._refuse_complex(q)
        try:
            Q = np.asarray(q, dtype=float)
        except (TypeError, ValueError):
            raise InvalidConfigurationError(f"configuration is not numeric: {q!r}") from None
        if Q.ndim == 2:
            if Q.shape[1] != self.position_count:
                raise InvalidConfigurationError(
                    f"batch of configurations has {Q.shape[1]} columns; this tree needs {self.position_count}"
                )
            self._check_finite(Q)
            return Q
        return self.config_to_vector(Q)

    _config_array = config_array  # its former private name (app code, other branches)
