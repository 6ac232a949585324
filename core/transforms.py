"""Homogeneous transforms, rotations, DH matrices and pose conversions.

Angles are radians, lengths metres. A pose ``aTb`` is the 4×4 pose of frame b in frame a.
Rotation conversions are closed forms in numpy (scipy's ``Rotation`` gives the same numbers but
costs 0.35 s to import, a quarter of the app's budget for its first frame; the tests compare
against it).
"""

from __future__ import annotations

import math

import numpy as np
from numpy.typing import ArrayLike

from .errors import InvalidTransformError

ORTHONORMAL_TOL = 1e-9
#: The largest length (m) a robot file may give: bigger values are typos or hostile input.
MAX_LENGTH = 1e6


def rotx(angle: float) -> np.ndarray:
    """4×4 rotation about x."""
    c, s = math.cos(angle), math.sin(angle)
    return np.array([[1, 0, 0, 0], [0, c, -s, 0], [0, s, c, 0], [0, 0, 0, 1.0]])


def roty(angle: float) -> np.ndarray:
    """4×4 rotation about y."""
    c, s = math.cos(angle), math.sin(angle)
    return np.array([[c, 0, s, 0], [0, 1, 0, 0], [-s, 0, c, 0], [0, 0, 0, 1.0]])


def rotz(angle: float) -> np.ndarray:
    """4×4 rotation about z."""
    c, s = math.cos(angle), math.sin(angle)
    return np.array([[c, -s, 0, 0], [s, c, 0, 0], [0, 0, 1, 0], [0, 0, 0, 1.0]])


def transl(x: float = 0.0, y: float = 0.0, z: float = 0.0) -> np.ndarray:
    """4×4 pure translation."""
    T = np.eye(4)
    T[:3, 3] = (x, y, z)
    return T


def dh_transform(a: float, alpha: float, d: float, theta: float) -> np.ndarray:
    """Standard DH link transform ``Rz(θ)·Tz(d)·Tx(a)·Rx(α)``."""
    ca, sa, ct, st = math.cos(alpha), math.sin(alpha), math.cos(theta), math.sin(theta)
    return np.array(
        [
            [ct, -st * ca, st * sa, a * ct],
            [st, ct * ca, -ct * sa, a * st],
            [0.0, sa, ca, d],
            [0.0, 0.0, 0.0, 1.0],
        ]
    )


def mdh_transform(a: float, alpha: float, d: float, theta: float) -> np.ndarray:
    """Modified (Craig) DH link transform ``Rx(α)·Tx(a)·Rz(θ)·Tz(d)``."""
    ca, sa, ct, st = math.cos(alpha), math.sin(alpha), math.cos(theta), math.sin(theta)
    return np.array(
        [
            [ct, -st, 0.0, a],
            [st * ca, ct * ca, -sa, -sa * d],
            [st * sa, ct * sa, ca, ca * d],
            [0.0, 0.0, 0.0, 1.0],
        ]
    )


def axis_angle_rotation(axis: ArrayLike, angle: float) -> np.ndarray:
    """3×3 rotation by ``angle`` about the unit ``axis`` (Rodrigues)."""
    k = np.asarray(axis, dtype=float)
    K = np.array([[0, -k[2], k[1]], [k[2], 0, -k[0]], [-k[1], k[0], 0]])
    return np.eye(3) + math.sin(angle) * K + (1 - math.cos(angle)) * (K @ K)


def quat_to_rotation(q: ArrayLike) -> np.ndarray:
    """3×3 rotation of a quaternion ``[w x y z]`` (normalised first)."""
    q = np.asarray(q, dtype=float)
    if np.abs(q).max() > 1e150:  # the squares would overflow: scale first
        q = q / np.abs(q).max()
    w, x, y, z = q / np.linalg.norm(q)
    return np.array(
        [
            [1 - 2 * (y * y + z * z), 2 * (x * y - w * z), 2 * (x * z + w * y)],
            [2 * (x * y + w * z), 1 - 2 * (x * x + z * z), 2 * (y * z - w * x)],
            [2 * (x * z - w * y), 2 * (y * z + w * x), 1 - 2 * (x * x + y * y)],
        ]
    )


def inverse_transform(T: np.ndarray) -> np.ndarray:
    """Inverse of a rigid transform (or a stack of them, shape ``(..., 4, 4)``)."""
    T = np.asarray(T, dtype=float)
    Ti = np.zeros_like(T)
    Rt = np.swapaxes(T[..., :3, :3], -1, -2)
    Ti[..., :3, :3] = Rt
    Ti[..., :3, 3] = -np.einsum("...ij,...j->...i", Rt, T[..., :3, 3])
    Ti[..., 3, 3] = 1.0
    return Ti


_LAST_ROW = np.array([0.0, 0.0, 0.0, 1.0])
_I3 = np.eye(3)


def validate_transform(T: ArrayLike, what: str = "transform") -> np.ndarray:
    """Return ``T`` as a float 4×4 array or raise :class:`InvalidTransformError`.

    Checks shape, finiteness, the last row ``[0 0 0 1]`` and an orthonormal rotation with
    determinant +1 (tolerance 1e-9).
    """
    try:
        M = np.array(T, dtype=float)
    except (TypeError, ValueError) as exc:
        raise InvalidTransformError(f"{what}: not a numeric 4x4 matrix ({exc})") from None
    if M.shape != (4, 4):
        raise InvalidTransformError(f"{what}: expected a 4x4 matrix, got shape {M.shape}")
    # plain array methods and a closed-form determinant: files call this once per joint, and
    # np.allclose / np.linalg.det cost more than all the rest of loading a body
    if not np.isfinite(M).all():
        raise InvalidTransformError(f"{what}: contains NaN or infinity")
    if np.abs(M[3] - _LAST_ROW).max() > ORTHONORMAL_TOL:
        raise InvalidTransformError(f"{what}: last row must be [0 0 0 1], got {M[3].tolist()}")
    R = M[:3, :3]
    err = np.abs(R.T @ R - _I3).max()
    if err > ORTHONORMAL_TOL:
        raise InvalidTransformError(
            f"{what}: rotation part is not orthonormal (max |RᵀR − I| = {err:.3g})"
        )
    (a, b, c), (d, e, f), (g, h, i) = R.tolist()
    if a * (e * i - f * h) - b * (d * i - f * g) + c * (d * h - e * g) < 0:
        raise InvalidTransformError(f"{what}: rotation part is a reflection (det = −1)")
    M[3] = (0, 0, 0, 1)
    return M


# --- pose conversions (for readouts and editors) -------------------------------------------

def rpy_to_matrix(rpy: ArrayLike) -> np.ndarray:
    """3×3 rotation from roll, pitch, yaw: ``Rz(yaw)·Ry(pitch)·Rx(roll)`` (URDF's convention)."""
    r, p, y = np.asarray(rpy, dtype=float).reshape(3)
    cr, sr, cp, sp, cy, sy = math.cos(r), math.sin(r), math.cos(p), math.sin(p), math.cos(y), math.sin(y)
    return np.array([[cy * cp, cy * sp * sr - sy * cr, cy * sp * cr + sy * sr],
                     [sy * cp, sy * sp * sr + cy * cr, sy * sp * cr - cy * sr],
                     [-sp, cp * sr, cp * cr]])


def matrix_to_rpy(R: ArrayLike) -> np.ndarray:
    """Roll, pitch, yaw of a rotation, inverse of :func:`rpy_to_matrix` (pitch in [−π/2, π/2]).

    Yaw first, then pitch and roll in the yaw-free frame: exact to rounding also near gimbal
    lock, where the textbook formulas lose digits (yaw is 0 exactly at the lock)."""
    R = np.asarray(R, dtype=float)
    y = math.atan2(R[1, 0], R[0, 0])
    c, s = math.cos(y), math.sin(y)
    p = math.atan2(-R[2, 0], c * R[0, 0] + s * R[1, 0])
    r = math.atan2(s * R[0, 2] - c * R[1, 2], c * R[1, 1] - s * R[0, 1])
    return np.array([r, p, y])


def matrix_to_zyz(R: ArrayLike) -> np.ndarray:
    """Intrinsic ZYZ Euler angles ``(φ, θ, ψ)``, ``R = Rz(φ)·Ry(θ)·Rz(ψ)``, θ in [0, π].

    φ first, then θ and ψ from ``Rz(−φ)·R``: exact to rounding near θ = 0 or π too (where φ
    is 0 exactly at the lock)."""
    R = np.asarray(R, dtype=float)
    phi = math.atan2(R[1, 2], R[0, 2])
    c, s = math.cos(phi), math.sin(phi)
    theta = math.atan2(c * R[0, 2] + s * R[1, 2], R[2, 2])
    psi = math.atan2(c * R[1, 0] - s * R[0, 0], c * R[1, 1] - s * R[0, 1])
    return np.array([phi, theta, psi])


def matrix_to_quat(R: ArrayLike) -> np.ndarray:
    """Unit quaternion ``[w x y z]`` (w ≥ 0) of a rotation (Shepperd's method: divide by the
    largest of the four candidates)."""
    R = np.asarray(R, dtype=float)
    tr = R[0, 0] + R[1, 1] + R[2, 2]
    k = int(np.argmax([tr, R[0, 0], R[1, 1], R[2, 2]]))
    if k == 0:
        s = 2.0 * math.sqrt(1.0 + tr)
        q = [0.25 * s, (R[2, 1] - R[1, 2]) / s, (R[0, 2] - R[2, 0]) / s, (R[1, 0] - R[0, 1]) / s]
    elif k == 1:
        s = 2.0 * math.sqrt(1.0 + R[0, 0] - R[1, 1] - R[2, 2])
        q = [(R[2, 1] - R[1, 2]) / s, 0.25 * s, (R[0, 1] + R[1, 0]) / s, (R[0, 2] + R[2, 0]) / s]
    elif k == 2:
        s = 2.0 * math.sqrt(1.0 - R[0, 0] + R[1, 1] - R[2, 2])
        q = [(R[0, 2] - R[2, 0]) / s, (R[0, 1] + R[1, 0]) / s, 0.25 * s, (R[1, 2] + R[2, 1]) / s]
    else:
        s = 2.0 * math.sqrt(1.0 - R[0, 0] - R[1, 1] + R[2, 2])
        q = [(R[1, 0] - R[0, 1]) / s, (R[0, 2] + R[2, 0]) / s, (R[1, 2] + R[2, 1]) / s, 0.25 * s]
    q = np.array(q)
    q /= np.linalg.norm(q)
    return -q if q[0] < 0 else q


def rotation_readouts(R: ArrayLike) -> dict[str, np.ndarray | float]:
    """Every readout of a rotation: ``rpy`` (:func:`matrix_to_rpy`), ``zyz``
    (:func:`matrix_to_zyz`), ``quat`` (:func:`matrix_to_quat`), and the unit ``axis`` and
    ``angle`` in [0, π] (axis z for the identity)."""
    R = np.asarray(R, dtype=float)[:3, :3]
    quat = matrix_to_quat(R)
    n = float(np.linalg.norm(quat[1:]))
    angle = 2.0 * math.atan2(n, quat[0])
    axis = quat[1:] / n if n > 1e-15 else np.array([0.0, 0.0, 1.0])
    return {"rpy": matrix_to_rpy(R), "zyz": matrix_to_zyz(R), "quat": quat, "axis": axis,
            "angle": angle if n > 1e-15 else 0.0}


def pose_from_xyz_rpy(xyz: ArrayLike, rpy: ArrayLike) -> np.ndarray:
    """4×4 pose from a translation and roll/pitch/yaw."""
    T = np.eye(4)
    T[:3, :3] = rpy_to_matrix(rpy)
    T[:3, 3] = np.asarray(xyz, dtype=float)
    return T
