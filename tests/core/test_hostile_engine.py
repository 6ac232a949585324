"""The engine on hostile values: joint and body names in separate namespaces, numbers that
overflow, setters given the wrong types, mimics of missing joints, random configurations of
unbounded limits, and loading in linear time."""

from __future__ import annotations

import gc
import math
import time

import numpy as np
import pytest
from helpers.trees import shadowed_tree
from kinetree.core import Joint, KineTreeError, RigidBody, RigidBodyTree, Visual, load_robot
from kinetree.core.errors import (
    DuplicateNameError,
    FileFormatError,
    InvalidConfigurationError,
    InvalidJointError,
    InvalidLimitsError,
    InvalidPropertyError,
    InvalidTransformError,
    UnknownBodyError,
)
from kinetree.core.io import export_robot, import_robot
from kinetree.core.io.dh_csv import read_dh_csv
from kinetree.core.io.project import load_project, save_project
from kinetree.core.io.urdf.read import urdf_from_string
from kinetree.core.model.joint import Mimic
from kinetree.core.transforms import MAX_LENGTH, transl

# --- 1. joints are looked up by joint name only ---------------------------------------------

def test_position_index_takes_joint_names_not_body_names():
    tree = shadowed_tree()
    assert tree.position_index("slide") == slice(0, 1)
    assert tree.position_index("elbow") == slice(1, 2)  # the joint elbow, not the body elbow
    with pytest.raises(InvalidConfigurationError, match="'forearm' is a body, not a joint.*'elbow'"):
        tree.position_index("forearm")
    with pytest.raises(UnknownBodyError, match="no joint named 'ghost'"):
        tree.position_index("ghost")


def test_configuration_dicts_use_joint_names():
    tree = shadowed_tree()
    q = tree.config_to_vector({"elbow": math.pi / 2, "slide": 0.5})
    np.testing.assert_array_equal(q, [0.5, math.pi / 2])
    assert tree.config_to_dict(q) == {"slide": 0.5, "elbow": math.pi / 2}
    np.testing.assert_allclose(tree.get_transform(q, "tool")[:3, 3], [0.8, 0.2, 0.0], atol=1e-15)
    with pytest.raises(InvalidConfigurationError, match="'forearm' is a body"):
        tree.config_to_vector({"forearm": 0.1})
    assert tree.find_joint("elbow").name == "forearm"


def test_shadowed_names_survive_the_project_file(tmp_path):
    tree = shadowed_tree()
    path = tmp_path / "shadow.kinetree.json"
    save_project(tree, path)
    back, _ = load_project(path)
    assert back.position_index("elbow") == slice(1, 2)
    q = [0.25, 1.0]
    np.testing.assert_array_equal(back.forward_kinematics(q), tree.forward_kinematics(q))


def test_joint_rename_keeps_the_index_current():
    tree = shadowed_tree()
    tree.find_joint("elbow").joint.name = "bend"
    assert tree.position_index("bend") == slice(1, 2)
    with pytest.raises(InvalidConfigurationError, match="'elbow' is a body"):
        tree.position_index("elbow")
    with pytest.raises(DuplicateNameError):
        tree.get_body("forearm").joint.name = "slide"
    tree.get_body("elbow").name = "upper"  # the body name is free again: a joint may take it
    tree.find_joint("bend").joint.name = "elbow"
    assert tree.find_joint("elbow").name == "forearm" and tree.get_body("upper").joint.name == "slide"


# --- 2. finite input never gives NaN ----------------------------------------------------------

def test_huge_axis_is_normalised_without_overflow():
    j = Joint("j", "revolute")
    j.axis = [1e200, 1e200, 1e200]
    np.testing.assert_allclose(j.axis, np.full(3, 1 / math.sqrt(3)), rtol=1e-15)
    j.axis = [-1e308, 0, 0]
    np.testing.assert_array_equal(j.axis, [-1.0, 0.0, 0.0])
    j.axis = [0, 0, 1]
    np.testing.assert_array_equal(j.axis, [0, 0, 1])  # unit axes stay bit-exact
    for bad in ([0, 0, 0], [1e-300, 0, 0], [math.inf, 0, 0], "abc", [1, 2]):
        with pytest.raises(InvalidJointError, match="axis"):
            j.axis = bad


def test_huge_axis_in_a_urdf_gives_finite_kinematics(tmp_path):
    path = tmp_path / "huge_axis.urdf"
    path.write_text("""<robot name="r"><link name="a"/><link name="b"/>
      <joint name="j" type="revolute"><parent link="a"/><child link="b"/>
        <origin xyz="0.1 0 0"/><axis xyz="1e200 1e200 1e200"/>
        <limit lower="-1" upper="1" effort="1" velocity="1"/></joint></robot>""")
    tree = import_robot(path)
    np.testing.assert_allclose(tree.find_joint("j").joint.axis, np.full(3, 1 / math.sqrt(3)), rtol=1e-15)
    T = tree.get_transform([0.5], "b")
    assert np.isfinite(T).all()
    out = tmp_path / "huge_axis.kinetree.json"
    export_robot(tree, out)
    back, _ = load_project(out)
    np.testing.assert_array_equal(back.get_transform([0.5], "b"), T)


@pytest.mark.parametrize("kind", ["matrix", "child"])
def test_translations_beyond_max_length_are_refused(kind):
    j = Joint("j", "revolute")
    j.set_fixed_transform(transl(MAX_LENGTH), kind)  # the bound itself is fine
    with pytest.raises(InvalidTransformError, match=r"'j'.*beyond"):
        j.set_fixed_transform(transl(0, 0, -1e308), kind)
    np.testing.assert_array_equal(
        j.joint_to_parent_transform if kind == "matrix" else j.child_to_joint_transform, transl(MAX_LENGTH))


def test_chained_huge_origins_are_refused_at_the_setter():
    tree = RigidBodyTree()
    parent = "base"
    for k in range(3):
        body = RigidBody(f"b{k}")
        with pytest.raises(InvalidTransformError, match="beyond"):
            body.joint.set_fixed_transform(transl(1e308))
        body.joint.set_fixed_transform(transl(MAX_LENGTH))
        tree.add_body(body, parent)
        parent = body.name
    assert np.isfinite(tree.forward_kinematics([])).all()


@pytest.mark.parametrize("row", [[1e7, 0, 0, 0], [0, 0, -2e6, 0], [0, math.nan, 0, 0]])
def test_dh_lengths_are_bounded(row):
    with pytest.raises(InvalidTransformError, match="DH"):
        Joint("j", "revolute").set_fixed_transform(row, "dh")


def test_prismatic_limits_home_and_offset_are_bounded():
    j = Joint("p", "prismatic")
    j.set_limits([-math.inf, math.inf])  # unbounded is fine
    j.set_limits([-MAX_LENGTH, MAX_LENGTH])
    with pytest.raises(InvalidLimitsError, match="beyond"):
        j.set_limits([-1e308, 1e308])
    with pytest.raises(InvalidLimitsError, match="beyond"):
        j.set_limits([-math.inf, math.inf], home=1e300)
    with pytest.raises(InvalidJointError, match="beyond"):
        j.offset = 2e6
    planar = Joint("pl", "planar")
    with pytest.raises(InvalidLimitsError, match="beyond"):
        planar.position_limits = [[-1e9, 1], [-1, 1], [-1, 1]]
    planar.position_limits = [[-1, 1], [-1, 1], [-1e300, 1e300]]  # the angle row: finite is enough
    with pytest.raises(InvalidJointError, match="mimic offset"):
        Mimic("x", 1.0, 1e300)


@pytest.mark.filterwarnings("ignore::RuntimeWarning")
def test_fk_that_overflows_names_the_body():
    tree = RigidBodyTree()
    parent = "base"
    for k, jtype in enumerate(("prismatic", "prismatic", "revolute")):
        body = RigidBody(f"p{k}")
        body.joint = Joint(f"s{k}", jtype)
        body.joint.set_limits([-math.inf, math.inf])
        body.joint.set_fixed_transform(transl(0.1, 0, 0))
        tree.add_body(body, parent)
        parent = body.name
    q = [1e308, 1e308, 0.5]
    with pytest.raises(InvalidConfigurationError, match="body 'p1'.*not finite"):
        tree.forward_kinematics(q)
    with pytest.raises(InvalidConfigurationError, match="body 'p1'"):
        tree.forward_kinematics(np.array([[0.0, 0.0, 0.0], q]))
    with pytest.raises(InvalidConfigurationError, match="body 'p2'"):
        tree.get_transform(q, "p2")
    with pytest.raises(InvalidConfigurationError, match="body 'p2'"):
        tree.get_transform(np.array([q, q]), "p2", "p0")
    with pytest.raises(InvalidConfigurationError, match="'p2'"):
        tree.geometric_jacobian(q, "p2")
    assert tree.get_transform([1e308, 0.0, 0.0], "p1")[2, 3] == 1e308  # large but finite is a result


def test_fk_of_overflow_through_the_cli(tmp_path, capsys):
    from kinetree.app.main import main

    tree = RigidBodyTree()
    parent = "base"
    for k in range(2):
        body = RigidBody(f"p{k}")
        body.joint = Joint(f"s{k}", "prismatic")
        body.joint.set_limits([-math.inf, math.inf])
        tree.add_body(body, parent)
        parent = body.name
    path = tmp_path / "slides.kinetree.json"
    save_project(tree, path)
    assert main(["fk", str(path), "--q", "1e308", "1e308"]) == 1
    out, err = capsys.readouterr()
    assert "nan" not in out and "inf" not in out
    assert "body 'p1'" in err


# --- 3. setters raise KineTreeError subclasses -----------------------------------------------

HOSTILE = [None, "x", "abc", [1, "a", 2], [[1, 2], [3]], {}, object(), [1e200] * 3, [math.nan] * 3, 1e308,
           [1, 2], np.eye(3), [[None] * 4] * 4, (), b"12", np.eye(4)[:3]]


def _setters(tree: RigidBodyTree):
    j = tree.get_body("b").joint
    return {
        "axis": lambda v: setattr(j, "axis", v),
        "position_limits": lambda v: setattr(j, "position_limits", v),
        "home_position": lambda v: setattr(j, "home_position", v),
        "offset": lambda v: setattr(j, "offset", v),
        "set_limits(home=)": lambda v: j.set_limits(j.position_limits, home=v),
        "set_limits": lambda v: j.set_limits(v),
        "fixed transform": lambda v: j.set_fixed_transform(v),
        "child transform": lambda v: j.set_fixed_transform(v, "child"),
        "dh row": lambda v: j.set_fixed_transform(v, "dh"),
        "transform kind": lambda v: j.set_fixed_transform(np.eye(4), v),
        "joint name": lambda v: setattr(j, "name", v),
        "mimic": lambda v: setattr(j, "mimic", v),
        "Mimic multiplier": lambda v: Mimic("x", v),
        "Mimic joint": lambda v: Mimic(v),
        "Joint type": lambda v: Joint("k", v),
        "Joint name": lambda v: Joint(v, "revolute"),
        "motion_transform": lambda v: j.motion_transform(v),
        "gravity": lambda v: setattr(tree, "gravity", v),
        "base_name": lambda v: setattr(tree, "base_name", v),
        "add_body": lambda v: tree.add_body(v, "base"),
        "add_body parent": lambda v: tree.add_body(RigidBody("new"), v),
        "add_bodies": lambda v: tree.add_bodies(v),
        "replace_joint": lambda v: tree.replace_joint("b", v),
        "replace_body": lambda v: tree.replace_body("b", v),
        "add_subtree": lambda v: tree.add_subtree("base", v),
        "remove_body": lambda v: tree.remove_body(v),
        "get_body": lambda v: tree.get_body(v),
        "find_joint": lambda v: tree.find_joint(v),
        "position_index": lambda v: tree.position_index(v),
        "forward_kinematics": lambda v: tree.forward_kinematics(v),
        "RigidBodyTree gravity": lambda v: RigidBodyTree("base", v),
    }


SETTERS = [
    "axis", "position_limits", "home_position", "offset", "set_limits(home=)", "set_limits", "fixed transform",
    "child transform", "dh row", "transform kind", "joint name", "mimic", "Mimic multiplier", "Mimic joint",
    "Joint type", "Joint name", "motion_transform", "gravity", "base_name", "add_body", "add_body parent",
    "add_bodies", "replace_joint", "replace_body", "add_subtree", "remove_body", "get_body", "find_joint",
    "position_index", "forward_kinematics", "RigidBodyTree gravity"]


def test_every_setter_is_tried():
    assert sorted(SETTERS) == sorted(_setters(_arm_with_b()))


def _arm_with_b() -> RigidBodyTree:
    tree = RigidBodyTree()
    tree.add_body(RigidBody("b"), "base")
    return tree


@pytest.mark.filterwarnings("ignore::RuntimeWarning")
@pytest.mark.parametrize("jtype", ["revolute", "prismatic", "planar", "floating", "fixed"])
@pytest.mark.parametrize("setter", SETTERS)
def test_setters_raise_kinetree_errors_only(jtype, setter):
    for value in HOSTILE:
        tree = RigidBodyTree()
        body = RigidBody("b")
        body.joint = Joint("j", jtype)
        tree.add_body(body, "base")
        before = tree.show_details(), tree.revision
        try:
            _setters(tree)[setter](value)
        except KineTreeError:
            assert (tree.show_details(), tree.revision) == before, (setter, value)
        except Exception as exc:  # noqa: BLE001 - the point of the test
            pytest.fail(f"{setter}({value!r:.40}) on a {jtype} joint raised {type(exc).__name__}: {exc}")


def test_set_limits_with_bad_home_changes_nothing():
    j = Joint("j", "revolute")
    j.set_limits([-1, 1], home=0.5)
    for home in ("x", [1, 2], {}, math.nan, 5.0):
        with pytest.raises(InvalidLimitsError, match="'j'"):
            j.set_limits([-2, 2], home=home)
        assert list(j.position_limits) == [-1, 1] and j.home_position == 0.5


# --- 4. mimic references are checked when bodies join ----------------------------------------

def _follower(name: str = "f", leader: str = "ghost") -> RigidBody:
    body = RigidBody(name)
    body.joint = Joint(f"{name}_j", "revolute")
    body.joint.mimic = Mimic(leader)
    return body


def _arm() -> RigidBodyTree:
    tree = RigidBodyTree()
    body = RigidBody("a")
    body.joint = Joint("lead", "revolute")
    tree.add_body(body, "base")
    fixed = RigidBody("plate")
    tree.add_body(fixed, "a")
    return tree


def test_add_body_refuses_a_mimic_of_a_missing_joint():
    tree = _arm()
    with pytest.raises(InvalidJointError, match="'f_j' mimics 'ghost', which is not a joint"):
        tree.add_body(_follower(), "a")
    with pytest.raises(InvalidJointError, match="a fixed joint"):
        tree.add_body(_follower(leader="plate_jnt"), "a")
    assert tree.body_names == ["a", "plate"]
    tree.add_body(_follower(leader="lead"), "a")
    with pytest.raises(InvalidJointError, match="itself a mimic"):
        tree.add_body(_follower("g", leader="f_j"), "a")
    assert tree.movable_joint_names == ["lead"]


def test_add_subtree_checks_mimics_against_both_trees():
    tree = _arm()
    sub = RigidBodyTree("a")
    sub.add_body(RigidBody("x"), "a")
    sub._attach(_follower(), sub.get_body("x"))  # a subtree assembled without checks
    with pytest.raises(InvalidJointError, match="'ghost'"):
        tree.add_subtree("a", sub)
    assert tree.body_names == ["a", "plate"]
    tree.add_body(_follower(leader="lead"), "a")
    moved = tree.remove_body("f")  # a follower whose leader stays behind (moving a subtree)
    with pytest.raises(InvalidJointError, match="'lead'"):
        RigidBodyTree("x").add_subtree("x", moved)
    tree.add_subtree("plate", moved)
    assert tree.parent_name("f") == "plate"
    np.testing.assert_allclose(tree.get_transform([0.3], "f")[:3, :3], tree.get_transform([0.6], "a")[:3, :3],
                               atol=1e-15)


def test_duplicating_a_subtree_with_mimics():
    from kinetree.app.model.edits import duplicate_subtree

    tree = _arm()
    tree.add_body(_follower("f", leader="lead"), "plate")
    duplicate_subtree(tree, "f")  # the copy follows the original leader
    duplicate_subtree(tree, "a")  # the copied follower follows the copied leader
    leaders = {b.name: b.joint.mimic.joint for b in tree.bodies if b.joint.mimic}
    assert leaders == {"f": "lead", "f_copy": "lead", "f_copy1": "lead_copy", "f_copy_copy": "lead_copy"}
    assert tree.movable_joint_names == ["lead", "lead_copy"]


def test_replace_joint_refuses_a_mimic_of_a_missing_joint():
    tree = _arm()
    with pytest.raises(InvalidJointError, match="'ghost'"):
        tree.replace_joint("plate", _follower().joint)
    assert tree.get_body("plate").joint.type == "fixed"


def test_add_bodies_lets_a_mimic_come_before_its_leader(tmp_path):
    tree = RigidBodyTree()
    with pytest.raises(InvalidJointError, match="'late'"):
        tree.add_bodies([(_follower("f", leader="late"), "base"), (RigidBody("l"), "f")])
    assert tree.num_bodies == 0  # all or nothing
    leader = RigidBody("m")
    leader.joint = Joint("late", "revolute")
    tree.add_bodies([(_follower("f", leader="late"), "base"), (RigidBody("l"), "f"), (leader, "base")])
    assert tree.movable_joint_names == ["late"]
    with pytest.raises(UnknownBodyError, match="'nowhere'"):
        tree.add_bodies([(RigidBody("z"), "nowhere")])
    with pytest.raises(DuplicateNameError):
        tree.add_bodies([(RigidBody("z"), "base"), (RigidBody("z"), "base")])
    assert tree.body_names == ["f", "l", "m"]
    path = tmp_path / "late.kinetree.json"
    save_project(tree, path)
    back, _ = load_project(path)  # the follower is saved first and loads
    np.testing.assert_array_equal(back.forward_kinematics([0.7]), tree.forward_kinematics([0.7]))


# --- 5. random configurations of unbounded or huge limits -----------------------------------

@pytest.mark.parametrize("jtype, limits, home, window", [
    ("revolute", [5, math.inf], 5.0, (5, 5 + math.pi)),
    ("revolute", [-math.inf, -5], -5.0, (-5 - math.pi, -5)),
    ("revolute", [-1e308, 1e308], 0.0, (-math.pi, math.pi)),
    ("revolute", [1e308, math.inf], 1e308, (1e308, 1e308)),
    ("revolute", [-math.inf, math.inf], 2.0, (2 - math.pi, 2 + math.pi)),
    ("prismatic", [0.3, math.inf], 0.3, (0.3, 1.3)),
    ("prismatic", [-math.inf, math.inf], 0.0, (-1.0, 1.0)),
    ("prismatic", [-MAX_LENGTH, MAX_LENGTH], 0.0, (-MAX_LENGTH, MAX_LENGTH)),
])
def test_random_configuration_of_unbounded_limits(jtype, limits, home, window):
    tree = RigidBodyTree()
    body = RigidBody("b")
    body.joint = Joint("j", jtype)
    body.joint.set_limits(limits, home=home)
    tree.add_body(body, "base")
    rng = np.random.default_rng(3)
    q = np.array([tree.random_configuration(rng)[0] for _ in range(200)])
    assert np.isfinite(q).all()
    assert (q >= max(limits[0], window[0])).all() and (q <= min(limits[1], window[1])).all()
    assert np.isfinite(tree.forward_kinematics(q[:, None])).all()


def test_random_configuration_of_planar_and_floating_unbounded_rows():
    tree = RigidBodyTree()
    for name, jtype, limits in (("pl", "planar", [[0, math.inf], [-math.inf, 0], [-1e308, 1e308]]),
                                ("fl", "floating", [[math.nan] * 2] * 4 + [[-math.inf, math.inf]] * 3)):
        body = RigidBody(name)
        body.joint = Joint(name + "_j", jtype)
        body.joint.position_limits = limits
        tree.add_body(body, "base")
    for seed in range(50):
        q = tree.random_configuration(seed)
        assert np.isfinite(q).all()
        assert 0 <= q[0] <= 1 and -1 <= q[1] <= 0 and abs(q[2]) <= math.pi
        assert np.linalg.norm(q[3:7]) == pytest.approx(1.0) and (np.abs(q[7:]) <= 1).all()


def test_random_configuration_is_unchanged_for_ordinary_limits():
    puma = load_robot("puma560")
    rng = np.random.default_rng(11)
    expected = [rng.uniform(*puma.find_joint(n).joint.position_limits) for n in puma.movable_joint_names]
    np.testing.assert_array_equal(puma.random_configuration(np.random.default_rng(11)), expected)


# --- 6. loading is linear ----------------------------------------------------------------------

def _cpu_seconds(work, *args) -> tuple[float, object]:
    """This thread's CPU time for ``work(*args)`` and its result, with the garbage collector off as timeit has it.

    Process time would count the app's numba warm-up compiling on another thread (a GUI test
    earlier in the session starts it), and with the whole suite's objects alive one full
    collection inside the loop cost 1.0 s on the fresh-clone CI, against 10 ms for the work."""
    gc.collect()
    gc.disable()
    try:
        t = time.thread_time()
        result = work(*args)
        return time.thread_time() - t, result
    finally:
        gc.enable()


def _chain_csv(n: int) -> str:
    return "type,a,alpha,d,theta\n" + "".join(f"R,0.1,{90 if k % 2 else -90},0,q\n" for k in range(n))


def test_unnamed_dh_rows_are_named_in_order_and_linearly():
    tree = read_dh_csv(_chain_csv(5)).to_tree()
    assert tree.body_names == [f"link{k}" for k in range(1, 6)]
    assert tree.movable_joint_names == [f"q{k}" for k in range(1, 6)]
    # doubling the rows about doubles the time (quadratic naming made 4000 rows 4x slower)
    times = []
    for n in (1000, 4000):
        times.append(_cpu_seconds(lambda text: read_dh_csv(text).to_tree(), _chain_csv(n))[0])
    assert times[1] < 8 * times[0] + 0.5, times


def _add_one_by_one(tree: RigidBodyTree, bodies: list[RigidBody]) -> None:
    parent = "base"
    for b in bodies:
        tree.add_body(b, parent)
        parent = b.name


def test_adding_bodies_one_by_one_is_linear():
    times = []
    for n in (1000, 4000):
        tree = RigidBodyTree()
        bodies = [RigidBody(f"b{k}") for k in range(n)]
        times.append(_cpu_seconds(_add_one_by_one, tree, bodies)[0])
    assert tree.num_bodies == 4000 and tree.find_joint("b3999_jnt").name == "b3999"
    assert times[1] < 8 * times[0] + 0.5, times


def test_show_details_is_linear():
    times = []
    for n in (1000, 4000):
        tree = RigidBodyTree()
        tree.add_bodies((RigidBody(f"b{k}"), "base" if k < 2 else f"b{(k - 2) // 2}") for k in range(n))
        took, text = _cpu_seconds(tree.show_details)
        times.append(took)
    first = text.splitlines()[4].split()
    assert first[:2] == ["1", "b0"] and first[-2:] == ["b2(3)", "b3(4)"]
    assert times[1] < 8 * times[0] + 0.5, times


def test_tree_setters_name_the_field():
    tree = _arm_with_b()
    for value in (None, "abc", [0, 0, 1e300], [1, 2]):
        with pytest.raises(InvalidPropertyError, match="gravity"):
            tree.gravity = value
    with pytest.raises(InvalidPropertyError, match="RigidBody"):
        tree.add_body("b2", "base")
    with pytest.raises(InvalidPropertyError, match="pairs"):
        tree.add_bodies([RigidBody("x")])
    with pytest.raises(InvalidJointError, match="expects a Joint"):
        tree.replace_joint("b", "revolute")
    np.testing.assert_array_equal(tree.gravity, [0, 0, 0])


@pytest.mark.parametrize("jtype", ["spherical", "floating"])
def test_huge_quaternions_are_normalised_without_overflow(jtype):
    tree = RigidBodyTree()
    body = RigidBody("s")
    body.joint = Joint("j", jtype)
    tree.add_body(body, "base")
    huge = [1e200, 1e200, 0, 0] + [0.0] * (tree.position_count - 4)
    unit = [1, 1, 0, 0] + [0.0] * (tree.position_count - 4)
    expected = tree.forward_kinematics(unit)
    with np.errstate(over="raise", invalid="raise"):
        np.testing.assert_allclose(tree.forward_kinematics(huge), expected, atol=1e-15)
        np.testing.assert_allclose(tree.forward_kinematics([huge, unit])[0], expected, atol=1e-15)
        np.testing.assert_allclose(tree.get_body("s").joint.motion_transform(huge), expected[0], atol=1e-15)
    with pytest.raises(InvalidConfigurationError, match="quaternion is zero"):
        tree.forward_kinematics([0.0] * tree.position_count)


def test_loaders_restore_the_garbage_collector(tmp_path):
    import gc

    from kinetree.core.model.bulk import gc_paused

    assert gc.isenabled()
    with gc_paused():
        assert not gc.isenabled()
        with gc_paused():
            assert not gc.isenabled()
        assert not gc.isenabled()  # the outer pause still holds
    assert gc.isenabled()
    bad = tmp_path / "bad.kinetree.json"
    bad.write_text('{"format": "kinetree", "version": 1, "bodies": [{"name": "a", "parent": "nowhere", '
                   '"joint": {"name": "j", "type": "fixed"}}]}')
    with pytest.raises(KineTreeError):
        load_project(bad)
    assert gc.isenabled()
    with pytest.raises(KineTreeError):
        read_dh_csv("type,a,alpha,d,theta\nR,1e7,0,0,q\n").to_tree()
    assert gc.isenabled()


def test_query_methods_refuse_hostile_arguments_by_name():
    tree = RigidBodyTree()
    tree.add_bodies((RigidBody(f"b{k}"), "base") for k in range(100))
    with pytest.raises(UnknownBodyError) as err:
        tree.get_body(["x"])
    assert str(err.value).endswith("b17, b18 … (81 more)")  # 101 names would make an unreadable message
    with pytest.raises(InvalidConfigurationError, match="axes"):
        load_robot("puma560").manipulability(np.zeros(6), "link6", ["x"])
    with pytest.raises(InvalidConfigurationError, match="seed"):
        tree.random_configuration("x")


# --- names the files cannot carry ---------------------------------------------------------------

@pytest.mark.parametrize("name", ["b\x00", "a\nb", "x\x07", "\ud800", "n" * 1001])
def test_names_files_cannot_carry_are_refused(name):
    """A NUL in a body name read from a DH CSV loaded, then URDF export raised lxml's ValueError."""
    with pytest.raises(InvalidPropertyError, match="body name"):
        RigidBody(name)
    with pytest.raises(InvalidJointError, match="joint name"):
        Joint(name)
    with pytest.raises(InvalidPropertyError, match="visual: name"):
        Visual("box", (1, 1, 1), name=name)


def test_mesh_path_longer_than_path_max_is_a_file_error():
    text = ('<robot name="r"><link name="a"><visual><geometry><mesh filename="%s.stl"/></geometry></visual>'
            '</link></robot>')
    with pytest.raises(FileFormatError, match=r"m\.urdf:1: .*filename .* is 5004 characters long"):
        urdf_from_string(text % ("m" * 5000), source="m.urdf")


# --- issue 17: complex joint positions ---------------------------------------------------------------

_COMPLEX = "is a complex number; joint positions must be real numbers .*imaginary part is zero"


@pytest.mark.parametrize("make", [
    lambda n: np.array([0, 0, 1j, 0, 0, 0]),  # a numpy complex array
    lambda n: [0, 0, np.complex128(0.5 + 1j), 0, 0, 0],  # a numpy complex scalar in a list
    lambda n: [0, 0, 0.5 + 1j, 0, 0, 0],  # a Python complex
    lambda n: {n: 1j},  # by joint name
    lambda n: np.vstack([np.zeros(6), [0, 0, 1j, 0, 0, 0]]),  # a batch
    lambda n: [0, 0, 2 + 0j, 0, 0, 0],  # zero imaginary part: refused too
])
def test_complex_positions_are_refused_naming_the_joint(make):
    """numpy cast a complex q to its real part with only a warning: FK of q3 = 1j was FK at 0."""
    tree = load_robot("puma560")
    name = tree.movable_joint_names[2]
    q = make(name)
    for call in (tree.forward_kinematics, tree.config_to_vector, lambda q: tree.named_poses.__setitem__("p", q)):
        if call is tree.config_to_vector and getattr(q, "ndim", 1) == 2:
            continue
        with pytest.raises(KineTreeError, match=rf"joint {name!r}: (position 2: )?.*{_COMPLEX}"):
            call(q)


def test_complex_home_position_is_refused_naming_the_joint():
    joint = Joint("elbow", "revolute")
    for value in (np.complex128(0.5), 0.5 + 0.5j):
        with pytest.raises(KineTreeError, match=rf"joint 'elbow': home position .*{_COMPLEX}"):
            joint.home_position = value
    assert joint.home_position == 0.0
