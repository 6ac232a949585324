"""The example-robot-data URDFs against Pinocchio (importing this skips without either)."""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from kinetree.core import import_robot

from helpers.urdf import EXAMPLE_ROBOTS as ROBOTS
from helpers.urdf import REAL_URDFS as URDFS

pin = pytest.importorskip("pinocchio")


if ROBOTS is None:
    pytest.skip("example-robot-data is not installed", allow_module_level=True)


def load(key: str):
    path = ROBOTS / URDFS[key]
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        tree = import_robot(path, package_paths=(str(ROBOTS),))
    return tree, path, caught


def pinocchio_poses(model, data, tree, q) -> dict[str, np.ndarray]:
    """Pinocchio's BODY frame poses at KineTree's configuration ``q`` (Pinocchio builds mimic
    joints as independent joints, so they get the value KineTree's mimic gives them)."""
    values = {k: float(np.atleast_1d(v)[0]) for k, v in tree.config_to_dict(q).items()}
    for b in tree.bodies:
        m = b.joint.mimic
        if m is not None:
            values[b.joint.name] = m.multiplier * values[m.joint] + m.offset
    qp = pin.neutral(model)
    for jid in range(1, model.njoints):
        name, joint = model.names[jid], model.joints[jid]
        if name in values:
            v = values[name]
            if joint.nq == 2:  # continuous joints: (cos, sin)
                qp[joint.idx_q : joint.idx_q + 2] = [np.cos(v), np.sin(v)]
            else:
                qp[joint.idx_q] = v
    pin.framesForwardKinematics(model, data, qp)
    out = {}
    for b in tree.bodies:
        if model.existFrame(b.name, pin.FrameType.BODY):
            out[b.name] = data.oMf[model.getFrameId(b.name, pin.FrameType.BODY)].homogeneous
    return out
