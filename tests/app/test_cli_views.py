"""``kinetree screenshot``/``animate --view front|side|top|iso`` and File ▸ Export animation's
framing: what the camera the image was rendered with shows of the robot's frames."""

from __future__ import annotations

import imageio.v3 as iio
import numpy as np
import pytest
from kinetree.app.main import main
from kinetree.app.viewport.labels import project_points, view_mvp
from kinetree.app.viewport.view import RobotViewport


@pytest.fixture
def rendered(monkeypatch):
    """Each image rendered: the camera it was rendered with (world → pixel) and the frame
    origins (base and every body) of the configuration drawn."""
    shots = []
    real = RobotViewport.render_image

    def spy(self, width, height):
        origins = np.vstack([np.zeros((1, 3)), self._poses[:, :3, 3]])
        shots.append((view_mvp(self, (0, 0, width, height)), origins, width, height, self.camera.ortho))
        return real(self, width, height)

    monkeypatch.setattr(RobotViewport, "render_image", spy)
    return shots


def inside(mvp, origins, w, h) -> bool:
    px, front = project_points(mvp, origins, w, h)
    return bool(front.all() and (px[:, 0] >= 0).all() and (px[:, 0] < w).all()
                and (px[:, 1] >= 0).all() and (px[:, 1] < h).all())


def test_screenshot_top_view_of_the_planar_arm_is_a_drawing_of_its_plane(tmp_path, rendered):
    out = tmp_path / "top.png"
    assert main(["screenshot", "two_link_planar", "-o", str(out), "--size", "320x240", "--deg",
                 "--q", "30", "60", "--view", "top"]) == 0
    assert iio.imread(out).shape[:2] == (240, 320)
    mvp, origins, w, h, ortho = rendered[-1]
    assert ortho  # a top view is orthographic, as the GUI's
    assert inside(mvp, origins, w, h)
    points = np.unique(origins.round(9), axis=0)  # the distinct frame origins
    assert len(points) >= 3
    px = project_points(mvp, points, w, h)[0]
    # distinct pixels, and x/y in the image proportional to the plane's x/y (no perspective, no tilt)
    assert len(np.unique(px.round(), axis=0)) == len(points)
    d_world = np.linalg.norm(points[:, None, :2] - points[None, :, :2], axis=2)
    d_px = np.linalg.norm(px[:, None] - px[None], axis=2)
    scale = d_px[d_world > 0] / d_world[d_world > 0]
    np.testing.assert_allclose(scale, scale[0], rtol=1e-6)


@pytest.mark.parametrize("view", ["front", "side", "iso"])
def test_screenshot_views_keep_the_robot_in_the_image(tmp_path, rendered, view):
    assert main(["screenshot", "puma560", "-o", str(tmp_path / f"{view}.png"), "--size", "160x120",
                 "--view", view]) == 0
    mvp, origins, w, h, ortho = rendered[-1]
    assert ortho == (view != "iso")
    assert inside(mvp, origins, w, h)


def test_screenshot_unknown_view_is_a_usage_error(tmp_path, capsys):
    assert main(["screenshot", "puma560", "-o", str(tmp_path / "x.png"), "--view", "bottom"]) == 2
    assert "bottom" in capsys.readouterr().err


def test_animate_top_view_frames_every_configuration(tmp_path, rendered):
    out = tmp_path / "top.gif"
    assert main(["animate", "puma560", "--poses", "qz", "qr", "-o", str(out), "--seconds", "0.4", "--fps", "10",
                 "--size", "96x64", "--view", "top", "--no-labels"]) == 0
    assert len(iio.imread(out, index=None)) == 5 == len(rendered)
    for mvp, origins, w, h, ortho in rendered:
        assert ortho and inside(mvp, origins, w, h)


@pytest.mark.parametrize("robot, pose", [("scara", "reach"), ("cylindrical_wrist", "reach"),
                                         ("spherical_wrist", "euler"), ("two_link_planar", "example")])
def test_the_lecture_robots_animate_through_their_named_poses(tmp_path, rendered, robot, pose, capsys):
    out = tmp_path / f"{robot}.gif"
    assert main(["animate", robot, "--poses", "qz", pose, "-o", str(out), "--seconds", "0.2", "--fps", "10",
                 "--size", "64x48", "--view", "front", "--no-labels"]) == 0
    assert "warning" not in capsys.readouterr().err  # the poses are within the limits
    assert len(iio.imread(out, index=None)) == 3
    for mvp, origins, w, h, _ortho in rendered:
        assert inside(mvp, origins, w, h)


@pytest.mark.parametrize("view, looking", [("front", (-1, 0, 0)), ("side", (0, -1, 0)), ("top", (0, 0, -1))])
def test_the_view_presets_look_as_drawings_do_at_a_robot_facing_x(window, view, looking):
    vp = window.viewport
    vp.set_view(view)
    eye, centre = np.array(list(vp.cameraPosition())), vp.opts["center"]
    forward = np.array([centre.x(), centre.y(), centre.z()]) - eye
    np.testing.assert_allclose(forward / np.linalg.norm(forward), looking, atol=1e-6)
    if view == "top":  # x to the right on the screen, y up
        px, _ = project_points(view_mvp(vp), np.array([[0, 0, 0], [1, 0, 0], [0, 1, 0.0]]), vp.width(), vp.height())
        assert px[1, 0] > px[0, 0] and px[2, 1] < px[0, 1]
