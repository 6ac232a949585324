"""Homogeneous transforms, rotations, DH matrices and pose conversions.

Angles are radians, lengths metres. A pose ``aTb`` is the 4×4 pose of frame b in frame a.
Rotation conversions go through :class:`scipy.spatial.transform.Rotation`.
"""

from __future__ import annotations

import math

import numpy as np
from numpy.typing import ArrayLike
from scipy.spatial.transform import Rotation

from .errors import InvalidTransformError

ORTHONORMAL_TOL = 1e-9


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
    w, x, y, z = np.asarray(q, dtype=float) / np.linalg.norm(q)
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
    if not np.all(np.isfinite(M)):
        raise InvalidTransformError(f"{what}: contains NaN or infinity")
    if not np.allclose(M[3], [0, 0, 0, 1], rtol=0, atol=ORTHONORMAL_TOL):
        raise InvalidTransformError(f"{what}: last row must be [0 0 0 1], got {M[3].tolist()}")
    R = M[:3, :3]
    err = np.abs(R.T @ R - np.eye(3)).max()
    if err > ORTHONORMAL_TOL:
        raise InvalidTransformError(
            f"{what}: rotation part is not orthonormal (max |RᵀR − I| = {err:.3g})"
        )
    if np.linalg.det(R) < 0:
        raise InvalidTransformError(f"{what}: rotation part is a reflection (det = −1)")
    M[3] = (0, 0, 0, 1)
    return M


# --- pose conversions (for readouts and editors) -------------------------------------------

def rpy_to_matrix(rpy: ArrayLike) -> np.ndarray:
    """3×3 rotation from roll, pitch, yaw: ``Rz(yaw)·Ry(pitch)·Rx(roll)`` (URDF's convention)."""
    return Rotation.from_euler("xyz", np.asarray(rpy, dtype=float)).as_matrix()


def matrix_to_rpy(R: ArrayLike) -> np.ndarray:
    """Roll, pitch, yaw of a rotation, inverse of :func:`rpy_to_matrix`."""
    return _quiet_euler(R, "xyz")


def _quiet_euler(R: ArrayLike, seq: str) -> np.ndarray:
    import warnings

    with warnings.catch_warnings():  # gimbal lock is a fact of the pose, not a user error
        warnings.simplefilter("ignore", UserWarning)
        return Rotation.from_matrix(np.asarray(R, dtype=float)[:3, :3]).as_euler(seq)


def matrix_to_quat(R: ArrayLike) -> np.ndarray:
    """Unit quaternion ``[w x y z]`` (w ≥ 0) of a rotation."""
    x, y, z, w = Rotation.from_matrix(np.asarray(R, dtype=float)[:3, :3]).as_quat()
    q = np.array([w, x, y, z])
    return -q if w < 0 else q


def rotation_readouts(R: ArrayLike) -> dict[str, np.ndarray | float]:
    """Every readout of a rotation from one conversion: ``rpy`` as :func:`matrix_to_rpy`, ``zyz``
    (intrinsic ZYZ Euler angles φ, θ, ψ with ``R = Rz(φ)·Ry(θ)·Rz(ψ)``), ``quat`` as
    :func:`matrix_to_quat`, and the unit ``axis`` and ``angle`` in [0, π] (axis z for the identity)."""
    import warnings

    rot = Rotation.from_matrix(np.asarray(R, dtype=float)[:3, :3])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        rpy, zyz = rot.as_euler("xyz"), rot.as_euler("ZYZ")
    x, y, z, w = rot.as_quat()
    quat = np.array([w, x, y, z])
    v = rot.as_rotvec()
    angle = float(np.linalg.norm(v))
    axis = v / angle if angle >= 1e-15 else np.array([0.0, 0.0, 1.0])
    return {"rpy": rpy, "zyz": zyz, "quat": -quat if w < 0 else quat, "axis": axis,
            "angle": angle if angle >= 1e-15 else 0.0}


def pose_from_xyz_rpy(xyz: ArrayLike, rpy: ArrayLike) -> np.ndarray:
    """4×4 pose from a translation and roll/pitch/yaw."""
    T = np.eye(4)
    T[:3, :3] = rpy_to_matrix(rpy)
    T[:3, 3] = np.asarray(xyz, dtype=float)
    return T
