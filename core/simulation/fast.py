"""The simulator's compiled step (numba, ``nogil``) for the common case: RK4 on a tree of
revolute, prismatic and fixed joints (mimic joints included). One call runs a whole batch of
steps (stages, friction, Hold, stops, the work integral) without the GIL, so the Simulate dock's
worker thread steps while the GUI thread draws; :meth:`Simulator._step_once` stays the
reference (and the path for quaternion joints, the Euler integrator, and without numba)."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

import numpy as np

from .. import compiled_warmup
from ..dynamics import rigid_body as _rbd
from ..dynamics.loops import _kkt
from ..dynamics.plan import packed
from ..errors import SimulationError
from ..kinematics.loops import _compiled
from ..lazy import LazyImports

if TYPE_CHECKING:
    from .simulator import Simulator, _Model

#: the compiled step imports numba (~0.3 s): see kinetree.core.lazy
_LAZY = LazyImports(__name__, {"simulate": ".compiled:simulate"})


class CompiledStep:
    """The constant arguments of :func:`kinetree.core.simulation.compiled.simulate`, gathered once."""

    def __init__(self, sim: Simulator, pk: tuple[np.ndarray, np.ndarray]) -> None:
        model, J = sim._model, sim._joints
        plan = model.plan
        self._simulate = _LAZY.simulate
        self.plain, self.has_motor = plan.plain, plan.has_motor
        nb = model.m.size
        self.args = (*pk, model._rnea_args, np.ascontiguousarray(plan.upper, dtype=float),
                     plan.col_dof.astype(np.int64),
                     np.ascontiguousarray(plan.col_gain, dtype=float), np.ascontiguousarray(plan.motor_diag),
                     np.ascontiguousarray(model.a0, dtype=float), np.ascontiguousarray(J.damping, dtype=float))
        self.bodies = (np.ascontiguousarray(model.m, dtype=float),
                       np.ascontiguousarray(model.ch[:, :, 0]).reshape(nb, 4),
                       np.ascontiguousarray(model.g, dtype=float), np.ascontiguousarray(J.S, dtype=float),
                       np.ascontiguousarray(J.tcp, dtype=float), np.ascontiguousarray(J.tcm, dtype=float))
        self.stops = (J.stop_pos.astype(np.int64), J.stop_dof.astype(np.int64),
                      np.ascontiguousarray(J.stop_lo), np.ascontiguousarray(J.stop_hi))
        self.zero = np.zeros(J.ndof)

    @classmethod
    def make(cls, sim: Simulator) -> CompiledStep | None:
        """The compiled step for ``sim``, or None when it takes the Python path."""
        model, J = sim._model, sim._joints
        if model.k is None or not J.plain or not model.plan.nc:
            return None
        pk = packed(model.plan)
        return None if pk is None else cls(sim, pk)

    def run(self, sim: Simulator, n: int) -> None:
        """``n`` steps of ``sim`` (its state, work and step count updated; errors as the Python path's)."""
        J = sim._joints
        target, kp, kd = sim._hold if sim._hold is not None else (self.zero, 0.0, 0.0)
        flags = np.array([n, sim.substeps, self.plain, self.has_motor, sim.friction and J.visc.size > 0,
                          sim._hold is not None, sim.friction and J.has_coulomb, sim.limits and J.stop_pos.size > 0],
                         dtype=np.int64)
        params = np.array([sim.dt / sim.substeps, kp, kd, sim.restitution])
        q, v, impulse = sim._q.copy(), sim._qd.copy(), np.array(sim._impulse, dtype=float)
        out = np.array([sim._work, 0.0])
        status = self._simulate(q, v, *self.args, np.ascontiguousarray(target, dtype=float), *self.bodies, impulse,
                                *self.stops, flags, params, out)
        sim._q, sim._qd, sim._impulse, sim._work = q, v, impulse, float(out[0])
        sim._steps += int(out[1])
        if status == 1:
            raise SimulationError(f"the simulation diverged at t = {sim.time:.3f} s (joint velocities beyond 1e6): "
                                  "lower the hold gains or the friction")
        if status == 2:
            _rbd._singular(sim.tree, q)


def loop_accel(model: _Model) -> Callable[[np.ndarray, np.ndarray, np.ndarray, bool], np.ndarray] | None:
    """``model.accel`` of a looped tree of revolute, prismatic and fixed joints (no mimic) from one
    compiled call a stage (:func:`kinetree.core.dynamics.compiled.loop_stage`) and the compiled KKT
    solve; None when that does not apply (the model's own accel then serves)."""
    plan, k, mod = model.plan, model.k, _compiled()
    if not model.loops or k is None or mod is None or not plan.plain or plan.fk_args is None or not plan.nb:
        return None
    data = mod._arrays(model.tree, model.tree.kinematic_plan())
    if data is None:
        return None
    n, zero6 = model.tree.position_count, np.zeros(6)

    def accel(q: np.ndarray, qd: np.ndarray, tau: np.ndarray, gravity: bool) -> np.ndarray:
        if not compiled_warmup.may_compile(k.loop_stage):  # the warm-up compiles it: the numpy path till then
            return model.accel(q, qd, tau, gravity)
        last = model._last  # the mass matrix of the step's start, kept by the projection
        cached = last is not None and last[0] == q.tobytes()
        tc, Mc, _, J, bias = k.loop_stage(q, qd, model.a0 if gravity else zero6, plan.fk_args, model._rnea_args,
                                          model._zero_c, model._fext, model._motor, model._crba_args, not cached,
                                          n, data)
        M = last[1] if cached else (Mc + plan.motor_diag if plan.has_motor else Mc)
        return _kkt(M, tau - tc, J, -bias)[0]

    return accel
