"""kinetree.core is the pure-numpy engine: it must never import Qt, pyqtgraph or OpenGL."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import kinetree.core

FORBIDDEN = ("PySide6", "PySide2", "PyQt5", "PyQt6", "shiboken6", "pyqtgraph", "OpenGL", "qtpy")
CORE_DIR = Path(kinetree.core.__file__).resolve().parent


def _imports(path: Path) -> list[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    mods = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            mods += [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            mods.append(node.module)
        elif isinstance(node, ast.Call) and getattr(node.func, "attr", getattr(node.func, "id", "")) in (
                "import_module", "__import__") and node.args and isinstance(node.args[0], ast.Constant):
            mods.append(str(node.args[0].value))
    return mods


def test_core_sources_exist():
    files = sorted(CORE_DIR.rglob("*.py"))
    names = {p.name for p in files}
    assert {"__init__.py", "tree.py", "joint.py", "plan.py"} <= names  # plan.py: the kinematics
    assert (CORE_DIR / "io" / "project.py").exists()


def test_core_sources_never_import_gui_packages():
    offenders = []
    for path in sorted(CORE_DIR.rglob("*.py")):
        for mod in _imports(path):
            if mod.split(".")[0] in FORBIDDEN:
                offenders.append(f"{path.relative_to(CORE_DIR)}: import {mod}")
        text = path.read_text(encoding="utf-8")
        for line in text.splitlines():
            stripped = line.strip()
            if stripped.startswith(("import ", "from ")) and any(f in stripped for f in FORBIDDEN):
                offenders.append(f"{path.relative_to(CORE_DIR)}: {stripped}")
    assert not offenders, offenders


def test_importing_core_loads_no_gui_package():
    code = ("import sys, kinetree.core, kinetree.core.io, kinetree.core.kinematics.plan, kinetree.core.transforms; "
            "t = kinetree.core.load_robot('puma560'); t.forward_kinematics(t.home_configuration()); "
            f"bad = [m for m in sys.modules if m.split('.')[0] in {FORBIDDEN!r}]; "
            "print(bad); sys.exit(1 if bad else 0)")
    res = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert res.returncode == 0, res.stdout + res.stderr
