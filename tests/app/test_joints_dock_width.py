"""The Joints dock at 1280×800 in the default layout: every row fits its width, with no horizontal
scroll bar and no clipped text (issue 32: the four-bar, the Puma and Talos scrolled sideways)."""

from __future__ import annotations

import pytest
from kinetree.core import load_robot
from PySide6.QtWidgets import QLabel


def talos():
    from importlib.metadata import PackageNotFoundError, distribution

    from kinetree.core import import_robot

    try:
        root = distribution("example-robot-data").locate_file("cmeel.prefix/share/example-robot-data/robots")
    except PackageNotFoundError:
        pytest.skip("example-robot-data is not installed")
    return import_robot(root / "talos_data/robots/talos_full_v2.urdf", package_paths=(str(root),))


@pytest.mark.parametrize("robot", ["puma560", "four_bar", "talos"])
def test_the_joints_dock_needs_no_horizontal_scroll_bar_at_1280x800(make_window, qtbot, screen_size, robot):
    screen_size(1280, 800)
    w = make_window()
    w.resize(1280, 800)
    w.reset_layout()
    w.doc.load(talos() if robot == "talos" else load_robot(robot))
    qtbot.wait(100)  # the layout settles
    scroll = w.sliders.scroll
    assert w.sliders.rows and w.docks["slidersDock"].width() < 450  # the narrow default dock
    bar = scroll.horizontalScrollBar()
    assert bar.maximum() == 0 and not bar.isVisible(), (robot, bar.maximum())
    for row in w.sliders.rows.values():  # nothing squeezed below what it needs
        for label in (row.name, row.limits):
            assert isinstance(label, QLabel) and label.width() >= label.sizeHint().width(), label.text()
        assert row.spin.width() >= row.spin.minimumSizeHint().width()
