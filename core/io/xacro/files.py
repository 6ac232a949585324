"""Where the xacro expander (core/io/xacro/expand.py) may read files: ``$(find)``, ``package://``, includes
(plain and glob patterns) and ``load_yaml``, all inside the xacro's folder tree, the ROS package it
is in, the package paths, ``$ROS_PACKAGE_PATH`` and packages (with a ``package.xml``) found by
``$(find)``. Refusals name only what the file asked for, never a resolved name outside."""

from __future__ import annotations

import fnmatch
import os
import re
from pathlib import Path
from typing import Any

from ..urdf.parse import _package_candidates
from .eval import Budget, ExprError, short
from .yaml_load import read_yaml

__all__ = ["MAGIC", "Files", "allowed_roots", "cut", "exists"]

MAGIC = re.compile(r"[*?[]")


def cut(text: str, n: int = 200) -> str:
    return text if len(text) <= n else text[:n] + "…"


def exists(test) -> bool:
    """``test()`` (``path.is_file`` …), False when the OS refuses the name (too long, a NUL …)."""
    try:
        return test()
    except (OSError, ValueError):
        return False


def _resolve(path: Path, name: str) -> Path:
    try:
        return path.resolve()
    except (OSError, RuntimeError, ValueError):  # RuntimeError: a symlink loop
        raise ExprError(f"{short(name)}: the file name cannot be resolved (a symlink loop or a name too "
                        "long)") from None


def allowed_roots(top: Path, package_paths: list[Path], ros_paths: list[Path]) -> list[Path]:
    """The folders includes and load_yaml may read before any ``$(find)``: the xacro's folder tree, the
    ROS package it is in (a package.xml above it), the package paths and ROS_PACKAGE_PATH."""
    here = _resolve(top.parent, str(top))
    own = next((d for d in (here, *here.parents) if exists((d / "package.xml").is_file)), here)
    return [here, own, *(_resolve(p, str(p)) for p in package_paths + ros_paths)]


class Files:
    """The file side of the expander: a mixin of ``xacro._Expander``, whose ``file_of(el)`` and
    ``tick(el)`` it calls."""

    roots: list[Path]
    package_paths: list[Path]
    ros_paths: list[Path]
    files: list[Path]
    yaml_cache: dict[Path, Any]
    budget: Budget
    limits: Any  # xacro.XacroLimits

    def package(self, pkg: str) -> Path:
        if not pkg or "/" in pkg or pkg in (".", "..") or len(pkg) > 255:
            raise ExprError(f"bad package name {short(pkg)}")
        base = Path(self.file_of(None)).parent.absolute()
        for root in [base, *base.parents, *self.package_paths, *self.ros_paths]:
            for cand in _package_candidates(root, pkg, ""):
                if exists(cand.is_dir):
                    found = _resolve(cand, f"$(find {pkg})")
                    # includes and load_yaml may read a package found this way only if it is one ($(find etc)
                    # is /etc)
                    if exists((found / "package.xml").is_file) and found not in self.roots:
                        self.roots.append(found)
                    return found
        raise ExprError(f"package {short(pkg)} not found (searched the xacro's folder and its parents, the "
                        "package paths and ROS_PACKAGE_PATH)")

    def locate(self, name: str, el) -> Path:
        if name.startswith("package://"):
            pkg, _, sub = name[len("package://"):].lstrip("/").partition("/")
            return self.package(pkg) / sub
        p = Path(name)  # no "~": that would read $HOME
        if p.is_absolute():
            return p
        here = Path(self.file_of(el)).parent / p
        if exists(here.exists):
            return here
        return self.files[-1].parent / p

    def inside(self, name: str, path: Path, label: str) -> Path:
        """``path`` resolved, if it is inside the xacro's folder tree or a package path; the refusal
        names only what the file asked for (no resolved names, no hint whether it exists)."""
        real = _resolve(path, name)
        if not any(real.is_relative_to(r) for r in self.roots):
            raise ExprError(f"{label} is outside the xacro's folder and the package paths")
        return real

    def load_yaml(self, name: str, el) -> Any:
        path = self.inside(name, self.locate(name, el), f"load_yaml({short(name)}): the file")
        if not exists(path.is_file):
            raise ExprError(f"load_yaml({short(name)}): no such file {cut(str(path))}")
        if path not in self.yaml_cache:  # read once per expansion: a macro may load it for every call
            self.tick(el)
            self.yaml_cache[path] = read_yaml(path, name, self.budget)
        return self.yaml_cache[path]

    def glob(self, name: str, pattern: Path, el) -> list[Path]:
        """The files matching ``pattern`` in name order, walking at most ``limits.max_glob_entries``
        directory entries, all inside the allowed folders."""
        parts = pattern.parts
        i = next((k for k, part in enumerate(parts) if MAGIC.search(part)), len(parts))
        self.inside(name, Path(*parts[:i]), f"included pattern {short(name)}")
        level, visits = [Path(*parts[:i])], 0
        for part in parts[i:]:
            found: list[Path] = []
            for d in level:
                self.tick(el)
                if not MAGIC.search(part):
                    if exists((d / part).exists):
                        found.append(d / part)
                    continue
                try:
                    with os.scandir(d) as entries:
                        for e in entries:
                            visits += 1
                            if visits > self.limits.max_glob_entries:
                                raise ExprError(f"included pattern {short(name)} looks at more than "
                                                f"{self.limits.max_glob_entries} files; stopped")
                            if fnmatch.fnmatchcase(e.name, part) and (part[0] == "." or e.name[0] != "."):
                                found.append(d / e.name)
                except (OSError, ValueError):  # not a folder, unreadable: no match (as glob)
                    continue
            level = found
        paths = sorted(p for p in level if exists(p.is_file))
        for p in paths:
            self.inside(name, p, f"a file matching {short(name)}")  # a symlink out of the folder
        return paths
