"""Deferred imports of KineTree's own modules: the one way a module reaches another one only when
it is first used, because importing it would load a heavy package (numba's kernels, sympy, Qt,
MuJoCo, a file format's parser) that the importer's other users must not pay for.

A module declares its deferred imports in ONE table at module level, a literal mapping a name
to ``"module:attribute"`` (``module`` relative to the declaring module as in ``from . import``,
or absolute; ``"module"`` alone is the module itself)::

    _LAZY = LazyImports(__name__, {"import_sdf": ".sdf:import_sdf", "kernels": ".compiled"})

    def read(path):
        return _LAZY.import_sdf(path)  # imports .sdf as `from .sdf import import_sdf` here would

A package's front door exports names the same way (PEP 562): ``__getattr__ = _LAZY.module_getattr``.

``tests/test_architecture.py`` reads every table (hence a literal): each target must exist and
obey the layers exactly as an import at the top of the module would, and counts as an edge when
it looks for import cycles; so a table cannot hide an import that points up a layer or dodges a
cycle (move the shared code down instead). A registry that names its modules (the command,
feature and tool lists) is such a table too; nothing else in ``core/`` or ``app/`` calls
``importlib.import_module``.
"""

from __future__ import annotations

import importlib
import importlib.util
import sys
from typing import Any

__all__ = ["LazyImports"]


class LazyImports:
    """A module's table of deferred imports (see the module docstring): reading the attribute
    ``name`` imports ``table[name]`` as an import statement in a function would (the first read
    imports, later ones find the module in ``sys.modules``)."""

    def __init__(self, importer: str, table: dict[str, str]) -> None:
        self._importer = importer
        self.table = dict(table)
        self._resolved: dict[str, tuple[str, str]] = {}  # name -> (absolute module, attribute)

    def __getattr__(self, name: str) -> Any:
        table = self.__dict__.get("table", {})
        if name not in table:
            raise AttributeError(f"{self.__dict__.get('_importer', '?')}: no deferred import named {name!r}")
        resolved = self.__dict__["_resolved"]
        if name not in resolved:
            module, _, attribute = table[name].partition(":")
            if module.startswith("."):  # relative to the importer's package (a package's __init__: itself)
                module = importlib.util.resolve_name(module, sys.modules[self._importer].__package__)
            resolved[name] = module, attribute
        module, attribute = resolved[name]
        # each time, as an import statement does: a module in sys.modules and no longer being
        # initialised is used at once (CPython's own fast path; 0.8 µs a read against 2.5 µs through
        # importlib, and these reads sit on per-call paths such as the dynamics kernels); one that
        # another thread is still importing is waited for by import_module
        value = sys.modules.get(module)
        if value is None or getattr(getattr(value, "__spec__", None), "_initializing", False):
            value = importlib.import_module(module)
        return getattr(value, attribute) if attribute else value

    def module_getattr(self, name: str) -> Any:
        """A package's PEP 562 ``__getattr__``: its public names from the table, loaded when first
        used and then kept in the package's namespace (the next lookup is a plain attribute)."""
        if name not in self.table:
            raise AttributeError(f"module {self._importer!r} has no attribute {name!r}")
        value = getattr(self, name)
        setattr(sys.modules[self._importer], name, value)
        return value
