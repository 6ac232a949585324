"""The closed-loop methods of :class:`~kinetree.core.tree.RigidBodyTree` (a mixin, as its other
concerns are): loop-closure constraints (:mod:`kinetree.core.kinematics.loops`) and the dynamics of the
constrained system (:mod:`kinetree.core.dynamics.loops`, RBDL's names)."""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np
from numpy.typing import ArrayLike

from .dynamics import loops as _loop_dynamics
from .errors import LoopClosureError
from .kinematics import workspace as _sampling
from .kinematics.loops import Loop, loop_ik, make_record, solve_loops
from .kinematics.loops import rows as loop_rows

if TYPE_CHECKING:
    from .model.configuration import Configuration

__all__ = ["LoopsMixin"]


class LoopsMixin:
    """Closed loops on a tree: ``self._loops`` holds them by name (the tree's state)."""

    def add_loop(self, name: str, body_a: str, frame_a: ArrayLike, body_b: str, frame_b: ArrayLike,
                 kind: str = "hinge") -> Loop:
        """Close a loop: ``frame_a`` (4×4, in ``body_a``'s frame) meets ``frame_b`` on ``body_b``.
        ``kind``: ``"ball"`` (3 equations), ``"hinge"`` (5), ``"slider"`` (5) or ``"weld"`` (6),
        see :mod:`kinetree.core.kinematics.loops`. Mark the joints the loop moves passive
        (``joint.actuated = False``) for :meth:`solve_loops`."""
        rec = make_record(self, name, body_a, frame_a, body_b, frame_b, kind)
        self._loops[name] = rec
        self._invalidate()
        return rec.public()

    def remove_loop(self, name: str) -> Loop:
        """Remove the loop called ``name`` and return it."""
        rec = self._loops.pop(name, None) if isinstance(name, str) else None
        if rec is None:
            raise LoopClosureError(f"no loop named {name!r:.80}; loops are: {', '.join(self._loops) or '(none)'}")
        self._invalidate()
        return rec.public()

    @property
    def loops(self) -> tuple[Loop, ...]:
        """The loop-closure constraints, in the order they were added."""
        return tuple(rec.public() for rec in self._loops.values())

    def loop_residual(self, q: Configuration) -> np.ndarray:
        """The stacked residual of every loop's equations at one configuration (zero when closed)."""
        return loop_rows(self, self.one_config(q))[0]

    def constraint_jacobian(self, q: Configuration) -> np.ndarray:
        """(equations, dof_count) Jacobian of :meth:`loop_residual`: a row per loop equation, a
        column per velocity (:meth:`dof_names`)."""
        return loop_rows(self, self.one_config(q))[1]

    def mobility(self, q: Configuration | None = None) -> int:
        """Degrees of freedom of the closed mechanism: ``dof_count`` minus the rank of the
        constraint Jacobian (the rank form of Grübler's count), at ``q``; by default at a generic
        configuration: the largest rank at three seeded random configurations, each closed by
        :meth:`solve_loops` when it can be (home is often a special, folded pose)."""
        if not self._loops:
            return self.dof_count
        if q is not None:
            return self.dof_count - self._constraint_rank(self.one_config(q))
        rng = np.random.default_rng(0)
        ranks = []
        for _ in range(3):
            x = self._random_open_configuration(rng)  # type: ignore[attr-defined]  # closed below, if it can be
            try:
                x = self.solve_loops(x)
            except LoopClosureError:
                pass  # the rank at an open configuration is still the generic rank of the equations
            ranks.append(self._constraint_rank(x))
        return self.dof_count - max(ranks)

    def _close_random(self, q: np.ndarray, rng: np.random.Generator) -> np.ndarray:
        """:meth:`random_configuration`'s draw ``q`` closed (see there), drawing again from ``rng``."""
        return _sampling.closer(self, rng).close_one(q)

    def _constraint_rank(self, x: np.ndarray) -> int:
        s = np.linalg.svd(loop_rows(self, x)[1], compute_uv=False)
        return int(np.sum(s > 1e-9 * max(1.0, float(s[0]))))

    def solve_loops(self, q: Configuration, tol: float = 1e-12) -> np.ndarray:
        """``q`` with the actuated joints kept and the passive ones solved so that every loop
        closes (residual ≤ ``tol``), warm-started from ``q`` so the assembly stays on its branch.
        Raises :class:`LoopClosureError` naming the loop when the mechanism cannot be assembled
        there or sits at a singular (toggle) configuration."""
        return solve_loops(self, q, tol)

    def loop_ik(self, body: str, target: ArrayLike, q0: Configuration | None = None, **options) -> np.ndarray:
        """A closed configuration putting ``body`` at ``target`` (see :func:`kinetree.core.kinematics.loops.loop_ik`);
        its actuated values drive a parallel robot there."""
        return loop_ik(self, body, target, q0, **options)

    # --- dynamics of closed loops (kinetree.core.dynamics.loops, RBDL's names) ------------------
    def forward_dynamics_constraints_direct(self, q: Configuration, qd: ArrayLike | None = None,
                                            tau: ArrayLike | None = None, fext: ArrayLike | None = None,
                                            baumgarte: ArrayLike = (0.0, 0.0)) -> tuple[np.ndarray, np.ndarray]:
        """``(q̈, λ)`` with every loop held by its constraint forces λ (RBDL's
        ``ForwardDynamicsConstraintsDirect``; see :mod:`kinetree.core.dynamics.loops`)."""
        return _loop_dynamics.forward_dynamics_constraints_direct(self, q, qd, tau, fext, baumgarte)

    def inverse_dynamics_constraints(self, q: Configuration, qd: ArrayLike | None = None,
                                     qdd: ArrayLike | None = None,
                                     fext: ArrayLike | None = None) -> tuple[np.ndarray, np.ndarray]:
        """``(τ, λ)``: the actuated joints' torques (passive ones 0) and the constraint forces giving
        the motion (RBDL's ``InverseDynamicsConstraints``; see :mod:`kinetree.core.dynamics.loops`)."""
        return _loop_dynamics.inverse_dynamics_constraints(self, q, qd, qdd, fext)

    def actuated_gravity_torque(self, q: Configuration | None = None, gravity: ArrayLike | None = None) -> np.ndarray:
        """The torques holding the robot still under gravity (``gravity_torque``'s arguments): on
        a tree with loops only the actuated joints' (passive ones 0, the loops carry the rest, as
        :meth:`inverse_dynamics_constraints` at rest); without loops ``gravity_torque`` itself.
        Raises :class:`LoopClosureError` when the actuated joints cannot hold it."""
        tau = self.gravity_torque(q, gravity)  # type: ignore[attr-defined]
        if not self._loops:
            return tau
        J = self.constraint_jacobian(self.home_configuration() if q is None else q)  # type: ignore[attr-defined]
        return _loop_dynamics.actuator_split(J, _loop_dynamics.actuated_dofs(self), tau)[0]  # type: ignore[arg-type]

    def constraint_bias(self, q: Configuration, qd: ArrayLike | None = None) -> np.ndarray:
        """``J̇q̇`` of the loop equations (RBDL's ``γ`` is its negative)."""
        return _loop_dynamics.constraint_bias(self, q, qd)

    def compute_constraint_impulses(self, q: Configuration, qd: ArrayLike) -> tuple[np.ndarray, np.ndarray]:
        """``(q̇⁺, Λ)``: ``qd`` after the inelastic impulse that closes the loops at the velocity level
        (RBDL's ``ComputeConstraintImpulsesDirect``)."""
        return _loop_dynamics.compute_constraint_impulses(self, q, qd)
