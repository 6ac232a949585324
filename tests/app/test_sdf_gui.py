"""SDFormat in the app: File ▸ Import opens an .sdf, its dialog filters offer SDFormat, File ▸ Export
writes one that reads back with the same body poses."""

from __future__ import annotations

import numpy as np
from kinetree.core.io.sdf import import_sdf
from PySide6.QtGui import QAction
from PySide6.QtWidgets import QFileDialog

ARM = """<?xml version="1.0"?>
<sdf version="1.9"><model name="arm">
  <link name="base"/>
  <link name="upper"><pose relative_to="shoulder">0 0 0.4 0 0 0</pose>
    <visual name="v"><geometry><cylinder><radius>0.05</radius><length>0.4</length></cylinder></geometry></visual>
  </link>
  <joint name="shoulder" type="revolute"><pose relative_to="base">0 0 0.1 0 0 0</pose>
    <parent>base</parent><child>upper</child>
    <axis><xyz>0 1 0</xyz><limit><lower>-2</lower><upper>2</upper></limit></axis></joint>
</model></sdf>
"""


def test_file_import_opens_an_sdf_and_file_export_writes_one(window, qtbot, tmp_path, monkeypatch):
    src = tmp_path / "arm" / "model.sdf"
    src.parent.mkdir()
    src.write_text(ARM)
    filters = []

    def open_name(*args, **kwargs):
        filters.append(args[3])
        return str(src), ""

    monkeypatch.setattr(QFileDialog, "getOpenFileName", staticmethod(open_name))
    window.findChild(QAction, "importAction").trigger()
    assert "*.sdf" in filters[0]
    tree = window.doc.tree
    assert tree.base_name == "base" and tree.body_names == ["upper"]
    window.sliders.rows["shoulder"].spin.setValue(30)  # degrees, as a person types it
    q = window.doc.configuration
    assert np.isclose(q[0], np.radians(30))
    np.testing.assert_allclose(tree.get_transform(q, "upper")[:3, 3], [0.4 * np.sin(np.radians(30)), 0,
                                                                       0.1 + 0.4 * np.cos(np.radians(30))], atol=1e-12)
    out = tmp_path / "out.sdf"
    saved = []

    def save_name(*args, **kwargs):
        saved.append(args[3])
        return str(out), ""

    monkeypatch.setattr(QFileDialog, "getSaveFileName", staticmethod(save_name))
    window.findChild(QAction, "exportAction").trigger()
    assert "*.sdf" in saved[0] and out.exists()
    back = import_sdf(out)
    np.testing.assert_allclose(back.get_transform(q, "upper"), tree.get_transform(q, "upper"), atol=1e-12)
    assert back.get_body("upper").visuals[0].kind == "cylinder"
