"""Files the previous release wrote still open (issue 33: the redesign changes no behaviour):
its saved window layout (``tests/baselines/window_state_1e7d76a.ini``, written by
``tests/baselines/record_window_state.py`` with release 1e7d76a: the Joints dock moved to the
bottom, the Pose dock closed) and its project file of the Puma 560."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import numpy as np
from kinetree.core import load_robot
from kinetree.core.io.project import load_project
from PySide6.QtWidgets import QDockWidget

BASELINES = Path(__file__).resolve().parents[1] / "baselines"


def test_a_layout_saved_by_the_previous_release_is_restored(make_window, tmp_path):
    shutil.copy(BASELINES / "window_state_1e7d76a.ini", tmp_path / "old.ini")
    expected = json.loads((BASELINES / "window_state_1e7d76a.json").read_text(encoding="utf-8"))
    w = make_window("old.ini")
    docks = {d.objectName(): d for d in w.findChildren(QDockWidget)}
    got = {name: {"area": int(w.dockWidgetArea(docks[name]).value), "visible": docks[name].isVisible()}
           for name in expected if name in docks}
    assert got == expected


def test_a_project_saved_by_the_previous_release_opens_as_it_was():
    tree, _q = load_project(BASELINES / "convert" / "puma560.kinetree.json")
    puma = load_robot("puma560")
    assert tree.body_names == puma.body_names
    for q in (puma.home_configuration(), np.full(6, 0.3)):
        assert np.allclose(tree.get_transform(q, puma.end_effector), puma.get_transform(q, puma.end_effector),
                           atol=1e-12)
