"""Corke's printed dynamics of the links: ``Link.dyn`` for one body and ``robot.dynamics()`` as a
table (``show_details(dynamics=True)``).

Per body: mass ``m``, centre of mass ``r`` (body frame), inertia ``I`` about the centre of mass
(Corke's convention; KineTree stores it about the body origin and converts), and its joint's
motor terms ``Jm``, ``B``, ``Tc = (Tc⁺, Tc⁻)``, ``G`` and the limits ``qlim``. Numbers are printed
with 6 significant digits, so that a stored parameter is shown as it is (Corke prints 2–3).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from ..model.joint_motor import MOTOR_TYPES

if TYPE_CHECKING:
    from ..model.body import RigidBody
    from ..tree import RigidBodyTree


def _g(x: float) -> str:
    return f"{float(x):.6g}"


def _about_com(body: RigidBody) -> np.ndarray:
    """3×3 inertia about the centre of mass, of the body's :attr:`inertia_corke`."""
    xx, yy, zz, xy, yz, xz = body.inertia_corke
    return np.array([[xx, xy, xz], [xy, yy, yz], [xz, yz, zz]])


def _motor(body: RigidBody) -> list[str]:
    j = body.joint
    if j.type not in MOTOR_TYPES or j.mimic is not None:
        return ["-"] * 5
    lo, hi = (float(v) for v in np.asarray(j.position_limits, dtype=float).reshape(-1)[:2])
    tp, tm = j.coulomb_friction
    return [_g(j.motor_inertia), _g(j.viscous_friction), f"{_g(tp)}, {_g(tm)}", _g(j.gear_ratio),
            f"{_g(lo)} to {_g(hi)}"]


def link_dyn(tree: RigidBodyTree, body: str) -> str:
    """Corke's ``Link.dyn``: ``body``'s m, r, I (about its centre of mass), Jm, B, Tc, G, qlim."""
    b = tree.get_body(body)
    I = _about_com(b)
    jm, visc, tc, gear, qlim = _motor(b)
    rows = [f"{b.name} (joint {b.joint.name!r}, {b.joint.type})", f"m     = {_g(b.mass)}",
            "r     = " + "  ".join(_g(v) for v in b.center_of_mass)]
    width = max(len(_g(v)) for v in I.ravel())
    for r in range(3):
        cells = "  ".join(_g(v).rjust(width) for v in I[r])
        rows.append(f"{'I     = ' if r == 1 else ' ' * 8}| {cells} |")
    if tc != "-":
        tp, tm = tc.split(", ")
        tc = f"{tp}(+)  {tm}(-)"
    rows += [f"Jm    = {jm}", f"B     = {visc}", f"Tc    = {tc}", f"G     = {gear}", f"qlim  = {qlim}"]
    return "\n".join(rows)


def dynamics_table(tree: RigidBodyTree) -> str:
    """Corke's ``robot.dynamics()``: a row per body (m, r, I about the centre of mass as
    ``xx yy zz xy yz xz``, Jm, B, Tc⁺/Tc⁻, G, qlim); ``-`` where the joint has no motor."""
    head = ("body", "m", "r", "I (xx yy zz xy yz xz)", "Jm", "B", "Tc (+, -)", "G", "qlim")
    rows = [head]
    for b in tree.bodies:
        inertia = ", ".join(_g(v) for v in b.inertia_corke)
        rows.append((b.name, _g(b.mass), ", ".join(_g(v) for v in b.center_of_mass), inertia, *_motor(b)))
    widths = [max(len(r[c]) for r in rows) for c in range(len(head))]
    lines = [" | ".join(cell.ljust(w) for cell, w in zip(r, widths)).rstrip() for r in rows]
    rule = "-" * max(len(line) for line in lines)
    return "\n".join(["Dynamics (Corke's Link: I about the centre of mass; Jm, B, Tc motor side)", rule, lines[0],
                      rule, *lines[1:], rule])


class DynamicsTableMixin:
    """Corke's ``dyn`` for :class:`~kinetree.core.tree.RigidBodyTree`."""

    def dyn(self, body: str | None = None) -> str:
        """Corke's ``Link.dyn`` text for ``body``, or his ``robot.dynamics()`` table of every body."""
        return dynamics_table(self) if body is None else link_dyn(self, body)  # type: ignore[arg-type]
