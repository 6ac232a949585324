"""MJCF in the app and on the command line: File ▸ Import of a MuJoCo model, File ▸ Export to
MJCF, and ``kinetree convert in.urdf out.xml`` / ``details`` / ``fk`` on MJCF files."""

from __future__ import annotations

import numpy as np
from helpers.mjcf import load_model, worst_pose_error
from kinetree.app.main import main
from PySide6.QtGui import QAction
from PySide6.QtWidgets import QFileDialog

ARM = """<mujoco model="arm">
  <compiler angle="degree"/>
  <asset><mesh name="gone" file="meshes/gone.stl"/></asset>
  <worldbody>
    <body name="upper" pos="0 0 0.1" euler="0 0 30">
      <joint name="shoulder" axis="0 1 0" range="-90 90"/>
      <geom type="capsule" fromto="0 0 0 0 0 0.4" size="0.04"/>
      <body name="fore" pos="0 0 0.4">
        <joint name="elbow_x" axis="1 0 0" pos="0 0 0.02"/>
        <joint name="elbow_y" axis="0 1 0" range="-120 120"/>
        <geom type="mesh" mesh="gone"/>
        <geom type="box" size="0.02 0.02 0.15" pos="0 0 0.15"/>
      </body>
    </body>
  </worldbody>
  <actuator><motor joint="shoulder"/></actuator>
</mujoco>
"""


def test_file_import_opens_an_mjcf_and_export_writes_one(window, tmp_path, monkeypatch):
    src = tmp_path / "arm.xml"
    src.write_text(ARM)
    monkeypatch.setattr(QFileDialog, "getOpenFileName", staticmethod(lambda *a, **k: (str(src), "")))
    window.findChild(QAction, "importAction").trigger()
    doc = window.doc
    assert doc.tree.body_names == ["upper", "elbow_x", "fore"]  # two joints in "fore": a chain
    assert "gone.stl" in window.statusBar().currentMessage()  # a warning, not a failed import
    assert list(window.sliders.rows) == ["shoulder", "elbow_x", "elbow_y"]
    ref = tmp_path / "arm_without_mesh.xml"  # MuJoCo itself refuses the missing mesh
    ref.write_text(ARM.replace('<mesh name="gone" file="meshes/gone.stl"/>', "").replace(
        '<geom type="mesh" mesh="gone"/>', ""))
    assert worst_pose_error(doc.tree, ref, n=20) < 1e-9

    out = tmp_path / "out" / "arm_copy.xml"
    out.parent.mkdir()
    monkeypatch.setattr(QFileDialog, "getSaveFileName", staticmethod(lambda *a, **k: (str(out), "")))
    window.findChild(QAction, "exportAction").trigger()
    written = load_model(out)
    assert written.nu == 1  # the actuator the import kept
    assert worst_pose_error(doc.tree, out, n=20, model=written) < 1e-9


def test_cli_convert_urdf_to_mjcf_and_read_it(tmp_path, capsys):
    out = tmp_path / "puma.xml"
    assert main(["convert", "puma560", str(out)]) == 0
    assert f"wrote {out} (6 bodies)" in capsys.readouterr().out
    from kinetree.core import load_robot

    assert worst_pose_error(load_robot("puma560"), out, n=20) < 1e-9
    assert main(["details", str(out)]) == 0
    assert "link6" in capsys.readouterr().out
    q = ["0.1", "-0.4", "0.7", "0.3", "-1.2", "2.0"]
    assert main(["fk", str(out), "--q", *q]) == 0
    T = np.array([[float(v) for v in line.split()] for line in capsys.readouterr().out.strip().splitlines()])
    assert main(["fk", "puma560", "--q", *q]) == 0
    ref = np.array([[float(v) for v in line.split()] for line in capsys.readouterr().out.strip().splitlines()])
    np.testing.assert_allclose(T, ref, atol=1e-6)


def test_cli_refuses_a_hostile_mjcf_naming_the_file(tmp_path, capsys):
    bad = tmp_path / "bad.xml"
    bad.write_text('<mujoco>\n<include file="/etc/passwd"/></mujoco>')
    assert main(["details", str(bad)]) != 0
    err = capsys.readouterr().err
    assert "bad.xml:2" in err and "absolute path" in err and "Traceback" not in err


def test_export_tells_what_mjcf_could_not_hold(window, tmp_path, monkeypatch):
    window.doc.open("puma560")  # link1 has no mass: MuJoCo refuses a massless moving body
    out = tmp_path / "puma.xml"
    monkeypatch.setattr(QFileDialog, "getSaveFileName", staticmethod(lambda *a, **k: (str(out), "")))
    window.findChild(QAction, "exportAction").trigger()
    message = window.statusBar().currentMessage()
    assert "named poses not written" in message
    assert "'link1' moves without mass" in message
