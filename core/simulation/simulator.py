"""Letting a robot go: a fixed-step simulator of a :class:`~kinetree.core.tree.RigidBodyTree`
under gravity, with Corke's joint friction, hard joint stops and a "Hold" PD controller.

* **Integrator**: classical RK4 at a fixed step (default 1 ms), or semi-implicit (symplectic)
  Euler. Measured on Puma 560 without friction over 10 s at 1 kHz (tests/core/test_simulation.py,
  README): RK4 keeps kinetic + potential energy to ~1e-9 relative, semi-implicit Euler only to
  ~1e-3, so RK4 is the default. Spherical and floating joints are integrated on the rotation
  group (Runge–Kutta–Munthe-Kaas: the stages live in the tangent space at the step's start and
  each quaternion is ``Q ⊗ exp(u)``, kept unit), as :func:`~kinetree.core.dynamics.joint_space.integrate`.
* **Friction** (each 1-dof joint's ``viscous_friction`` B and ``coulomb_friction`` Tc, referred
  to the link side as Corke's ``friction``): viscous friction ``−B·G²·q̇`` is a torque inside the
  RK4 stages. Coulomb friction is *stiction-clamped*: after each step it acts as an impulse of
  at most ``|G|·Tc·dt`` per joint, chosen to take away as much kinetic energy as the bounds allow
  (maximal dissipation, solved by projected Gauss–Seidel over the coupled joints). A sliding
  joint is slowed by exactly ``|G|·Tc``; a joint whose load stays below it stops and stays at
  ``q̇ = 0`` exactly: no chatter around zero velocity, no smoothing constant.
* **Joint limits** are hard stops (revolute and prismatic joints with finite limits; mimic
  followers move with their leader and are not stopped): a joint past a limit is put back on
  it, and an impulse through the mass matrix sets its velocity into the stop to
  ``−restitution ×`` what it was (default 0: an inelastic stop); the rest of the robot keeps the
  momentum the impulse leaves it, as at a real end stop.
* **Hold**: ``τ = Kp·(q* − q) − Kd·q̇ + g(q)`` (gravity compensated exactly). Gains stiffer than
  the step can carry on the robot's lightest joint are run with shorter internal steps.
* **Energy**: :func:`kinetic_energy` ``= ½ q̇ᵀ M q̇`` (motor inertia included) and
  :func:`potential_energy` ``= −Σ mᵢ g·cᵢ``. The simulator also integrates the work done by
  friction, the controller and the stops, so that ``E − E₀ − W`` (:meth:`Simulator.energy`'s
  drift) checks the integrator with friction on as well as off.
* **Closed loops** (:mod:`~kinetree.core.kinematics.loops`): each stage's accelerations are the constrained
  ones, and after each step the state is put back on the loops
  (:func:`~kinetree.core.dynamics.loops.project_state`); a looped tree takes the Python path.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np
from numpy.typing import ArrayLike

from ..dynamics import loops as _ld
from ..dynamics import rigid_body as _rbd
from ..dynamics.joint_space import _quat_exp, _quat_log, _quat_mul
from ..errors import InvalidPropertyError, KineTreeError, SimulationError  # noqa: F401 - imported from here
from ..lazy import LazyImports
from .fast import CompiledStep, loop_accel

if TYPE_CHECKING:
    from ..tree import RigidBodyTree

#: the compiled solver imports numba (~0.3 s): see kinetree.core.lazy
_LAZY = LazyImports(__name__, {"pgs": ".compiled:pgs"})

#: Standard gravity along −z, for a robot that sets none (``tree.gravity`` is 0 by default).
STANDARD_GRAVITY = (0.0, 0.0, -9.80665)
INTEGRATORS = ("rk4", "euler")
MAX_SUBSTEPS = 200
#: The most degrees of freedom a simulation takes: each step factors the dense n×n mass matrix,
#: so memory grows as n² and time as n³ (2,000 DoF: 0.7 GB and 1.3 s a 1 ms step; 10,000 DoF
#: passed 4 GB before the first step). 1,000 DoF already steps at about 1/200 of real time.
MAX_DOF = 1000
_RK4_REACH = 2.0  # |λ|·h inside RK4's stability region (2.78 on the real axis), with a margin


def kinetic_energy(tree: RigidBodyTree, q: ArrayLike, qd: ArrayLike) -> float | np.ndarray:
    """``½ q̇ᵀ M(q) q̇`` (J), motor inertia ``G²·Jm`` included; ``q̇`` one value per
    :meth:`~kinetree.core.tree.RigidBodyTree.dof_names` entry. Batches: (N, positions), (N, dofs)."""
    M = tree.mass_matrix(q)
    V = _rbd._rates(tree, _rbd.dynamics_plan(tree), qd, "qd", M.shape[:-2])
    out = 0.5 * np.einsum("...i,...ij,...j->...", V, M, V)
    return float(out) if out.ndim == 0 else out


def potential_energy(tree: RigidBodyTree, q: ArrayLike, gravity: ArrayLike | None = None) -> float | np.ndarray:
    """Gravitational potential energy ``−Σ mᵢ g·cᵢ`` (J) of the tree's bodies (the base, which
    never moves, excluded), ``cᵢ`` each body's centre of mass in the base frame; ``gravity``
    defaults to ``tree.gravity``. Zero at the base origin, as Pinocchio's ``computePotentialEnergy``."""
    g = _gravity_vector(tree, gravity)
    Q = tree.config_array(q)
    if not tree.bodies:
        return 0.0 if Q.ndim == 1 else np.zeros(Q.shape[0])
    m = np.array([b.mass for b in tree.bodies])
    c = np.array([b.center_of_mass for b in tree.bodies], dtype=float).reshape(-1, 3)
    T = tree.forward_kinematics(Q)
    p = np.einsum("...ij,...j->...i", T[..., :3, :3], c) + T[..., :3, 3]
    out = -np.einsum("i,...ij,j->...", m, p, g)
    return float(out) if out.ndim == 0 else out


def _gravity_vector(tree: RigidBodyTree, gravity: ArrayLike | None) -> np.ndarray:
    g = tree.gravity if gravity is None else np.asarray(gravity, dtype=float).reshape(-1)
    if g.shape != (3,) or not (np.isfinite(g).all() and np.abs(g).max() <= 1e6):
        raise InvalidPropertyError(f"gravity must be 3 finite numbers (m/s², at most 1e6), "
                                   f"got {np.asarray(g).tolist()}")
    return np.asarray(g, dtype=float)


def _pgs_python(A, w, lo, hi, p, tol, sweeps):
    """Python twin of :func:`kinetree.core.simulation.compiled.pgs` (numba not installed)."""
    r = w + A @ p
    for sweep in range(sweeps):
        biggest = 0.0
        for j in range(len(p)):
            new = min(max(p[j] - r[j] / A[j, j], lo[j]), hi[j])
            d = new - p[j]
            if d:
                r += A[:, j] * d
                p[j] = new
                biggest = max(biggest, abs(d) * A[j, j])
        if biggest <= tol:
            return sweep + 1
    return sweeps


def _pgs(*args):
    if _rbd._kernel() is not None:
        return _LAZY.pgs(*args)
    return _pgs_python(*args)


@dataclass(frozen=True)
class Energy:
    """An energy readout (J): ``drift`` is ``E − E₀ − W`` relative to the energy in play
    (``max(|E₀|, T, |V − V₀|)``), ``W`` the work friction, the controller and the stops did."""

    kinetic: float
    potential: float
    work: float
    initial: float
    drift: float

    @property
    def total(self) -> float:
        return self.kinetic + self.potential


class _Joints:
    """Where each joint's positions, velocities, friction and limits are (per tree, constant)."""

    def __init__(self, tree: RigidBodyTree) -> None:
        self.lin_pos, self.lin_dof, self.quat = [], [], []  # quat: (position, dof) of each quaternion
        dof = {}
        d = 0
        for b, i in tree.position_slots():
            kind = b.joint.type
            dof[b.joint.name] = d
            if kind in ("spherical", "floating"):
                self.quat.append((i, d))
                if kind == "floating":
                    self.lin_pos += [i + 4, i + 5, i + 6]
                    self.lin_dof += [d + 3, d + 4, d + 5]
            else:
                n = b.joint.velocity_count
                self.lin_pos += list(range(i, i + n))
                self.lin_dof += list(range(d, d + n))
            d += b.joint.velocity_count
        self.ndof = d
        self.lin_pos, self.lin_dof = np.array(self.lin_pos, dtype=int), np.array(self.lin_dof, dtype=int)
        self.plain = not self.quat and np.array_equal(self.lin_pos, np.arange(d)) and tree.position_count == d
        rows, visc, tcp, tcm, stops = [], [], [], [], []
        for b in tree.bodies:
            j = b.joint
            if j.type not in ("revolute", "prismatic"):
                continue
            row = np.zeros(d)
            if j.mimic is not None:  # moves at multiplier × its leader's velocity
                row[dof[j.mimic.joint]] = j.mimic.multiplier
            else:
                row[dof[j.name]] = 1.0
                lo, hi = j.position_limits
                if math.isfinite(lo) or math.isfinite(hi):
                    stops.append((tree.position_index(j.name).start, dof[j.name], lo, hi))
            g = abs(j.gear_ratio)
            if j.viscous_friction or j.coulomb_friction != (0.0, 0.0):
                rows.append(row)
                visc.append(j.viscous_friction * g * g)
                tcp.append(g * j.coulomb_friction[0])
                tcm.append(g * j.coulomb_friction[1])
        self.S = np.array(rows).reshape(-1, d)
        self.visc, self.tcp, self.tcm = np.array(visc), np.array(tcp), np.array(tcm)
        self.has_coulomb = bool(self.tcp.any() or self.tcm.any())
        self.damping = (self.S.T * self.visc) @ self.S  # viscous friction torque = −damping · q̇
        self.stop_pos = np.array([s[0] for s in stops], dtype=int)
        self.stop_dof = np.array([s[1] for s in stops], dtype=int)
        self.stop_lo = np.array([s[2] for s in stops], dtype=float)
        self.stop_hi = np.array([s[3] for s in stops], dtype=float)

    def advance(self, q0: np.ndarray, u: np.ndarray) -> np.ndarray:
        """Positions ``q0`` moved by the velocity-space displacement ``u`` (quaternions: ``Q ⊗ exp(u)``)."""
        if self.plain:
            return q0 + u
        q = q0.copy()
        q[self.lin_pos] += u[self.lin_dof]
        for i, d in self.quat:
            new = _quat_mul(q0[i : i + 4], _quat_exp(u[d : d + 3]))
            q[i : i + 4] = new / math.sqrt(float(new @ new))
        return q

    def displacement(self, q: np.ndarray, target: np.ndarray) -> np.ndarray:
        """The velocity-space displacement from ``q`` to ``target`` (inverse of :meth:`advance`)."""
        if self.plain:
            return target - q
        u = np.zeros(self.ndof)
        u[self.lin_dof] = target[self.lin_pos] - q[self.lin_pos]
        for i, d in self.quat:
            u[d : d + 3] = _quat_log(_quat_mul(q[i : i + 4] * np.array([1.0, -1, -1, -1]), target[i : i + 4]))
        return u

    def rates(self, u: np.ndarray, qd: np.ndarray) -> np.ndarray:
        """``u̇`` for velocities ``qd`` at displacement ``u``: the inverse right Jacobian of the
        rotation group on each quaternion's angular velocity (RKMK; identity elsewhere)."""
        if not self.quat:
            return qd
        out = qd.copy()
        for _, d in self.quat:
            a, w = u[d : d + 3], qd[d : d + 3]
            aw = np.cross(a, w)
            out[d : d + 3] = w + 0.5 * aw + np.cross(a, aw) / 12.0
        return out


class _Model:
    """Forward dynamics of the simulator's copy of the tree (friction left out: the simulator
    applies it), without the public functions' argument checks: the inner loop's hot path."""

    def __init__(self, tree: RigidBodyTree) -> None:
        self.tree = tree
        self.plan = _rbd.dynamics_plan(tree)
        self.a0 = _rbd._gravity(tree)
        self.k = _rbd._kernel()
        self.zero = np.zeros(self.plan.ndof)
        self.m = np.array([b.mass for b in tree.bodies])
        self.c = np.array([b.center_of_mass for b in tree.bodies], dtype=float).reshape(-1, 3)
        self.ch = np.hstack([self.c, np.ones((len(self.c), 1))])[:, :, None]  # homogeneous, for one matmul
        self.g = np.array(tree.gravity, dtype=float)
        self.loops = False  # (the compiled path's check below compares the open tree's accelerations)
        self._last: tuple[bytes, np.ndarray] | None = None  # the last mass matrix, by configuration
        plan = self.plan
        # the compiled kernels' arguments, gathered once (the engine's wrappers gather them per call)
        self._rnea_args = (plan.moving, plan.col_body, plan.col_frame, plan.col_rot, plan.col_axis, plan.col_point,
                           plan.carrier, plan.anc_c, plan.desc, plan.m, plan.h, plan.Io)
        self._crba_args = (plan.moving, plan.col_body, plan.col_frame, plan.col_rot, plan.col_axis, plan.col_point,
                           plan.desc, plan.m, plan.h, plan.Io, plan.upper)
        # friction is zero in this copy and q̈ = 0 in the bias: the motor terms add nothing there
        self._motor = (plan.motor_cols, plan.jm, plan.visc, plan.tcp, plan.tcm, False)
        self._fext = np.zeros((plan.nm, 6))
        self._zero_c = np.zeros(plan.nc)
        if self.k is not None:  # the compiled path, checked once against the public function
            rng = np.random.default_rng(0)
            q, qd = tree._random_open_configuration(rng), rng.normal(size=self.plan.ndof)
            try:
                ref = _rbd.forward_dynamics(tree, q, qd)  # q: random, open on a looped tree
            except KineTreeError:  # a singular mass matrix: the compiled path says so too
                ref = None
            try:
                ok = ref is None or np.allclose(self.accel(q, qd, self.zero, True), ref, rtol=1e-9, atol=1e-9)
            except Exception:  # noqa: BLE001 - the engine's kernels changed: take the numpy path
                ok = False
            self.k = self.k if ok else None
            self._last = None
        self.loops = bool(tree._loops)

    def _poses(self, q: np.ndarray) -> np.ndarray:
        plan = self.plan
        if self.k is not None and plan.fk_args is not None and plan.nb:
            return self.k.fk_single(q, *plan.fk_args)
        return _rbd._poses(self.tree, q)

    def _mass(self, q: np.ndarray, T: np.ndarray) -> np.ndarray:
        plan = self.plan
        Mc = np.zeros((plan.nc, plan.nc))
        self.k.crba(T, *self._crba_args, Mc)
        M = Mc if plan.plain else plan.P @ Mc @ plan.P.T
        return M + plan.motor_diag if plan.has_motor else M

    def accel(self, q: np.ndarray, qd: np.ndarray, tau: np.ndarray, gravity: bool) -> np.ndarray:
        plan = self.plan
        if not plan.nc:
            return self.zero.copy()
        a0 = self.a0 if gravity else np.zeros(6)
        k = self.k
        if k is None:
            T = _rbd._poses(self.tree, q)
            bias = _rbd._rnea(plan, T, qd, self.zero, a0, None)
            if self.loops:  # the KKT system (the loops' terms come from the same poses)
                return _ld.constrained_accel(self.tree, plan, q, T, qd, _rbd._crba(plan, T), tau - bias)[0]
            try:
                return np.linalg.solve(_rbd._crba(plan, T), tau - bias)
            except np.linalg.LinAlgError:
                _rbd._singular(self.tree, q)
        T = self._poses(q)
        qdc = qd if plan.plain else np.ascontiguousarray(qd[plan.col_dof] * plan.col_gain)
        tc = np.empty(plan.nc)
        k.rnea(T, *self._rnea_args, qdc, self._zero_c, a0, self._fext, *self._motor, tc)
        bias = tc if plan.plain else plan.P @ tc
        last = self._last
        M = last[1] if last is not None and last[0] == q.tobytes() else self._mass(q, T)
        if self.loops:
            return _ld.constrained_accel(self.tree, plan, q, T, qd, M, tau - bias)[0]
        try:
            return k.cholesky_solve(M, tau - bias)
        except ValueError:
            _rbd._singular(self.tree, q)

    def potential(self, q: np.ndarray, T: np.ndarray | None = None) -> float:
        """:func:`potential_energy` with the compiled poses (or the body poses ``T``)."""
        if not self.m.size:
            return 0.0
        T = (self._poses(q) if T is None else T)[: self.m.size]  # without composite joints' virtual bodies
        p = np.matmul(T[:, :3, :], self.ch)[:, :, 0]  # the centres of mass in the base frame (einsum: 4x slower)
        return -float(self.m @ (p @ self.g))

    def energy(self, q: np.ndarray, qd: np.ndarray) -> tuple[np.ndarray, float]:
        """``M(q)`` (kept, as :meth:`mass`) and the energy ``½ q̇ᵀ M q̇ + V(q)``, from one FK."""
        if self.k is None:
            M = self.mass(q)
            return M, 0.5 * float(qd @ M @ qd) + self.potential(q)
        T = self._poses(q)
        M = self._mass(q, T)
        self._last = (q.tobytes(), M)
        return M, 0.5 * float(qd @ M @ qd) + self.potential(q, T)

    def mass(self, q: np.ndarray) -> np.ndarray:
        """``M(q)``, kept for the next step's first stage (which starts from this ``q``)."""
        if self.k is None:
            return _rbd._crba(self.plan, _rbd._poses(self.tree, q))
        M = self._mass(q, self._poses(q))
        self._last = (q.tobytes(), M)
        return M


class Simulator:
    """A robot let go from ``q`` (default home) with velocities ``qd`` (default 0), stepped at a
    fixed ``dt`` (seconds, default 1 ms) by ``integrator`` ``"rk4"`` (default) or ``"euler"``
    (semi-implicit). ``gravity`` defaults to ``tree.gravity``. The tree is copied: later edits
    of ``tree`` do not reach a running simulation. See the module docstring for the physics."""

    def __init__(self, tree: RigidBodyTree, q: ArrayLike | None = None, qd: ArrayLike | None = None, *,
                 dt: float = 1e-3, integrator: str = "rk4", gravity: ArrayLike | None = None,
                 friction: bool = True, limits: bool = True, restitution: float = 0.0) -> None:
        dt = float(dt)
        if not (math.isfinite(dt) and 1e-6 <= dt <= 0.1):
            raise SimulationError(f"simulation step dt must be between 1e-6 and 0.1 s, got {dt!r}")
        if integrator not in INTEGRATORS:
            raise SimulationError(f"integrator must be one of {', '.join(INTEGRATORS)}, got {integrator!r:.40}")
        self.dt, self.integrator = dt, integrator
        self.friction, self.limits = bool(friction), bool(limits)
        self.restitution = float(restitution)
        if not 0.0 <= self.restitution <= 1.0:
            raise SimulationError(f"restitution must be between 0 and 1, got {restitution!r}")
        ndof = sum(b.joint.velocity_count for b in tree.bodies)
        if ndof > MAX_DOF:
            raise SimulationError(f"{ndof} degrees of freedom is more than the {MAX_DOF} a simulation takes "
                                  f"(each step factors a dense {ndof}×{ndof} mass matrix, "
                                  f"{ndof * ndof * 8 / 2**20:.0f} MB apiece, in a time growing as n³)")
        self.gravity = _gravity_vector(tree, gravity)
        model = tree.copy()
        model.gravity = self.gravity
        self.tree = model.copy()  # with friction, for the energy and the user's reading
        for b in model.bodies:
            if b.joint.type in ("revolute", "prismatic"):
                b.joint.viscous_friction, b.joint.coulomb_friction = 0.0, 0.0
        self._model = _Model(model)
        self._joints = _Joints(self.tree)
        # None: the Python path (the compiled step has no loop constraints; their stages: loop_accel)
        self._fast = CompiledStep.make(self) if integrator == "rk4" and not self._model.loops else None
        self._accel = loop_accel(self._model) or self._model.accel
        q0 = self.tree.home_configuration() if q is None else self.tree.config_to_vector(q)
        qd0 = np.zeros(self._joints.ndof) if qd is None else _rbd._rates(self.tree, self._model.plan, qd, "qd", ())
        _ld.check_start(self.tree, q0, qd0)
        self._start = (q0.copy(), np.array(qd0, dtype=float))
        self._hold: tuple[np.ndarray, float, float] | None = None
        self.substeps = 1
        self.reset()

    # --- state -----------------------------------------------------------------------------
    @property
    def q(self) -> np.ndarray:
        """Joint positions now (a copy)."""
        return self._q.copy()

    @property
    def qd(self) -> np.ndarray:
        """Joint velocities now, one per DoF (a copy)."""
        return self._qd.copy()

    @property
    def time(self) -> float:
        """Simulated seconds since the start (or the last :meth:`reset`)."""
        return self._steps * self.dt

    @property
    def start_configuration(self) -> np.ndarray:
        return self._start[0].copy()

    def reset(self) -> None:
        """Back to the configuration and velocities it started from, time 0, no work done."""
        self._q, self._qd = self._start[0].copy(), self._start[1].copy()
        self._steps = 0
        self._work = 0.0
        self._impulse = np.zeros(len(self._joints.tcp))
        self._e0 = self._energy(self._q, self._qd)
        self._v0 = self._model.potential(self._q)

    def set_state(self, q: ArrayLike, qd: ArrayLike | None = None) -> None:
        """Jump to ``q``, ``qd`` (the energy is counted from there)."""
        q = self.tree.config_to_vector(q).copy()
        qd = np.zeros(self._joints.ndof) if qd is None else np.array(
            _rbd._rates(self.tree, self._model.plan, qd, "qd", ()), dtype=float)
        _ld.check_start(self.tree, q, qd)  # (a refused state leaves the simulation as it was)
        self._q, self._qd = q, qd
        self._work, self._e0 = 0.0, self._energy(self._q, self._qd)
        self._v0 = self._model.potential(self._q)

    # --- the controller --------------------------------------------------------------------
    @property
    def holding(self) -> bool:
        return self._hold is not None

    def hold(self, kp: float, kd: float, target: ArrayLike | None = None) -> None:
        """Hold ``target`` (default: the configuration now) with ``τ = Kp·(q* − q) − Kd·q̇ + g(q)``
        (``kp`` N·m/rad or N/m, ``kd`` N·m·s/rad or N·s/m, the same for every joint)."""
        kp, kd = float(kp), float(kd)
        if not (math.isfinite(kp) and math.isfinite(kd) and 0 <= kp <= 1e9 and 0 <= kd <= 1e9):
            raise SimulationError(f"hold gains must be 0 … 1e9, got Kp={kp!r}, Kd={kd!r}")
        q = self._q if target is None else self.tree.config_to_vector(target)
        self._hold = (q.copy(), kp, kd)
        self._choose_substeps()

    @property
    def hold_target(self) -> np.ndarray | None:
        """The configuration :meth:`hold` keeps (None when not holding)."""
        return None if self._hold is None else self._hold[0].copy()

    def set_friction(self, on: bool) -> None:
        """Joint friction on or off from now on."""
        self.friction = bool(on)
        self._choose_substeps()

    def release(self) -> None:
        """Stop holding: the robot falls again."""
        self._hold = None
        self._choose_substeps()

    def _choose_substeps(self) -> None:
        """Internal steps short enough for the stiffest joint: RK4 is explicit, and gains (or
        viscous friction) that are stiff against the lightest joint's inertia would diverge."""
        m = float(np.linalg.eigvalsh(self._model.mass(self._q))[0]) if self._joints.ndof else 1.0
        kp, kd = (self._hold[1], self._hold[2]) if self._hold else (0.0, 0.0)
        b = float(self._joints.visc.max()) if self.friction and self._joints.visc.size else 0.0
        c = (kd + b) / max(m, 1e-300)
        rate = 0.5 * c + math.sqrt(max(0.25 * c * c, kp / max(m, 1e-300)))  # the largest |eigenvalue|
        n = max(1, math.ceil(rate * self.dt / _RK4_REACH)) if self.integrator == "rk4" else 1
        if n > MAX_SUBSTEPS:
            need = "Kp and Kd" if kp else "the viscous friction"
            raise SimulationError(f"{need} are too stiff for this robot: its lightest joint (inertia {m:.3g} kg·m²) "
                                  f"would need {n} steps per {self.dt * 1e3:g} ms (at most {MAX_SUBSTEPS}); "
                                  f"lower them (Kd below about {MAX_SUBSTEPS * _RK4_REACH * m / self.dt:.3g})")
        self.substeps = n

    # --- energy ----------------------------------------------------------------------------
    def _energy(self, q: np.ndarray, qd: np.ndarray) -> float:
        M = self._model.mass(q)
        return 0.5 * float(qd @ M @ qd) + self._model.potential(q)

    def energy(self) -> Energy:
        """Kinetic, potential, initial energy, the work done by friction, the controller and the
        stops, and the relative drift ``(E − E₀ − W) / max(|E₀|, T, |V − V₀|)``."""
        T = 0.5 * float(self._qd @ self._model.mass(self._q) @ self._qd)
        V = self._model.potential(self._q)
        scale = max(abs(self._e0), T, abs(V - self._v0), 1e-300)
        return Energy(T, V, self._work, self._e0, (T + V - self._e0 - self._work) / scale)

    # --- stepping ----------------------------------------------------------------------------
    def _forces(self, q: np.ndarray, qd: np.ndarray) -> tuple[np.ndarray, float, bool]:
        """Torques besides gravity and their power (work rate); whether gravity is compensated."""
        tau = np.zeros(self._joints.ndof)
        J = self._joints
        if self.friction and J.visc.size:
            tau -= J.damping @ qd
        if self._hold is not None:
            target, kp, kd = self._hold
            tau += kp * J.displacement(q, target) - kd * qd
        return tau, float(tau @ qd), self._hold is not None

    def _derivative(self, q0: np.ndarray, u: np.ndarray, qd: np.ndarray) -> tuple[np.ndarray, np.ndarray, float]:
        q = self._joints.advance(q0, u)
        tau, power, comp = self._forces(q, qd)
        return self._joints.rates(u, qd), self._accel(q, qd, tau, not comp), power

    def _step_once(self, h: float) -> None:
        q0, v0 = self._q, self._qd
        comp = self._hold is not None
        V_before = self._model.potential(q0) if comp else 0.0
        if self.integrator == "euler":  # semi-implicit: the new velocity moves the positions
            _, a, power = self._derivative(q0, np.zeros_like(v0), v0)
            v = v0 + h * a
            q = self._joints.advance(q0, h * v)
            self._work += h * power
        else:
            z = np.zeros_like(v0)
            du1, a1, p1 = self._derivative(q0, z, v0)
            du2, a2, p2 = self._derivative(q0, 0.5 * h * du1, v0 + 0.5 * h * a1)
            du3, a3, p3 = self._derivative(q0, 0.5 * h * du2, v0 + 0.5 * h * a2)
            du4, a4, p4 = self._derivative(q0, h * du3, v0 + h * a3)
            q = self._joints.advance(q0, h / 6 * (du1 + 2 * du2 + 2 * du3 + du4))
            v = v0 + h / 6 * (a1 + 2 * a2 + 2 * a3 + a4)
            self._work += h / 6 * (p1 + 2 * p2 + 2 * p3 + p4)
        if comp:  # the compensation's own work: g(q)·q̇ integrates to the change of V
            self._work += self._model.potential(q) - V_before
        J = self._joints
        coulomb = self.friction and J.has_coulomb
        hit = self._stop_hits(q)
        if coulomb or hit is not None:  # impulses, and the energy they take counted exactly
            M, e_before = self._model.energy(q, v)
            Mi = np.linalg.inv(M)  # for both impulses: one inverse costs less than numpy's solves
            if coulomb:
                dv = self._coulomb(Mi, v, h)
                # the impulse acts through the step (as a constant torque): a stuck joint does not creep
                v, q = v + dv, J.advance(q, 0.5 * h * dv)
                hit = self._stop_hits(q)
            if hit is not None:
                q, v = self._stops(q, v, Mi, *hit)
            self._work += self._model.energy(q, v)[1] - e_before
        if self._model.loops:
            q, v = _ld.project_state(self._model.tree, q, v, self._model.mass)
        if not (np.isfinite(v).all() and np.abs(v).max(initial=0.0) < 1e6):
            raise SimulationError(f"the simulation diverged at t = {self.time:.3f} s (joint velocities beyond 1e6): "
                                  "lower the hold gains or the friction")
        self._q, self._qd = q, v

    def step(self, n: int = 1) -> None:
        """Advance ``n`` steps of :attr:`dt`."""
        n = int(n)
        if n < 0:
            raise SimulationError(f"step count must be 0 or more, got {n}")
        if self._fast is not None:  # the same steps compiled, without the GIL
            self._fast.run(self, n)
            return
        h = self.dt / self.substeps
        for _ in range(n):
            for _ in range(self.substeps):
                self._step_once(h)
            self._steps += 1

    def run(self, seconds: float) -> None:
        """Advance by ``seconds`` (rounded to whole steps)."""
        self.step(round(float(seconds) / self.dt))

    # --- friction and stops: velocity-level impulses -------------------------------------------
    def _coulomb(self, Mi: np.ndarray, v: np.ndarray, h: float) -> np.ndarray:
        """The velocity change of Coulomb friction: the impulse ``p`` (one per joint, ``−Tc⁺·h ≤ p
        ≤ −Tc⁻·h``) that leaves the least kinetic energy, by projected Gauss–Seidel on
        ``S M⁻¹ Sᵀ`` (``Mi`` is M⁻¹), warm-started from the last step's."""
        J = self._joints
        MiSt = Mi @ J.S.T
        A = J.S @ MiSt
        w = J.S @ v
        lo, hi = -J.tcp * h, -J.tcm * h
        try:
            stick = -np.linalg.solve(A, w)  # the impulse that stops every joint
        except np.linalg.LinAlgError:  # a mimic follower's row is a multiple of its leader's: PGS copes
            stick = None
        if stick is not None and np.all((lo <= stick) & (stick <= hi)):
            p = stick
        else:
            p = np.minimum(np.maximum(self._impulse, lo), hi)
            _pgs(A, w, lo, hi, p, 1e-13 * (1.0 + float(np.abs(w).max(initial=0.0))), 200)
        self._impulse = p
        return MiSt @ p

    def _stop_hits(self, q: np.ndarray) -> tuple[np.ndarray, np.ndarray] | None:
        """The joints past their lower and upper limits (None: none, or stops off)."""
        J = self._joints
        if not (self.limits and J.stop_pos.size):
            return None
        x = q[J.stop_pos]
        low, high = x < J.stop_lo, x > J.stop_hi
        return (low, high) if (low.any() or high.any()) else None

    def _stops(self, q: np.ndarray, v: np.ndarray, Mi: np.ndarray, low: np.ndarray,
               high: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Joints past a limit put back on it; their velocity into the stop turned to
        ``−restitution ×`` itself by an impulse through the mass matrix (``Mi`` is M⁻¹; the others react)."""
        J = self._joints
        hit = low | high
        q = q.copy()
        q[J.stop_pos[hit]] = np.where(low[hit], J.stop_lo[hit], J.stop_hi[hit])
        d = J.stop_dof[hit]
        into = np.where(low[hit], v[d] < 0, v[d] > 0)
        if into.any():
            d = d[into]
            MiSt = Mi[:, d]  # M⁻¹ Sᵀ, S the stopped joints' unit rows
            lam = np.linalg.solve(MiSt[d], -(1.0 + self.restitution) * v[d])
            v = v + MiSt @ lam
        return q, v
