"""core/lazy.py's LazyImports reads a deferred import as an import statement would: the module
from sys.modules once it is whole, a module still being imported waited for, a failed import an
ImportError."""

from __future__ import annotations

import sys
import threading
import time
import types

import pytest
from kinetree.core.lazy import LazyImports


@pytest.fixture
def fake_package(monkeypatch):
    """``fakepkg`` with a module ``fakepkg.slow`` and the importer ``fakepkg.user``."""
    pkg, user = types.ModuleType("fakepkg"), types.ModuleType("fakepkg.user")
    pkg.__path__, user.__package__ = [], "fakepkg"
    monkeypatch.setitem(sys.modules, "fakepkg", pkg)
    monkeypatch.setitem(sys.modules, "fakepkg.user", user)
    return LazyImports("fakepkg.user", {"slow": ".slow", "value": ".slow:value"})


def test_a_whole_module_is_read_from_sys_modules(fake_package, monkeypatch):
    slow = types.ModuleType("fakepkg.slow")
    slow.value = 42
    monkeypatch.setitem(sys.modules, "fakepkg.slow", slow)
    assert fake_package.slow is slow and fake_package.value == 42


def test_a_module_still_being_imported_is_not_handed_out_half_made(fake_package, monkeypatch):
    """Another thread is importing fakepkg.slow (its spec says so): the read goes through the
    import system, which waits for that thread, instead of taking the half-made module."""
    half = types.ModuleType("fakepkg.slow")
    half.__spec__ = types.SimpleNamespace(_initializing=True)
    monkeypatch.setitem(sys.modules, "fakepkg.slow", half)
    seen = []

    def import_module(name):
        seen.append(name)
        time.sleep(0.05)  # the other thread finishes
        half.value, half.__spec__._initializing = 7, False
        return half

    monkeypatch.setattr("kinetree.core.lazy.importlib.import_module", import_module)
    t = threading.Thread(target=lambda: seen.append(fake_package.value))
    t.start()
    t.join()
    assert seen == ["fakepkg.slow", 7]


def test_a_failed_import_raises_as_the_import_statement_would(fake_package, monkeypatch):
    monkeypatch.setitem(sys.modules, "fakepkg.slow", None)  # as tests mark an unusable package
    with pytest.raises(ImportError):
        _ = fake_package.slow
    with pytest.raises(AttributeError, match="no deferred import named 'other'"):
        _ = fake_package.other
