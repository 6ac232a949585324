"""The notebook widget's ES module in a page, a stand-in for anywidget's model (needs anywidget)."""

from __future__ import annotations

import time

import numpy as np
from kinetree.app.model.numbers import pose_readouts
from kinetree.app.notebook_widget import widget_esm
from kinetree.core.io.web_page import script_json

# --- the ES module in Chromium, with a stand-in for anywidget's model ------------------------------------
# no connection allowed but the module's own blob: what the widget needs must be in its module
CSP = "default-src 'none'; script-src 'unsafe-inline' blob:; style-src 'unsafe-inline'"


HARNESS = """<!DOCTYPE html><html><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="@CSP@">
</head><body>
<script type="application/json" id="state">@STATE@</script>
<script type="application/json" id="esm">@ESM@</script>
<script>
// anywidget's model as render() uses it: get, set (which fires change:<name> here, as Backbone does),
// save_changes, on, off; fromKernel(name, value) is an update that comes from Python
window.violations = []; // anything the widget tried to load from elsewhere
document.addEventListener("securitypolicyviolation", (e) => window.violations.push(e.blockedURI));
const state = JSON.parse(document.getElementById("state").textContent), handlers = {}, log = [];
const fire = (name) => (handlers["change:" + name] || []).forEach((f) => f());
const model = {
  get: (name) => state[name],
  set: (name, value) => { state[name] = value; log.push(["set", name, value]); fire(name); },
  save_changes: () => log.push(["save"]),
  on: (event, f) => { (handlers[event] = handlers[event] || []).push(f); },
  off: (event, f) => { handlers[event] = (handlers[event] || []).filter((g) => g !== f); },
};
window.fake = { log, state, fromKernel: (name, value) => { state[name] = value; fire(name); } };
const esm = JSON.parse(document.getElementById("esm").textContent);
const t0 = performance.now();
import(URL.createObjectURL(new Blob([esm], { type: "text/javascript" }))).then((module) => {
  const el = document.createElement("div");
  document.body.appendChild(el);
  window.cleanup = module.default.render({ model, el });
  window.kinetree = el.querySelector(".kinetree-widget").kinetree;
  window.kinetree.nextFrame().then(() => { window.loadTime = performance.now() - t0; });
}, (e) => { window.loadError = String(e); });
</script></body></html>"""


def check_pose(w, tree, q, body) -> None:
    T = tree.get_transform(np.asarray(q, dtype=float), body)
    np.testing.assert_array_equal(np.array(w.pose), T)
    assert w.pose_text == pose_readouts(T, 4, True)


def open_widget(browser, tmp_path, w) -> float:
    """The widget's view of ``w`` in a page of its own; returns its load time (ms: the module's
    import to its first frame drawn)."""
    state = {key: w.get_state()[key] for key in ("_robot", "configuration", "selected", "height")}
    page = HARNESS.replace("@CSP@", CSP).replace("@STATE@", script_json(state))
    page = page.replace("@ESM@", script_json(widget_esm()))
    path = tmp_path / "widget.html"
    path.write_text(page, encoding="utf-8")
    browser.get(path.as_uri())
    deadline = time.monotonic() + 60
    while (load := browser.execute_script("return window.loadTime ?? window.loadError ?? null")) is None:
        assert time.monotonic() < deadline, browser.get_log("browser")
        time.sleep(0.05)
    assert not isinstance(load, str), load
    assert browser.execute_script("return window.violations") == []
    return load
