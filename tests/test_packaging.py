"""The wheel holds every package: ``pyproject.toml`` lists them by hand, and an editable install
finds a package it forgot, so only an installed wheel would show the gap. ``.ci/run`` runs README's
test command, which installs the wheel (not editable), with ``KINETREE_EXPECT_INSTALLED=1``."""

from __future__ import annotations

import importlib
import os
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
INSTALLED = os.environ.get("KINETREE_EXPECT_INSTALLED") == "1"


def _config() -> dict:
    return tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["setuptools"]


def _source_packages() -> dict[str, Path]:
    """Installed package name → source folder, for every folder under a folder ``pyproject.toml``
    maps (``kinetree.core`` = ``core/`` …): those with an ``__init__.py`` and the data folders
    (``resources/guide`` …), which setuptools would otherwise keep only for compatibility."""
    found = {}
    for top, folder in _config()["package-dir"].items():
        base = ROOT / folder
        for sub in sorted(p for p in [base, *base.rglob("*")] if p.is_dir() and p.name != "__pycache__"):
            found[".".join((top, *sub.relative_to(base).parts))] = sub
    return found


def test_pyproject_lists_every_package_of_the_source_tree():
    listed = set(_config()["packages"])
    found = set(_source_packages())
    assert found - listed == set(), f"packages missing from pyproject.toml's [tool.setuptools] packages: " \
                                    f"{sorted(found - listed)} (a wheel would leave them out)"
    assert listed - found == set(), f"pyproject.toml lists packages that do not exist: {sorted(listed - found)}"


@pytest.mark.skipif(not INSTALLED, reason="KINETREE_EXPECT_INSTALLED=1: .ci/run tests the installed wheel")
def test_kinetree_is_the_installed_wheel_with_every_module():
    for name, source in _source_packages().items():
        package = importlib.import_module(name)  # a data folder imports as a namespace package
        here = Path(next(iter(package.__path__))).resolve()
        assert "site-packages" in here.parts and not here.is_relative_to(ROOT), (
            f"{name} imports from {here}, not from an installed wheel")
        data = not (source / "__init__.py").is_file()
        missing = sorted(p.name for p in source.glob("*" if data else "*.py")
                         if p.is_file() and not (here / p.name).is_file())
        assert not missing, f"the installed {name} lacks {missing}"
