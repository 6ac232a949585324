"""Every format into every other (issue 21's "convert between all formats"): a real robot taken
URDF → MJCF → SDFormat → project → URDF → MJCF keeps every body where the original has it, at
random configurations, and `kinetree convert` does the same steps from the command line."""

from __future__ import annotations

import warnings
from importlib.metadata import PackageNotFoundError, distribution

import numpy as np
import pytest
from kinetree.core.io.files import export_robot, import_robot

pytest.importorskip("mujoco")

CHAIN = ("r.xml", "r.sdf", "r.kinetree.json", "r2.urdf", "r2.xml")
ROBOTS = ["panda_description/urdf/panda.urdf", "ur_description/urdf/ur5_robot.urdf"]


def _robots():
    try:
        return distribution("example-robot-data").locate_file("cmeel.prefix/share/example-robot-data/robots")
    except PackageNotFoundError:
        pytest.skip("example-robot-data is not installed")


def _values(tree, q: np.ndarray) -> dict:
    """``q`` by joint name, with each mimic follower's value (for formats without mimics, where
    the follower is a joint of its own)."""
    values = tree.config_to_dict(q)
    for b in tree.bodies:
        m = b.joint.mimic
        if m is not None:
            values[b.joint.name] = m.multiplier * float(np.ravel(values[m.joint])[0]) + m.offset
    return values


def _poses(tree, values: dict, names) -> np.ndarray:
    """The poses of ``names`` with the joints at ``values`` (those ``tree`` moves itself)."""
    own = tree.config_to_dict(tree.home_configuration())
    v = tree.config_to_vector({k: x for k, x in values.items() if k in own})
    return np.array([tree.get_transform(v, n) for n in names])


@pytest.mark.parametrize("rel", ROBOTS)
def test_urdf_mjcf_sdf_project_urdf_mjcf_keeps_every_body(rel, tmp_path):
    tree = import_robot(_robots() / rel)
    trees, current = [], tree
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # what each format cannot hold is warned about elsewhere
        for name in CHAIN:
            export_robot(current, tmp_path / name)
            current = import_robot(tmp_path / name)
            trees.append((name, current))
    names = tree.body_names
    for name, other in trees:  # the base keeps its name and mass (MJCF's own base is the nameless world)
        assert (other.base_name, other.base.mass) == (tree.base_name, pytest.approx(tree.base.mass)), name
    rng = np.random.default_rng(7)
    for _ in range(5):
        q = _values(tree, tree.random_configuration(rng))
        ref = _poses(tree, q, names)
        for name, other in trees:
            assert set(names) <= set(other.body_names), name
            np.testing.assert_allclose(_poses(other, q, names), ref, atol=1e-9, rtol=0, err_msg=name)


def test_kinetree_convert_runs_the_chain(tmp_path, capsys):
    from kinetree.app.cli import main

    src = _robots() / ROBOTS[1]
    steps = [str(src), *(str(tmp_path / n) for n in CHAIN)]
    for a, b in zip(steps, steps[1:], strict=False):
        assert main(["convert", a, b]) == 0, capsys.readouterr().err
    tree, last = import_robot(src), import_robot(tmp_path / CHAIN[-1])
    q = _values(tree, tree.random_configuration(np.random.default_rng(1)))
    np.testing.assert_allclose(_poses(last, q, tree.body_names), _poses(tree, q, tree.body_names), atol=1e-9, rtol=0)
