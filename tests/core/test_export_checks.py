"""Exports say what they cannot hold and refuse what their own readers refuse: MJCF's symmetric
``frictionloss`` warns on an asymmetric Coulomb friction as URDF and SDF do; a body named
``world`` (MJCF, SDFormat) and a mass of 1e300 kg are refused at write time, naming the body and
the value, instead of files the readers refuse."""

from __future__ import annotations

import re
import warnings

import pytest
from kinetree.core import Joint, RigidBody, RigidBodyTree, load_robot
from kinetree.core.errors import FileFormatError
from kinetree.core.io import export_robot, import_robot
from kinetree.core.io.mjcf import mjcf_string
from kinetree.core.io.project_check import MAX_MASS


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


# --- every writer refuses what its own reader refuses -------------------------------------------
def _arm(first: str = "upper", joint: str = "j1") -> RigidBodyTree:
    tree = RigidBodyTree(base_name="base")
    for name, jname, parent in ((first, joint, "base"), ("tip", "j2", first)):
        body = RigidBody(name)
        body.joint = Joint(jname, "revolute")
        body.mass = 2.0
        tree.add_body(body, parent)
    return tree


@pytest.mark.parametrize(("suffix", "why"), [
    (".xml", "body 'world': MJCF reserves the name 'world' for its worldbody"),
    (".sdf", "body 'world': SDFormat reserves it (a name may not contain '::', be 'world' or start with '__')")])
def test_a_body_named_world_is_refused_at_write_where_the_reader_refuses_it(tmp_path, suffix, why):
    with pytest.raises(FileFormatError, match=re.escape(why)):
        export_robot(_arm("world"), tmp_path / f"w{suffix}")
    assert not (tmp_path / f"w{suffix}").exists()
    export_robot(_arm("world_link"), tmp_path / f"w{suffix}")  # renamed: it reads back
    assert import_robot(tmp_path / f"w{suffix}").body_names == ["world_link", "tip"]


def test_sdf_refuses_every_name_its_reader_reserves(tmp_path):
    for tree, what in ((_arm("__hidden"), "body '__hidden'"), (_arm(joint="__model__"), "joint '__model__'"),
                       (_arm("arm::world"), "body 'arm::world'")):
        with pytest.raises(FileFormatError, match=re.escape(f"{what}: SDFormat reserves it")):
            export_robot(tree, tmp_path / "w.sdf")
    export_robot(_arm("arm::upper"), tmp_path / "w.sdf")  # a '::' name: a nested model, read back
    assert import_robot(tmp_path / "w.sdf").body_names == ["arm::upper", "tip"]


@pytest.mark.parametrize(("suffix", "reader"), [(".xml", "the MJCF reader"), (".sdf", "an SDFormat reader"),
                                                (".urdf", "a URDF reader")])
def test_a_mass_the_readers_refuse_is_refused_at_write(tmp_path, suffix, reader):
    heavy = _arm()
    heavy.get_body("upper").mass = 1e300
    with pytest.raises(FileFormatError, match=re.escape(f"body 'upper': mass 1e+300 kg is more than the 1e+12 "
                                                        f"{reader} accepts")):
        export_robot(heavy, tmp_path / f"w{suffix}")
    assert not (tmp_path / f"w{suffix}").exists()
    heavy.get_body("upper").mass = MAX_MASS  # the most the readers take: written and read back
    export_robot(heavy, tmp_path / f"w{suffix}")
    assert import_robot(tmp_path / f"w{suffix}").get_body("upper").mass == MAX_MASS


def test_the_mjcf_reader_refuses_the_mass_every_other_reader_refuses(tmp_path):
    path = tmp_path / "heavy.xml"
    path.write_text('<mujoco><worldbody><body name="b"><joint type="hinge"/>'
                    '<inertial pos="0 0 0" mass="1e300" diaginertia="1 1 1"/></body></worldbody></mujoco>')
    with pytest.raises(FileFormatError, match=re.escape("heavy.xml: body 'b': mass 1e+300 kg is more than the "
                                                        "1e+12 KineTree accepts")):
        import_robot(path)
