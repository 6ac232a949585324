"""Corke's motor and friction model of a 1-dof joint (Robotics Toolbox ``Link``).

The parameters are *motor referred*, as Corke's: gear ratio ``G`` (motor turns per joint turn,
sign allowed), motor inertia ``Jm``, viscous friction ``B`` and Coulomb friction ``Tc = (Tc⁺,
Tc⁻)`` (``Tc⁺ ≥ 0`` acts for a positive joint velocity, ``Tc⁻ ≤ 0`` for a negative one). On the
link side the motor adds ``G²·Jm`` to the mass matrix diagonal, and friction is

    ``friction(qd) = −|G| · (B·|G|·qd + Tc±)``   (``Tc±`` by the sign of ``qd``, 0 when ``qd = 0``)

which opposes the motion (Corke's ``Link.friction``). Inverse dynamics adds
``G²·Jm·qdd − friction(qd)`` to each joint's torque, as Corke's ``rne``.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any

from ..errors import InvalidJointError

if TYPE_CHECKING:
    from .joint import Joint

#: Largest magnitude accepted for any motor or friction parameter.
MAX_MOTOR_VALUE = 1e6
MOTOR_TYPES = ("revolute", "prismatic")


def _number(joint: Joint, value: Any, what: str, low: float, high: float) -> float:
    try:
        v = float(value)
    except (TypeError, ValueError):
        raise InvalidJointError(f"joint {joint.name!r}: {what} must be a number, got {value!r:.80}") from None
    if not (math.isfinite(v) and low <= v <= high):
        raise InvalidJointError(f"joint {joint.name!r}: {what} must be a finite number in [{low:g}, {high:g}], "
                                f"got {value!r:.80}")
    return v


class MotorMixin:
    """Motor and friction properties of :class:`~kinetree.core.model.joint.Joint` (module docstring)."""

    _gear: float = 1.0
    _jm: float = 0.0
    _visc: float = 0.0
    _tc: tuple[float, float] = (0.0, 0.0)

    def _motor_allowed(self: Joint, what: str, value: float, default: float) -> None:
        if value != default and self._type not in MOTOR_TYPES:
            raise InvalidJointError(f"joint {self._name!r}: a {self._type} joint has no {what} "
                                    f"(only revolute and prismatic joints have motors), got {value!r}")

    @property
    def gear_ratio(self) -> float:
        """Gear ratio ``G`` (Corke's ``G``, default 1; negative reverses the motor)."""
        return self._gear

    @gear_ratio.setter
    def gear_ratio(self: Joint, value: float) -> None:
        v = _number(self, value, "gear ratio", -MAX_MOTOR_VALUE, MAX_MOTOR_VALUE)
        if v == 0:
            raise InvalidJointError(f"joint {self._name!r}: gear ratio must not be 0, got {value!r}")
        self._motor_allowed("gear ratio", v, 1.0)
        self._gear = v
        self._changed()

    @property
    def motor_inertia(self) -> float:
        """Motor inertia ``Jm``, motor referred (kg·m², Corke's ``Jm``, default 0)."""
        return self._jm

    @motor_inertia.setter
    def motor_inertia(self: Joint, value: float) -> None:
        v = _number(self, value, "motor inertia", 0.0, MAX_MOTOR_VALUE)
        self._motor_allowed("motor inertia", v, 0.0)
        self._jm = v
        self._changed()

    @property
    def viscous_friction(self) -> float:
        """Viscous friction ``B``, motor referred (N·m·s/rad, Corke's ``B``, default 0)."""
        return self._visc

    @viscous_friction.setter
    def viscous_friction(self: Joint, value: float) -> None:
        v = _number(self, value, "viscous friction", 0.0, MAX_MOTOR_VALUE)
        self._motor_allowed("viscous friction", v, 0.0)
        self._visc = v
        self._changed()

    @property
    def coulomb_friction(self) -> tuple[float, float]:
        """Coulomb friction ``(Tc⁺, Tc⁻)``, motor referred (Corke's ``Tc``, default (0, 0)).
        Set a scalar ``F`` for ``(F, −F)`` or a pair with ``Tc⁺ ≥ 0 ≥ Tc⁻``."""
        return self._tc

    @coulomb_friction.setter
    def coulomb_friction(self: Joint, value: Any) -> None:
        try:
            pair = [value] if isinstance(value, (int, float)) else list(value)
        except TypeError:
            pair = [value]
        if len(pair) == 1:
            p = _number(self, pair[0], "Coulomb friction", 0.0, MAX_MOTOR_VALUE)
            tc = (p, -p)
        elif len(pair) == 2:
            tc = (_number(self, pair[0], "Coulomb friction Tc+", 0.0, MAX_MOTOR_VALUE),
                  _number(self, pair[1], "Coulomb friction Tc-", -MAX_MOTOR_VALUE, 0.0))
        else:
            raise InvalidJointError(f"joint {self._name!r}: Coulomb friction must be one number or "
                                    f"(Tc+, Tc-), got {value!r:.80}")
        tc = (tc[0] + 0.0, tc[1] + 0.0)  # no −0.0
        if tc != (0.0, 0.0):
            self._motor_allowed("Coulomb friction", 1.0, 0.0)
        self._tc = tc
        self._changed()

    @property
    def has_motor_terms(self) -> bool:
        """True when motor inertia or friction changes this joint's dynamics."""
        return bool(self._jm or self._visc or self._tc != (0.0, 0.0))

    def friction(self, qd: float) -> float:
        """Friction torque (force) on the link side for joint velocity ``qd``: viscous
        ``B·G²`` and Coulomb ``|G|·Tc±``, negative for ``qd > 0`` (it opposes the motion; add it
        to the motor's torque), as Corke's ``Link.friction``."""
        g = abs(self._gear)
        tau = self._visc * g * qd
        if qd > 0:
            tau += self._tc[0]
        elif qd < 0:
            tau += self._tc[1]
        return -g * tau

    def nofriction(self: Joint, only: str = "coulomb") -> Joint:
        """A detached copy without friction, as Corke's ``Link.nofriction``: ``"coulomb"``
        (Corke's default) zeroes ``Tc``, ``"viscous"`` zeroes ``B``, ``"all"`` both."""
        if only not in ("all", "coulomb", "viscous"):
            raise InvalidJointError(f"joint {self._name!r}: nofriction takes 'all', 'coulomb' or 'viscous', "
                                    f"got {only!r:.80}")
        j = self.copy()
        if only in ("all", "coulomb"):
            j._tc = (0.0, 0.0)
        if only in ("all", "viscous"):
            j._visc = 0.0
        return j

    def take_motor(self: Joint, other: Joint) -> None:
        """Take ``other``'s gear ratio, motor inertia and friction (both revolute or prismatic):
        an edit that rebuilds a joint keeps its motor."""
        if self._type in MOTOR_TYPES and other._type in MOTOR_TYPES:
            self._gear, self._jm, self._visc, self._tc = other._gear, other._jm, other._visc, other._tc
            self._changed()

    def motor_parameters(self) -> dict[str, Any]:
        """``{"gear_ratio", "motor_inertia", "viscous_friction", "coulomb_friction"}``."""
        return {"gear_ratio": self._gear, "motor_inertia": self._jm, "viscous_friction": self._visc,
                "coulomb_friction": list(self._tc)}
