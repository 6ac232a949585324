"""The Torques dock as a user drives it: the Poses dock's checked poses and seconds, the real
"Torques…" button; the plotted curves are the core profile's, the limits dashed, the peaks
table red over a limit; it follows edits of the robot and of the poses, and their undo."""

from __future__ import annotations

import numpy as np
import pytest
from helpers.panels import click_check_box, open_torques, puma_with_limits, settle
from kinetree.app.panels.torques import OVER_COLOR
from kinetree.core.dynamics.torque_profile import DEFAULT_SAMPLES, torque_profile
from PySide6.QtCore import Qt
from PySide6.QtGui import QAction
from PySide6.QtTest import QTest


def type_seconds(window, text: str) -> None:
    spin = window.timeline.seconds
    spin.lineEdit().selectAll()
    QTest.keyClicks(spin.lineEdit(), text)
    QTest.keyClick(spin.lineEdit(), Qt.Key.Key_Return)


def assert_plotted(panel, prof) -> None:
    assert len(panel.curves) == len(prof.names)
    for d, curve in enumerate(panel.curves):
        t, tau = curve.getData()
        np.testing.assert_array_equal(t, prof.times)
        np.testing.assert_allclose(tau, prof.tau[:, d], rtol=1e-12, atol=1e-12)


def test_the_plot_and_peaks_are_the_core_profile_of_the_checked_motion(window, qtbot):
    puma_with_limits(window, qtbot)
    type_seconds(window, "1.5")
    assert window.playback.seconds == 1.5
    open_torques(window, qtbot)
    panel = window.torques
    tree = window.doc.tree
    prof = torque_profile(tree, ["qz", "qr"], 1.5, DEFAULT_SAMPLES)
    assert_plotted(panel, prof)
    legend = [label.text for _sample, label in panel.legend.items]
    assert legend == [f"q{k} (N·m)" for k in range(1, 7)]
    # dashed ±limit lines over the whole motion, for the joints that have a limit
    assert sorted(panel.limit_lines) == ["q1", "q2", "q3", "q5", "q6"]
    up, down = panel.limit_lines["q2"]
    assert list(up.getData()[1]) == [40.0, 40.0] and list(down.getData()[1]) == [-40.0, -40.0]
    assert list(up.getData()[0]) == [0.0, 1.5] and up.opts["pen"].style() == Qt.PenStyle.DashLine
    rows = panel.table_text()
    assert [r[0] for r in rows] == [f"q{k} (N·m)" for k in range(1, 7)]
    for row, peak, lim, pct in zip(rows, prof.peaks, prof.limits, prof.percent_of_limit()):
        assert float(row[1]) == pytest.approx(peak.value, abs=5e-4)
        assert float(row[2]) == pytest.approx(peak.time, abs=5e-4)
        assert row[3] == ("—" if lim is None else f"{lim:g}")
        assert row[4] == ("—" if pct is None else f"{pct:.1f} %")
    assert float(rows[1][4].split()[0]) > 100  # q2 lifts the arm against gravity, over its 40 N·m
    over = [panel.table.item(r, 1).foreground().color() == OVER_COLOR for r in range(6)]
    assert over == prof.over_limit() == [False, True, False, False, False, False]
    assert "the robot's gravity 0 0 -9.81 m/s²" in panel.header.text()


def test_it_follows_the_robot_the_poses_and_undo(window, qtbot):
    puma_with_limits(window, qtbot)
    open_torques(window, qtbot)
    panel = window.torques
    before = panel.curves[1].getData()[1].copy()
    assert window.doc.try_edit("Heavier link 3", lambda t: setattr(t.bodies[2], "mass", 20.0)) is None
    settle(qtbot)
    prof = torque_profile(window.doc.tree, ["qz", "qr"], 2.0, DEFAULT_SAMPLES)
    assert_plotted(panel, prof)
    assert np.abs(panel.curves[1].getData()[1]).max() > np.abs(before).max() + 10
    window.doc.undo_stack.undo()
    settle(qtbot)
    np.testing.assert_array_equal(panel.curves[1].getData()[1], before)
    click_check_box(window, "qs")  # qz → qr → qs
    settle(qtbot)
    assert_plotted(panel, torque_profile(window.doc.tree, ["qz", "qr", "qs"], 2.0, DEFAULT_SAMPLES))
    assert panel.header.text().startswith("qz → qr → qs, 2 s per segment")
    for name in ("qr", "qs"):
        click_check_box(window, name)
    settle(qtbot)
    assert panel.curves == [] and panel.table.rowCount() == 0
    assert "Check two poses or more" in panel.header.text()


def test_standard_gravity_is_said_when_the_robot_sets_none(window, qtbot):
    window.doc.open("puma560")  # tree.gravity is 0, as MATLAB's
    window.findChild(QAction, "toggle_torquesDock").trigger()  # View ▸ Torques along the motion
    qtbot.waitUntil(lambda: window.torques.profile is not None)
    assert "standard gravity along −z (the robot sets none) 0 0 -9.80665" in window.torques.header.text()
    assert window.playback.playable() == ["qz", "qr", "qs", "qn"]
    prof = torque_profile(window.doc.tree, ["qz", "qr", "qs", "qn"], 2.0, DEFAULT_SAMPLES, [0, 0, -9.80665])
    assert_plotted(window.torques, prof)
    assert all(r[3:] == ["—", "—"] for r in window.torques.table_text())  # Puma's files give no effort


def test_a_hidden_panel_computes_nothing(window, qtbot, monkeypatch):
    from kinetree.app.panels import torques

    calls = []
    real = torques.torque_profile
    monkeypatch.setattr(torques, "torque_profile", lambda *a, **k: calls.append(1) or real(*a, **k))
    window.doc.open("puma560")
    assert window.doc.try_edit("Heavier", lambda t: setattr(t.bodies[2], "mass", 9.0)) is None
    settle(qtbot)
    assert calls == [] and window.torques is None  # not even built (start-up pays nothing for it)
    window.findChild(QAction, "toggle_torquesDock").trigger()
    qtbot.waitUntil(lambda: window.torques.profile is not None)
    assert len(calls) == 1
