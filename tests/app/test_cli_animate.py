"""kinetree animate: frames = round(seconds · segments · fps) + 1, read back with imageio; unknown
poses, bad files and too few poses exit 1 with a message; without a display it starts its own."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import imageio.v3 as iio
import numpy as np
import pytest
from kinetree.app.main import main


def test_gif_has_one_frame_per_tick_and_both_ends(tmp_path, capsys):
    out = tmp_path / "puma.gif"
    # 2 segments of 0.3 s at 10 fps: round(0.3 · 2 · 10) + 1 = 7 frames
    assert main(["animate", "puma560", "--poses", "qz", "qr", "qs", "-o", str(out), "--seconds", "0.3",
                 "--fps", "10", "--size", "48x32", "--no-labels"]) == 0
    assert "7 frames at 10 fps" in capsys.readouterr().out
    frames = iio.imread(out, index=None)
    assert frames.shape == (7, 32, 48, 3)
    assert iio.immeta(out)["duration"] in (80, 90)  # ms a frame: 7 frames share the 0.6 s (10 fps)
    moved = [np.abs(a.astype(int) - b).max() for a, b in zip(frames, frames[1:])]
    assert sum(m > 0 for m in moved) >= 4  # the robot moves (it rests at qr for a frame or so)


def test_teach_overlay_and_seconds_per_segment(tmp_path):
    plain, taught = tmp_path / "plain.gif", tmp_path / "teach.gif"
    common = ["--poses", "qz", "qr", "--seconds", "0.25", "--fps", "8", "--size", "64x40"]
    assert main(["animate", "puma560", *common, "-o", str(plain)]) == 0
    assert main(["animate", "puma560", *common, "-o", str(taught), "--teach", "2"]) == 0
    a, b = iio.imread(plain, index=None), iio.imread(taught, index=None)
    assert len(a) == len(b) == 3  # round(0.25 · 8) + 1
    assert np.abs(a.astype(int) - b).max() > 0  # the DH overlay is drawn


def test_unknown_pose_names_it_and_lists_the_known_ones(tmp_path, capsys):
    out = tmp_path / "x.gif"
    assert main(["animate", "puma560", "--poses", "qz", "stretch", "-o", str(out)]) == 1
    err = capsys.readouterr().err
    assert "'stretch'" in err and "qz, qr, qs, qn" in err and err.count("\n") == 1
    assert not out.exists()


@pytest.mark.parametrize("args, needle", [
    (["--poses", "qz", "-o", "{d}/one.gif"], "at least two poses"),
    (["--poses", "qz", "qr", "-o", "{d}/x.avi"], "as .gif or .mp4"),
    (["--poses", "qz", "qr", "-o", "{d}/x.gif", "--seconds", "3000", "--fps", "100"], "more than 3000"),
])
def test_bad_input_exits_1(tmp_path, capsys, args, needle):
    assert main(["animate", "puma560", *[a.format(d=tmp_path) for a in args]]) == 1
    assert needle in capsys.readouterr().err


def test_bad_numbers_are_usage_errors(tmp_path, capsys):
    assert main(["animate", "puma560", "--poses", "qz", "qr", "-o", str(tmp_path / "x.gif"), "--fps", "0"]) == 2
    assert "--fps" in capsys.readouterr().err


def test_mp4_needs_imageio_ffmpeg(tmp_path, capsys):
    out = tmp_path / "puma.mp4"
    try:
        import imageio_ffmpeg  # noqa: F401
    except ImportError:
        assert main(["animate", "puma560", "--poses", "qz", "qr", "-o", str(out)]) == 1
        assert "imageio-ffmpeg" in capsys.readouterr().err
        pytest.skip("imageio-ffmpeg is not installed: the MP4 itself is not checked")
    assert main(["animate", "puma560", "--poses", "qz", "qr", "-o", str(out), "--seconds", "0.5", "--fps", "10",
                 "--size", "65x47"]) == 0
    import imageio.v2 as iio2

    frames = iio2.mimread(out, format="FFMPEG")
    assert len(frames) == 6  # round(0.5 · 10) + 1
    assert frames[0].shape == (48, 66, 3)  # x264 needs even sizes: one edge pixel repeated, nothing scaled


@pytest.mark.skipif(not sys.platform.startswith("linux") or shutil.which("Xvfb") is None, reason="needs Xvfb")
def test_without_a_display_it_starts_its_own(tmp_path):
    out = tmp_path / "ur5.gif"
    env = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY", "QT_QPA_PLATFORM")}
    r = subprocess.run([sys.executable, "-m", "kinetree.app.main", "animate", "ur5", "--poses", "home", "qr",
                        "-o", str(out), "--seconds", "0.2", "--fps", "10", "--size", "40x30"],
                       env=env, capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr
    assert iio.imread(out, index=None).shape == (3, 30, 40, 3)


def test_a_gif_too_big_for_memory_is_refused_before_rendering(tmp_path, capsys):
    out = tmp_path / "a.gif"
    # 3 segments of 30 s at 25 fps: 2251 frames of 1920x1080x3 bytes, 14 GB
    assert main(["animate", "puma560", "--poses", "qz", "qr", "qs", "qn", "--seconds", "30", "--size", "1920x1080",
                 "-o", str(out)]) == 1
    err = capsys.readouterr().err
    assert "2251 frames of 1920x1080 need 13.0 GB" in err and "fewer seconds" in err and err.count("\n") == 1
    assert not out.exists() and list(tmp_path.iterdir()) == []


# A child Python: DISPLAY unset, so the command starts its own Xvfb (whose pid it writes to a
# file); the work inside raises something no handler expects.
_RAISES = """
import sys
from pathlib import Path
import kinetree.app.main as m, kinetree.app.cli.display as d
import kinetree.app.cli.animate as a, kinetree.app.cli.screenshot as s
real = d.ensure_display
def ensure_display():
    proc = real()
    open(sys.argv[1], "w").write(str(proc.pid))
    return proc
def boom(*args, **kwargs):
    raise ZeroDivisionError("boom inside")
d.ensure_display = ensure_display
s.screenshot = a.animate = boom
sys.exit(m.main(sys.argv[2:]))
"""


@pytest.mark.skipif(not sys.platform.startswith("linux") or shutil.which("Xvfb") is None, reason="needs Xvfb")
@pytest.mark.parametrize("command", [["screenshot", "ur5"], ["animate", "ur5", "--poses", "home", "qr"]])
def test_the_private_xvfb_goes_away_whatever_the_work_raises(tmp_path, command):
    import time

    pid_file = tmp_path / "xvfb.pid"
    env = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY", "QT_QPA_PLATFORM")}
    r = subprocess.run([sys.executable, "-c", _RAISES, str(pid_file), *command, "-o", str(tmp_path / "x.gif")],
                       env=env, capture_output=True, text=True, timeout=120)
    assert r.returncode == 1
    assert "ZeroDivisionError: boom inside" in r.stderr  # the traceback is shown, not swallowed
    pid = int(pid_file.read_text())
    deadline = time.monotonic() + 5
    while time.monotonic() < deadline:
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            break
        stat = Path(f"/proc/{pid}/stat")
        if stat.exists() and stat.read_text().split(")")[-1].split()[0] == "Z":
            break  # dead, waiting to be reaped by init
        time.sleep(0.05)
    else:
        os.kill(pid, 9)  # do not leave it to the next test run
        pytest.fail(f"Xvfb {pid} still runs after kinetree {command[0]} failed")


@pytest.mark.parametrize("fps", [15, 25])
def test_gif_frame_delays_add_up_to_the_motions_length(tmp_path, fps):
    from PIL import Image, ImageSequence

    out = tmp_path / "puma.gif"
    # 2 segments of 0.7 s: 1.4 s of motion (15 fps: 6 cs a frame used to give 1.32 s)
    assert main(["animate", "puma560", "--poses", "qz", "qr", "qs", "-o", str(out), "--seconds", "0.7",
                 "--fps", str(fps), "--size", "48x32", "--no-labels"]) == 0
    with Image.open(out) as gif:
        delays = [frame.info["duration"] for frame in ImageSequence.Iterator(gif)]
    assert len(delays) == round(1.4 * fps) + 1
    assert abs(sum(delays) - 1400) <= 10  # milliseconds: within 1 cs
