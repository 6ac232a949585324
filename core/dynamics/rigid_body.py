"""Inverse and forward dynamics, the mass matrix and the velocity product (MATLAB's
``inverseDynamics``, ``massMatrix``, ``velocityProduct``, ``forwardDynamics``, ``externalForce``).

Everything is computed in the base frame with spatial vectors (Featherstone's convention:
motion ``[ω; v]``, force ``[n; f]``, both about the base origin), which turns each recursion of
RNEA and CRBA into products with constant ancestor/subtree incidence matrices — vectorized for
one configuration and over a batch alike.

* **Degrees of freedom** are those of :func:`~kinetree.core.dynamics.mass.dof_names`: a revolute or
  prismatic joint has one; a spherical joint three, the angular velocity in its child frame
  (RBDL's and Pinocchio's convention); a floating joint six, ``[ω`` in the child frame,
  ``ṗ`` in the parent-side frame``]``; a planar joint three, ``[ẋ ẏ θ̇]``; a composite joint
  (``euler_zyx`` …, ``custom``: :mod:`~kinetree.core.model.joint_subspace`) one per row, the rates of
  its angles and lengths (so an Euler joint's are Euler-angle rates, not ω). Mimic followers
  have none: they move with their leader and their torque, times the multiplier, goes to it.
  Positions keep KineTree's (MATLAB's) layout, a quaternion ``[w x y z]`` inline, not RBDL's
  (``w`` appended at the end), and a floating joint's DoFs are ``[ω ṗ]``, RBDL's ``[ṗ ω]``:
  :mod:`~kinetree.core.dynamics.joint_space` converts (``to_rbdl_q``, ``to_rbdl_qd``).
* **Fixed bodies** are merged into their moving ancestor when the plan is built (RBDL's rule):
  they cost nothing per call. Bodies fixed to the base carry nothing.
* **Motors and friction** (:mod:`~kinetree.core.model.joint_motor`): ``G²·Jm`` on the mass matrix
  diagonal and ``τ += G²·Jm·qdd − friction(qd)``, as Corke's ``rne``.
* ``fext`` is an ``(n_bodies, 6)`` array, a row ``[n f]`` per body (:attr:`body_names` order):
  a wrench in the base frame about the base origin, as :func:`external_force` builds it.
"""

from __future__ import annotations

import math
import weakref
from typing import TYPE_CHECKING, Any

import numpy as np
from numpy.typing import ArrayLike

from ..errors import InvalidConfigurationError, InvalidPropertyError, UnknownBodyError
from ..kinematics.loops import require_closed
from ..kinematics.plan import compiled_backend
from ..lazy import LazyImports
from ..model.joint_subspace import COMPOSITE_TYPES, EULER_TYPES, SINGULAR_AXES, rotation_axes_spread
from .plan import DynamicsPlan, _cross, packed  # noqa: F401 - DynamicsPlan: imported from here

if TYPE_CHECKING:
    from ..tree import RigidBodyTree

_MAX_RATE = 1e8  # bound on velocities and accelerations: the products stay finite


def _apply_inertia(m: np.ndarray, h: np.ndarray, Io: np.ndarray, a: np.ndarray) -> np.ndarray:
    """Spatial inertia (m, first moment h, inertia Io about the origin) times motion ``a``."""
    w, v = a[..., :3], a[..., 3:]
    out = np.empty_like(a)
    out[..., :3] = np.einsum("...ij,...j->...i", Io, w) + _cross(h, v)
    out[..., 3:] = m[..., None] * v + _cross(w, h)
    return out


def _cross_motion(v: np.ndarray, s: np.ndarray) -> np.ndarray:
    out = np.empty(np.broadcast_shapes(v.shape, s.shape))
    out[..., :3] = _cross(v[..., :3], s[..., :3])
    out[..., 3:] = _cross(v[..., :3], s[..., 3:]) + _cross(v[..., 3:], s[..., :3])
    return out


def _cross_force(v: np.ndarray, f: np.ndarray) -> np.ndarray:
    out = np.empty(np.broadcast_shapes(v.shape, f.shape))
    out[..., :3] = _cross(v[..., :3], f[..., :3]) + _cross(v[..., 3:], f[..., 3:])
    out[..., 3:] = _cross(v[..., :3], f[..., 3:])
    return out


_CACHE: weakref.WeakKeyDictionary[Any, DynamicsPlan] = weakref.WeakKeyDictionary()


def dynamics_plan(tree: RigidBodyTree) -> DynamicsPlan:
    """The tree's :class:`DynamicsPlan`, built once per kinematic plan (i.e. per edit)."""
    kin = tree.kinematic_plan()
    plan = _CACHE.get(kin)
    if plan is None:
        plan = _CACHE[kin] = DynamicsPlan(tree)
    return plan


# --- argument checks ------------------------------------------------------------------------

def _rates(tree: RigidBodyTree, plan: DynamicsPlan, value: ArrayLike | None, what: str,
           lead: tuple[int, ...]) -> np.ndarray:
    n = plan.ndof
    if value is None:
        return np.zeros((*lead, n))
    if not lead and isinstance(value, np.ndarray) and value.shape == (n,) and value.dtype == np.float64 and n <= 64:
        # one configuration, checked cheaply: NaN and ±inf fail the comparisons
        if all(-_MAX_RATE <= x <= _MAX_RATE for x in value.tolist()):
            return value
    try:
        a = np.asarray(value, dtype=float)
    except (TypeError, ValueError):
        raise InvalidConfigurationError(f"{what} must be {n} numbers (one per degree of freedom), "
                                        f"got {str(value)[:80]}") from None
    if a.shape not in ((n,), (*lead, n)):
        raise InvalidConfigurationError(f"{what} must have shape {(*lead, n)} (one value per degree of "
                                        f"freedom: {', '.join(tree.dof_names())[:200]}), got {a.shape}")
    if not (np.isfinite(a).all() and (a.size == 0 or np.abs(a).max() <= _MAX_RATE)):
        raise InvalidConfigurationError(f"{what} must be finite numbers of magnitude at most {_MAX_RATE:g}")
    return a if a.shape == (*lead, n) else np.broadcast_to(a, (*lead, n))


def _inputs(tree: RigidBodyTree, q: ArrayLike | None) -> tuple[np.ndarray, tuple[int, ...]]:
    Q = tree.home_configuration() if q is None else tree.config_array(q)
    return Q, Q.shape[:-1]


def _fext(tree: RigidBodyTree, plan: DynamicsPlan, fext: ArrayLike | None, lead: tuple[int, ...]) -> np.ndarray | None:
    if fext is None:
        return None
    nb = plan.kin.nb
    f = np.asarray(fext, dtype=float)
    if f.shape not in ((nb, 6), (*lead, nb, 6)):
        raise InvalidConfigurationError(f"fext must have shape ({nb}, 6): a wrench [n f] per body, got {f.shape}")
    if not (np.isfinite(f).all() and (f.size == 0 or np.abs(f).max() <= _MAX_RATE)):
        raise InvalidConfigurationError(f"fext must be finite numbers of magnitude at most {_MAX_RATE:g}")
    out = plan.merge @ f  # a fixed body's wrench acts on its moving owner (about the same origin)
    return out


def _gravity(tree: RigidBodyTree) -> np.ndarray:
    g = tree.gravity
    a0 = np.zeros(6)
    a0[3:] = -g
    return a0


# --- the algorithms ---------------------------------------------------------------------------

def _motion(plan: DynamicsPlan, S: np.ndarray, qd: np.ndarray, qdd: np.ndarray, a0: np.ndarray):
    """RNEA's forward pass over the motion columns ``S``: the joint rates per column and each
    moving body's spatial velocity ``v`` and acceleration ``a`` (…, nm, 6), in the base frame
    about its origin (``a`` includes ``a0``)."""
    qdc = qd[..., plan.col_dof] * plan.col_gain
    qddc = qdd[..., plan.col_dof] * plan.col_gain
    Sqd = S * qdc[..., None]
    v = plan.anc_c @ Sqd  # (…, nm, 6)
    ve = np.concatenate([v, np.zeros((*v.shape[:-2], 1, 6))], axis=-2)
    a = a0 + plan.anc_c @ (S * qddc[..., None] + _cross_motion(ve[..., plan.carrier, :], Sqd))
    return qdc, qddc, v, a


def _rnea(plan: DynamicsPlan, T: np.ndarray, qd: np.ndarray, qdd: np.ndarray, a0: np.ndarray,
          fext: np.ndarray | None, motor: bool = True) -> np.ndarray:
    S, h, Io = plan.frames(T)
    qdc, qddc, v, a = _motion(plan, S, qd, qdd, a0)
    f = _apply_inertia(plan.m, h, Io, a) + _cross_force(v, _apply_inertia(plan.m, h, Io, v))
    if fext is not None:
        f -= fext
    F = plan.desc @ f
    tc = np.einsum("...ci,...ci->...c", S, F[..., plan.col_body, :])
    if motor and plan.has_motor:
        mc = plan.motor_cols
        tc = tc.copy()
        tc[..., mc] += plan.jm * qddc[..., mc] + plan.visc * qdc[..., mc]
        s = qdc[..., mc]
        tc[..., mc] += np.where(s > 0, plan.tcp, np.where(s < 0, plan.tcm, 0.0))
    return tc if plan.plain else tc @ plan.P.T


def _crba(plan: DynamicsPlan, T: np.ndarray) -> np.ndarray:
    S, h, Io = plan.frames(T)
    m = plan.desc @ plan.m
    H, I = plan.desc @ h, np.einsum("ik,...kab->...iab", plan.desc, Io)
    Fc = _apply_inertia(m[plan.col_body], H[..., plan.col_body, :], I[..., plan.col_body, :, :], S)
    SF = S @ np.swapaxes(Fc, -1, -2)
    Mc = SF * plan.upper + np.swapaxes(SF, -1, -2) * plan.strict_low
    M = Mc if plan.plain else plan.P @ Mc @ plan.P.T
    return M + plan.motor_diag


def _poses(tree: RigidBodyTree, Q: np.ndarray, plan: DynamicsPlan | None = None, k=None) -> np.ndarray:
    """Body poses (…, nb, 4, 4) for positions ``Q``, followed by those of the composite joints'
    virtual bodies (:meth:`DynamicsPlan.extend`)."""
    kin = tree.kinematic_plan()
    if Q.ndim == 1:  # the results are checked for overflow at the end
        if k is not None and plan is not None and plan.fk_args is not None and plan.nb:
            return k.fk_single(Q, *plan.fk_args)
        T = kin.fk_single(Q)
    else:
        flat = Q.reshape(-1, Q.shape[-1])
        T = tree.forward_kinematics(flat).reshape(*Q.shape[:-1], kin.nb, 4, 4)
    return (plan or dynamics_plan(tree)).extend(T, Q)


_KERNEL: list[Any] = []

#: the compiled kernels import numba (~0.3 s, and only when installed): see kinetree.core.lazy
_LAZY = LazyImports(__name__, {"dynamics_numba": ".compiled", "kinematics_numba": "..kinematics.compiled",
                               "rnea_batch": ".batch:rnea_batch", "crba_batch": ".batch:crba_batch"})


def _kernel():
    """The compiled kernels (core/dynamics/compiled.py) when numba is installed and usable, else None."""
    if not _KERNEL:
        mod = None
        if compiled_backend() is not None:
            mod = _LAZY.dynamics_numba
        _KERNEL.append(mod)
    if _KERNEL[0] is None:
        return None
    return _KERNEL[0] if _LAZY.kinematics_numba.usable() else None


def _compiled_rnea(k, plan: DynamicsPlan, tree: RigidBodyTree, Q: np.ndarray, qd: np.ndarray, qdd: np.ndarray,
                   a0: np.ndarray, fext: np.ndarray | None, motor: bool, T: np.ndarray | None = None) -> np.ndarray:
    if plan.plain:
        qdc, qddc = np.ascontiguousarray(qd), np.ascontiguousarray(qdd)
    else:
        qdc = np.ascontiguousarray(qd[..., plan.col_dof] * plan.col_gain)
        qddc = np.ascontiguousarray(qdd[..., plan.col_dof] * plan.col_gain)
    args = (plan.moving, plan.col_body, plan.col_frame, plan.col_rot, plan.col_axis, plan.col_point, plan.carrier,
            plan.anc_c, plan.desc, plan.m, plan.h, plan.Io)
    mot = (plan.motor_cols, plan.jm, plan.visc, plan.tcp, plan.tcm, motor and plan.has_motor)
    if Q.ndim == 1:
        tc = np.empty(plan.nc)
        F = np.zeros((plan.nm, 6)) if fext is None else np.ascontiguousarray(fext)
        pk = packed(plan) if T is None else None
        if pk is not None:  # FK inside, two flat arrays: a fraction of the call's argument checks
            k.rnea_packed(Q, *pk, qdc, qddc, a0, F, motor and plan.has_motor, tc)
            return tc if plan.plain else tc @ plan.P.T
        k.rnea(_poses(tree, Q, plan, k) if T is None else T, *args, qdc, qddc, a0, F, *mot, tc)
    else:
        flat = Q.reshape(-1, Q.shape[-1])
        n = flat.shape[0]
        qdc, qddc = qdc.reshape(n, -1), qddc.reshape(n, -1)
        tc = np.empty((n, plan.nc))
        # revolute/prismatic trees: FK and RNEA in one compiled pass per configuration; else numpy FK by chunks
        if not _LAZY.rnea_batch(plan, flat, qdc, qddc, a0, fext, motor and plan.has_motor, tc):
            F = (np.zeros((n, plan.nm, 6)) if fext is None
                 else np.ascontiguousarray(np.broadcast_to(fext, (*Q.shape[:-1], plan.nm, 6)).reshape(n, plan.nm, 6)))
            for start in range(0, n, 8192):  # poses of one chunk at a time: bounded memory
                sl = slice(start, min(n, start + 8192))
                T = _poses(tree, flat[sl], plan)
                k.rnea_batch(T, *args, qdc[sl], qddc[sl], a0, F[sl], *mot, tc[sl])
        tc = tc.reshape(*Q.shape[:-1], plan.nc)
    return tc if plan.plain else tc @ plan.P.T


def _compiled_crba(k, plan: DynamicsPlan, tree: RigidBodyTree, Q: np.ndarray,
                   T: np.ndarray | None = None) -> np.ndarray:
    args = (plan.moving, plan.col_body, plan.col_frame, plan.col_rot, plan.col_axis, plan.col_point, plan.desc,
            plan.m, plan.h, plan.Io, plan.upper)
    if Q.ndim == 1:
        Mc = np.zeros((plan.nc, plan.nc))
        k.crba(_poses(tree, Q, plan, k) if T is None else T, *args, Mc)
    elif (Mc := _LAZY.crba_batch(plan, Q.reshape(-1, Q.shape[-1]))) is None:  # else FK inside, one compiled call
        Tf = _poses(tree, Q) if T is None else T
        Tf = Tf.reshape(-1, *Tf.shape[-3:])
        Mc = np.zeros((Tf.shape[0], plan.nc, plan.nc))
        for i in range(Tf.shape[0]):
            k.crba(Tf[i], *args, Mc[i])
    Mc = Mc.reshape(*Q.shape[:-1], plan.nc, plan.nc)
    M = Mc if plan.plain else plan.P @ Mc @ plan.P.T
    return M + plan.motor_diag if plan.has_motor else M


def _finite(out: np.ndarray, what: str) -> np.ndarray:
    # a short vector's Python sum costs a sixth of isfinite().all(); only a non-finite sum looks further
    if not (out.ndim == 1 and out.size <= 64 and math.isfinite(sum(out.tolist()))) and not np.isfinite(out).all():
        raise InvalidPropertyError(f"{what} is not finite for this input (the numbers overflow)")
    return out


def inverse_dynamics(tree: RigidBodyTree, q: ArrayLike | None = None, qd: ArrayLike | None = None,
                     qdd: ArrayLike | None = None, fext: ArrayLike | None = None) -> np.ndarray:
    """Joint torques/forces for positions ``q``, velocities ``qd`` and accelerations ``qdd``
    under ``tree.gravity`` and external wrenches ``fext`` (MATLAB's ``inverseDynamics``, RNEA),
    motor inertia and friction included (Corke's ``rne``). One value per
    :meth:`~kinetree.core.tree.RigidBodyTree.dof_names` entry; ``q`` of shape (N, positions)
    (and ``qd``/``qdd`` (N, dofs) or one row) gives (N, dofs). ``q`` defaults to home."""
    Q, lead = _inputs(tree, q)
    plan = dynamics_plan(tree)
    qd_, qdd_ = _rates(tree, plan, qd, "qd", lead), _rates(tree, plan, qdd, "qdd", lead)
    if not plan.nc:
        return np.zeros((*lead, plan.ndof))
    k = _kernel()
    if k is not None:
        out = _compiled_rnea(k, plan, tree, Q, qd_, qdd_, _gravity(tree), _fext(tree, plan, fext, lead), True)
    else:
        out = _rnea(plan, _poses(tree, Q), qd_, qdd_, _gravity(tree), _fext(tree, plan, fext, lead))
    return _finite(out, "inverse dynamics")


def mass_matrix(tree: RigidBodyTree, q: ArrayLike | None = None) -> np.ndarray:
    """Joint-space mass matrix ``M(q)`` (MATLAB's ``massMatrix``, CRBA), ``G²·Jm`` of each motor
    on its diagonal: (dofs, dofs), or (N, dofs, dofs) for a batch."""
    Q, lead = _inputs(tree, q)
    plan = dynamics_plan(tree)
    if not plan.nc:
        return np.zeros((*lead, plan.ndof, plan.ndof))
    k = _kernel()
    M = _compiled_crba(k, plan, tree, Q) if k is not None else _crba(plan, _poses(tree, Q))
    return _finite(M, "mass matrix")


def velocity_product(tree: RigidBodyTree, q: ArrayLike | None = None, qd: ArrayLike | None = None) -> np.ndarray:
    """Coriolis and centrifugal torques ``C(q, qd)·qd`` (MATLAB's ``velocityProduct``): no
    gravity, no friction, no acceleration."""
    Q, lead = _inputs(tree, q)
    plan = dynamics_plan(tree)
    qd_ = _rates(tree, plan, qd, "qd", lead)
    if not plan.nc:
        return np.zeros((*lead, plan.ndof))
    k = _kernel()
    if k is not None:
        out = _compiled_rnea(k, plan, tree, Q, qd_, np.zeros_like(qd_), np.zeros(6), None, False)
    else:
        out = _rnea(plan, _poses(tree, Q), qd_, np.zeros_like(qd_), np.zeros(6), None, motor=False)
    return _finite(out, "velocity product")


def coriolis(tree: RigidBodyTree, q: ArrayLike | None, qd: ArrayLike | None) -> np.ndarray:
    """(dof, dof) Coriolis matrix ``C(q, qd)`` with ``C·qd = velocity_product(q, qd)`` (Corke's
    ``coriolis``, built as his: the velocity product ``h(v)`` is a quadratic form in ``v``, so
    ``Γ_ii = h(e_i)`` and ``Γ_ij = (h(e_i + e_j) − h(e_i) − h(e_j)) / 2`` are its symmetric
    coefficients, and ``C[:, j] = Σ_i Γ_ij·qd_i``). Those are the Christoffel symbols of the
    first kind, so ``Ṁ − 2C`` is skew-symmetric where the velocities are position rates (not
    for the ω of spherical and floating joints). No gravity, no friction; one configuration;
    ``n(n+1)/2`` velocity products for ``n`` degrees of freedom."""
    Q, lead = _inputs(tree, q)
    if lead:
        raise InvalidConfigurationError(f"coriolis takes one configuration, got a batch of shape {Q.shape}")
    plan = dynamics_plan(tree)
    n = plan.ndof
    qd_ = _rates(tree, plan, qd, "qd", ())
    eye = np.eye(n)
    square = velocity_product(tree, np.broadcast_to(Q, (n, Q.size)), eye)  # row i: h(e_i) = Γ_ii
    C = square.T * qd_  # the diagonal terms: C[:, i] += Γ_ii·qd_i
    for i in range(n - 1):  # the pairs (i, j > i) a row at a time: memory O(n²), not O(n³)
        V = eye[i + 1:] + eye[i]
        G = (velocity_product(tree, np.broadcast_to(Q, (len(V), Q.size)), V) - square[i + 1:] - square[i]) / 2
        C[:, i + 1:] += G.T * qd_[i]  # Γ_ij·qd_i into column j
        C[:, i] += G.T @ qd_[i + 1:]  # Γ_ji·qd_j into column i
    return C


FORWARD_METHODS = ("aba", "cholesky")


def forward_dynamics(tree: RigidBodyTree, q: ArrayLike | None = None, qd: ArrayLike | None = None,
                     tau: ArrayLike | None = None, fext: ArrayLike | None = None, method: str = "aba") -> np.ndarray:
    """Joint accelerations for torques ``tau`` (MATLAB's ``forwardDynamics``, Corke's
    ``accel``), friction and motor inertia included, so it inverts :func:`inverse_dynamics`.
    ``method``: ``"aba"`` (Featherstone's articulated-body algorithm, :mod:`.articulated_body`;
    the faster, measured in README) or ``"cholesky"``: ``M⁻¹ (tau − inverse_dynamics(q, qd, 0,
    fext))`` by a Cholesky factorisation of ``M``. Trees with mimic joints always take the
    Cholesky path (ABA's recursion has no coupled joints). On a tree with closed loops this is the
    open tree's (the loops left out): :mod:`~kinetree.core.dynamics.loops` holds them."""
    if method not in FORWARD_METHODS:
        raise InvalidConfigurationError(f"forward dynamics: method must be 'aba' or 'cholesky', got {method!r:.80}")
    Q, lead = _inputs(tree, q)
    plan = dynamics_plan(tree)
    qd_, tau_ = _rates(tree, plan, qd, "qd", lead), _rates(tree, plan, tau, "tau", lead)
    if not plan.nc:
        return np.zeros((*lead, plan.ndof))
    _check_euler(tree, Q, plan)  # before the solvers: near the singularity they return huge numbers, not an error
    fx = _fext(tree, plan, fext, lead)
    if method == "aba" and plan.plain:
        from .aba import aba

        return _finite(aba(tree, plan, Q, qd_, tau_, fx), "forward dynamics")
    k = _kernel()
    if k is not None:
        T = _poses(tree, Q, plan, k) if Q.ndim == 1 else None  # one FK for both
        bias = _compiled_rnea(k, plan, tree, Q, qd_, np.zeros_like(qd_), _gravity(tree), fx, True, T)
        M = _compiled_crba(k, plan, tree, Q, T)
        try:  # one compiled factorisation per configuration: numpy's batched ones cost 5× more
            solve = k.cholesky_solve if Q.ndim == 1 else k.cholesky_solve_batch
            return _finite(solve(M, tau_ - bias), "forward dynamics")  # a new C-ordered array
        except ValueError:
            _singular(tree, Q)
    else:
        T = _poses(tree, Q)
        bias = _rnea(plan, T, qd_, np.zeros_like(qd_), _gravity(tree), fx)
        M = _crba(plan, T)
    try:
        L = np.linalg.cholesky(M)
    except np.linalg.LinAlgError:
        _singular(tree, Q)
    y = np.linalg.solve(L, (tau_ - bias)[..., None])
    out = np.linalg.solve(np.swapaxes(L, -1, -2), y)[..., 0]
    return _finite(out, "forward dynamics")


def _euler_joints(tree: RigidBodyTree, plan: DynamicsPlan) -> list[tuple[Any, slice, tuple]]:
    """Composite joints with 2 or 3 rotations (Euler joints, custom ones alike), with their
    slices of a configuration and motion-subspace rows; cached per plan."""
    cache = getattr(plan, "_euler", None)
    if cache is None:
        cache = []
        for b, _ in tree.position_slots():
            j = b.joint
            rows = tuple(map(tuple, j.motion_subspace.tolist())) if j.type in COMPOSITE_TYPES else ()
            if 2 <= sum(any(r[:3]) for r in rows) <= 3:
                cache.append((j, tree.position_index(j.name), rows))
        plan._euler = cache  # type: ignore[attr-defined]
    return cache


def _check_euler(tree: RigidBodyTree, Q: np.ndarray, plan: DynamicsPlan | None = None) -> None:
    """Refuse configurations where an Euler joint is at its singularity (its rotation axes line
    up: the mass matrix is singular whatever the masses), naming the joint and its angles."""
    for joint, sl, rows in _euler_joints(tree, plan or dynamics_plan(tree)):
        if joint.type in EULER_TYPES:  # singular where the middle angle is ±90°: |cos| measures it
            if Q.ndim == 1 and abs(math.cos(Q[sl.start + 1])) >= SINGULAR_AXES:
                continue  # one configuration, clear of it: no numpy call (forward dynamics costs ~20 µs)
            spread = np.abs(np.cos(Q[..., sl.start + 1]))
        else:
            spread = rotation_axes_spread(rows, Q[..., sl])
        bad = np.argwhere(spread < SINGULAR_AXES)
        if not len(bad):
            continue
        at = tuple(int(i) for i in bad[0])
        angles = Q[(*at, sl)]
        where = f" (configuration {at[0] if len(at) == 1 else at})" if at else ""
        shown = ", ".join(f"angle {joint.name}.{k} = {angles[k]:.6g} rad ({math.degrees(angles[k]):.6g}°)"
                          for k in ([1] if joint.type in EULER_TYPES else range(len(angles))))
        raise InvalidConfigurationError(
            f"joint {joint.name!r} ({joint.type}) is at its Euler-angle singularity{where}: {shown}; "
            "its rotation axes line up, so the mass matrix is singular there. Move away from it, or use a "
            "spherical joint (a quaternion, no singularity: RBDL's advice)")


def _singular(tree: RigidBodyTree | None = None, Q: np.ndarray | None = None) -> None:
    """Raise for a singular mass matrix: an Euler joint at its singularity (when ``tree`` and the
    configuration ``Q`` are given and show one), else a joint that moves no mass."""
    if tree is not None and Q is not None:
        _check_euler(tree, Q)
    raise InvalidPropertyError("the mass matrix is singular for this configuration: some joint moves no mass "
                               "(give its bodies mass or inertia)")


def external_force(tree: RigidBodyTree, body: str, wrench: ArrayLike, q: ArrayLike | None = None) -> np.ndarray:
    """An ``(n_bodies, 6)`` ``fext`` with ``wrench = [n f]`` on ``body`` (MATLAB's
    ``externalForce``): without ``q`` the wrench is in the base frame about the base origin;
    with ``q`` it is in the body's frame about its origin and is moved to the base frame."""
    plan = dynamics_plan(tree)
    if body not in plan.body_index:
        raise UnknownBodyError(f"external force: no body named {str(body)[:80]!r} (the base takes no external "
                               "force: it does not move)")
    try:
        w = np.asarray(wrench, dtype=float).reshape(6)
    except (TypeError, ValueError):
        raise InvalidConfigurationError(f"external force on {body!r}: the wrench must be 6 numbers [n f], "
                                        f"got {str(wrench)[:80]}") from None
    if not (np.isfinite(w).all() and np.abs(w).max() <= _MAX_RATE):
        raise InvalidConfigurationError(f"external force on {body!r}: the wrench must be finite, at most "
                                        f"{_MAX_RATE:g}, got {w.tolist()}")
    fext = np.zeros((plan.kin.nb, 6))
    i = plan.body_index[body]
    if q is not None:
        T = tree.forward_kinematics(tree.config_to_vector(q))[i]
        R, t = T[:3, :3], T[:3, 3]
        f = R @ w[3:]
        w = np.concatenate([R @ w[:3] + _cross(t, f), f])
    fext[i] = w
    return fext


class DynamicsMixin:
    """Dynamics methods of :class:`~kinetree.core.tree.RigidBodyTree` (see
    :mod:`kinetree.core.dynamics.rigid_body`)."""

    def inverse_dynamics(self, q: ArrayLike | None = None, qd: ArrayLike | None = None,
                         qdd: ArrayLike | None = None, fext: ArrayLike | None = None) -> np.ndarray:
        """Joint torques for ``q``, ``qd``, ``qdd`` and ``fext`` (MATLAB's ``inverseDynamics``)."""
        if self._loops:  # type: ignore[attr-defined]
            require_closed(self, q)  # type: ignore[arg-type]
        return inverse_dynamics(self, q, qd, qdd, fext)  # type: ignore[arg-type]

    def mass_matrix(self, q: ArrayLike | None = None) -> np.ndarray:
        """Joint-space mass matrix (MATLAB's ``massMatrix``)."""
        if self._loops:  # type: ignore[attr-defined]
            require_closed(self, q)  # type: ignore[arg-type]
        return mass_matrix(self, q)  # type: ignore[arg-type]

    def velocity_product(self, q: ArrayLike | None = None, qd: ArrayLike | None = None) -> np.ndarray:
        """Coriolis and centrifugal torques ``C(q, qd)·qd`` (MATLAB's ``velocityProduct``)."""
        if self._loops:  # type: ignore[attr-defined]
            require_closed(self, q)  # type: ignore[arg-type]
        return velocity_product(self, q, qd)  # type: ignore[arg-type]

    def coriolis(self, q: ArrayLike | None, qd: ArrayLike | None) -> np.ndarray:
        """Coriolis matrix ``C(q, qd)``, ``C·qd = velocity_product(q, qd)`` (Corke's ``coriolis``;
        see :func:`coriolis`)."""
        if self._loops:  # type: ignore[attr-defined]
            require_closed(self, q)  # type: ignore[arg-type]
        return coriolis(self, q, qd)  # type: ignore[arg-type]

    def nofriction(self, coulomb: bool = True, viscous: bool = False) -> RigidBodyTree:
        """A copy without Coulomb friction (``coulomb``) and/or viscous friction (``viscous``),
        as Corke's ``robot.nofriction(coulomb=True, viscous=False)``: by default only Coulomb
        friction goes (it makes simulation stiff); both for his MATLAB ``nofriction('all')``."""
        for what, flag in (("coulomb", coulomb), ("viscous", viscous)):
            if not isinstance(flag, (bool, np.bool_)):
                raise InvalidConfigurationError(
                    f"nofriction: {what} must be True or False, got {flag!r:.80} (Corke's MATLAB "
                    "nofriction('all') is nofriction(coulomb=True, viscous=True))")
        tree = self.copy()  # type: ignore[attr-defined]
        for b in tree.bodies:
            if coulomb and b.joint.coulomb_friction != (0.0, 0.0):
                b.joint.coulomb_friction = 0.0
            if viscous and b.joint.viscous_friction:
                b.joint.viscous_friction = 0.0
        return tree

    def forward_dynamics(self, q: ArrayLike | None = None, qd: ArrayLike | None = None,
                         tau: ArrayLike | None = None, fext: ArrayLike | None = None,
                         method: str = "aba") -> np.ndarray:
        """Joint accelerations for torques ``tau`` (MATLAB's ``forwardDynamics``); ``method``
        ``"aba"`` or ``"cholesky"``."""
        if self._loops:  # type: ignore[attr-defined]
            require_closed(self, q)  # type: ignore[arg-type]
        return forward_dynamics(self, q, qd, tau, fext, method)  # type: ignore[arg-type]

    def external_force(self, body: str, wrench: ArrayLike, q: ArrayLike | None = None) -> np.ndarray:
        """An ``fext`` array with ``wrench`` on ``body`` (MATLAB's ``externalForce``)."""
        return external_force(self, body, wrench, q)  # type: ignore[arg-type]
