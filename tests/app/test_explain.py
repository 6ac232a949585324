"""The Explain dock: A_i's factors and partial products, and the ghost frame stepping through them."""

from __future__ import annotations

import math

import numpy as np
import pytest
from kinetree.app.model.text import matrix_text
from kinetree.core.transforms import inverse_transform
from PySide6.QtCore import Qt
from PySide6.QtGui import QAction


def rot(axis: str, t: float) -> np.ndarray:
    c, s = math.cos(t), math.sin(t)
    T = np.eye(4)
    i, j = (0, 1) if axis == "z" else (1, 2)
    T[i, i], T[i, j], T[j, i], T[j, j] = c, -s, s, c
    return T


def trans(axis: str, v: float) -> np.ndarray:
    T = np.eye(4)
    T["xyz".index(axis), 3] = v
    return T


def expected_factors(tree, body: str, q: np.ndarray) -> list[np.ndarray]:
    """The four elementary matrices of a DH body's A_i, from its joint's DH row and q."""
    j = tree.get_body(body).joint
    row = j.dh_parameters
    theta = q[tree.position_index(j.name).start] + j.offset
    if row.convention == "dh":
        return [rot("z", theta), trans("z", row.d), trans("x", row.a), rot("x", row.alpha)]
    return [rot("x", row.alpha), trans("x", row.a), rot("z", theta), trans("z", row.d)]


def show_explain(window, qtbot):
    window.findChild(QAction, "toggle_explainDock").trigger()
    qtbot.waitUntil(lambda: window.explain.active, timeout=2000)
    return window.explain


@pytest.mark.parametrize("robot", ["puma560", "panda"])
def test_step_through_matrices_are_the_partial_products(window, qtbot, robot):
    window.doc.open(robot)
    tree = window.doc.tree
    q = tree.random_configuration()
    window.doc.set_configuration(q)
    window.doc.select("link3" if robot == "puma560" else tree.body_names[2])
    panel = show_explain(window, qtbot)
    assert panel.link == 3 and panel.combo.currentIndex() == 2
    body = tree.body_names[2]
    E = expected_factors(tree, body, q)
    partial = [E[0], E[0] @ E[1], E[0] @ E[1] @ E[2], E[0] @ E[1] @ E[2] @ E[3]]
    for k in range(4):
        assert np.abs(panel.factors()[k] - E[k]).max() <= 1e-12
        assert np.abs(panel.partial_products()[k] - partial[k]).max() <= 1e-12
        assert panel.partial_cells[k].text() == matrix_text(partial[k], "plain", 3)
    P = window.doc.poses()
    assert np.abs(partial[3] - inverse_transform(P[1]) @ P[2]).max() <= 1e-12  # A_3 moves frame 2 to 3
    assert np.abs(panel.chain_product() - P[2]).max() <= 1e-12  # T₀³ = A₁A₂A₃
    order = "Rz(θ₃)" if robot == "puma560" else "Rx(α₂)"  # Craig's row 3 starts with α₂
    assert panel.formula.text().index(order.split("(")[0]) < panel.formula.text().index("Tz")
    assert order.split("(")[1][:2] in panel.formula.text()


def test_step_click_moves_the_ghost_frame(window, qtbot):
    window.doc.open("puma560")
    tree = window.doc.tree
    q = np.array([0.2, 0.4, -0.5, 0.3, 0.6, 0.1])
    window.doc.set_configuration(q)
    window.doc.select("link3")
    panel = show_explain(window, qtbot)
    state = window.teach
    P = window.doc.poses()
    assert np.abs(state.ghost - P[1]).max() <= 1e-12  # at frame 2 before any step
    assert window.dh_overlay.ghost.visible()
    E = expected_factors(tree, "link3", q)
    qtbot.mouseClick(panel.step_button, Qt.MouseButton.LeftButton)
    assert panel.timer.isActive()  # animated, not a jump
    qtbot.waitUntil(lambda: 0 < panel.position < 1, timeout=2000)
    qtbot.waitUntil(lambda: panel.position == 1 and not panel.timer.isActive(), timeout=3000)
    assert np.abs(state.ghost - P[1] @ E[0]).max() <= 1e-12  # turned by θ₃ about z₂
    assert panel.status.text() == "step 1 of 4"
    qtbot.mouseClick(panel.step_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: panel.position == 2 and not panel.timer.isActive(), timeout=3000)
    assert np.abs(state.ghost - P[1] @ E[0] @ E[1]).max() <= 1e-12  # and up z by d₃
    qtbot.mouseClick(panel.back_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: panel.position == 1 and not panel.timer.isActive(), timeout=3000)
    assert np.abs(state.ghost - P[1] @ E[0]).max() <= 1e-12
    qtbot.mouseClick(panel.play_button, Qt.MouseButton.LeftButton)  # plays to the end: frame 3
    qtbot.waitUntil(lambda: not panel.play_button.isChecked(), timeout=8000)
    assert panel.position == 4
    assert np.abs(state.ghost - P[2]).max() <= 1e-12
    # from frame 0: T₀³ built link by link, 12 steps
    panel.from_zero.setChecked(True)
    assert panel.step_count() == 12 and np.abs(state.ghost - np.eye(4)).max() <= 1e-12
    for _ in range(4):
        panel.step()
        qtbot.waitUntil(lambda: not panel.timer.isActive(), timeout=3000)
    assert np.abs(state.ghost - P[0]).max() <= 1e-12  # A₁ done: frame 1
    assert panel.shown_link() == 1 and panel.chain_cell.text() == matrix_text(P[0], "plain", 4)
    assert "so far: A₁" in panel.chain_title.text()
    panel.step()  # into A₂: its factors are shown now
    qtbot.waitUntil(lambda: not panel.timer.isActive(), timeout=3000)
    E2 = expected_factors(tree, "link2", q)
    assert panel.shown_link() == 2 and panel.partial_cells[0].text() == matrix_text(E2[0], "plain", 3)
    assert np.abs(state.ghost - P[0] @ E2[0]).max() <= 1e-12
    # hiding the dock hides the ghost
    window.explain_dock.hide()
    qtbot.waitUntil(lambda: state.ghost is None, timeout=2000)
    assert not window.dh_overlay.ghost.visible()


def test_picking_a_link_selects_its_body(window, qtbot):
    window.doc.open("puma560")
    panel = show_explain(window, qtbot)
    panel.combo.setCurrentIndex(4)
    panel.combo.activated.emit(4)
    assert window.doc.selection == "link5" and panel.link == 5
    assert window.dh_overlay.link == 5  # the overlay draws the same link


def test_a_branch_of_a_tree_gets_its_own_chain(window, qtbot):
    """Quadruped: a foot (fixed, on another leg) selects that leg's extracted chain."""
    window.doc.open("quadruped")
    panel = show_explain(window, qtbot)
    window.doc.select("fl_foot")
    assert panel.chain.extracted and panel.chain.bodies == ["fl_hip", "fl_thigh", "fl_calf"]
    assert panel.link == 3 and window.dh_overlay.link == 3  # the foot moves with the calf
    P = window.doc.poses()
    F = panel.chain.frames(window.doc.tree, window.doc.configuration)
    assert np.abs(F[-1] @ panel.chain.tool - P[window.doc.tree.index_of("fl_foot")]).max() <= 1e-9
    window.doc.select("rr_thigh")
    assert panel.chain.bodies[-1] == "rr_calf" and panel.link == 2


def test_explain_dock_hidden_by_default_then_a_tab_beside_the_dh_table(window, qtbot):
    dock = window.explain_dock
    assert not dock.isVisible() and window.teach.ghost is None
    show_explain(window, qtbot)
    assert dock.isVisible() and window.tabifiedDockWidgets(dock) == [window.docks["dhDock"]]
    window.reset_layout()
    assert not dock.isVisible() and window.teach.ghost is None


def test_extracted_chain_in_either_convention(window, qtbot):
    window.doc.open("quadruped")
    panel = show_explain(window, qtbot)
    window.doc.select("rr_calf")
    assert panel.convention.isVisible() and panel.chain.convention == "dh"
    panel.convention.setCurrentIndex(1)
    panel.convention.activated.emit(1)
    assert panel.chain.convention == "mdh" and window.dh_overlay.chain.convention == "mdh"
    assert "Rx" in panel.formula.text().split("·")[0]  # Craig's order: Rx(α) first
    P = window.doc.poses()
    F = panel.chain.frames(window.doc.tree, window.doc.configuration)
    assert np.abs(F[-1] @ panel.chain.tool - P[-1]).max() <= 1e-9
    window.doc.open("puma560")  # its own rows: nothing to choose
    assert not panel.convention.isVisible()


# --- laziness: nothing per edit while hidden; the overlay's chain remembered ----------------------

def test_hidden_explain_dock_does_no_work_on_edits(window, qtbot, monkeypatch):
    import kinetree.app.panels.explain as explain_module

    calls = []
    real = explain_module.cached_chain
    monkeypatch.setattr(explain_module, "cached_chain", lambda *a: calls.append(a) or real(*a))
    window.doc.open("puma560")
    window.doc.select("link3")
    window.doc.set_configuration(window.doc.tree.random_configuration())
    window.bodies.add_child("revolute")
    window.doc.undo_stack.undo()
    assert calls == [] and window.explain.stale  # hidden: nothing computed
    panel = show_explain(window, qtbot)
    assert len(calls) == 1 and not panel.stale  # shown: one reload, of the tree as it is now
    assert panel.chain.bodies == window.doc.tree.body_names and panel.link == 3
    assert np.abs(panel.chain_product() - window.doc.poses()[2]).max() <= 1e-12


def test_overlay_extracts_only_what_it_draws_and_reuses_it_after_undo(window, monkeypatch):
    from collections import OrderedDict

    import kinetree.app.model.dh_chain as chain_module

    monkeypatch.setattr(chain_module, "_CHAINS", OrderedDict())
    calls = []
    real = chain_module.dh_chain_to
    monkeypatch.setattr(chain_module, "dh_chain_to", lambda *a: calls.append(a[1]) or real(*a))
    window.teach.set_show_selected(True)  # the selected link drawn, as with the Explain dock open
    window.doc.open("quadruped")  # no DH rows: every chain is extract_dh's
    window.doc.select(None)
    window.doc.set_configuration(window.doc.tree.random_configuration())
    assert calls == [] and window.dh_overlay.chain is None  # nothing selected: nothing drawn
    window.doc.select("fl_calf")
    assert calls == ["fl_foot"] or calls == ["fl_calf"]
    n = len(calls)
    window.doc.set_configuration(window.doc.tree.random_configuration())
    assert len(calls) == n  # a slider: the same chain
    window.doc.select("rr_calf")
    window.bodies.add_child("revolute")  # a new body at the end of that leg: a new chain
    assert len(calls) == n + 2
    window.doc.undo_stack.undo()  # back to the chain before the edit: remembered
    window.doc.select("rr_calf")
    assert len(calls) == n + 2 and window.dh_overlay.chain.bodies[-1] == "rr_calf"
    window.doc.tree.get_body("rr_thigh").joint.offset = 0.3  # an edit on the path: extracted anew
    window.doc.select(None)
    window.doc.select("rr_calf")
    assert len(calls) == n + 3


# --- symbolic matrices -----------------------------------------------------------------------------

def wait_symbolic(panel, qtbot):
    qtbot.waitUntil(lambda: not panel.symbolic.busy and panel.symbolic.A.result is not None, timeout=30000)


@pytest.mark.parametrize("params", ["symbolic", "numeric"])
def test_symbolic_matrices_are_core_formatting_and_copy_exactly(window, qtbot, params):
    from kinetree.app.panels.explain_symbolic import lecture_entry
    from kinetree.core.teach.symbolic import symbolic_model, to_latex, to_python_script, to_text
    from PySide6.QtGui import QGuiApplication

    window.doc.open("puma560")
    window.doc.select("link3")
    panel = show_explain(window, qtbot)
    view = panel.symbolic
    if params == "numeric":
        view.params.setCurrentIndex(view.params.findData("numeric"))
        view.params.activated.emit(view.params.currentIndex())
    wait_symbolic(panel, qtbot)
    tree = window.doc.tree
    A = symbolic_model(tree, "link3", params, link=3, revolute="theta")  # the dock's default: the lecture's θ_i
    T = symbolic_model(tree, "link3", params, revolute="theta")
    # the LaTeX copy is a whole line, named as the lecture names the matrix (issue 19)
    for block, model, name, label in ((view.A, A, "A3", "A_{3}"), (view.T, T, "T0_3", "T_{3}^{0}")):
        shown = block.entries  # as the lecture prints them; the Text copy as core writes them
        assert shown == [[lecture_entry(to_text(model.matrix[r, c], model.order[r][c])) for c in range(4)]
                         for r in range(4)]
        for fmt, expected in (("latex", f"{label} = {to_latex(model.matrix, None, model.order)}"),
                              ("text", to_text(model.matrix, model.order)),
                              ("python", to_python_script(model, name))):
            QGuiApplication.clipboard().clear()
            qtbot.mouseClick(block.copy_buttons[fmt], Qt.MouseButton.LeftButton)
            assert QGuiApplication.clipboard().text() == expected
    if params == "symbolic":
        assert shown[0][3] == lecture_entry(to_text(T.matrix[0, 3], T.order[0][3])) and "a₂c₁c₂" in shown[0][3]
        assert "a2 = 0.4318" in view.legend.text()
    else:
        assert "0.4318c₁c₂" in view.T.entries[0][3]


def test_symbolic_two_link_arm_in_the_lectures_form_and_follows_the_link(window, qtbot):
    window.doc.open("two_link_planar")
    window.doc.select("link2")
    panel = show_explain(window, qtbot)
    wait_symbolic(panel, qtbot)
    assert panel.symbolic.T.entries[0][3] == "a₁c₁ + a₂c₁₂"
    assert panel.symbolic.A.entries[0][3] == "a₂c₂"
    assert "T₂⁰" in panel.symbolic.T.title.text()  # Spong's T_2^0 (issue 19; was T₀²)
    panel.combo.activated.emit(0)  # link 1: its own A and T
    wait_symbolic(panel, qtbot)
    assert panel.symbolic.T.entries[0][3] == "a₁c₁" and "A₁" in panel.symbolic.A.title.text()


def test_symbolic_t_too_large_still_shows_a_i(window, qtbot, tmp_path):
    """Ten skew revolute axes: T₀¹⁰ would exceed core's term bound; A₁₀ is shown, and why T is not."""
    from kinetree.app.panels.explain_symbolic import lecture_entry
    from kinetree.core import Joint, RigidBody, RigidBodyTree
    from kinetree.core.io import save_project
    from kinetree.core.teach.symbolic import symbolic_link, to_text

    rng = np.random.default_rng(1)
    tree = RigidBodyTree()
    parent = tree.base_name
    for k in range(10):
        joint = Joint(f"j{k}", "revolute")
        joint.axis = rng.normal(size=3)
        T = np.eye(4)
        T[:3, :3] = np.linalg.qr(rng.normal(size=(3, 3)))[0]
        T[:3, :3] *= np.sign(np.linalg.det(T[:3, :3]))
        T[:3, 3] = rng.uniform(-0.2, 0.2, 3)
        joint.set_fixed_transform(T)
        body = RigidBody(f"b{k}")
        body.joint = joint
        tree.add_body(body, parent)
        parent = body.name
    path = tmp_path / "skew.kinetree.json"
    save_project(tree, path)
    window.open_source(str(path), ask=False)
    window.doc.select("b9")
    panel = show_explain(window, qtbot)
    qtbot.waitUntil(lambda: not panel.symbolic.busy and panel.symbolic.shown is not None, timeout=60000)
    view = panel.symbolic
    # refused by the term or the work bound (since only sums fold, issue 19, the work bound comes first)
    assert view.legend.text().startswith("No symbolic T₁₀⁰")
    assert "terms" in view.legend.text() or "too long for a symbolic matrix" in view.legend.text()
    assert view.T.result is None and view.T.cells[0][0].text() == ""
    assert not view.T.copy_buttons["text"].isEnabled() and view.A.copy_buttons["text"].isEnabled()
    from kinetree.core.dh.chain import dh_chain

    A = symbolic_link(dh_chain(panel.chain.links, panel.chain.convention), 10, params="symbolic", revolute="theta")
    assert view.A.cells[0][0].text() == lecture_entry(to_text(A[0, 0]))  # cos(θ₁₀ + 0.72…)


def pick(box, data) -> None:
    """Choose the combo entry holding ``data`` as a user does (the entry, then its activated signal)."""
    index = box.findData(data)
    assert index >= 0, data
    box.setCurrentIndex(index)
    box.activated.emit(index)


def test_symbolic_in_the_lectures_notation(window, qtbot):
    """Issue 19: the wrist keeps its numbers (A₅, T₅³ in c4, s5), T from frame j, the general
    A_i, θ_i, sums expanded, Craig's ⁰T_n, and the LaTeX copy as a whole `A_{5} = …` line."""
    from kinetree.app.panels.explain_symbolic import lecture_entry
    from kinetree.core.teach.symbolic import symbolic_model, to_latex, to_text
    from PySide6.QtGui import QGuiApplication

    window.doc.open("spherical_wrist")
    window.doc.select("link5")
    panel = show_explain(window, qtbot)
    view = panel.symbolic
    wait_symbolic(panel, qtbot)
    assert "A₅" in view.A.title.text() and "T₅³" in view.T.title.text() and "A₄·A₅" in view.T.title.text()
    assert view.T.entries[0][2] == "c₄s₅" and view.A.entries[1][2] == "−c₅"
    assert "theta4 = q4" in view.legend.text()  # the lecture's θ_i by default
    assert [view.start.itemText(k) for k in range(view.start.count())] == ["from frame 3 (base)", "from frame 4"]
    QGuiApplication.clipboard().clear()
    qtbot.mouseClick(view.A.copy_buttons["latex"], Qt.MouseButton.LeftButton)
    assert QGuiApplication.clipboard().text().startswith(r"A_{5} = \begin{bmatrix}c_{5} & 0 & s_{5}")

    window.doc.open("puma560")  # T from frame 3: T₆³ = A₄A₅A₆ in the robot's numbers
    window.doc.select("link6")
    qtbot.waitUntil(lambda: view.start.count() == 6, timeout=5000)
    pick(view.start, 3)
    wait_symbolic(panel, qtbot)
    T63 = symbolic_model(window.doc.tree, "link6", "symbolic", frame="link3", revolute="theta")
    assert view.T.entries == [[lecture_entry(to_text(T63.matrix[r, c], T63.order[r][c])) for c in range(4)]
                              for r in range(4)]
    assert "T₆³" in view.T.title.text() and "A₄·A₅·A₆" in view.T.title.text()
    QGuiApplication.clipboard().clear()
    qtbot.mouseClick(view.T.copy_buttons["latex"], Qt.MouseButton.LeftButton)
    assert QGuiApplication.clipboard().text() == to_latex(T63.matrix, r"T_{6}^{3}", T63.order)

    window.doc.select("link2")  # the general A_i of eq. (3.10), with θ_i
    pick(view.params, "general")
    pick(view.revolute, "theta")
    wait_symbolic(panel, qtbot)
    assert view.A.entries[:3] == [
        ["c₂", "−s₂cos(α₂)", "s₂sin(α₂)", "a₂c₂"],
        ["s₂", "c₂cos(α₂)", "−c₂sin(α₂)", "a₂s₂"],
        ["0", "sin(α₂)", "cos(α₂)", "d₂"]]
    assert "theta1 = " in view.legend.text() and "alpha2 = " in view.legend.text()
    QGuiApplication.clipboard().clear()
    qtbot.mouseClick(view.A.copy_buttons["latex"], Qt.MouseButton.LeftButton)
    assert r"\cos{\left(\alpha_{2} \right)}" in QGuiApplication.clipboard().text()

    window.doc.open("two_link_planar")  # expanded sums, Craig's ⁰T₂
    window.doc.select("link2")
    pick(view.params, "symbolic")
    pick(view.revolute, "q")
    pick(view.sums, "expanded")
    pick(view.notation, "craig")
    wait_symbolic(panel, qtbot)
    assert view.T.entries[0][0] == "c₁c₂ − s₁s₂" and "c₁₂" not in view.T.entries[0][3]  # the lecture's
    assert "⁰T₂" in view.T.title.text()
    pick(view.sums, "folded")
    wait_symbolic(panel, qtbot)
    assert view.T.entries[0][0] == "c₁₂" and view.T.entries[0][3] == "a₁c₁ + a₂c₁₂"


def test_numeric_t_is_titled_as_the_lecture_writes_it(window, qtbot):
    """Issue 19: the dock's numeric T is T₃⁰ (Spong, the lecture), as its symbolic T, not T₀³."""
    window.doc.open("puma560")
    window.doc.select("link3")
    panel = show_explain(window, qtbot)
    assert panel.chain_title.text().startswith("<b>T₃⁰</b> = A₁·A₂·A₃")
    panel.from_zero.setChecked(True)
    assert panel.chain_title.text().startswith("<b>T₃⁰</b> = A₁·A₂·A₃, so far")


def test_a_chains_numbering_is_worked_out_once(monkeypatch):
    """Issue 31 (a walk step's latency): every A₅, θ₅, T₄⁰ the Explain dock writes asked the chain
    its numbering, which parsed every joint name again: ~90 times per clicker step on the Puma."""
    from kinetree.app.model import dh_chain
    from kinetree.core import load_robot

    chain = dh_chain.dh_chain_to(load_robot("spherical_wrist"))
    calls = []
    real = dh_chain.chain_numbering
    monkeypatch.setattr(dh_chain, "chain_numbering", lambda names: calls.append(names) or real(names))
    assert [chain.number(i) for i in range(4)] == [3, 4, 5, 6]  # the wrist's joints q4…q6: A₄ … A₆
    assert chain.index(1, "theta") == 4 and chain.number(0) == 3
    assert len(calls) <= 1


def test_symbolic_entries_are_printed_as_the_lecture_prints_them(window, qtbot):
    """Issue 31: the dock printed `a2*c2` where the FK lecture prints a₂c₂ (its example 1, the
    two-link planar arm: A₂ and T₂⁰ = A₁A₂ as printed there, subscripts, implicit products, minus
    signs); a Text copy is still ``kinetree symbolic``'s."""
    from PySide6.QtGui import QGuiApplication

    A2 = [["c₂", "−s₂", "0", "a₂c₂"], ["s₂", "c₂", "0", "a₂s₂"], ["0", "0", "1", "0"], ["0", "0", "0", "1"]]
    T2 = [["c₁₂", "−s₁₂", "0", "a₁c₁ + a₂c₁₂"], ["s₁₂", "c₁₂", "0", "a₁s₁ + a₂s₁₂"], ["0", "0", "1", "0"],
          ["0", "0", "0", "1"]]
    window.doc.open("two_link_planar")
    window.doc.select("link2")
    panel = show_explain(window, qtbot)
    wait_symbolic(panel, qtbot)
    view = panel.symbolic
    for block, printed in ((view.A, A2), (view.T, T2)):
        assert [[block.cells[r][c].text() for c in range(4)] for r in range(4)] == printed  # drawn (was a2*c2)
        assert block.entries == printed
    QGuiApplication.clipboard().clear()
    qtbot.mouseClick(view.T.copy_buttons["text"], Qt.MouseButton.LeftButton)
    assert "a1*c1 + a2*c12" in QGuiApplication.clipboard().text()
