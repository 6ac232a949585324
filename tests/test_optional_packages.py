"""CI is honest: it runs README's test command, and a test that needs an optional package skips
without it instead of failing (main once failed on a fresh machine because a test needed
imageio-ffmpeg that only a hand install had brought).

The second test runs every test file that touches an optional package in a subprocess in which
those packages cannot be imported (nor found by ``importlib.util.find_spec`` or
``importlib.metadata``), and expects skips, never failures or errors."""

from __future__ import annotations

import ast
import os
import re
import subprocess
import sys
import textwrap
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

# import names of the packages that only the test/crosscheck/collision/video extras bring, of
# references the tests use when they happen to be installed, and numba (a dependency, but the
# numpy paths must still work where it cannot be installed)
HIDDEN_MODULES = ("pinocchio", "fcl", "numba", "imageio_ffmpeg", "example_robot_data", "xacrodoc",
                  "roboticstoolbox", "spatialmath", "pydrake", "gymnasium", "dm_control", "IPython", "nbclient",
                  "nbformat", "ipykernel", "selenium")
HIDDEN_DISTRIBUTIONS = ("pin", "python-fcl", "numba", "imageio-ffmpeg", "example-robot-data", "xacrodoc",
                        "roboticstoolbox-python", "spatialmath-python", "drake", "gymnasium", "dm-control",
                        "ipython", "nbclient", "nbformat", "ipykernel", "selenium")
# a test file that mentions one of these (or a helper that looks for them) is run with them hidden
# (anywidget is not hidden itself, but it needs IPython, which is)
MENTIONS = re.compile(r"pinocchio|pydrake|\bfcl\b|numba|imageio.ffmpeg|example.robot.data|xacrodoc|roboticstoolbox|"
                      r"gymnasium|dm.control|spatialmath|collision_available|check_collision|EXAMPLE_ROBOTS|"
                      r"helpers\.urdf\b|\.mp4|IPython|nbclient|nbformat|ipykernel|selenium|anywidget")

SITECUSTOMIZE = """
import importlib.abc, importlib.metadata, importlib.util, sys

HIDDEN = set({modules!r})
DISTS = set({dists!r})


class _Hidden(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path=None, target=None):
        if name.partition(".")[0] in HIDDEN:
            raise ModuleNotFoundError(f"No module named {{name!r}} (hidden)", name=name)
        return None


sys.meta_path.insert(0, _Hidden())
_find_spec = importlib.util.find_spec
_distribution, _version = importlib.metadata.distribution, importlib.metadata.version


def find_spec(name, package=None):
    return None if name.partition(".")[0] in HIDDEN else _find_spec(name, package)


def _check(name):
    if name.lower().replace("_", "-") in DISTS:
        raise importlib.metadata.PackageNotFoundError(name)


def distribution(name):
    _check(name)
    return _distribution(name)


def version(name):
    _check(name)
    return _version(name)


importlib.util.find_spec = find_spec
importlib.metadata.distribution, importlib.metadata.version = distribution, version
"""


def readme_test_command() -> str:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    section = text.split("\n## Tests\n", 1)[1]
    return next(line.strip() for line in section.splitlines() if line.startswith("    "))


def test_ci_runs_readmes_test_command_in_a_fresh_virtual_environment():
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    command = readme_test_command()
    assert "pytest" in command and "pip install" in command
    lines = [line.strip() for line in ci.splitlines()]
    assert command in lines, f".ci/run does not run README's test command {command!r}"
    # the venv is created and activated before README's command runs
    venv = next(i for i, line in enumerate(lines) if re.match(r"python3? -m venv ", line))
    activate = next(i for i, line in enumerate(lines) if re.match(r"\. .*bin/activate", line))
    assert venv < activate < lines.index(command)


def optional_package_tests() -> list[str]:
    """Node ids of the tests whose code (decorators included) or whose file's module-level code
    mentions an optional package: those, not whole files, are rerun (a whole-file rerun took
    minutes)."""
    ids = []
    for path in sorted((ROOT / "tests").rglob("test_*.py")):
        if "benchmarks" in path.parts or path.name == Path(__file__).name:
            continue
        source = path.read_text(encoding="utf-8")
        if not MENTIONS.search(source):
            continue
        tree = ast.parse(source)
        name = path.relative_to(ROOT).as_posix()
        module_level = [n for n in tree.body if not isinstance(n, ast.FunctionDef | ast.ClassDef)]
        everything = any(MENTIONS.search(ast.get_source_segment(source, n) or "") for n in module_level
                         if not isinstance(n, ast.Import | ast.ImportFrom | ast.Assign) or "skip" in ast.dump(n))
        if everything:  # a module-level importorskip: the file is skipped whole (its ids cannot be collected)
            ids.append(name)
            continue
        for node in tree.body:
            if isinstance(node, ast.ClassDef) and node.name.startswith("Test"):
                tests = [m for m in node.body if isinstance(m, ast.FunctionDef) and m.name.startswith("test")]
                prefix = f"{name}::{node.name}::"
            elif isinstance(node, ast.FunctionDef) and node.name.startswith("test"):
                tests, prefix = [node], f"{name}::"
            else:
                continue
            for test in tests:
                text = "\n".join(ast.get_source_segment(source, n) or "" for n in [*test.decorator_list, test])
                if MENTIONS.search(text) or _uses_helper(text, path, source, tree):
                    ids.append(prefix + test.name)
    return ids


def _uses_helper(text: str, path: Path, source: str, tree: ast.Module) -> bool:
    """Whether the test calls a module-level function or fixture that mentions an optional package
    (e.g. a builder that exports an MP4): its file's, a fixture of a conftest.py above it, or a
    function its file imports from tests/helpers/."""
    places = [(source, tree.body, None)]
    for folder in [*reversed(path.parent.relative_to(ROOT / "tests").parents), path.parent.relative_to(ROOT / "tests")]:
        conftest = ROOT / "tests" / folder / "conftest.py"
        if conftest.exists():
            text_of = conftest.read_text(encoding="utf-8")
            places.append((text_of, ast.parse(text_of).body, None))
    for node in tree.body:
        if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("helpers."):
            helper = ROOT / "tests" / Path(*node.module.split(".")).with_suffix(".py")
            text_of = helper.read_text(encoding="utf-8")
            places.append((text_of, ast.parse(text_of).body, {a.name for a in node.names}))
    for text_of, body, imported in places:
        for node in body:
            if (isinstance(node, ast.FunctionDef) and not node.name.startswith("test")
                    and (imported is None or node.name in imported) and re.search(rf"\b{node.name}\b", text)
                    and MENTIONS.search(ast.get_source_segment(text_of, node) or "")):
                return True
    return False


def test_tests_skip_without_the_optional_packages(tmp_path):
    ids = optional_package_tests()
    assert "tests/app/test_playback.py::test_a_gif_that_would_not_fit_in_memory_is_refused_before_rendering" in ids
    assert "tests/core/test_kinematics_numba.py" in ids
    (tmp_path / "sitecustomize.py").write_text(textwrap.dedent(SITECUSTOMIZE).format(
        modules=HIDDEN_MODULES, dists=HIDDEN_DISTRIBUTIONS))
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(filter(None, [str(tmp_path), os.environ.get("PYTHONPATH")])),
               KINETREE_NUMBA="1")
    # property tests are not what this checks: few examples
    run = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-rfEs", "--hypothesis-profile=optional",
         *ids],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=900)
    out = run.stdout + run.stderr
    summary = out.strip().splitlines()[-1] if out.strip() else ""
    failed = "\n".join(line for line in out.splitlines() if line.startswith(("FAILED", "ERROR")))
    first = out[out.find("= FAILURES ="):][:4000] if "= FAILURES =" in out else out[-4000:]
    assert run.returncode == 0, f"tests failed without the optional packages:\n{failed}\n{first}"
    assert " failed" not in summary and " error" not in summary, summary
    skipped = int(m.group(1)) if (m := re.search(r"(\d+) skipped", summary)) else 0
    assert skipped >= 50, summary  # numba, Pinocchio, fcl, example-robot-data tests all skip
    for reason in ("numba", "example-robot-data", "fcl"):
        assert reason in out, f"no test skipped naming {reason}"

