"""Named poses of the lecture's robots (the FK lecture's worked examples: two-link planar,
cylindrical, spherical wrist, cylindrical + wrist, Stanford, SCARA), for stepping and animating
them in class: ``qz`` (every joint at zero) and one characteristic teaching pose each.

Radians and metres. Where zero lies outside a prismatic joint's range (the Stanford arm's d3 ∈
[0.3048, 1.27] m) ``qz`` has that joint at its shortest extension, so every pose is one the
robot can reach within its limits.
"""

from __future__ import annotations

from math import radians

_STANFORD_D3_MIN = 0.3048


def _deg(*values: float) -> tuple[float, ...]:
    return tuple(radians(v) for v in values)


_STANFORD = {
    "qz": (0.0, 0.0, _STANFORD_D3_MIN, 0.0, 0.0, 0.0),
    # shoulder turned and raised, the boom half out, the wrist bent: every frame apart
    "reach": (*_deg(30, 60), 0.8, *_deg(0, 45, 0)),
}

#: ``{robot: {pose name: q}}``
LECTURE_POSES: dict[str, dict[str, tuple[float, ...]]] = {
    # the lecture's MATLAB example: θ1 = 60°, θ2 = 30°, end effector at (0.5, 1.366, 0)
    "two_link_planar": {"qz": (0.0, 0.0), "example": _deg(60, 30)},
    "cylindrical": {"qz": (0.0, 0.0, 0.0), "reach": (radians(45), 0.5, 0.4)},
    # the wrist's joint angles as ZYZ Euler angles (φ, θ, ψ) = (30°, 45°, 60°), away from θ5 = 0
    "spherical_wrist": {"qz": (0.0, 0.0, 0.0), "euler": _deg(30, 45, 60)},
    "cylindrical_wrist": {"qz": (0.0,) * 6, "reach": (radians(45), 0.5, 0.4, *_deg(30, 45, 60))},
    "stanford": _STANFORD,
    "stanford_lecture": _STANFORD,
    "scara": {"qz": (0.0, 0.0, 0.0, 0.0), "reach": (*_deg(30, 60), 0.15, radians(90))},
}
