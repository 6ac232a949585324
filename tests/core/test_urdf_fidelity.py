"""URDF files as readers see them: NaN refused where readers parse numbers; a fixed joint's
<mimic> loaded (ignored, with a warning)."""

from __future__ import annotations

import os
import subprocess
import sys
import warnings
from pathlib import Path

import pytest
from kinetree.core import FileFormatError, import_robot
from kinetree.core.io.urdf import UrdfWarning, import_urdf, urdf_from_string, urdf_string
from lxml import etree
from urdf_fixtures import EXAMPLE_ROBOTS, joint, link, robot

needs_robots = pytest.mark.skipif(EXAMPLE_ROBOTS is None, reason="example-robot-data not installed")
# the real files of the QA report, besides the test collection
EXTRA_URDFS = {"tiago": "tiago_description/robots/tiago.urdf", "talos_reduced": "talos_data/robots/talos_reduced.urdf",
               "ur5": "ur_description/urdf/ur5_robot.urdf"}


def _quiet(fn, *args, **kwargs):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return fn(*args, **kwargs)


def _kinetree(*args: str, cwd: Path) -> subprocess.CompletedProcess:
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen"}
    return subprocess.run([sys.executable, "-m", "kinetree.app", *args], cwd=cwd, env=env, capture_output=True,
                          text=True, timeout=120)


# --- refused numbers ------------------------------------------------------------------------------

@pytest.mark.parametrize("element, message", [
    ('<limit lower="-1" upper="1" effort="nan" velocity="1"/>', "limit effort is nan"),
    ('<limit lower="-1" upper="1" effort="1" velocity="inf"/>', "limit velocity is inf"),
    ('<limit lower="-1" upper="1" effort="-inf" velocity="1"/>', "limit effort is -inf"),
    ('<limit lower="-1" upper="1" effort="abc" velocity="1"/>', "limit effort 'abc' is not a number"),
    ('<dynamics damping="nan" friction="0"/>', "dynamics damping is nan"),
    ('<dynamics damping="0" friction="abc"/>', "dynamics friction 'abc' is not a number"),
    ('<safety_controller soft_lower_limit="nan" k_velocity="1"/>', "safety_controller soft_lower_limit is nan"),
    ('<safety_controller k_position="inf" k_velocity="1"/>', "safety_controller k_position is inf"),
    ('<calibration rising="nan"/>', "calibration rising is nan"),
])
def test_non_finite_joint_numbers_refused(tmp_path, element, message):
    text = robot(link("a") + link("b") + '\n' + joint("j", "revolute", "a", "b", limit=None, extra=element))
    (tmp_path / "bad.urdf").write_text(text)
    with pytest.raises(FileFormatError, match=rf"bad\.urdf:4: joint 'j': {message}"):
        import_urdf(tmp_path / "bad.urdf")


def test_export_refuses_a_kept_nan_effort_or_damping():
    """A project's joint extensions are written into the URDF: NaN would make it unreadable."""
    tree = urdf_from_string(robot(link("a") + link("b") + joint("j", "revolute", "a", "b")))
    for ext, message in (('<limit effort="nan" velocity="1"/>', "limit effort is nan"),
                         ('<dynamics damping="inf"/>', "dynamics damping is inf")):
        tree.get_body("b").joint.extensions = [ext]
        with pytest.raises(FileFormatError, match=f"joint 'j': extension 0: {message}"):
            urdf_string(tree)


# --- <mimic> on a fixed joint ----------------------------------------------------------------------

def test_fixed_joint_mimic_ignored_with_warning(tmp_path):
    text = robot(link("a") + link("b") + link("c") + "\n" + joint("lead", "revolute", "a", "b") + "\n"
                 + joint("f", "fixed", "b", "c", axis=None, limit=None, extra='<mimic joint="lead" multiplier="2"/>'))
    path = tmp_path / "m.urdf"
    path.write_text(text)
    with pytest.warns(UrdfWarning, match=r"m\.urdf:5: joint 'f': a fixed joint cannot mimic another; <mimic> "
                                         r"ignored"):
        tree = import_urdf(path)
    assert tree.get_body("c").joint.type == "fixed" and tree.get_body("c").joint.mimic is None
    assert "<mimic" not in urdf_string(tree)


@needs_robots
def test_talos_reduced_loads(tmp_path):
    src = EXAMPLE_ROBOTS / EXTRA_URDFS["talos_reduced"]
    with pytest.warns(UrdfWarning, match=r"talos_reduced\.urdf:1386: joint 'gripper_left_inner_double_joint': a "
                                         r"fixed joint cannot mimic another"):
        tree = import_robot(src)
    assert len(tree.bodies) == len(etree.parse(str(src)).getroot().findall("joint"))
    r = _kinetree("convert", str(src), str(tmp_path / "t.urdf"), cwd=tmp_path)  # the command line too
    assert r.returncode == 0, r.stderr
