"""One rule for names (issue 17): whatever name a setter accepts saves and reopens in every
format (project, URDF, DH table); what it refuses is refused naming the field and the value."""

from __future__ import annotations

import warnings

import pytest
from helpers.trees import hyp_settings
from hypothesis import given
from hypothesis import strategies as st
from kinetree.core import Joint, KineTreeError, RigidBody, RigidBodyTree
from kinetree.core.io.files import export_robot, import_robot
from kinetree.core.names import MAX_NAME_LENGTH, derived_name
from kinetree.core.transforms import transl

ROLES = ("base", "body", "joint", "tool", "pose")
# what each format holds: a URDF no poses, a DH table neither the base nor poses
HOLDS = {".kinetree.json": set(ROLES), ".urdf": set(ROLES) - {"pose"}, ".csv": {"body", "joint", "tool"}}


def _arm() -> RigidBodyTree:
    """base B0 → L1 (revolute J1) → T (fixed, 0.1 m up): a DH chain with a tool body."""
    tree = RigidBodyTree("B0")
    body, joint = RigidBody("L1"), Joint("J1", "revolute")
    body.joint = joint
    tree.add_body(body, "B0")
    body, joint = RigidBody("T"), Joint("TJ", "fixed")
    joint.set_fixed_transform(transl(0, 0, 0.1))
    body.joint = joint
    tree.add_body(body, "L1")
    tree.named_poses["P"] = [0.25]
    return tree


def _set(tree: RigidBodyTree, role: str, name: str) -> None:
    if role == "base":
        tree.base_name = name
    elif role == "body":
        tree.get_body("L1").name = name
    elif role == "joint":
        tree.get_body("L1").joint.name = name
    elif role == "tool":
        tree.get_body("T").name = name
    else:
        tree.named_poses.rename("P", name)


def _get(tree: RigidBodyTree, role: str) -> str:
    if role == "base":
        return tree.base_name
    if role == "pose":
        return next(iter(tree.named_poses))
    return {"body": tree.body_names[0], "joint": tree.movable_joint_names[0], "tool": tree.body_names[-1]}[role]


names = st.one_of(st.text(min_size=0, max_size=40),
                  st.text(min_size=MAX_NAME_LENGTH - 8, max_size=MAX_NAME_LENGTH + 2),
                  st.sampled_from(["x" * n for n in range(995, 1002)]),
                  st.text(st.sampled_from("a \u2028\u2029\ufffe\uffff\ufeff\u00a0#,;\"'=\t\r\n\x00"), max_size=6))


@hyp_settings(max_examples=150)
@given(name=names, role=st.sampled_from(ROLES))
def test_a_name_the_setter_accepts_saves_and_reopens_in_every_format(tmp_path_factory, name, role):
    tree = _arm()
    try:
        _set(tree, role, name)
    except KineTreeError as exc:  # refused: the message names the field
        assert ("pose name" if role == "pose" else f"{'body' if role != 'joint' else 'joint'} name") in str(exc)
        return
    folder = tmp_path_factory.mktemp("names")
    for suffix, held in HOLDS.items():
        path = folder / f"robot{suffix}"
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # the poses a URDF or DH table drops
            export_robot(tree, path)
            back = import_robot(path)
        if role in held:
            assert _get(back, role) == name, suffix


@pytest.mark.parametrize(("role", "name", "said"), [
    ("body", "a\u2028b", r"body name 'a\\u2028b' contains the line separator"),
    ("joint", "q\u2029", r"joint name 'q\\u2029' contains the paragraph separator"),
    ("body", "a\ufffe", r"body name 'a\\ufffe' contains the Unicode noncharacter"),
    ("pose", "p\uffff", r"pose name 'p\\uffff' contains the Unicode noncharacter"),
    ("base", " base", r"body name ' base' starts or ends with white space"),
    ("body", "x" * 1001, r"body name 'xxxx*…x*' is 1001 characters long, more than 1000"),
])
def test_a_refused_name_names_the_field_and_shows_the_value(role, name, said):
    with pytest.raises(KineTreeError, match=said):
        _set(_arm(), role, name)


def test_a_body_name_of_1000_characters_reopens_from_every_format(tmp_path):
    """The joint a body is made with is named ``<body>_jnt``: reading a body of 997 characters
    or more refused that derived name (1001 characters)."""
    for n in (997, 1000):
        tree = _arm()
        tree.get_body("L1").name = "x" * n
        tree.get_body("T").name = "t" * n  # a DH table's tool body gets the joint <tool>_fixed
        for suffix in HOLDS:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                export_robot(tree, tmp_path / f"r{n}{suffix}")
                back = import_robot(tmp_path / f"r{n}{suffix}")
            assert back.body_names == ["x" * n, "t" * n], suffix


def test_derived_names_stay_within_the_limit_and_distinct():
    a, b = "x" * 999 + "a", "x" * 999 + "b"
    assert derived_name("arm", "_jnt") == "arm_jnt"
    assert len(derived_name(a, "_child_to_joint")) == MAX_NAME_LENGTH
    assert derived_name(a, "_jnt") != derived_name(b, "_jnt")
    assert RigidBody(a).joint.name.endswith("_jnt")
