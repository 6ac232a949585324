"""Tree edits used by the panels: each takes a copy of the document's tree and changes it; the
document runs them inside :meth:`RobotDocument.edit` (one undo step each). No Qt here."""

from __future__ import annotations

from kinetree.core import Joint, KineTreeError, RigidBody, RigidBodyTree
from kinetree.core.joint import AXIAL_TYPES
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
    revolute ↔ prismatic change also keeps the axis, the mimic and the URDF extensions (limits
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
    if old.mimic is not None and jtype in AXIAL_TYPES:
        j.mimic = old.mimic  # still follows its leader (the tree checks the pairing)
    tree.replace_joint(body, j)


def add_child(tree: RigidBodyTree, parent: str, jtype: str) -> str:
    name = fresh_name("body", body_names(tree))
    b = RigidBody(name)
    b.joint = Joint(fresh_name("joint", set(tree.joint_names())), jtype)
    if parent != tree.base_name:
        b.joint.set_fixed_transform([[1, 0, 0, 0.3], [0, 1, 0, 0], [0, 0, 1, 0], [0, 0, 0, 1]])
    tree.add_body(b, parent)
    return name
