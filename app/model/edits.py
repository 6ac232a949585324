"""Tree edits used by the panels: each takes a copy of the document's tree and changes it; the
document runs them inside :meth:`RobotDocument.edit` (one undo step each). No Qt here."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
from kinetree.core import Joint, KineTreeError, RigidBody, RigidBodyTree, Visual
from kinetree.core.model.joint import AXIAL_TYPES
from kinetree.core.names import derived_name


def fresh_name(stem: str, taken: set[str]) -> str:
    """``stem1``, ``stem2``… (or ``stem`` itself if free), the first not in ``taken``; adds it."""
    name, k = derived_name(stem, ""), 1
    while name in taken or name == stem and stem.endswith(("body", "joint")):
        name, k = derived_name(stem, str(k)), k + 1
    taken.add(name)
    return name


def body_names(tree: RigidBodyTree) -> set[str]:
    return {tree.base_name, *tree.body_names}


def rename_body(tree: RigidBodyTree, old: str, new: str) -> str:
    tree.get_body(old).name = new
    parent = tree.get_body(tree.parent_name(new))
    if any(v.name == link_name(old) for v in parent.visuals):  # the link to it keeps following it
        parent.visuals = [replace(v, name=link_name(new)) if v.name == link_name(old) else v
                          for v in parent.visuals]
    return new


def move_subtree(tree: RigidBodyTree, name: str, new_parent: str) -> str:
    """Reparent a body and its descendants (refuses moving a body under itself)."""
    if new_parent in tree.descendants(name):
        raise KineTreeError(f"cannot move {name!r} under {new_parent!r}: that is inside its own subtree")
    if tree.parent_name(name) == new_parent:
        raise KineTreeError(f"{name!r} is already a child of {new_parent!r}")
    sub = tree.remove_body(name)
    tree.add_subtree(new_parent, sub)
    return name


def duplicate_subtree(tree: RigidBodyTree, name: str) -> str:
    """Copy a body and its descendants next to it, with fresh body and joint names."""
    # renamed in place: a copied mimic joint follows the copy of its leader when the leader is
    # copied too (the subtree renames its followers), else the original leader
    sub = tree.subtree(name)
    taken_bodies, taken_joints = body_names(tree), set(tree.joint_names())
    renamed = {}
    for b in sub.bodies:
        old = b.name
        b.name = fresh_name(derived_name(old, "_copy"), taken_bodies)
        b.joint.name = fresh_name(derived_name(b.joint.name, "_copy"), taken_joints)
        renamed[old] = b.name
    tree.add_subtree(tree.parent_name(name), sub)
    return renamed[name]


def change_joint_type(tree: RigidBodyTree, body: str, jtype: str) -> None:
    """Replace a body's joint by one of another type, keeping name, transform and DH row; a
    revolute ↔ prismatic change also keeps the axis, the mimic, the motor and the URDF extensions (limits
    are reset: radians and metres do not convert)."""
    old = tree.get_body(body).joint
    j = Joint(old.name, jtype)
    if old.dh_parameters is not None and jtype in AXIAL_TYPES:
        j.set_fixed_transform(old.dh_parameters.as_list(), old.dh_parameters.convention)
    else:
        j.set_fixed_transform(old.joint_to_parent_transform @ old.child_to_joint_transform)
    if old.type in AXIAL_TYPES and jtype in AXIAL_TYPES:
        if old.dh_parameters is None:
            j.axis = old.axis  # about or along the same line (a DH joint's axis is z by definition)
        j.extensions = old.extensions
        j.take_motor(old)  # gear, motor inertia and friction go with the axis
    if old.mimic is not None and jtype in AXIAL_TYPES:
        j.mimic = old.mimic  # still follows its leader (the tree checks the pairing)
    tree.replace_joint(body, j)


def change_joint_subspace(tree: RigidBodyTree, body: str, rows) -> None:
    """Give a body a custom joint with the motion-subspace ``rows`` (RBDL's), keeping its name
    and transforms; limits and home are reset (the rows may change what is a length)."""
    old = tree.get_body(body).joint
    j = Joint(old.name, "custom", rows)
    j.set_fixed_transform(old.joint_to_parent_transform)
    j.set_fixed_transform(old.child_to_joint_transform, "child")
    tree.replace_joint(body, j)


def add_child(tree: RigidBodyTree, parent: str, jtype: str, at=None) -> str:
    """A new body under ``parent``, where a user building an arm expects it: at the point ``at``
    (in the parent's frame: where the user Shift+clicked its geometry), else along the parent's
    x by the parent's own link length (0.3 m for a first link; at the origin under the base),
    with a link drawn from the parent's origin to it (a cylinder that follows both frames
    until the user changes it, see :func:`follow_link_visuals`)."""
    name = fresh_name("body", body_names(tree))
    b = RigidBody(name)
    b.joint = Joint(fresh_name("joint", set(tree.joint_names())), jtype)
    if at is not None:
        T = np.eye(4)
        T[:3, 3] = np.asarray(at, dtype=float)
        b.joint.set_fixed_transform(T)
    elif parent != tree.base_name:
        j = tree.get_body(parent).joint
        length = float(np.linalg.norm((j.joint_to_parent_transform @ j.child_to_joint_transform)[:3, 3]))
        T = np.eye(4)
        T[0, 3] = length if length > 1e-6 else DEFAULT_LINK
        b.joint.set_fixed_transform(T)
    tree.add_body(b, parent)
    link = link_visual(name, b.joint.joint_to_parent_transform[:3, 3])
    if link is not None and (parent != tree.base_name or at is not None):
        p = tree.get_body(parent)
        p.visuals = (*p.visuals, link)
    return name


#: Length (m) of a new body's link when its parent gives none.
DEFAULT_LINK = 0.3
#: Name of the cylinder drawn on a parent from its origin to a child's, kept following the child
#: (see :func:`follow_link_visuals`): a visual named ``kt_link:CHILD``.
LINK_PREFIX = "kt_link:"
LINK_COLOR = (0.62, 0.64, 0.70, 1.0)


#: Length (m) of a link whose child sits on its parent's origin: kept, too short to see, so that
#: it follows the child again when the child moves away (a Visual has no zero size).
LINK_REST = 1e-6


def link_visual(child: str, to: np.ndarray, radius: float | None = None, color=LINK_COLOR,
                along: np.ndarray | None = None) -> Visual | None:
    """A cylinder from the origin to the point ``to`` (in the parent's frame), named for ``child``;
    ``to`` at the origin: None, or with ``along`` (the direction it had) a :data:`LINK_REST` one."""
    to = np.asarray(to, dtype=float)
    length = float(np.linalg.norm(to))
    if length < LINK_REST:
        if along is None:
            return None
        to, length = LINK_REST * np.asarray(along, dtype=float) / np.linalg.norm(along), LINK_REST
    z = to / length
    helper = np.array([1.0, 0, 0]) if abs(z[0]) < 0.9 else np.array([0, 1.0, 0])
    x = np.cross(helper, z)
    x /= np.linalg.norm(x)
    T = np.eye(4)
    T[:3, :3] = np.column_stack([x, np.cross(z, x), z])
    T[:3, 3] = to / 2
    r = radius if radius is not None else float(np.clip(0.06 * length, 0.005, 0.04))
    return Visual("cylinder", (r, length), pose=tuple(map(tuple, T)), color=color, name=link_name(child))


def link_name(child: str) -> str:
    """The name of the link visual drawn to ``child`` (within the longest name allowed)."""
    return derived_name(LINK_PREFIX + child, "")


def follow_link_visuals(tree: RigidBodyTree) -> None:
    """Keep every ``kt_link:CHILD`` cylinder running from its body's origin to CHILD's (at the
    joint's zero), radius and colour as the user left them; one whose child is gone goes too. A
    child moved onto the origin keeps its link (:data:`LINK_REST` long), back when it moves away."""
    linked = [b for b in (tree.base, *tree.bodies) if any(v.name.startswith(LINK_PREFIX) for v in b.visuals)]
    if not linked:
        return
    kids: dict[str, list[str]] = {}
    for b in tree.bodies:
        kids.setdefault(tree.parent_name(b.name), []).append(b.name)
    for body in linked:
        visuals = []
        children = {link_name(c): c for c in kids.get(body.name, ())}
        for v in body.visuals:
            if v.name.startswith(LINK_PREFIX):
                child = children.get(v.name)
                if child is None:  # its body is gone, or moved under another parent
                    continue
                j = tree.get_body(child).joint
                v = link_visual(child, (j.joint_to_parent_transform @ j.child_to_joint_transform)[:3, 3],
                                v.size[0], v.color, along=v.matrix[:3, 2]) if v.kind == "cylinder" else v
            if v is not None:
                visuals.append(v)
        if tuple(visuals) != body.visuals:
            body.visuals = visuals
