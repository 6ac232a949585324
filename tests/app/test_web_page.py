"""The exported web page (File ▸ Export web page, ``kinetree html``) in a real browser: headless
Chromium driven by Selenium loads the page, moves joints and sliders, and reads back each body's
world matrix (equal to ``get_transform`` to 1e-12) and the pose readout (the Pose dock's text);
robot text stays text; what the page cannot model is refused by name. One browser for the module."""

from __future__ import annotations

import warnings
from pathlib import Path

import numpy as np
import pytest
from helpers.urdf import EXAMPLE_ROBOTS
from helpers.web_page import check_page_matches_engine, next_frame
from kinetree.app.model.numbers import fixed_text
from kinetree.app.panels.pose import pose_readouts
from kinetree.core import Joint, RigidBody, RigidBodyTree, load_robot
from kinetree.core.dh.chain import lecture_variables, variable_label
from kinetree.core.errors import FileFormatError
from kinetree.core.io.web_page import web_page, write_web_page
from kinetree.core.transforms import rotx, roty, rotz

LIBRARY = ("puma560", "puma560_mdh", "panda", "scara", "stanford", "stanford_lecture", "ur5", "kuka_lbr_iiwa14",
           "jaco", "baxter_left", "abb_irb140", "cylindrical_wrist", "humanoid_upper_body", "quadruped",
           "two_link_planar")
# with meshes; Panda's gripper fingers: a mimic joint; Talos: mimic grippers and 48 meshes
URDFS = {"talos": "talos_data/robots/talos_full_v2.urdf", "panda_urdf": "panda_description/urdf/panda.urdf",
         "baxter": "baxter_description/urdf/baxter.urdf", "go2": "go2_description/urdf/go2.urdf",
         "allegro": "allegro_hand_description/urdf/allegro_left_hand.urdf"}


def robot(key: str) -> RigidBodyTree:
    if key in LIBRARY:
        return load_robot(key)
    if EXAMPLE_ROBOTS is None:
        pytest.skip("example-robot-data is not installed (the URDF robots with meshes)")
    from kinetree.core import import_robot

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return import_robot(EXAMPLE_ROBOTS / URDFS[key], package_paths=(str(EXAMPLE_ROBOTS),))


def open_page(browser, path: Path) -> None:
    browser.get(path.as_uri())
    assert browser.execute_script("return typeof window.kinetree") == "object", browser.get_log("browser")
    next_frame(browser)


def set_configuration(browser, tree, q) -> None:
    """Every slider's joint to its value in ``q``, through the page's own setJoint."""
    values = {name: float(q[tree.position_index(name)][0]) for name in tree.movable_joint_names}
    browser.execute_script("for (const [n, v] of Object.entries(arguments[0])) window.kinetree.setJoint(n, v);",
                           values)
    next_frame(browser)


@pytest.mark.parametrize("key", [*LIBRARY, *URDFS])
def test_page_kinematics_equal_the_engine(browser, tmp_path, key):
    tree = robot(key)
    path = tmp_path / f"{key}.html"
    write_web_page(tree, path)
    open_page(browser, path)
    assert browser.execute_script("return window.kinetree.webgl()"), "no WebGL: the 3D view is missing"
    q = tree.home_configuration()
    check_page_matches_engine(browser, tree, q)
    rng = np.random.default_rng(34)
    for _ in range(3):
        q = tree.random_configuration(rng)
        set_configuration(browser, tree, q)
        check_page_matches_engine(browser, tree, q)


def test_sliders_move_the_robot(browser, tmp_path):
    """Keys on a slider (the user's path: an input event) move its joint; the page's matrices
    and readout follow the value the slider holds."""
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys

    tree = load_robot("puma560")
    path = tmp_path / "puma.html"
    write_web_page(tree, path)
    open_page(browser, path)
    before = browser.execute_script("return window.kinetree.poseText()")
    sliders = browser.find_elements(By.CSS_SELECTOR, "#sliders input[type=range]")
    assert [s.get_attribute("aria-label") for s in sliders] == tree.movable_joint_names
    sliders[0].send_keys(Keys.ARROW_RIGHT * 5)
    sliders[2].send_keys(Keys.ARROW_LEFT * 3)
    q = tree.home_configuration()
    for k in (0, 2):
        q[k] = float(sliders[k].get_attribute("value"))
    assert q[0] != 0 and q[2] != 0
    check_page_matches_engine(browser, tree, q)
    assert browser.execute_script("return window.kinetree.poseText()") != before
    shown = browser.find_element(By.ID, "pose-matrix").text
    assert shown == pose_readouts(tree.get_transform(q, tree.end_effector), 4, True)["matrix"]
    # the lecture's notation on the sliders (θ₁ …), as the app's Sliders dock names them
    labels = [e.text for e in browser.find_elements(By.CSS_SELECTOR, "#sliders .name")]
    assert labels == [variable_label(n, lecture_variables(tree)) for n in tree.movable_joint_names]
    assert labels[0] == "θ₁"
    # the DH toggle draws the DH axes: the view changes
    before = browser.get_screenshot_as_png()
    browser.find_element(By.ID, "show-dh").click()
    next_frame(browser)
    assert browser.get_screenshot_as_png() != before


def test_a_drag_draws_quick_frames_and_rests_at_full_quality(browser, tmp_path):
    """While joints move the page draws at half resolution without MSAA (software WebGL's cost is
    its pixels: 35 ms a frame for the Puma at 1280×800 with MSAA); once they rest it draws one
    frame at full resolution with 4× MSAA, the very pixels of the page as it opened."""
    import base64
    import io

    from PIL import Image

    tree = load_robot("puma560")
    path = tmp_path / "puma.html"
    write_web_page(tree, path)
    open_page(browser, path)

    def view() -> np.ndarray:  # the 3D view's pixels (the panel's 340 px at the right left out)
        return np.asarray(Image.open(io.BytesIO(browser.get_screenshot_as_png())).convert("RGB"))[:800, :940]

    opened = view()
    assert browser.execute_script("return window.kinetree.frameInfo()") == {
        "kind": "still", "width": 940, "height": 800, "samples": 4}
    home = tree.home_configuration()
    # a quick frame, read in the display frame that drew it (the canvas keeps no frame after it)
    shot = browser.execute_async_script("""const done = arguments[arguments.length - 1];
        window.kinetree.setJoint(arguments[0], 0.3);
        requestAnimationFrame(() => done(document.querySelector("#view canvas").toDataURL("image/png")));""",
                                        tree.movable_joint_names[0])
    quick = np.asarray(Image.open(io.BytesIO(base64.b64decode(shot.split(",", 1)[1]))).convert("RGB"))
    assert quick.shape == (400, 470, 3)
    assert (quick[0, 0] == opened[0, 0]).all() and (opened[0, 0] == [0x1E, 0x1F, 0x22]).all()  # the background
    assert np.count_nonzero((quick != opened[0, 0]).any(axis=2)) > 500  # the robot
    for k, v in ((0, 0.8), (1, -0.6), (2, 0.4)):
        browser.execute_script("window.kinetree.setJoint(arguments[0], arguments[1])", tree.movable_joint_names[k], v)
        next_frame(browser)
        assert browser.execute_script("return window.kinetree.frameInfo()") == {
            "kind": "quick", "width": 470, "height": 400, "samples": 0}
    set_configuration(browser, tree, home)
    browser.execute_async_script("window.kinetree.settled().then(arguments[arguments.length - 1])")
    assert browser.execute_script("return window.kinetree.frameInfo()") == {
        "kind": "still", "width": 940, "height": 800, "samples": 4}
    check_page_matches_engine(browser, tree, home)
    rested = view()
    assert np.array_equal(rested, opened), f"{np.count_nonzero((rested != opened).any(axis=2))} pixels differ"


def test_page_formatter_rounds_as_the_dock(browser, tmp_path):
    """Ties (0.03125 to 4 digits: Python rounds to even), near zeros, negative zeros, and the
    rotation readouts of random poses near and at gimbal lock."""
    path = tmp_path / "two.html"
    write_web_page(load_robot("two_link_planar"), path)
    open_page(browser, path)
    values = [0.03125, -0.03125, 0.125, 0.375, 2.675, 0.5, 1.5, 2.5, -0.00004, -1e-10, 1e-9, 123.45675, -0.0, 7.0]
    for d in (0, 2, 4, 6):
        got = browser.execute_script("return arguments[0].map((v) => window.kinetree.fixedText(v, arguments[1], true))",
                                     values, d)
        assert got == [fixed_text(v, d, sign_space=True) for v in values]
    rng = np.random.default_rng(5)
    poses = [rotz(a) @ roty(b) @ rotx(c) for a, b, c in rng.uniform(-np.pi, np.pi, (20, 3))]
    poses += [roty(np.pi / 2), roty(-np.pi / 2) @ rotz(0.3), rotx(np.pi), np.eye(4)]
    for T in poses:
        T = T.copy()
        T[:3, 3] = rng.uniform(-2, 2, 3)
        for deg in (True, False):
            got = browser.execute_script("return window.kinetree.readouts(arguments[0], 4, arguments[1])",
                                         T.reshape(-1).tolist(), deg)
            assert got == pose_readouts(T, 4, deg)


def test_robot_text_is_text(browser, tmp_path):
    """A body, joint and pose named like markup are shown as those characters; none runs."""
    evil = "</script><script>window.pwned=1</script><img src=x onerror=window.pwned=2>"
    tree = RigidBodyTree(base_name="<b>base</b>&amp;")
    body = RigidBody(evil)
    body.joint = Joint("<!-- j1 -->", "revolute")
    body.add_visual("box", (0.1, 0.1, 0.3))
    tree.add_body(body, tree.base_name)
    tree.named_poses["<i>up</i>"] = [0.5]
    path = tmp_path / "evil.html"
    write_web_page(tree, path, title=evil + "\u2028")  # U+2028 ends a line in old JavaScript
    text = path.read_text()
    assert text.count("<script") == 3 and "<script>window" not in text and "<img" not in text
    open_page(browser, path)
    assert browser.execute_script("return window.pwned === undefined")
    from selenium.webdriver.common.by import By

    panel = browser.find_element(By.ID, "panel").text
    assert evil in panel and "<b>base</b>&amp;" in panel and "<i>up</i>" in panel and "<!-- j1 -->" in panel
    assert browser.title == evil + "\u2028 — KineTree"
    assert not browser.find_elements(By.CSS_SELECTOR, "#panel img, #panel b, #panel i")


def test_page_refuses_what_it_cannot_model():
    tree = load_robot("two_link_planar")
    body = RigidBody("carriage")
    body.joint = Joint("slide_xy", "planar")
    tree.add_body(body, tree.body_names[-1])
    with pytest.raises(FileFormatError, match="joint 'slide_xy' of body 'carriage' is planar"):
        web_page(tree)
    tree = load_robot("two_link_planar")
    tree.add_loop("closing", tree.body_names[-1], np.eye(4), tree.base_name, np.eye(4), kind="ball")
    with pytest.raises(FileFormatError, match="loop 'closing'"):
        web_page(tree)


def test_no_network_at_view_time():
    """The page carries its scripts and forbids every connection (CSP default-src 'none')."""
    text, _notes = web_page(load_robot("puma560"))
    head = text.split("</head>")[0]
    assert "default-src 'none'" in head and "connect-src" not in head
    assert "<script src" not in text and "<link" not in text and "@import" not in text


def _robot_mask(rgb: np.ndarray) -> np.ndarray:
    """Pixels of the robot's surfaces: lit and grey (not the dark background or the coloured
    frame axes), opened once so that the app's one-pixel grid lines drop out."""
    from scipy import ndimage

    rgb = rgb.astype(float)
    return ndimage.binary_opening((rgb.mean(axis=2) > 60) & (rgb.max(axis=2) - rgb.min(axis=2) < 60))


def test_page_shows_what_the_app_renders(browser, tmp_path, qtbot):
    """The page, exported with the viewport's camera, and the app's offscreen render of the
    same robot at the same configuration cover the same pixels (robot silhouettes overlap)."""
    import io

    from kinetree.app.cli.display import offscreen_view
    from kinetree.app.features.web_export import view_camera
    from PIL import Image

    tree = load_robot("puma560")
    q = tree.named_poses["qr"] if "qr" in tree.named_poses else tree.home_configuration()
    size = (940, 800)  # the page's 3D view at 1280×800 (its panel takes 340 px)
    doc, view = offscreen_view(tree, q, size, "dark", labels=False)
    view.fit(size=size)
    img = view.render_image(*size).convertToFormat(view.render_image(*size).Format.Format_RGB888)
    app = np.frombuffer(img.constBits(), np.uint8).reshape(img.height(), img.bytesPerLine())[:, :size[0] * 3]
    app = app.reshape(size[1], size[0], 3)
    camera = view_camera(view)
    view.close()
    path = tmp_path / "puma.html"
    write_web_page(tree, path, q, camera=camera)
    open_page(browser, path)
    shot = np.asarray(Image.open(io.BytesIO(browser.get_screenshot_as_png())).convert("RGB"))[:size[1], :size[0]]
    Image.fromarray(shot).save(tmp_path / "page.png")
    Image.fromarray(app).save(tmp_path / "app.png")
    a, b = _robot_mask(app), _robot_mask(shot)
    assert a.sum() > 2000 and b.sum() > 2000, (a.sum(), b.sum())
    boxes = [(x.min(), x.max(), y.min(), y.max()) for y, x in (np.nonzero(a), np.nonzero(b))]
    assert np.abs(np.subtract(*boxes)).max() <= 8, f"robot's box in the app {boxes[0]}, in the page {boxes[1]}"
    iou = (a & b).sum() / (a | b).sum()  # 0.75 measured: the app shades the housings darker
    assert iou > 0.65, f"silhouettes overlap {iou:.2f} (images in {tmp_path})"


def page_json(path: Path) -> dict:
    """The robot data a written page carries (its JSON element, unescaped by the JSON reader)."""
    import json

    text = path.read_text()
    return json.loads(text.split('id="kinetree-data">', 1)[1].split("</script>", 1)[0])


def test_export_web_page_from_the_window(window, monkeypatch, tmp_path):
    """File ▸ Export web page: the window's robot at its configuration from the viewport's
    camera; a joint the page cannot show is a message naming it (status bar), no file, no traceback."""
    from kinetree.app.features.web_export import view_camera
    from PySide6.QtWidgets import QFileDialog

    path = tmp_path / "robot.html"
    monkeypatch.setattr(QFileDialog, "getSaveFileName", staticmethod(lambda *a, **k: (str(path), "")))
    window.doc.open("puma560")
    window.doc.set_configuration([0.3, -0.2, 0.1, 0.0, 0.5, -0.4])
    action = window.export_web_page_action
    assert action in window.menuBar().actions()[0].menu().actions()  # in the File menu
    action.trigger()
    data = page_json(path)
    assert data["q"] == [0.3, -0.2, 0.1, 0.0, 0.5, -0.4]
    assert data["camera"] == view_camera(window.viewport) and data["title"] == "robot"
    assert window.statusBar().currentMessage().startswith(f"Exported the web page to {path}")

    tree = load_robot("two_link_planar")
    body = RigidBody("carriage")
    body.joint = Joint("slide_xy", "planar")
    tree.add_body(body, "link2")
    window.doc.load(tree)
    path.unlink()
    action.trigger()
    assert not path.exists()
    assert "joint 'slide_xy' of body 'carriage' is planar" in window.statusBar().currentMessage()


def test_cli_html(tmp_path, capsys):
    from kinetree.app.main import main
    from kinetree.core.io import save_project

    out = tmp_path / "puma.html"
    assert main(["html", "puma560", "-o", str(out), "--q", "10", "20", "30", "0", "0", "0", "--deg"]) == 0
    assert capsys.readouterr().out.startswith(f"wrote {out} (6 bodies, ")
    data = page_json(out)
    np.testing.assert_allclose(data["q"], np.radians([10, 20, 30, 0, 0, 0]), rtol=0, atol=1e-15)
    assert data["camera"] is None and data["title"] == "puma"

    tree = load_robot("two_link_planar")
    body = RigidBody("carriage")
    body.joint = Joint("slide_xy", "planar")
    tree.add_body(body, "link2")
    src = tmp_path / "planar.kinetree.json"
    save_project(tree, src)
    assert main(["html", str(src), "-o", str(tmp_path / "p.html")]) == 1
    err = capsys.readouterr().err
    assert "joint 'slide_xy' of body 'carriage' is planar" in err and "Traceback" not in err
    assert not (tmp_path / "p.html").exists()


def test_notebook_web_view(browser, tmp_path):
    """``kinetree.app.web_view`` in a notebook's output: the page in a sandboxed iframe runs (its
    FK equals the engine's) and a name with quotes and markup cannot leave the srcdoc attribute."""
    from kinetree.app import web_view
    from selenium.webdriver.common.by import By

    tree = load_robot("puma560")
    body = RigidBody('tool" onload="window.pwned=1"><script>window.pwned=2</script>')
    tree.add_body(body, tree.end_effector)
    q = tree.named_poses["qr"]
    cell = web_view(tree, q)._repr_html_()
    assert cell.count("<iframe") == 1 and "<script" not in cell
    path = tmp_path / "notebook.html"
    path.write_text(f"<!DOCTYPE html><html><head><meta charset='utf-8'></head><body>{cell}</body></html>")
    browser.get(path.as_uri())
    frame = browser.find_element(By.CSS_SELECTOR, "iframe.kinetree-web-view")
    assert browser.execute_script("return window.pwned === undefined")
    browser.switch_to.frame(frame)
    try:
        assert browser.execute_script("return typeof window.kinetree") == "object"
        assert browser.execute_script("return window.pwned === undefined")
        check_page_matches_engine(browser, tree, q)
        q = tree.random_configuration(np.random.default_rng(3))
        set_configuration(browser, tree, q)
        check_page_matches_engine(browser, tree, q)
        assert browser.find_element(By.ID, "ee").text == f"{tree.end_effector} in {tree.base_name}"
        assert tree.end_effector == body.name  # the quoted, marked-up name, shown as text
    finally:
        browser.switch_to.default_content()


def test_web_view_refuses_a_bad_height():
    from kinetree.app import web_view

    with pytest.raises(ValueError, match="height"):
        web_view(load_robot("two_link_planar"), height=10**9)


def test_notebook_cell_shows_the_live_page(browser, tmp_path, monkeypatch):
    """A notebook kernel (no display) runs ``web_view``; its text/html output, opened in
    Chromium as JupyterLab shows it, is the live page at the configuration given."""
    nbformat = pytest.importorskip("nbformat", reason="the notebook test needs nbformat (the test extra)")
    nbclient = pytest.importorskip("nbclient", reason="the notebook test needs nbclient (the test extra)")
    pytest.importorskip("ipykernel", reason="the notebook test needs ipykernel (the test extra)")
    from selenium.webdriver.common.by import By

    nb = nbformat.v4.new_notebook()
    nb.cells = [nbformat.v4.new_code_cell("from kinetree.app import web_view\nfrom kinetree.core import load_robot\n"
                                          "web_view(load_robot('scara'), [0.3, -0.5, 0.1, 0.2])")]
    for name in ("DISPLAY", "WAYLAND_DISPLAY", "QT_QPA_PLATFORM"):  # the kernel inherits this environment
        monkeypatch.delenv(name, raising=False)
    nbclient.NotebookClient(nb, timeout=120, kernel_name="python3",
                            resources={"metadata": {"path": str(tmp_path)}}).execute()
    [cell] = [o["data"]["text/html"] for o in nb.cells[0].outputs if "text/html" in o.get("data", {})]
    path = tmp_path / "cell.html"
    path.write_text(f"<!DOCTYPE html><html><head><meta charset='utf-8'></head><body>{cell}</body></html>")
    browser.get(path.as_uri())
    browser.switch_to.frame(browser.find_element(By.CSS_SELECTOR, "iframe.kinetree-web-view"))
    try:
        tree = load_robot("scara")
        check_page_matches_engine(browser, tree, np.array([0.3, -0.5, 0.1, 0.2]))
    finally:
        browser.switch_to.default_content()


def test_big_meshes_are_decimated_to_the_budget_and_said(tmp_path):
    """A mesh above the page's budget is decimated (and the note names the budget); a mesh file
    that cannot be read is left out with a note naming it, the page still written."""
    import trimesh
    from kinetree.core.io.web_page import page_data

    sphere = trimesh.creation.icosphere(subdivisions=5)  # 20,480 triangles
    stl = tmp_path / "ball.stl"
    sphere.export(stl)
    tree = RigidBodyTree()
    body = RigidBody("ball")
    body.add_visual("mesh", (1, 1, 1), filename=str(stl))
    body.add_visual("mesh", (1, 1, 1), filename=str(tmp_path / "missing.stl"))
    tree.add_body(body, tree.base_name)
    data, notes = page_data(tree, max_triangles=2000)
    assert data["meshes"][0]["triangles"] <= 2000 and data["meshes"][0]["triangles"] > 1000
    assert data["meshes"][1]["triangles"] == 0
    assert any("20,480 triangles became" in n and "2,000 in all" in n for n in notes), notes
    assert any("missing.stl" in n for n in notes), notes
    data, notes = page_data(tree)  # within the default budget: kept whole
    assert data["meshes"][0]["triangles"] == 20480 and not any("triangles became" in n for n in notes)


def test_a_configuration_outside_the_limits_is_kept_and_said():
    """Puma's qn has q3 = π, beyond its −225°…45°: the page shows that pose and says the slider
    cannot (never a value changed silently)."""
    from kinetree.core.io.web_page import page_data

    tree = load_robot("puma560")
    qn = tree.named_poses["qn"]
    data, notes = page_data(tree, qn)
    assert data["q"] == list(qn)
    assert any(n.startswith("joint 'q3': 3.14159 is outside its limits [-3.92699, 0.785398]") for n in notes), notes
    assert not page_data(tree)[1]
