"""Closed loops in MJCF: ``<equality>`` ``<connect>`` and ``<weld>`` read as loops and written back,
``<actuator>`` elements with a joint transmission marking their joints actuated.

Writing: each loop's two frames become sites (``<loop>__kinetree_a`` on body a, ``…_b`` on body
b, exact poses), a ball loop a ``<connect site1 site2>``, a weld a ``<weld site1 site2>``. MuJoCo
has no hinge equality: a hinge is written as two ``<connect>`` constraints, at the frames and
0.1 m along their z axes (``<loop>__kinetree_axis``), the usual MuJoCo idiom; a warning names the
loops so written. MuJoCo has no slider equality: a slider loop is refused. In a tree with loops,
each actuated revolute or prismatic joint without an actuator gets a ``<motor>``
(``<joint>__kinetree_motor``), so the actuated flags come back.

Reading: an active ``<connect>`` is a ball loop at its two points (its sites' frames, or its anchor
on body1 and where that is on body2 in MuJoCo's reference configuration); two connects between the
same bodies whose second points lie on the first's axis, equally far on both bodies (sites' z axes
for site connects), are one hinge loop; an active ``<weld>`` is a weld loop (its sites' frames, or
body2's pose relative to body1 and the identity). The actuators' joints are the actuated ones; a
file with loops and no joint actuator gets the default actuation (the first free joints).
"""

from __future__ import annotations

import numpy as np
from lxml import etree

from ...errors import FileFormatError
from ...kinematics.plan import _z_to_axis
from ...transforms import matrix_to_quat, quat_to_rotation
from ...tree import RigidBodyTree
from ..loop_files import add_file_loops, default_actuation

#: The names KineTree gives its own sites, constraints and motors (left out of what the import keeps).
MARK = "__kinetree_"
AXIS_LENGTH = 0.1
#: The keyframe holding a looped tree's closed home.
HOME_KEY = f"{MARK}home"
_CONNECT, _WELD = 0, 1  # mjEQ_CONNECT, mjEQ_WELD
_OBJ_SITE = 6  # mjOBJ_SITE
_TRN_JOINT = 0  # mjTRN_JOINT


def _vec(v) -> str:
    return " ".join("0" if float(x) == 0.0 else repr(float(x)) for x in v)


def write_loops(root: etree._Element, tree: RigidBodyTree) -> list[str]:
    """Add ``tree``'s loops and actuators to the MJCF document ``root``; return the names of the
    hinge loops written as two connects (for the caller's warning)."""
    if not tree.loops:
        return []
    bodies = {el.get("name"): el for el in root.iter("body")}
    world = root.find("worldbody")

    def site(body: str, name: str, X: np.ndarray) -> None:
        el = bodies.get(body, world if body == tree.base_name else None)
        if el is None:
            raise FileFormatError(f"loop {name.split(MARK)[0]!r}: body {body!r} is merged into another MJCF body "
                                  "(a massless link of a chain); give it a mass or a visual before exporting")
        etree.SubElement(el, "site", name=name, pos=_vec(X[:3, 3]), quat=_vec(matrix_to_quat(X[:3, :3])))

    eq = root.find("equality")
    if eq is None:
        eq = etree.Element("equality")
        world.addnext(eq)
    hinges = []
    for lp in tree.loops:
        if lp.kind == "slider":
            raise FileFormatError(f"MJCF cannot hold the slider loop {lp.name!r} (MuJoCo has no prismatic equality): "
                                  "save a KineTree project or SDFormat, which keep it, or make the slider a tree joint")
        a, b = f"{lp.name}{MARK}a", f"{lp.name}{MARK}b"
        site(lp.body_a, a, lp.frame_a)
        site(lp.body_b, b, lp.frame_b)
        etree.SubElement(eq, "weld" if lp.kind == "weld" else "connect", name=lp.name, site1=a, site2=b)
        if lp.kind == "hinge":
            up = np.eye(4)
            up[2, 3] = AXIS_LENGTH
            site(lp.body_a, a + "2", lp.frame_a @ up)
            site(lp.body_b, b + "2", lp.frame_b @ up)
            etree.SubElement(eq, "connect", name=f"{lp.name}{MARK}axis", site1=a + "2", site2=b + "2")
            hinges.append(lp.name)
    driven = {el.get("joint") for el in root.iter() if isinstance(el.tag, str) and el.getparent() is not None
              and el.getparent().tag == "actuator"}
    motors = [b.joint.name for b in tree.bodies if b.joint.actuated and b.joint.type in ("revolute", "prismatic")
              and b.joint.mimic is None and b.joint.name not in driven]
    if motors:
        act = root.find("actuator")
        if act is None:
            act = etree.Element("actuator")
            eq.addnext(act)
        for name in motors:
            etree.SubElement(act, "motor", name=f"{name}{MARK}motor", joint=name)
    _home_key(root, world, tree)
    return hinges


def _home_key(root: etree._Element, world: etree._Element, tree: RigidBodyTree) -> None:
    """The closed home as a keyframe ``<key name="__kinetree_home" qpos>`` (MJCF has no home
    positions), when every joint is a hinge or slide of the tree (qpos then lists their positions
    in document order)."""
    joints = {b.joint.name: b.joint for b in tree.bodies}
    qpos = []
    for el in world.iter("joint", "freejoint"):
        j = joints.get(el.get("name"))
        if el.tag != "joint" or el.get("type") not in ("hinge", "slide") or j is None or j.position_count != 1:
            return
        qpos.append(float(j.home_position))
    if not any(qpos):
        return
    frames = root.find("keyframe")
    if frames is None:
        frames = etree.Element("keyframe")
        root.append(frames)
    etree.SubElement(frames, "key", name=HOME_KEY, qpos=_vec(qpos))


def _frame(m, e: int, side: int, mj_body) -> tuple[object, np.ndarray, bool]:
    """(KineTree body, frame in it, from a site) of side ``side`` (0, 1) of equality ``e``."""
    obj = int(m.eq_obj1id[e] if side == 0 else m.eq_obj2id[e])
    X = np.eye(4)
    if int(m.eq_objtype[e]) == _OBJ_SITE:
        X[:3, :3] = quat_to_rotation(m.site_quat[obj])
        X[:3, 3] = m.site_pos[obj]
        return mj_body[int(m.site_bodyid[obj])], X, True
    if int(m.eq_type[e]) == _CONNECT:
        X[:3, 3] = m.eq_data[e][3 * side:3 * side + 3]
    elif side == 0:  # weld: body2's pose in body1 (MuJoCo's relpose, from qpos0 unless given)
        X[:3, 3] = m.eq_data[e][3:6]
        X[:3, :3] = quat_to_rotation(m.eq_data[e][6:10])
    return mj_body[obj], X, False


def _hinge(first: tuple, second: tuple) -> tuple[np.ndarray, np.ndarray] | None:
    """The hinge frames of two connects between the same bodies, or None when they are not one."""
    (ba, Xa, site_a), (bb, Xb, site_b) = first
    (ca, Ya, _), (cb, Yb, _) = second
    if (ba, bb) != (ca, cb):
        return None
    da, db = Ya[:3, 3] - Xa[:3, 3], Yb[:3, 3] - Xb[:3, 3]
    h = float(np.linalg.norm(da))
    if h < 1e-9 or abs(h - float(np.linalg.norm(db))) > 1e-9 * max(1.0, h):
        return None
    if site_a and site_b:  # both on the sites' z axes
        if np.abs(Xa[:3, :3].T @ da - [0, 0, h]).max() <= 1e-9 and np.abs(Xb[:3, :3].T @ db - [0, 0, h]).max() <= 1e-9:
            return Xa, Xb
        return None
    Ra, Rb = _z_to_axis(da / h), _z_to_axis(db / h)
    Ra[:3, 3], Rb[:3, 3] = Xa[:3, 3], Xb[:3, 3]
    return Ra, Rb


def read_loops(m, mj_body: dict, names: list[str], elements: list, source: str) -> tuple[list, set[int]]:
    """Loops ``(where, name, kind, body_a, frame_a, body_b, frame_b)`` from the compiled model's
    active connect and weld equalities, and the indices of the equalities they came from.
    ``names``: each equality's name; ``elements``: each one's XML element (for its line)."""
    loops, used = [], set()
    e = 0
    while e < m.neq:
        kind = int(m.eq_type[e])
        if kind not in (_CONNECT, _WELD) or not m.eq_active0[e]:
            e += 1
            continue
        ends = (_frame(m, e, 0, mj_body), _frame(m, e, 1, mj_body))
        where = f"{source}:{getattr(elements[e], 'sourceline', 0) if e < len(elements) else 0}"
        name = names[e] or f"equality_{e}"
        frames = None
        if kind == _CONNECT and e + 1 < m.neq and int(m.eq_type[e + 1]) == _CONNECT and m.eq_active0[e + 1]:
            frames = _hinge(ends, (_frame(m, e + 1, 0, mj_body), _frame(m, e + 1, 1, mj_body)))
        if frames is not None:
            loops.append((where, name, "hinge", ends[0][0].name, frames[0], ends[1][0].name, frames[1]))
            used.update((e, e + 1))
            e += 2
            continue
        loops.append((where, name, "ball" if kind == _CONNECT else "weld", ends[0][0].name, ends[0][1],
                      ends[1][0].name, ends[1][1]))
        used.add(e)
        e += 1
    return loops, used


def read_home(m, jnt_of: dict) -> set[str]:
    """Home positions from the keyframe :data:`HOME_KEY`, when the model has it: the names of
    the joints whose home it gave."""
    import mujoco

    k = mujoco.mj_name2id(m, mujoco.mjtObj.mjOBJ_KEY, HOME_KEY)
    if k < 0:
        return set()
    homed = set()
    for jid, joint in jnt_of.items():
        if joint.type in ("revolute", "prismatic") and joint.mimic is None:
            joint.home_position = float(m.key_qpos[k][m.jnt_qposadr[jid]])
            homed.add(joint.name)
    return homed


def actuated_joints(m, jnt_of: dict) -> set[str]:
    """Names of the joints driven by an actuator with a joint transmission."""
    return {jnt_of[int(m.actuator_trnid[a, 0])].name for a in range(m.nu)
            if int(m.actuator_trntype[a]) == _TRN_JOINT and int(m.actuator_trnid[a, 0]) in jnt_of}


def read_file_loops(r, tree: RigidBodyTree, v, warn: list[str]) -> None:
    """For the MJCF reader ``r`` (its compiled model, bodies and joints) of the vetted file ``v``:
    the model's connect and weld equalities as loops of ``tree``, its joint actuators as the
    actuated joints (the first the loops leave free when none has one, said in ``warn``)."""
    import mujoco

    m = r.m
    if not m.neq:
        return
    names = [mujoco.mj_id2name(m, mujoco.mjtObj.mjOBJ_EQUALITY, e) or "" for e in range(m.neq)]
    at = [(k, i, c) for k, sec in enumerate(v.root.iter("equality")) for i, c in enumerate(sec)
          if isinstance(c.tag, str)]
    elements = [c for _, _, c in at]
    loops, used = read_loops(m, r.mj_body, names, elements, v.source)
    if not loops:
        return
    add_file_loops(tree, loops)
    # the keyframe's home replaces a ref (qpos0) clipped into the range: nothing to warn about
    homed = read_home(m, r.jnt_of)
    r.clipped = {name: text for name, text in r.clipped.items() if name not in homed}
    r.loop_xml = {at[e][:2] for e in used if e < len(at)}
    driven = actuated_joints(m, r.jnt_of)
    if driven:
        for b in tree.bodies:
            j = b.joint
            if j.type in ("revolute", "prismatic") and j.mimic is None and j.name not in driven:
                j.actuated = False
    elif actuated := default_actuation(tree):
        warn.append(f"{v.source}: no joint has an actuator: {', '.join(map(repr, actuated))} actuated (the first the "
                    "loops leave free), the others passive; change with joint.actuated")
