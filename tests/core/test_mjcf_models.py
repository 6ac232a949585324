"""Real MJCF and URDF robots through KineTree's MJCF reader and writer, against MuJoCo: the
models of dm_control's suite and Gymnasium (their XML and assets, never imported), and the
example-robot-data URDFs (Talos, Panda, UR5) converted to MJCF. Skipped without them."""

from __future__ import annotations

import importlib.util
import warnings
from pathlib import Path

import numpy as np
import pytest
from helpers.mjcf import load_model, same_poses, worst_pose_error
from helpers.urdf import EXAMPLE_ROBOTS, REAL_URDFS
from kinetree.core import import_robot
from kinetree.core.io import export_robot
from kinetree.core.io.mjcf import import_mjcf


def _folder(package: str, sub: str) -> Path | None:
    spec = importlib.util.find_spec(package)  # finds the files without importing the package
    if spec is None or not spec.submodule_search_locations:
        return None
    return Path(next(iter(spec.submodule_search_locations))) / sub


SUITE = _folder("dm_control", "suite")
GYM = _folder("gymnasium", "envs/mujoco/assets")
MODELS = ([pytest.param(p, id=f"dm_control-{p.stem}") for p in sorted(SUITE.glob("*.xml"))] if SUITE else []) + \
         ([pytest.param(p, id=f"gymnasium-{p.stem}") for p in sorted(GYM.glob("*.xml"))] if GYM else [])


def read(path):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return import_mjcf(path)


@pytest.mark.skipif(not MODELS, reason="neither dm_control nor gymnasium is installed")
@pytest.mark.parametrize("path", MODELS)
def test_real_model_reads_and_writes_where_mujoco_puts_every_body(path, tmp_path):
    tree = read(path)
    assert worst_pose_error(tree, path, n=20) < 1e-9
    out = tmp_path / f"{path.stem}.xml"
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        export_robot(tree, out)
    original, written = load_model(path), load_model(out)
    assert worst_pose_error(tree, out, n=20, model=written) < 1e-9
    for field in ("nbody", "njnt", "nu", "nsensor", "ntendon", "nsite", "ncam", "nlight", "nkey", "nmocap"):
        assert getattr(written, field) == getattr(original, field), field
    # joint dynamics: modelled (damping, friction loss, armature) and kept (stiffness, class …)
    for field in ("dof_damping", "dof_frictionloss", "dof_armature", "jnt_stiffness", "qpos_spring"):
        np.testing.assert_allclose(getattr(written, field), getattr(original, field), rtol=1e-12, err_msg=field)
    back = read(out)
    assert back.body_names == tree.body_names
    assert same_poses(tree, back) < 1e-12
    np.testing.assert_allclose([b.mass for b in back.bodies], [b.mass for b in tree.bodies], rtol=1e-12)


@pytest.mark.skipif(EXAMPLE_ROBOTS is None, reason="example-robot-data is not installed")
@pytest.mark.parametrize("key", ["talos", "panda", "ur5"])
def test_urdf_to_mjcf_keeps_every_pose(key, tmp_path):
    rel = REAL_URDFS.get(key, "ur_description/urdf/ur5_robot.urdf")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        tree = import_robot(EXAMPLE_ROBOTS / rel, package_paths=(str(EXAMPLE_ROBOTS), str(EXAMPLE_ROBOTS.parents[1])))
        out = tmp_path / f"{key}.xml"
        assert export_robot(tree, out) == tree.num_bodies
    assert worst_pose_error(tree, out, n=20) < 1e-9  # MuJoCo puts the written bodies where KineTree does
    back = read(out)
    assert sorted(back.body_names) == sorted(tree.body_names)  # MJCF nests bodies: depth-first order
    assert same_poses(tree, back, n=20) < 1e-9
    meshes = sum(1 for b in tree.bodies for v in (*b.visuals, *b.collisions) if v.kind == "mesh")
    assert meshes and sum(1 for b in back.bodies for v in (*b.visuals, *b.collisions) if v.kind == "mesh") >= meshes
