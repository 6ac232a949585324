"""CONTRIBUTING's examples run as they are written: a module planted as if its file were in the
package, and the one line the guide adds to a registry table."""

from __future__ import annotations

import ast
import re
import sys
import textwrap
import types
from pathlib import Path

CONTRIBUTING = Path(__file__).resolve().parents[2] / ".github" / "CONTRIBUTING.md"


def plant_module(monkeypatch, package: str, name: str, source: str) -> types.ModuleType:
    """``source`` as the module ``package.name`` (for this test only)."""
    module = types.ModuleType(f"{package}.{name}")
    module.__package__ = package
    monkeypatch.setitem(sys.modules, module.__name__, module)
    exec(compile(source, f"<planted {module.__name__}>", "exec"), module.__dict__)  # noqa: S102 - our own text
    return module


def contributing_example(path: str, key: str) -> tuple[str, dict[str, str]]:
    """CONTRIBUTING.md's example module ``path`` (its code block) and its one line in the
    registry's table (``"key": ".module",``) as a dict."""
    text = CONTRIBUTING.read_text(encoding="utf-8")
    code = re.search(rf"`{re.escape(path)}`:\s*```python\n(.*?)```", text, re.S)
    assert code is not None, f"CONTRIBUTING.md lost its example {path}"
    line = re.search(rf'^\s*("{re.escape(key)}": "\.\w+",)', text, re.M)
    assert line is not None, f"CONTRIBUTING.md lost the example's line {key!r} in its table"
    return textwrap.dedent(code.group(1)), ast.literal_eval("{" + line.group(1) + "}")
