"""Every error path: exception class (from kinetree.core) and a message naming the culprit."""

from __future__ import annotations

import math

import kinetree.core as kc
import numpy as np
import pytest
from kinetree.core import (
    BaseBodyError,
    DHLink,
    DuplicateNameError,
    FileFormatError,
    InvalidConfigurationError,
    InvalidJointError,
    InvalidLimitsError,
    InvalidPropertyError,
    InvalidTransformError,
    Joint,
    KineTreeError,
    RigidBody,
    RigidBodyTree,
    UnknownBodyError,
    UnknownRobotError,
    Visual,
    describe_robot,
    dh_chain,
    load_robot,
)
from kinetree.core.io import dumps, load_project, tree_from_dict, tree_to_dict

ERRORS = [BaseBodyError, DuplicateNameError, FileFormatError, InvalidConfigurationError, InvalidJointError,
          InvalidLimitsError, InvalidPropertyError, InvalidTransformError, UnknownBodyError, UnknownRobotError]


def raises(cls, *needles):
    """Context manager: ``cls`` is raised and its message contains every needle."""

    class _Ctx:
        def __enter__(self):
            self._cm = pytest.raises(cls)
            self.info = self._cm.__enter__()
            return self.info

        def __exit__(self, *exc):
            handled = self._cm.__exit__(*exc)
            if not handled:  # another exception type: let it propagate unchanged
                return False
            msg = str(self.info.value)
            for n in needles:
                assert n in msg, f"{n!r} not in message {msg!r}"
            assert isinstance(self.info.value, KineTreeError)
            return handled

    return _Ctx()


@pytest.mark.parametrize("cls", ERRORS)
def test_hierarchy(cls):
    assert issubclass(cls, KineTreeError)
    assert issubclass(cls, ValueError)
    assert cls.__name__ in kc.__all__
    assert issubclass(KineTreeError, ValueError)


def test_key_errors_are_not_quoted():
    e = UnknownBodyError("no body named 'x'")
    assert isinstance(e, KeyError)
    assert str(e) == "no body named 'x'"
    assert str(UnknownRobotError("nope")) == "nope"


# --- tree structure ------------------------------------------------------------------------------

def _body(name, joint_name=None, jtype="revolute"):
    b = RigidBody(name)
    b.joint = Joint(joint_name or f"{name}_j", jtype)
    return b


def test_duplicate_body_name(two_link):
    before = dumps(two_link)
    with raises(DuplicateNameError, "'link1'"):
        two_link.add_body(_body("link1"), "base")
    with raises(DuplicateNameError, "'base'"):
        two_link.add_body(_body("base"), "link2")
    assert dumps(two_link) == before


def test_duplicate_joint_name(two_link):
    with raises(DuplicateNameError, "'q2'"):
        two_link.add_body(_body("new", "q2"), "link2")
    assert "new" not in two_link.body_names


def test_duplicate_names_on_rename(two_link):
    with raises(DuplicateNameError, "'link1'"):
        two_link.get_body("link2").name = "link1"
    with raises(DuplicateNameError, "'base'"):
        two_link.get_body("link2").name = "base"
    with raises(DuplicateNameError, "'link2'"):
        two_link.base_name = "link2"
    with raises(DuplicateNameError, "'q1'"):
        two_link.get_body("link2").joint.name = "q1"
    assert two_link.body_names == ["link1", "link2"] and two_link.joint_names() == ["q1", "q2"]


def test_duplicate_names_on_replace(two_link):
    with raises(DuplicateNameError, "'q1'"):
        two_link.replace_joint("link2", Joint("q1", "prismatic"))
    with raises(DuplicateNameError, "'link1'"):
        two_link.replace_body("link2", _body("link1"))
    with raises(DuplicateNameError, "'q1'"):
        two_link.replace_body("link2", _body("other", "q1"))
    sub = RigidBodyTree("x")
    sub.add_body(_body("link2", "fresh"), "x")
    with raises(DuplicateNameError, "'link2'"):
        two_link.add_subtree("link1", sub)
    assert two_link.body_names == ["link1", "link2"]


def test_unknown_parent_and_unknown_body(two_link):
    with raises(UnknownBodyError, "'nope'"):
        two_link.add_body(_body("x"), "nope")
    for call in (lambda: two_link.remove_body("ghost"), lambda: two_link.get_body("ghost"),
                 lambda: two_link.subtree("ghost"), lambda: two_link.replace_joint("ghost", Joint("j")),
                 lambda: two_link.replace_body("ghost", _body("y")),
                 lambda: two_link.get_transform([0, 0], "ghost"),
                 lambda: two_link.get_transform([0, 0], "link1", "ghost"),
                 lambda: two_link.geometric_jacobian([0, 0], "ghost"),
                 lambda: two_link.position_index("ghost"), lambda: two_link.parent_name("ghost"),
                 lambda: two_link.find_joint("ghost"), lambda: two_link.add_subtree("ghost", RigidBodyTree("g"))):
        with raises(UnknownBodyError, "'ghost'"):
            call()


def test_base_cannot_be_removed_or_replaced(two_link):
    with raises(BaseBodyError, "'base'"):
        two_link.remove_body("base")
    with raises(BaseBodyError, "'base'"):
        two_link.replace_body("base", _body("b"))
    with raises(BaseBodyError, "'base'"):
        two_link.replace_joint("base", Joint("j", "revolute"))
    two_link.base_name = "world"
    with raises(BaseBodyError, "'world'"):
        two_link.remove_body("world")


def test_add_body_needs_a_body(two_link):
    with raises(InvalidPropertyError, "Joint"):
        two_link.add_body(Joint("j"), "base")


# --- joints ---------------------------------------------------------------------------------------

def test_unknown_joint_type():
    with raises(InvalidJointError, "'hinge'", "'j'"):
        Joint("j", "hinge")


@pytest.mark.parametrize("name", ["", "   ", None, 3])
def test_bad_joint_and_body_names(name):
    with raises(InvalidJointError):
        Joint(name, "revolute")
    with raises(InvalidPropertyError):
        RigidBody(name)
    j = Joint("ok", "revolute")
    with raises(InvalidJointError):
        j.name = name
    b = RigidBody("ok")
    with raises(InvalidPropertyError):
        b.name = name


def test_limits_out_of_order():
    j = Joint("elbow", "revolute")
    with raises(InvalidLimitsError, "'elbow'", "out of order"):
        j.position_limits = [1.0, -1.0]
    p = Joint("slide", "planar")
    with raises(InvalidLimitsError, "'slide'"):
        p.position_limits = [[-1, 1], [2, 1], [-1, 1]]
    np.testing.assert_array_equal(j.position_limits, [-math.pi, math.pi])


@pytest.mark.parametrize("lim", [[math.nan, 1.0], [0.0, math.nan], [math.nan, math.nan]])
def test_nan_limits(lim):
    j = Joint("wrist", "prismatic")
    with raises(InvalidLimitsError, "'wrist'", "NaN"):
        j.position_limits = lim


def test_limits_wrong_shape():
    j = Joint("wrist", "revolute")
    with raises(InvalidLimitsError, "'wrist'"):
        j.position_limits = [[0, 1], [0, 1]]
    f = Joint("free", "floating")
    with raises(InvalidLimitsError, "'free'"):
        f.position_limits = [-1, 1]


BAD_VALUE_BUG = ("engine bug: joint setters let numpy's ValueError escape instead of raising a KineTreeError "
                 "naming the joint")


@pytest.mark.parametrize("setter, value", [
    pytest.param("position_limits", [0, 1, 2]),
    pytest.param("position_limits", ["a", "b"]),
    pytest.param("home_position", "abc"),
    pytest.param("offset", "abc"),
    ("axis", "abc"),
    ("axis", [1, 2]),
])
def test_malformed_joint_values_raise_kinetree_errors(setter, value):
    j = Joint("knee", "revolute")
    with pytest.raises(KineTreeError, match="'knee'"):
        setattr(j, setter, value)


def test_malformed_mass_raises_kinetree_error():
    b = RigidBody("arm")
    with pytest.raises(KineTreeError, match="'arm'"):
        b.mass = "abc"


def test_home_outside_limits():
    j = Joint("shoulder", "revolute")
    with raises(InvalidLimitsError, "'shoulder'", "outside"):
        j.home_position = 4.0
    with raises(InvalidLimitsError, "'shoulder'"):
        j.position_limits = [0.5, 1.0]  # excludes the current home 0
    with raises(InvalidLimitsError, "'shoulder'"):
        j.set_limits([0.5, 1.0], home=2.0)
    # a failed set_limits changes nothing
    np.testing.assert_array_equal(j.position_limits, [-math.pi, math.pi])
    assert j.home_position == 0.0
    j.set_limits([0.5, 1.0], home=0.7)
    assert j.home_position == 0.7
    with raises(InvalidLimitsError, "'shoulder'"):
        j.home_position = math.inf
    with raises(InvalidLimitsError, "'shoulder'"):
        j.home_position = [0.6, 0.7]
    planar = Joint("table", "planar")
    with raises(InvalidLimitsError, "'table'"):
        planar.home_position = [0, 6, 0]
    ball = Joint("ball", "spherical")
    with raises(InvalidLimitsError, "'ball'", "quaternion"):
        ball.home_position = [0, 0, 0, 0]
    free = Joint("free", "floating")
    with raises(InvalidLimitsError, "'free'"):
        free.home_position = [1, 0, 0, 0, 0, 0, 9]


def test_fixed_joint_has_no_limits_home_axis_or_offset():
    j = Joint("weld", "fixed")
    with raises(InvalidLimitsError, "'weld'"):
        j.position_limits = [0, 1]
    with raises(InvalidLimitsError, "'weld'"):
        j.home_position = 0.0
    with raises(InvalidJointError, "'weld'", "fixed"):
        j.axis = [0, 0, 1]
    with raises(InvalidJointError, "'weld'"):
        j.offset = 0.3
    for jtype in ("floating", "spherical", "planar"):
        with raises(InvalidJointError, "'k'", jtype):
            Joint("k", jtype).axis = [1, 0, 0]


@pytest.mark.parametrize("axis", [[0, 0, 0], [1e-15, 0, 0], [math.nan, 0, 1], [0, math.inf, 0]])
def test_bad_axis(axis):
    j = Joint("pivot", "revolute")
    with raises(InvalidJointError, "'pivot'"):
        j.axis = axis
    np.testing.assert_array_equal(j.axis, [0, 0, 1])


@pytest.mark.parametrize("value", [math.nan, math.inf])
def test_bad_offset(value):
    with raises(InvalidJointError, "'pivot'"):
        Joint("pivot", "revolute").offset = value


def _rot_scale():
    T = np.eye(4)
    T[:3, :3] *= 1.001
    return T


def _shear():
    T = np.eye(4)
    T[0, 1] = 1e-6
    return T


BAD_TRANSFORMS = {
    "non-orthonormal": (_rot_scale(), "orthonormal"),
    "shear": (_shear(), "orthonormal"),
    "reflection": (np.diag([1.0, 1.0, -1.0, 1.0]), "reflection"),
    "last-row": (np.array([[1, 0, 0, 0], [0, 1, 0, 0], [0, 0, 1, 0], [0, 0, 0.5, 1.0]]), "last row"),
    "nan": (np.where(np.eye(4) > 0, np.nan, 0.0), "NaN"),
    "inf": (np.array([[1, 0, 0, np.inf], [0, 1, 0, 0], [0, 0, 1, 0], [0, 0, 0, 1.0]]), "infinity"),
    "shape-3x3": (np.eye(3), "4x4"),
    "shape-4x3": (np.eye(4)[:, :3], "4x4"),
    "not-numeric": ([["a"] * 4] * 4, "numeric"),
}


@pytest.mark.parametrize("case", BAD_TRANSFORMS)
def test_bad_fixed_transform(case, two_link):
    T, needle = BAD_TRANSFORMS[case]
    j = two_link.get_body("link2").joint
    before = dumps(two_link)
    with raises(InvalidTransformError, "'q2'", needle):
        j.set_fixed_transform(T)
    assert dumps(two_link) == before
    with raises(InvalidTransformError, "visual"):
        Visual("box", (1, 1, 1), T)


def test_small_transform_noise_is_accepted():
    T = np.eye(4)
    T[0, 1] = 1e-11
    Joint("j", "revolute").set_fixed_transform(T)


@pytest.mark.parametrize("row, needle", [
    ([1, 2, 3], "4 numbers"),
    ([1, 2, 3, 4, 5], "4 numbers"),
    ([0, math.nan, 0, 0], "alpha"),
    ([0, 0, math.inf, 0], "DH d"),
    (["a", 0, 0, 0], "4 numbers"),
])
def test_bad_dh_row(row, needle):
    j = Joint("q7", "revolute")
    with raises(InvalidTransformError, "'q7'", needle):
        j.set_fixed_transform(row, "dh")
    with raises(InvalidTransformError, "'q7'"):
        j.set_fixed_transform(row, "mdh")
    assert j.dh_parameters is None


def test_unknown_transform_kind():
    with raises(InvalidTransformError, "'q7'", "'craig'"):
        Joint("q7", "revolute").set_fixed_transform([0, 0, 0, 0], "craig")


def test_bad_dh_link_joint_letter():
    with raises(InvalidJointError, "'X'"):
        dh_chain([DHLink("X", a=1, alpha=0, d=0, theta=0)])


def test_bad_dh_link_limits():
    with raises(InvalidLimitsError, "'q1'"):
        dh_chain([DHLink("R", a=1, alpha=0, d=0, theta=0, qlim=(1.0, -1.0))])


# --- bodies and visuals --------------------------------------------------------------------------

@pytest.mark.parametrize("attr, value", [("mass", -1.0), ("mass", math.nan), ("center_of_mass", [0, 0]),
                                         ("center_of_mass", [0, math.inf, 0]), ("inertia", [1, 1, 1, 0]),
                                         ("inertia", [-1, 1, 1, 0, 0, 0]), ("inertia", [1, 1, 1, 0, math.nan, 0]),
                                         ("inertia", [1, -1, 3]), ("visuals", ["box"])])
def test_bad_body_properties(attr, value):
    b = RigidBody("forearm")
    with raises(InvalidPropertyError, "'forearm'"):
        setattr(b, attr, value)


@pytest.mark.parametrize("kwargs, needle", [
    ({"kind": "cone", "size": (1,)}, "'cone'"),
    ({"kind": "box", "size": (1, 1)}, "box"),
    ({"kind": "sphere", "size": (-1,)}, "sphere"),
    ({"kind": "cylinder", "size": (1, math.nan)}, "cylinder"),
    ({"kind": "box", "size": (1, 1, 1), "color": (2, 0, 0)}, "colour"),
    ({"kind": "mesh", "size": (1, 1, 1)}, "filename"),
])
def test_bad_visuals(kwargs, needle):
    with raises(InvalidPropertyError, needle):
        Visual(**kwargs)


def test_bad_gravity():
    with raises(InvalidPropertyError, "gravity"):
        RigidBodyTree(gravity=[0, 0])
    with raises(InvalidPropertyError, "gravity"):
        RigidBodyTree(gravity=[0, 0, math.nan])


# --- configurations ------------------------------------------------------------------------------

def test_configuration_wrong_length(puma):
    for q in (np.zeros(5), np.zeros(7), np.zeros((2, 3)), 0.0):
        with raises(InvalidConfigurationError, "6"):
            puma.forward_kinematics(q)
    with raises(InvalidConfigurationError, "numeric"):
        puma.forward_kinematics(["a"] * 6)


@pytest.mark.parametrize("bad", [math.nan, math.inf, -math.inf])
@pytest.mark.parametrize("k", [0, 3, 5])
def test_configuration_non_finite_names_joint(puma, bad, k):
    q = np.zeros(6)
    q[k] = bad
    for call in (puma.forward_kinematics, puma.config_to_vector, puma.config_to_dict,
                 lambda q: puma.get_transform(q, "link6"), lambda q: puma.geometric_jacobian(q, "link6")):
        with raises(InvalidConfigurationError, f"'q{k + 1}'"):
            call(q)
    with raises(InvalidConfigurationError, f"'q{k + 1}'"):
        puma.forward_kinematics({f"q{k + 1}": bad})


def test_configuration_non_finite_in_multi_position_joint():
    tree = RigidBodyTree()
    b = RigidBody("drone")
    b.joint = Joint("flight", "floating")
    tree.add_body(b, "base")
    with raises(InvalidConfigurationError, "'flight'"):
        tree.forward_kinematics([1, 0, 0, 0, 0, math.nan, 0])


def test_configuration_mapping_errors(puma):
    with raises(InvalidConfigurationError, "'q9'"):
        puma.config_to_vector({"q9": 0.1})
    with raises(InvalidConfigurationError, "'q2'"):
        puma.config_to_vector({"q2": [0.1, 0.2]})
    with raises(InvalidConfigurationError, "'q2'"):
        puma.config_to_vector({"q2": "x"})
    tree = load_robot("two_link_planar")
    b = RigidBody("tool")
    tree.add_body(b, "link2")
    with raises(InvalidConfigurationError, "'tool_jnt'", "fixed"):
        tree.config_to_vector({"tool_jnt": 0.0})
    with raises(InvalidConfigurationError, "'tool'", "fixed"):
        tree.position_index("tool")


def test_failed_kinematics_leave_tree_unchanged(puma):
    before = dumps(puma)
    with pytest.raises(InvalidConfigurationError):
        puma.forward_kinematics(np.full(6, math.nan))
    assert dumps(puma) == before


NO_POSITIONS_BUG = ("engine bug: a tree whose joints are all fixed (position_count 0) cannot run any kinematics: "
                    "_check_finite does q.reshape(-1, 0) and numpy raises ValueError")


@pytest.mark.parametrize("call", ["fk", "fk_dict", "get_transform", "config_to_dict", "batch", "jacobian"])
def test_tree_without_movable_joints(call):
    tree = RigidBodyTree()
    tool = RigidBody("tool")
    tool.joint.set_fixed_transform([0.1, 0, 0.2, 0], "dh")
    tree.add_body(tool, "base")
    if call == "fk":
        np.testing.assert_allclose(tree.forward_kinematics([])[0], tool.joint.transform(), atol=1e-15)
    elif call == "fk_dict":
        assert tree.forward_kinematics({}).shape == (1, 4, 4)
    elif call == "get_transform":
        np.testing.assert_allclose(tree.get_transform([], "tool"), tool.joint.transform(), atol=1e-15)
    elif call == "config_to_dict":
        assert tree.config_to_dict([]) == {}
    elif call == "batch":
        assert tree.forward_kinematics(np.zeros((3, 0))).shape == (3, 1, 4, 4)
    else:
        assert tree.geometric_jacobian([], "tool").shape == (6, 0)


@pytest.mark.filterwarnings("ignore::RuntimeWarning")
def test_zero_quaternion_configuration_is_refused():
    tree = RigidBodyTree()
    b = RigidBody("drone")
    b.joint = Joint("flight", "floating")
    tree.add_body(b, "base")
    with raises(InvalidConfigurationError, "'flight'"):
        tree.forward_kinematics([0, 0, 0, 0, 1, 2, 3])


# --- library ---------------------------------------------------------------------------------------

def test_unknown_robot():
    with raises(UnknownRobotError, "'robby'", "puma560"):
        load_robot("robby")
    with raises(UnknownRobotError, "'robby'"):
        describe_robot("robby")
    with pytest.raises(KeyError):
        load_robot("robby")


# --- project files ---------------------------------------------------------------------------------

def _project(tree=None) -> dict:
    return tree_to_dict(tree if tree is not None else load_robot("two_link_planar"))


def test_newer_version_refused():
    from kinetree.core.io.project import VERSION

    d = _project()
    d["version"] = VERSION + 1
    with raises(FileFormatError, f"version {VERSION + 1}", "newer"):
        tree_from_dict(d, "robot.kinetree.json")
    d["version"] = "1"
    with raises(FileFormatError, "version"):
        tree_from_dict(d)


def test_not_a_project():
    with raises(FileFormatError, "format"):
        tree_from_dict({"version": 1, "bodies": []})
    with raises(FileFormatError, "format"):
        tree_from_dict([1, 2, 3])


def test_malformed_json_names_line(tmp_path):
    text = dumps(load_robot("two_link_planar")).splitlines()
    text[4] = text[4] + ","  # a trailing comma inside an object, on line 5
    path = tmp_path / "broken.kinetree.json"
    path.write_text("\n".join(text) + "\n", encoding="utf-8")
    with raises(FileFormatError, "broken.kinetree.json", "line"):
        load_project(path)
    with pytest.raises(FileFormatError) as info:
        load_project(path)
    msg = str(info.value)
    line = int(msg.split("line ")[1].split(",")[0])
    assert line in (5, 6)


def test_missing_and_unreadable_files(tmp_path):
    with raises(FileFormatError, "missing.json", "no such file"):
        load_project(tmp_path / "missing.json")
    bad = tmp_path / "latin.json"
    bad.write_bytes(b"\xff\xfe\x00garbage")
    with raises(FileFormatError, "latin.json"):
        load_project(bad)


@pytest.mark.parametrize("path, field", [
    ((), "bodies"),
    ((0,), "name"),
    ((0,), "joint"),
    ((0,), "parent"),
    ((0, "joint"), "type"),
    ((0, "joint"), "name"),
])
def test_missing_fields(path, field):
    d = _project()
    target = d if not path else d["bodies"][path[0]]
    if len(path) > 1:
        target = target[path[1]]
    del target[field]
    with raises(FileFormatError, f"'{field}'"):
        tree_from_dict(d, "robot.kinetree.json")


def test_missing_dh_field():
    d = _project()
    del d["bodies"][1]["joint"]["dh"]["alpha"]
    with raises(FileFormatError, "'alpha'", "'link2'"):
        tree_from_dict(d)


def test_unknown_joint_type_in_file():
    d = _project()
    d["bodies"][1]["joint"]["type"] = "hinge"
    with raises(FileFormatError, "'hinge'", "'link2'"):
        tree_from_dict(d, "robot.kinetree.json")


def test_inconsistent_project_contents():
    d = _project()
    d["bodies"][1]["parent"] = "nowhere"
    with raises(FileFormatError, "'nowhere'"):
        tree_from_dict(d)
    d = _project()
    d["bodies"][1]["name"] = "link1"
    with raises(FileFormatError, "'link1'"):
        tree_from_dict(d)
    d = _project()
    d["bodies"][0]["joint"]["position_limits"] = [[1.0, -1.0]]
    with raises(FileFormatError, "'q1'"):
        tree_from_dict(d)
    d = _project()
    d["bodies"][0]["joint"]["axis"] = [0, 0, 0]
    with raises(FileFormatError, "'q1'"):
        tree_from_dict(d)
    d = _project()
    d["bodies"][0]["mass"] = -2
    with raises(FileFormatError, "'link1'"):
        tree_from_dict(d)
    d = _project()
    d["bodies"] = {"a": 1}
    with raises(FileFormatError, "'bodies'"):
        tree_from_dict(d)
    d = _project()
    d["bodies"][0] = "link1"
    with raises(FileFormatError, "bodies[0]"):
        tree_from_dict(d)
    d = _project()
    d["bodies"][0]["visuals"] = [{"size": [1, 1, 1]}]
    with raises(FileFormatError, "kind"):
        tree_from_dict(d)


def test_bad_configuration_in_file():
    tree = load_robot("two_link_planar")
    d = tree_to_dict(tree, np.zeros(2))
    d["configuration"] = [0.0, 0.0, 0.0]
    with raises(FileFormatError, "2"):
        tree_from_dict(d)
    d["configuration"] = [0.0, None]
    with raises(FileFormatError):
        tree_from_dict(d)

