"""Issue 19 item 2: no negative zero anywhere a number is shown ("-0.0" must read "0.0")."""

from __future__ import annotations

import re
from types import SimpleNamespace

import numpy as np
import sympy as sp
from kinetree.app.main import main
from kinetree.app.model.numbers import fixed_text, short_text, signed_text
from kinetree.app.viewport.tools.frame_handle import FrameHandle
from kinetree.app.viewport.tools.measure import Measurement
from kinetree.app.widgets.number_spin import distinct_texts
from kinetree.core.teach.symbolic import to_latex, to_text

NEGATIVE_ZERO = re.compile(r"-0(?:\.0*)?(?![.\d]*[1-9])")


def test_readouts_never_show_negative_zero():
    assert not NEGATIVE_ZERO.search(Measurement(1e-5, np.array([-1e-5, -0.0, 1e-5]), 1e-7, 1e-7).text())
    assert Measurement(0.0, np.array([-0.0, -0.0, -0.0])).text() == "0.0 mm  (Δx 0.0, Δy 0.0, Δz 0.0 mm)"
    assert signed_text(-1e-6, 1) == "+0.0" and signed_text(-0.25, 1) == "-0.2" and signed_text(2, 1) == "+2.0"
    handle = SimpleNamespace(step=0.001, _grab={})
    handle._snap = lambda v, step: FrameHandle._snap(handle, v, step)
    FrameHandle._snap_length(handle, -1e-6)  # a drag back to where it started
    assert handle._grab["shown"] == "+0.0 mm"
    FrameHandle._snap_angle(handle, -1e-9)
    assert handle._grab["shown"] == "+0.0°"
    assert "-0" not in distinct_texts(-0.0, 0.0)
    assert fixed_text(-0.00004, 4) == "0.0000" and short_text(-0.0) == "0"


def test_symbolic_numbers_never_print_negative_zero():
    assert to_text(sp.Float(-0.0)) == "0.0" and to_latex(sp.Float(-0.0)) == "0.0"


def test_cli_prints_no_negative_zero(capsys):
    for args in (["fk", "two_link_planar", "--q", "90", "90", "--deg", "--format", f] for f in ("matrix", "xyzrpy")):
        assert main(args) == 0
        out = capsys.readouterr().out
        assert not NEGATIVE_ZERO.search(out), out
    assert main(["symbolic", "puma560"]) == 0
    assert not NEGATIVE_ZERO.search(capsys.readouterr().out)
