"""Joint channels: the scalar controls of each joint type, read and written back."""

from __future__ import annotations

import math

import numpy as np
import pytest
from kinetree.core import Joint
from kinetree.core.model.channels import (
    QUATERNION_TYPES,
    channel_values,
    is_axial,
    joint_channels,
    with_channel,
    zero_positions,
)
from kinetree.core.model.joint import JOINT_TYPES


def joint(t: str) -> Joint:
    return Joint("j.1", t)  # a dot in the name: keys are never parsed


def test_channel_layout_per_type():
    parts = {t: [c.part for c in joint_channels(joint(t))] for t in JOINT_TYPES}
    assert parts == {"fixed": [], "revolute": [""], "prismatic": [""], "planar": ["0", "1", "2"],
                     "spherical": ["roll", "pitch", "yaw"],
                     "floating": ["x", "y", "z", "roll", "pitch", "yaw"],
                     "euler_zyx": ["0", "1", "2"], "euler_xyz": ["0", "1", "2"], "euler_yxz": ["0", "1", "2"],
                     "translation_xyz": ["0", "1", "2"], "custom": ["0"]}
    kinds = {t: [c.kind for c in joint_channels(joint(t))] for t in ("revolute", "prismatic", "planar",
                                                                      "euler_zyx", "translation_xyz")}
    assert kinds == {"revolute": ["angle"], "prismatic": ["length"], "planar": ["length", "length", "angle"],
                     "euler_zyx": ["angle"] * 3, "translation_xyz": ["length"] * 3}
    assert [c.label for c in joint_channels(joint("euler_zyx"))] == ["j.1 rz", "j.1 ry", "j.1 rx"]
    custom = Joint("c", "custom", [(0, 0, 0, 0, 2, 0), (1, 1, 0, 0, 0, 0), (0, 0, 0, 1, 0, 1)])
    assert [(c.label, c.kind) for c in joint_channels(custom)] == [("c y", "length"), ("c r1", "angle"),
                                                                   ("c t2", "length")]
    assert [c.key for c in joint_channels(joint("floating"))][:2] == ["j.1.x", "j.1.y"]
    assert [t for t in JOINT_TYPES if is_axial(joint(t))] == ["revolute", "prismatic"]


@pytest.mark.parametrize("t", JOINT_TYPES)
def test_each_channel_written_reads_back(t):
    j = joint(t)
    q = zero_positions(j)
    assert len(q) == j.position_count
    if t in QUATERNION_TYPES:
        assert q[0] == 1.0
    for c in joint_channels(j):
        value = 0.3 if c.kind == "angle" else 0.05
        q = with_channel(j, q, c.part, value)
        assert channel_values(j, q)[c.part] == pytest.approx(value, abs=1e-12)
    if t in QUATERNION_TYPES:
        assert np.linalg.norm(q[:4]) == pytest.approx(1.0)
        assert [channel_values(j, q)[a] for a in ("roll", "pitch", "yaw")] == pytest.approx([0.3] * 3)


def test_zero_of_a_joint_whose_limits_exclude_zero_is_its_home():
    j = joint("revolute")
    j.home_position = 0.75
    j.position_limits = (0.5, 1.0)
    assert zero_positions(j).tolist() == [0.75]
    j.position_limits = (-math.pi, math.pi)
    assert zero_positions(j).tolist() == [0.0]
