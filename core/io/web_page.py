"""A robot as one self-contained web page (File ▸ Export ▸ Web page…, ``kinetree html``).

The page holds everything it shows: three.js (vendored, ``resources/web/three.min.js`` with its
licence beside it), the page's own script and style, and the robot as JSON inside a
``<script type="application/json">`` element (``<``, ``>``, ``&`` and U+2028/9 escaped, so no
text from a robot file can close the element); meshes are base64 float32/uint32 arrays in that
JSON (:mod:`.web_meshes`). Its Content-Security-Policy forbids any connection: nothing is fetched
at view time. The page's script shows names with ``textContent`` only.

The page's forward kinematics is the engine's single-configuration formula
(:meth:`~kinetree.core.kinematics.plan.KinematicPlan.fk_single`): each body's pose in its parent is
``P0 + sin θ·P1 + (1 − cos θ)·P2 + d·P3`` with the plan's constant matrices, then one product
per body from the base out, in float64 (JavaScript numbers), so it equals
:meth:`~kinetree.core.tree.RigidBodyTree.get_transform` to rounding. Revolute (continuous
too), prismatic, fixed and mimic joints are modelled; any other joint type, and closed loops,
are refused at export by name.
"""

from __future__ import annotations

import html
import json
import math
import os
import re
from importlib.resources import files
from typing import Any

import numpy as np

from ..dh.chain import lecture_variables, variable_label
from ..disk.safe_io import atomic_write_text
from ..errors import FileFormatError
from ..kinematics.plan import frame_size
from .web_meshes import MeshPacker

#: The joint types the page moves (a mimic joint is revolute or prismatic).
PAGE_JOINT_TYPES = ("fixed", "revolute", "prismatic")
#: Slider range of a joint without finite limits (a continuous joint; a prismatic one in metres).
UNBOUNDED_RANGE = {"revolute": math.pi, "prismatic": 1.0}
#: The pose readout's digits and unit: the Pose dock's defaults.
READOUT_DIGITS = 4
_ASSETS = ("three.min.js", "page.js", "page.css", "page.html")


def _asset(name: str) -> str:
    return (files("kinetree.resources") / "web" / name).read_text(encoding="utf-8")


def script_json(data: Any) -> str:
    """``data`` as JSON safe inside a ``<script>`` element: no ``<``, ``>`` or ``&`` (so no
    ``</script>`` or ``<!--``), and U+2028/U+2029 escaped (``ensure_ascii``)."""
    text = json.dumps(data, ensure_ascii=True, allow_nan=False, separators=(",", ":"))
    return text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")


def check_page_tree(tree) -> None:
    """Raise :class:`FileFormatError` naming what the page cannot model: a joint type outside
    :data:`PAGE_JOINT_TYPES` (the joint and its type), or a closed loop (the loop)."""
    for loop in tree.loops:
        raise FileFormatError(f"web page: loop {loop.name!r:.80} cannot be shown: the page models trees only "
                              "(open the loop or export another format)")
    for b in tree.bodies:
        j = b.joint
        if j.type not in PAGE_JOINT_TYPES:
            raise FileFormatError(f"web page: joint {j.name!r:.80} of body {b.name!r:.80} is {j.type}; the page "
                                  f"models {', '.join(PAGE_JOINT_TYPES)} (and mimic) joints only")


def _flat(m: np.ndarray) -> list[float]:
    return [float(v) for v in np.asarray(m, dtype=float).reshape(16)]


def _joints(tree, q: np.ndarray, variables: dict, notes: list[str]) -> list[dict[str, Any]]:
    """One entry per position of the configuration (a slider each); a value outside its joint's
    limits is kept (the pose is the configuration's) and said in ``notes``: its slider can only
    show the nearest limit."""
    out = []
    for name in tree.movable_joint_names:
        j = tree.find_joint(name).joint
        lo, hi = (float(v) for v in np.asarray(j.position_limits, dtype=float).reshape(-1)[:2])
        value = float(q[tree.position_index(name)][0])
        bounded = math.isfinite(lo) and math.isfinite(hi)
        if bounded and not lo <= value <= hi:
            notes.append(f"joint {name!r:.80}: {value:.6g} is outside its limits [{lo:.6g}, {hi:.6g}]: the page "
                         "shows the pose there, its slider the nearest limit until moved")
        if not bounded:
            r = UNBOUNDED_RANGE[j.type]
            lo, hi = min(-r, value), max(r, value)
        out.append({"name": name, "label": variable_label(name, variables), "type": j.type, "min": lo, "max": hi,
                    "bounded": bounded, "index": tree.position_index(name).start})
    return out


def _dh_kind(joint) -> str | None:
    row = joint.dh_parameters
    return None if row is None else row.convention


def page_data(tree, q=None, *, title: str = "", camera: dict | None = None,
              max_triangles: int | None = None) -> tuple[dict[str, Any], list[str]]:
    """The page's JSON data for ``tree`` at configuration ``q`` (its home when omitted), and the
    notes for the user (meshes decimated or left out). ``camera``: ``{"center": [x, y, z],
    "distance", "elevation", "azimuth", "fov"}`` (degrees, as the app's viewport) or None (the
    page frames the robot from the app's default direction)."""
    check_page_tree(tree)
    q = tree.home_configuration() if q is None else tree.config_to_vector(q)
    plan = tree.kinematic_plan()
    packer = MeshPacker() if max_triangles is None else MeshPacker(max_triangles)
    variables = lecture_variables(tree)
    notes: list[str] = []
    bodies = []
    for i, b in enumerate(tree.bodies):
        kind = plan.kind[i]
        P = plan.Pstack[i]
        bodies.append({
            "name": b.name, "parent": int(plan.parent[i]), "kind": kind, "q": int(plan.qi[i]),
            "gain": float(plan.gain[i]), "offset": float(plan.offset[i]),
            "P0": _flat(plan.P0[i]), "P1": [float(v) for v in P[0]], "P2": [float(v) for v in P[1]],
            "P3": [float(v) for v in P[2]], "dh": _dh_kind(b.joint),
            "visuals": [packer.visual(v, b.name) for v in b.visuals]})
    base_visuals = [packer.visual(v, tree.base_name) for v in tree.base.visuals]
    poses = [{"name": name, "q": [float(v) for v in tree.named_poses[name]]} for name in tree.named_poses]
    data = {
        "format": "kinetree-web", "version": 1, "title": title or "robot", "base": tree.base_name,
        "baseVisuals": base_visuals, "endEffector": tree.end_effector, "q": [float(v) for v in q],
        "bodies": bodies, "joints": _joints(tree, q, variables, notes), "poses": poses, "meshes": packer.pack(),
        "digits": READOUT_DIGITS, "camera": camera, "frameSize": frame_size(tree),
    }
    return data, notes + packer.notes()


def web_page(tree, q=None, *, title: str = "", camera: dict | None = None,
             max_triangles: int | None = None) -> tuple[str, list[str]]:
    """The whole page as text, and the notes for the user (see :func:`page_data`)."""
    data, notes = page_data(tree, q, title=title, camera=camera, max_triangles=max_triangles)
    assets = {name: _asset(name) for name in _ASSETS}
    for name in ("three.min.js", "page.js", "page.css"):
        if "</script" in assets[name].lower():  # a shipped file, never robot text: a packaging error
            raise FileFormatError(f"web page: the shipped asset {name} contains '</script'")
    fill = {"/*@CSS@*/": assets["page.css"], "/*@THREE@*/": assets["three.min.js"], "/*@PAGE@*/": assets["page.js"],
            "@TITLE@": html.escape(data["title"]), "@DATA@": script_json(data)}
    # the template is split on its markers once: nothing inserted is searched again
    parts = re.split(r"(/\*@[A-Z]+@\*/|@TITLE@|@DATA@)", assets["page.html"])
    return "".join(fill.get(p, p) for p in parts), notes


def write_web_page(tree, path: str | os.PathLike, q=None, *, title: str = "", camera: dict | None = None,
                   max_triangles: int | None = None) -> list[str]:
    """Write the page to ``path`` atomically; returns the notes for the user."""
    text, notes = web_page(tree, q, title=title or os.path.splitext(os.path.basename(os.fspath(path)))[0],
                           camera=camera, max_triangles=max_triangles)
    atomic_write_text(path, text)
    return notes
