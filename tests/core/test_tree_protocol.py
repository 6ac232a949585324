"""The tree's internal contract (issue 33): the engine's algorithms use a tree through the named
methods of :class:`~kinetree.core.model.protocol.TreeLike`, not through private hooks."""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
from kinetree.core import RigidBodyTree, load_robot
from kinetree.core.model.protocol import TreeLike

CORE = Path(__file__).resolve().parents[2] / "core"
#: the tree's former private hooks → TreeLike's names (the old names stay as aliases for app code)
HOOKS = {"_positions": "position_slots", "_kinematics": "kinematic_plan", "_config_array": "config_array",
         "_one_config": "one_config", "_touch": "mark_changed"}


def test_the_tree_implements_treelike():
    tree = load_robot("puma560")
    assert isinstance(tree, TreeLike)
    members = [n for n in vars(TreeLike) if not n.startswith("_")]
    assert set(HOOKS.values()) <= set(members)
    for name in members:
        assert hasattr(RigidBodyTree, name), name


def test_the_former_private_names_are_the_same_methods():
    for old, new in HOOKS.items():
        assert getattr(RigidBodyTree, old) is getattr(RigidBodyTree, new), old
    tree = load_robot("puma560")
    q = tree.random_configuration(0)
    np.testing.assert_array_equal(tree._config_array(q), tree.config_array(q))
    assert tree._positions() is tree.position_slots()  # one cache
    assert tree._kinematics() is tree.kinematic_plan()


def test_no_engine_module_calls_a_former_private_hook():
    call = re.compile(r"\.(" + "|".join(HOOKS) + r")\(")
    found = [f"{path.relative_to(CORE.parent)}:{n}: {line.strip()}" for path in sorted(CORE.rglob("*.py"))
             for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1) if call.search(line)]
    assert not found, "call TreeLike's named methods (core/model/protocol.py) instead:\n" + "\n".join(found)


def test_mark_changed_drops_the_caches():
    tree = load_robot("two_link_planar")
    plan, slots = tree.kinematic_plan(), tree.position_slots()
    tree.mark_changed()
    assert tree.kinematic_plan() is not plan
    assert tree.position_slots() is not slots
    assert tree.position_slots() == slots
