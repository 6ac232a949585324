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
    """Installed package name → source folder, for every folder with an ``__init__.py`` under a
    folder ``pyproject.toml`` maps (``kinetree.core`` = ``core/`` …)."""
    found = {}
    for top, folder in _config()["package-dir"].items():
        for init in sorted((ROOT / folder).rglob("__init__.py")):
            relative = init.parent.relative_to(ROOT / folder).parts
            found[".".join((top, *relative))] = init.parent
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
        package = importlib.import_module(name)
        here = Path(package.__file__).resolve().parent
        assert "site-packages" in here.parts and not here.is_relative_to(ROOT), (
            f"{name} imports from {here}, not from an installed wheel")
        missing = sorted(p.name for p in source.glob("*.py") if not (here / p.name).is_file())
        assert not missing, f"the installed {name} lacks {missing}"
