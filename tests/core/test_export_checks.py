"""Exports say what they cannot hold and refuse what their own readers refuse: MJCF's symmetric
``frictionloss`` warns on an asymmetric Coulomb friction as URDF and SDF do."""

from __future__ import annotations

import re
import warnings

import pytest
from kinetree.core import load_robot
from kinetree.core.io import export_robot, import_robot
from kinetree.core.io.mjcf import mjcf_string


def test_mjcf_export_warns_on_asymmetric_coulomb_friction(tmp_path):
    tree = load_robot("puma560")
    q1 = tree.get_body("link1").joint
    tcp, tcm = q1.coulomb_friction
    assert tcm != -tcp  # Puma's q1: 24.73 N·m forwards, 27.24 backwards (link side)
    with pytest.warns(UserWarning, match=r"joints 'q1', .*: MJCF has no asymmetric Coulomb friction: frictionloss "
                                         r"holds the larger of Tc\+ and −Tc− \(link side\)") as record:
        export_robot(tree, tmp_path / "puma.xml")
    assert not any("gear ratio" in str(w.message) for w in record)  # armature, damping: the link side holds them
    back = import_robot(tmp_path / "puma.xml").get_body("link1").joint
    assert back.coulomb_friction[0] == pytest.approx(abs(q1.gear_ratio) * max(tcp, -tcm))


def test_mjcf_export_of_symmetric_friction_says_nothing_of_it():
    tree = load_robot("puma560")
    for b in tree.bodies:
        tcp, _ = b.joint.coulomb_friction
        b.joint.coulomb_friction = (tcp, -tcp)
    with warnings.catch_warnings(record=True) as record:
        warnings.simplefilter("always")
        text = mjcf_string(tree)
    assert not [w for w in record if "Coulomb" in str(w.message)]
    assert re.search(r'frictionloss="[1-9]', text)
