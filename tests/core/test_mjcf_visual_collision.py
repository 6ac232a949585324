"""MJCF visual and collision geometry told apart as MuJoCo does: in a body with visual-only geoms
(contype = conaffinity = 0), its colliding geoms are collision geometry only (drawn on top of the
visuals they z-fight); a body with colliding geoms only draws them too; groups 3+ are hidden."""

from __future__ import annotations

import importlib.util
import warnings
from pathlib import Path

import pytest
from kinetree.core import RigidBody, RigidBodyTree
from kinetree.core.io import export_robot, import_robot
from kinetree.core.io.mjcf import import_mjcf
from lxml import etree

MODEL = """<mujoco model="m">
  <worldbody>
    <body name="both" pos="0 0 0.1">
      <joint name="j1" type="hinge" axis="0 0 1"/>
      <geom name="look" type="box" size="0.1 0.1 0.1" group="1" contype="0" conaffinity="0"/>
      <geom name="hit" type="box" size="0.12 0.12 0.12" group="0"/>
      <geom name="hidden_look" type="sphere" size="0.05" group="3" contype="0" conaffinity="0"/>
      <geom name="hidden_hit" type="sphere" size="0.06" group="3"/>
    </body>
    <body name="colliding_only" pos="0.5 0 0">
      <joint name="j2" type="hinge" axis="0 0 1"/>
      <geom name="solid" type="box" size="0.1 0.2 0.3"/>
      <geom name="solid_hidden" type="sphere" size="0.1" group="4"/>
    </body>
  </worldbody>
</mujoco>
"""


def names(shapes) -> list[str]:
    return [s.name for s in shapes]


@pytest.fixture
def tree(tmp_path) -> RigidBodyTree:
    path = tmp_path / "m.xml"
    path.write_text(MODEL)
    return import_mjcf(path)


def test_colliding_geoms_beside_visual_only_ones_are_collision_geometry_only(tree):
    b = tree.get_body("both")
    assert names(b.visuals) == ["look"]
    assert names(b.collisions) == ["hit", "hidden_hit"]


def test_a_body_with_colliding_geoms_only_draws_those_in_groups_0_to_2(tree):
    b = tree.get_body("colliding_only")
    assert names(b.visuals) == ["solid"]
    assert names(b.collisions) == ["solid", "solid_hidden"]


def test_a_urdf_exported_from_it_has_no_doubled_geometry(tree, tmp_path):
    out = tmp_path / "m.urdf"
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        export_robot(tree, out)
    link = etree.parse(str(out)).find("link[@name='both']")
    assert len(link.findall("visual")) == 1 and len(link.findall("collision")) == 2
    back = import_robot(out)
    assert len(back.get_body("both").visuals) == 1


def test_kinetree_to_mjcf_and_back_keeps_visuals_and_collisions(tmp_path):
    """A body with a visual of its own and a shape that is both: the shared one is not read back
    as collision geometry only."""
    tree = RigidBodyTree()
    b = RigidBody("b")
    tree.add_body(b, tree.base_name)
    b = tree.get_body("b")
    b.mass = 1.0
    b.add_visual("box", (0.1, 0.1, 0.1), name="only_look")
    b.add_visual("sphere", (0.05,), name="shared")
    b.add_collision("sphere", (0.05,), name="shared")
    c = RigidBody("c")
    tree.add_body(c, "b")
    c = tree.get_body("c")
    c.mass = 1.0
    c.add_visual("sphere", (0.07,), name="c_shared")
    c.add_collision("sphere", (0.07,), name="c_shared")
    out = tmp_path / "r.xml"
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        export_robot(tree, out)
    back = import_mjcf(out)
    for name in ("b", "c"):
        old, new = tree.get_body(name), back.get_body(name)
        assert [(v.kind, v.size) for v in new.visuals] == [(v.kind, v.size) for v in old.visuals], name
        assert [(v.kind, v.size) for v in new.collisions] == [(v.kind, v.size) for v in old.collisions], name
    assert len(etree.parse(str(out)).findall(".//body[@name='c']/geom")) == 1  # one geom for a shape that is both


def _model(package: str, sub: str) -> Path:
    spec = importlib.util.find_spec(package)  # finds the files without importing the package
    if spec is None or not spec.submodule_search_locations:
        pytest.skip(f"{package} is not installed")
    return Path(next(iter(spec.submodule_search_locations))) / sub


@pytest.mark.parametrize("package, sub, body", [
    ("dm_control", "suite/finger.xml", "distal"),
    ("gymnasium", "envs/mujoco/assets/pusher.xml", "object"),
])
def test_real_models_draw_visual_geoms_not_their_colliders(package, sub, body):
    import mujoco

    path = _model(package, sub)
    m = mujoco.MjModel.from_xml_path(str(path))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        tree = import_mjcf(path)
    bid = mujoco.mj_name2id(m, mujoco.mjtObj.mjOBJ_BODY, body)
    geoms = range(m.body_geomadr[bid], m.body_geomadr[bid] + m.body_geomnum[bid])
    visual_only = [g for g in geoms if m.geom_group[g] < 3 and not (m.geom_contype[g] or m.geom_conaffinity[g])]
    colliding = [g for g in geoms if m.geom_contype[g] or m.geom_conaffinity[g]]
    assert visual_only and colliding  # the case this is about
    b = tree.get_body(body)
    assert b.visuals and b.collisions
    assert not set(b.visuals) & set(b.collisions)  # nothing drawn twice
    geom_names = {mujoco.mj_id2name(m, mujoco.mjtObj.mjOBJ_GEOM, g) for g in colliding} - {None}
    assert not geom_names & set(names(b.visuals))
