"""Mutation fuzzing of robot files: whatever the bytes, reading gives a KineTreeError or a sane tree.

"Sane" means: the tree's forward kinematics is finite at home and at a random in-limit
configuration, and the tree survives being written back (project, and URDF where it can be
expressed) and read again. Each format gets a bounded number of hypothesis examples so the suite
stays fast; raise ``KINETREE_FUZZ_EXAMPLES`` for a longer local run.
"""

from __future__ import annotations

import os
import re
import warnings

import numpy as np
import pytest
from helpers.trees import hyp_settings
from helpers.urdf import ALL_TYPES
from hypothesis import given
from hypothesis import strategies as st
from kinetree.core import KineTreeError, export_robot, import_robot, load_robot
from kinetree.core.io.project import save_project
from kinetree.core.io.urdf.read import urdf_string

EXAMPLES = int(os.environ.get("KINETREE_FUZZ_EXAMPLES", "300"))
FUZZ = hyp_settings(EXAMPLES)

# values a fuzzer likes: edges of float parsing, overflow, names, markup
NASTY = ["0", "-0", "1e200", "1e308", "-1e308", "1e400", "nan", "inf", "-inf", "1" * 400,
         "", " ", "\"", "'", "<", ">", "&", "&amp;", "]]>", "{", "}", "[", "]", ",", ":", "null",
         "true", "[]", "{}", "\u00e9", "\x00", "\t", "\n", "-1", "2", "3.14159", "1e6", "1e7",
         "base", "link1", "joint1", "revolute", "prismatic", "fixed", "floating", "continuous",
         "planar", "spherical", "mimic", "package://x/y.stl", "~nosuchuser/m.stl", "a" * 300]
NUMBERS = ["0", "-0", "1", "-1", "0.5", "2", "3.14159", "-3.2", "1e-9", "1e5", "-1e5", "1e6", "1e7",
           "1e200", "-1e200", "1e-200", "1e308", "-1e308", "1e-320", "1e400", "nan", "inf", "-inf",
           "1" * 400, "1.0000000000000002", "12345678901234567890"]
NUMBER = re.compile(r"-?\d+(?:\.\d*)?(?:[eE][-+]?\d+)?")


@st.composite
def mutated(draw, seed: str) -> str:
    """``seed`` with a few token-, line- or character-level mutations."""
    text = seed
    # mostly one or two number or name swaps, which keep the file well-formed and so reach the
    # engine's checks; character and line edits exercise the parsers
    for _ in range(draw(st.sampled_from([1, 1, 1, 2, 2, 3]))):
        kind = draw(st.sampled_from(["number"] * 5 + ["token"] * 2 + ["char", "line_dup", "line_del", "splice"]))
        if kind == "number":
            spans = [m.span() for m in NUMBER.finditer(text)]
            if spans:
                a, b = draw(st.sampled_from(spans))
                text = text[:a] + draw(st.sampled_from(NUMBERS)) + text[b:]
        elif kind == "token":
            spans = [m.span() for m in re.finditer(r"[A-Za-z_]+", text)]
            if spans:
                a, b = draw(st.sampled_from(spans))
                text = text[:a] + draw(st.sampled_from(NASTY)) + text[b:]
        elif kind == "char" and text:
            i = draw(st.integers(0, len(text) - 1))
            text = text[:i] + draw(st.sampled_from(NASTY + ["", "x"])) + text[i + 1:]
        else:
            lines = text.split("\n")
            i = draw(st.integers(0, len(lines) - 1))
            if kind == "line_dup":
                lines.insert(i, lines[i])
            elif kind == "line_del":
                del lines[i]
            else:
                j = draw(st.integers(0, len(lines) - 1))
                lines[i], lines[j] = lines[j], lines[i]
            text = "\n".join(lines)
    return text


def _check_sane(tree, tmp_path) -> None:
    for q in (tree.home_configuration(), tree.random_configuration(np.random.default_rng(0))):
        poses = tree.forward_kinematics(q)
        assert np.all(np.isfinite(poses)), "FK of a loaded tree is not finite"
    # what was read can be written and read back
    save_project(tree, tmp_path / "back.kinetree.json")
    again = import_robot(tmp_path / "back.kinetree.json")
    assert again.body_names == tree.body_names
    try:
        urdf_string(tree)
    except KineTreeError:
        pass  # e.g. a spherical joint has no URDF form: refused with a message, which is fine


def _read_or_refuse(text: str, path, tmp_path) -> None:
    path.write_bytes(text.encode("utf-8", "surrogatepass"))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            tree = import_robot(path)
        except KineTreeError:
            return
    _check_sane(tree, tmp_path)


@pytest.fixture(scope="module")
def seeds(tmp_path_factory):
    d = tmp_path_factory.mktemp("seeds")
    puma = load_robot("puma560")
    export_robot(puma, d / "puma.kinetree.json")
    export_robot(puma, d / "puma.csv")
    return {"project": (d / "puma.kinetree.json").read_text(), "csv": (d / "puma.csv").read_text()}


@FUZZ
@given(data=st.data())
def test_fuzz_urdf(data, tmp_path):
    _read_or_refuse(data.draw(mutated(ALL_TYPES)), tmp_path / "fuzz.urdf", tmp_path)


@FUZZ
@given(data=st.data())
def test_fuzz_project(data, seeds, tmp_path):
    _read_or_refuse(data.draw(mutated(seeds["project"])), tmp_path / "fuzz.kinetree.json", tmp_path)


@FUZZ
@given(data=st.data())
def test_fuzz_dh_csv(data, seeds, tmp_path):
    _read_or_refuse(data.draw(mutated(seeds["csv"])), tmp_path / "fuzz.csv", tmp_path)


def test_export_of_fuzz_seed_round_trips(tmp_path):
    """The seeds themselves read back to the same tree (the fuzz baseline is meaningful)."""
    puma = load_robot("puma560")
    export_robot(puma, tmp_path / "p.urdf")
    back = import_robot(tmp_path / "p.urdf")
    q = puma.random_configuration(np.random.default_rng(1))
    assert np.allclose(back.get_transform(q, puma.end_effector), puma.get_transform(q, puma.end_effector),
                       atol=1e-12)
