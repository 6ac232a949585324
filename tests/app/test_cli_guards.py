"""The command line's guards (issue 17): screenshot/animate take --deg and check the limits as fk does,
convert will not write over its input, animate's fps/seconds are bounded, screenshot's warnings
are ``kinetree screenshot: warning:`` lines, a folder given as ROBOT is called a folder, fk
prints huge finite values (and refuses an overflow), and PNG exports are atomic and report
write errors (CLI and File ▸ Export image)."""

from __future__ import annotations

import os
import resource
import signal
import subprocess
import sys

import numpy as np
import pytest
from kinetree.app.main import main
from PySide6.QtGui import QImage

PUMA_OUT = ["--q", "1", "0", "1", "0", "0", "0"]  # q3 = 1 rad: outside [-225°, 45°]


def _png(path) -> np.ndarray:
    img = QImage(str(path)).convertToFormat(QImage.Format.Format_RGBA8888)
    assert not img.isNull()
    w, h = img.width(), img.height()
    return np.frombuffer(img.constBits(), np.uint8, count=img.bytesPerLine() * h).reshape(
        h, img.bytesPerLine() // 4, 4)[:, :w].copy()


# --- item 2: screenshot and animate check --q / the poses against the limits, as fk does ---------

def test_screenshot_refuses_q_outside_the_limits_with_fks_words(tmp_path, capsys):
    out = tmp_path / "x.png"
    assert main(["fk", "puma560", *PUMA_OUT]) == 1
    fk_err = capsys.readouterr().err
    assert main(["screenshot", "puma560", "-o", str(out), "--size", "64x48", *PUMA_OUT]) == 1
    err = capsys.readouterr().err
    assert err == fk_err.replace("kinetree fk:", "kinetree screenshot:").replace("to compute it", "to draw it")
    assert "joint 'q3' position 1 is outside its limits [-3.926990817, 0.7853981634] rad" in err
    assert not out.exists()
    # in degrees, the message too
    assert main(["screenshot", "puma560", "-o", str(out), "--size", "64x48", "--deg",
                 "--q", "0", "0", "60", "0", "0", "0"]) == 1
    assert "joint 'q3' position 60 is outside its limits [-225, 45] deg (--ignore-limits" in capsys.readouterr().err
    assert main(["screenshot", "puma560", "-o", str(out), "--size", "64x48", "--ignore-limits", *PUMA_OUT]) == 0
    assert out.exists()


def test_screenshot_deg_draws_the_same_pose_as_radians(tmp_path):
    deg, rad, home = tmp_path / "deg.png", tmp_path / "rad.png", tmp_path / "home.png"
    common = ["puma560", "--size", "96x64", "--no-labels"]
    assert main(["screenshot", *common, "-o", str(deg), "--deg", "--q", "30", "-40", "20", "0", "45", "0"]) == 0
    q = np.radians([30, -40, 20, 0, 45, 0])
    assert main(["screenshot", *common, "-o", str(rad), "--q", *map(repr, q.tolist())]) == 0
    assert main(["screenshot", *common, "-o", str(home)]) == 0
    np.testing.assert_array_equal(_png(deg), _png(rad))
    assert np.abs(_png(deg).astype(int) - _png(home)).max() > 0


def test_animate_warns_of_a_pose_outside_the_limits_in_the_users_unit(tmp_path, capsys):
    out = tmp_path / "x.gif"
    common = ["animate", "puma560", "--poses", "qz", "qn", "--seconds", "0.1", "--fps", "10", "--size", "32x24",
              "-o", str(out)]
    assert main([*common, "--deg"]) == 0
    err = capsys.readouterr().err
    assert err == ("kinetree animate: warning: pose 'qn' is outside the limits: joint 'q3' position 180 is "
                   "outside its limits [-225, 45] deg\n")
    assert main(common) == 0
    assert "position 3.141592654 is outside its limits [-3.926990817, 0.7853981634] rad" in capsys.readouterr().err
    assert main([*common, "--ignore-limits"]) == 0
    assert capsys.readouterr().err == ""


# --- item 3: convert does not write over its input -------------------------------------------------

def test_convert_refuses_to_overwrite_its_input(tmp_path, capsys):
    src = tmp_path / "puma.kinetree.json"
    assert main(["convert", "puma560", str(src)]) == 0
    before = src.read_bytes()
    link, hard = tmp_path / "link.kinetree.json", tmp_path / "hard.kinetree.json"
    link.symlink_to(src)
    os.link(src, hard)
    capsys.readouterr()
    for out in (src, link, hard, tmp_path / "." / "puma.kinetree.json"):
        assert main(["convert", str(src), str(out)]) == 1
        assert capsys.readouterr().err == (f"kinetree convert: {out} is the input file {src}: "
                                           "write the conversion to another file\n")
    assert main(["convert", str(link), str(src)]) == 1
    assert src.read_bytes() == before and link.is_symlink()
    assert main(["convert", str(src), str(tmp_path / "copy.kinetree.json")]) == 0


# --- item 4: animate's fps and seconds are bounded before anything is rendered ------------------------

def test_animate_fps_too_low_for_a_gif_frame_is_a_usage_error(tmp_path, capsys):
    out = tmp_path / "x.gif"
    assert main(["animate", "puma560", "--poses", "qz", "qr", "--fps", "0.001", "--seconds", "1000",
                 "-o", str(out)]) == 2
    err = capsys.readouterr().err
    assert "--fps: at least 0.001526 frames a second (a GIF frame lasts at most 655.35 s), got '0.001'" in err
    assert "Traceback" not in err and not out.exists()


def test_animate_overflowing_duration_is_bad_input(tmp_path, capsys):
    out = tmp_path / "x.gif"
    assert main(["animate", "puma560", "--poses", "qz", "qr", "qs", "--seconds", "1e308", "-o", str(out)]) == 1
    err = capsys.readouterr().err
    assert err == ("kinetree animate: 2 segments of 1e+308 s at 25 fps is more than 3000 frames: "
                   "fewer seconds or a lower fps\n")
    assert not out.exists()


# --- item 5: screenshot's warnings are kinetree lines --------------------------------------------------

def test_screenshot_warnings_are_kinetree_lines(tmp_path):
    urdf = tmp_path / "miss.urdf"
    urdf.write_text('<robot name="m"><link name="base"/><link name="l1"><visual><geometry>'
                    '<mesh filename="nowhere.stl"/></geometry></visual></link>'
                    '<joint name="j1" type="revolute"><parent link="base"/><child link="l1"/>'
                    '<limit lower="-1" upper="1" effort="1" velocity="1"/></joint></robot>')
    r = subprocess.run([sys.executable, "-m", "kinetree.app", "screenshot", str(urdf), "-o", str(tmp_path / "x.png"),
                        "--size", "64x48"], capture_output=True, text=True, timeout=60)
    assert r.returncode == 0, r.stderr
    lines = r.stderr.splitlines()
    assert lines and all(line.startswith("kinetree screenshot: warning: ") for line in lines), r.stderr
    assert any("'nowhere.stl' not found" in line for line in lines)


# --- item 6: a folder (or device) given as ROBOT is called what it is ---------------------------------

@pytest.mark.parametrize("command, rest", [
    ("details", []), ("fk", []), ("ik", ["--xyz", "0", "0", "0"]), ("symbolic", []), ("convert", ["{d}/x.urdf"]),
    ("screenshot", ["-o", "{d}/x.png"]), ("animate", ["--poses", "a", "b", "-o", "{d}/x.gif"]),
])
def test_a_folder_as_robot_is_called_a_folder(tmp_path, capsys, command, rest):
    rest = [a.format(d=tmp_path) for a in rest]
    assert main([command, str(tmp_path), *rest]) == 1
    assert capsys.readouterr().err == f"kinetree {command}: {tmp_path} is a folder, not a robot file\n"
    assert main([command, os.devnull, *rest]) == 1
    assert capsys.readouterr().err == f"kinetree {command}: {os.devnull} is a character device, not a robot file\n"
    assert sorted(os.listdir(tmp_path)) == []


def test_a_library_name_is_still_a_robot_beside_a_folder_of_that_name(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "puma560").mkdir()
    assert main(["details", "puma560"]) == 0
    assert "q6" in capsys.readouterr().out


# --- item 7: fk prints a huge finite pose as it is, refuses an overflowing one ------------------------

def test_fk_prints_a_huge_finite_translation(capsys):
    assert main(["fk", "stanford", "--q", "0", "0", "1e308", "0", "0", "0", "--ignore-limits",
                 "--format", "xyzrpy"]) == 0
    out, err = capsys.readouterr()
    assert err == "" and "inf" not in out
    z = float(out.split()[2])
    assert np.isfinite(z) and z == pytest.approx(1e308, rel=1e-12)
    assert main(["fk", "stanford", "--q", "0", "0", "1e308", "0", "0", "0", "--ignore-limits"]) == 0
    assert "inf" not in capsys.readouterr().out


def test_fk_refuses_a_pose_that_overflows(tmp_path, capsys):
    urdf = tmp_path / "slides.urdf"
    urdf.write_text('<robot name="s"><link name="a"/><link name="b"/><link name="c"/>'
                    '<joint name="s1" type="prismatic"><parent link="a"/><child link="b"/><axis xyz="0 0 1"/>'
                    '<limit lower="0" upper="1" effort="1" velocity="1"/></joint>'
                    '<joint name="s2" type="prismatic"><parent link="b"/><child link="c"/><axis xyz="0 0 1"/>'
                    '<limit lower="0" upper="1" effort="1" velocity="1"/></joint></robot>')
    for fmt in ("matrix", "json"):
        assert main(["fk", str(urdf), "--q", "1e308", "1e308", "--ignore-limits", "--format", fmt]) == 1
        assert capsys.readouterr() == ("", "kinetree fk: body 'c': its pose is not finite for this configuration "
                                           "(the joint positions are so large that the numbers overflow)\n")


# --- item 8: PNG exports are atomic and report write errors -------------------------------------------

def _limit_file_size(limit: int) -> None:
    signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # a write past the limit fails (EFBIG), as on a full disk
    resource.setrlimit(resource.RLIMIT_FSIZE, (limit, resource.getrlimit(resource.RLIMIT_FSIZE)[1]))


def test_screenshot_write_error_keeps_the_old_png_and_exits_1(tmp_path):
    out = tmp_path / "shot.png"
    out.write_bytes(b"the old png")
    r = subprocess.run([sys.executable, "-m", "kinetree.app", "screenshot", "puma560", "-o", str(out),
                        "--size", "320x240"], capture_output=True, text=True, timeout=60,
                       preexec_fn=lambda: _limit_file_size(2000))
    assert r.returncode == 1, r.stderr
    assert r.stderr == f"kinetree screenshot: cannot write {out}: File too large\n"
    assert out.read_bytes() == b"the old png" and os.listdir(tmp_path) == ["shot.png"]


def test_screenshot_to_a_device_is_refused(tmp_path, capsys):
    assert main(["screenshot", "puma560", "-o", "/dev/full", "--size", "32x24"]) == 1
    assert capsys.readouterr().err == ("kinetree screenshot: cannot write /dev/full: it is a character device, "
                                       "not a regular file\n")
    assert os.path.exists("/dev/full") and not os.path.isfile("/dev/full")


def test_gui_export_image_is_atomic_and_reports_a_write_error(window, qtbot, tmp_path, monkeypatch):
    from PySide6.QtWidgets import QFileDialog, QInputDialog

    path = tmp_path / "robot.png"
    path.write_bytes(b"the old png")
    monkeypatch.setattr(QInputDialog, "getText", staticmethod(lambda *a, **k: ("320x240", True)))
    monkeypatch.setattr(QFileDialog, "getSaveFileName", staticmethod(lambda *a, **k: (str(path), "")))
    window.doc.open("puma560")
    action = next(a for a in window.menuBar().actions()[0].menu().actions() if a.text() == "Export &image…")
    old_limit = resource.getrlimit(resource.RLIMIT_FSIZE)
    old_handler = signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
    try:
        resource.setrlimit(resource.RLIMIT_FSIZE, (2000, old_limit[1]))
        action.trigger()
    finally:
        resource.setrlimit(resource.RLIMIT_FSIZE, old_limit)
        signal.signal(signal.SIGXFSZ, old_handler)
    assert window.statusBar().currentMessage() == f"cannot write {path}: File too large"
    assert path.read_bytes() == b"the old png" and os.listdir(tmp_path) == ["robot.png"]
    action.trigger()  # room again: the image replaces the old file
    assert _png(path).shape == (240, 320, 4)
    assert os.listdir(tmp_path) == ["robot.png"]
