"""Guard rails on the import structure (standard library only: ``ast`` over the sources).

- no import cycle between modules at module level;
- dependencies point one way between the declared layers (:data:`LAYERS`, bottom first);
- no test module imports another test module: what tests share lives in ``tests/helpers/`` (each
  of its modules used by a test) and shared fixtures in a ``conftest.py``;
- ratchets that may only go down: function-local imports of KineTree's own modules, the KineTree
  modules ``import kinetree.core.transforms`` loads, and the modules over :data:`MAX_LINES` lines;
- deferred imports go through the one mechanism, :mod:`kinetree.core.lazy` (a module-level table
  of ``name → "module:attribute"``): every entry must exist, and it is an edge like an import at
  the top (the layer and cycle checks see it), so a table cannot hide an upward import or a cycle.

Each ceiling is today's figure. When a change lowers a figure, lower its ceiling in the same
commit; never raise one: hoist the import, split the module or move the code instead."""

from __future__ import annotations

import ast
import subprocess
import sys
from functools import cache
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = {"core": "kinetree.core", "app": "kinetree.app"}  # source folder → installed name

#: ``kinetree.core``'s modules at the bottom of the engine, beside its subpackages
CORE_BASE = {f"kinetree.core.{m}" for m in ("errors", "transforms", "names", "number_text", "lazy")}
#: the deep paths README and the guide document, kept as one-line re-exports of their new modules
CORE_REEXPORTS = {f"kinetree.core.{m}" for m in ("symbolic", "torque_profile", "mass_properties", "frame_assignment")}


def _in(*packages: str):
    """Membership in any of ``kinetree.core``'s subpackages or modules ``packages``."""
    names = tuple(f"kinetree.core.{p}" for p in packages)
    return lambda m: m in names or m.startswith(tuple(n + "." for n in names))


#: the layers, bottom first: a module may import its own layer and the layers below it, never one
#: above (so ``core`` never imports ``app``, and no engine module imports the ``kinetree.core``
#: front door, which imports them all). ``compiled_warmup`` sits with the kinematics: the loop
#: solver asks it whether numba may compile, and it warms the kinematics up.
LAYERS = (
    ("core base", lambda m: m in CORE_BASE),
    ("core.disk", _in("disk")),
    ("core.model", _in("model")),
    ("core.kinematics", _in("kinematics", "compiled_warmup")),
    ("core.dynamics", _in("dynamics")),
    ("core.simulation", _in("simulation")),
    ("core.tree", _in("tree", "tree_loops")),
    ("core.dh", _in("dh")),
    ("core.teach", _in("teach")),
    ("core.io", _in("io")),
    ("core.library", _in("library")),
    ("core re-exports", lambda m: m in CORE_REEXPORTS),
    ("core front door", lambda m: m == "kinetree.core"),
    ("app model", lambda m: m.startswith("kinetree.app.model")),
    ("app widgets", lambda m: m.startswith("kinetree.app.widgets")),
    ("app.viewport", lambda m: m.startswith("kinetree.app.viewport")),
    ("app.panels", lambda m: m.startswith("kinetree.app.panels")),
    ("app.cli", lambda m: m.startswith("kinetree.app.cli")),
    ("app features and window", lambda m: m.startswith("kinetree.app")),
)

#: panels never import the viewport (nor the viewport the panels), except for these edges (none
#: since the DH-chain model moved from the OpenGL overlay module to ``app/model/dh_chain.py``). The set
#: may only shrink.
PANELS_TO_VIEWPORT: set[tuple[str, str]] = set()

#: ratchet: imports of KineTree's own modules inside functions, by package (counted on this
#: tree). Most dodge a cycle or were habit; an import deferred for a heavy optional package
#: (mujoco, sympy, numba, trimesh, Qt) is the one good reason. Lower these when you hoist one.
MAX_LOCAL_IMPORTS = {"kinetree.core": 5, "kinetree.app": 4}

#: the modules that may call ``importlib.import_module``: the lazy-import mechanism alone (a registry that
#: names its modules is a LazyImports table, checked here)
IMPORT_MODULE_ALLOWED = {
    "kinetree.core.lazy": "the deferred-import mechanism itself",
}

#: the KineTree modules ``import kinetree.core.transforms`` loads: the package, its lazy front
#: door (``core/__init__.py`` loads a name's module when it is first used), errors and transforms
#: (issue 33 asks for at most 5; it was 44 with the eager front door)
MAX_TRANSFORMS_IMPORTS = 4

#: a module over this many lines is to be split; the listed ones are, today, with their
#: counts as ceilings (lower the ceiling as they shrink; delete the entry at MAX_LINES)
MAX_LINES = 600
LONG_MODULES: dict[str, int] = {}


def _sources() -> list[tuple[str, bool, Path]]:
    """(module name, is a package's ``__init__``, path) of every source file."""
    found = []
    for folder, package in PACKAGES.items():
        for path in sorted((ROOT / folder).rglob("*.py")):
            parts = [package, *path.relative_to(ROOT / folder).with_suffix("").parts]
            is_package = parts[-1] == "__init__"
            found.append((".".join(parts[:-1] if is_package else parts), is_package, path))
    return found


def _imported(name: str, is_package: bool, node: ast.Import | ast.ImportFrom, known: set[str]) -> set[str]:
    """The project modules an import statement in module ``name`` loads (``from a import b``
    loads ``a.b`` when that is a module, else ``a``; ``from . import x`` resolves relative to
    the module's package)."""
    if isinstance(node, ast.Import):
        wanted = [a.name for a in node.names]
    else:
        if node.level:
            base = name.split(".") if is_package else name.split(".")[:-1]
            base = base[: len(base) - node.level + 1]
            module = ".".join(base + ([node.module] if node.module else []))
        else:
            module = node.module or ""
        wanted = [f"{module}.{a.name}" if f"{module}.{a.name}" in known else module for a in node.names]
    hits = set()
    for target in wanted:
        while target and target not in known:  # a name inside a module: the module
            target = target.rpartition(".")[0]
        if target and target != name:
            hits.add(target)
    return hits


def _lazy_tables(name: str, is_package: bool, tree: ast.Module) -> list[tuple[int, str, str | None, str]]:
    """The entries of the :class:`~kinetree.core.lazy.LazyImports` tables module ``name``
    declares, as (line, target module, attribute or None, problem or ""): a table must be a
    module-level ``LazyImports(__name__, {literal})``."""
    found = []
    top = {id(node.value) for node in tree.body if isinstance(node, ast.Assign | ast.AnnAssign)}
    for node in ast.walk(tree):
        if not (isinstance(node, ast.Call) and (getattr(node.func, "id", None) == "LazyImports"
                                                or getattr(node.func, "attr", None) == "LazyImports")):
            continue
        args = node.args
        if (id(node) not in top or len(args) != 2 or not isinstance(args[0], ast.Name) or args[0].id != "__name__"
                or not isinstance(args[1], ast.Dict) or node.keywords):
            found.append((node.lineno, "", None, "a lazy table must be LazyImports(__name__, {...}) assigned at "
                                                 "module level"))
            continue
        for key, value in zip(args[1].keys, args[1].values, strict=True):
            if not (isinstance(key, ast.Constant) and isinstance(value, ast.Constant) and isinstance(value.value, str)):
                found.append((value.lineno, "", None, "a lazy table holds string literals only"))
                continue
            module, _, attribute = value.value.partition(":")
            if module.startswith("."):
                level = len(module) - len(module.lstrip("."))
                base = name.split(".") if is_package else name.split(".")[:-1]
                base = base[: len(base) - level + 1]
                module = ".".join(base + ([module.lstrip(".")] if module.lstrip(".") else []))
            found.append((value.lineno, module, attribute or None, ""))
    return found


def _top_names(tree: ast.Module) -> set[str]:
    """The names a module defines at its top level (functions, classes, assignments, imports)."""
    names: set[str] = set()
    body = list(tree.body)
    for node in body:
        if isinstance(node, ast.If | ast.Try | ast.With):  # a name defined under a condition
            body += [n for field in ("body", "orelse", "finalbody") for n in getattr(node, field, [])]
            body += [n for handler in getattr(node, "handlers", []) for n in handler.body]
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            names.add(node.name)
        elif isinstance(node, ast.Assign):
            names |= {t.id for target in node.targets for t in ast.walk(target) if isinstance(t, ast.Name)}
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            names.add(node.target.id)
        elif isinstance(node, ast.Import | ast.ImportFrom):
            names |= {(a.asname or a.name).split(".")[0] for a in node.names}
    return names


def _lazy_edges(sources, known: set[str], trees: dict[str, ast.Module]) -> tuple[dict[str, set[str]], list[str]]:
    """The edges of every lazy table, and what is wrong with its entries (a target that does not
    exist, or a table that is no module-level literal)."""
    edges: dict[str, set[str]] = {name: set() for name in known}
    problems = []
    for name, is_package, _path in sources:
        for line, module, attribute, problem in _lazy_tables(name, is_package, trees[name]):
            if problem:
                problems.append(f"{name}:{line}: {problem}")
            elif module not in known:
                problems.append(f"{name}:{line}: lazy target {module} is no KineTree module")
            elif attribute and attribute not in _top_names(trees[module]) and f"{module}.{attribute}" not in known:
                problems.append(f"{name}:{line}: lazy target {module}:{attribute}: {module} defines no {attribute}")
            elif module != name:
                edges[name].add(module)
    return edges, problems


@cache
def _graph() -> tuple[dict[str, set[str]], list[tuple[str, int, str]]]:
    """Module-level edges (imports under ``if TYPE_CHECKING:`` left out: they never run, and
    each lazy table's targets in: they are imports, deferred) and the function-local imports of
    project modules as (module, line, target)."""
    sources = _sources()
    known = {name for name, _, _ in sources}
    edges: dict[str, set[str]] = {name: set() for name in known}
    local: list[tuple[str, int, str]] = []  # (module, line, what it imports)

    def walk(node: ast.AST, name: str, is_package: bool, in_function: bool, type_checking: bool) -> None:
        for child in ast.iter_child_nodes(node):
            checking = type_checking or (isinstance(child, ast.If) and "TYPE_CHECKING" in ast.unparse(child.test))
            if isinstance(child, ast.Import | ast.ImportFrom):
                hits = _imported(name, is_package, child, known)
                if in_function and hits:
                    local.append((name, child.lineno, ", ".join(sorted(hits))))
                elif not checking:
                    edges[name] |= hits
            function = in_function or isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda)
            walk(child, name, is_package, function, checking)

    trees = {name: ast.parse(path.read_text(encoding="utf-8"), str(path)) for name, _, path in sources}
    for name, is_package, _path in sources:
        walk(trees[name], name, is_package, False, False)
    for name, targets in _lazy_edges(sources, known, trees)[0].items():
        edges[name] |= targets
    return edges, local


def _layer(module: str) -> int | None:
    return next((i for i, (_, member) in enumerate(LAYERS) if member(module)), None)


def _cycles(edges: dict[str, set[str]]) -> list[list[str]]:
    """One cycle per strongly connected component of more than one module (Tarjan), each as
    the path a → … → a."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    components = []

    def connect(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(edges[v]):
            if w not in index:
                connect(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = set()
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.add(w)
                if w == v:
                    break
            if len(component) > 1:
                components.append(component)

    sys.setrecursionlimit(max(sys.getrecursionlimit(), 10 * len(edges)))
    for v in sorted(edges):
        if v not in index:
            connect(v)
    cycles = []
    for component in components:  # a path back to the start, inside the component
        start = min(component)
        paths = {start: [start]}
        queue = [start]
        while queue:
            v = queue.pop(0)
            for w in sorted(edges[v] & component):
                if w == start:
                    cycles.append([*paths[v], start])
                    queue = []
                    break
                if w not in paths:
                    paths[w] = [*paths[v], w]
                    queue.append(w)
    return cycles


def test_every_source_module_is_in_a_layer():
    edges, _ = _graph()
    assert len(edges) > 100  # the walk found the sources
    for module in edges:
        assert _layer(module) is not None


def test_no_module_level_import_cycle():
    cycles = _cycles(_graph()[0])
    assert not cycles, "import cycles (break each: move the shared code down a layer):\n" + "\n".join(
        " → ".join(c) for c in cycles)


def test_the_cycle_finder_finds_a_planted_cycle():
    edges = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}
    assert _cycles(edges) == [["a", "b", "c", "a"]]
    assert _cycles({"a": {"b"}, "b": set()}) == []


def _upward(edges: dict[str, set[str]]) -> list[str]:
    """The edges that point up the layers."""
    return sorted(f"{a} ({LAYERS[_layer(a)][0]}) imports {b} ({LAYERS[_layer(b)][0]})"
                  for a, targets in edges.items() for b in targets if _layer(b) > _layer(a))


def test_dependencies_point_down_the_layers():
    upward = _upward(_graph()[0])
    assert not upward, (
        "imports against the layers (LAYERS): move the shared code down; a module that panels "
        "or the viewport need belongs in app/model or app/widgets (which import neither):\n"
        + "\n".join(upward))


def test_every_lazy_table_entry_exists():
    sources = _sources()
    trees = {name: ast.parse(path.read_text(encoding="utf-8")) for name, _, path in sources}
    edges, problems = _lazy_edges(sources, {name for name, _, _ in sources}, trees)
    assert sum(map(len, edges.values())) > 10  # the finder found the tables
    assert not problems, "lazy tables (kinetree.core.lazy):\n" + "\n".join(problems)


def test_the_lazy_checks_find_planted_bad_entries():
    engine, window = "kinetree.core.model.planted", "kinetree.app.window.main_window"
    code = {engine: 'from ...lazy import LazyImports\n_LAZY = LazyImports(__name__, {"w": "kinetree.app.window.'
                    'main_window:MainWindow", "gone": "..nowhere:f", "typo": ".joint:NoSuchName",'
                    ' "ok": ".joint:Joint"})\n',
            window: "class MainWindow:\n    pass\n",
            "kinetree.core.model.joint": "from .planted import _LAZY\nclass Joint:\n    pass\n",
            "kinetree.core.model.hidden": "def f():\n    t = LazyImports(__name__, {})\n"}
    sources = [(name, False, None) for name in code]
    trees = {name: ast.parse(text) for name, text in code.items()}
    edges, problems = _lazy_edges(sources, set(code), trees)
    assert edges[engine] == {window, "kinetree.core.model.joint"}
    assert problems == [f"{engine}:2: lazy target kinetree.core.nowhere is no KineTree module",
                        f"{engine}:2: lazy target kinetree.core.model.joint:NoSuchName: kinetree.core.model.joint "
                        "defines no NoSuchName",
                        "kinetree.core.model.hidden:2: a lazy table must be LazyImports(__name__, {...}) assigned at "
                        "module level"]
    assert _upward(edges) == [f"{engine} (core.model) imports {window} (app features and window)"]
    edges["kinetree.core.model.joint"].add(engine)  # the joint module imports the table's module at the top
    assert _cycles(edges) == [["kinetree.core.model.joint", engine, "kinetree.core.model.joint"]]


def test_only_the_lazy_mechanism_imports_modules_by_name():
    found = []
    for name, _, path in _sources():
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if (isinstance(node, ast.Call) and "import_module" in (getattr(node.func, "id", None),
                                                                    getattr(node.func, "attr", None))
                    and name not in IMPORT_MODULE_ALLOWED):
                found.append(f"{name}:{node.lineno}")
    assert not found, ("importlib.import_module outside kinetree.core.lazy: declare the deferred import in the "
                       "module's LazyImports table (the architecture test checks its targets):\n" + "\n".join(found))


def test_panels_and_viewport_never_import_each_other():
    edges, _ = _graph()
    panels, viewport = _layer("kinetree.app.panels"), _layer("kinetree.app.viewport")
    between = {(a, b) for a, targets in edges.items() for b in targets if {_layer(a), _layer(b)} == {panels, viewport}}
    new, gone = sorted(between - PANELS_TO_VIEWPORT), sorted(PANELS_TO_VIEWPORT - between)
    assert not new, f"new imports between panels and viewport: {new}"
    assert not gone, f"gone, delete them from PANELS_TO_VIEWPORT: {gone}"


def test_function_local_imports_of_our_own_modules_only_go_down():
    _, local = _graph()
    for package, ceiling in MAX_LOCAL_IMPORTS.items():
        found = [f"{m}:{line} imports {t}" for m, line, t in local if m == package or m.startswith(package + ".")]
        assert len(found) <= ceiling, (
            f"{len(found)} function-local imports of KineTree modules in {package}, at most {ceiling}: import at the "
            "top of the module; if that makes a cycle, move the shared code down a layer. Only a heavy optional "
            "package is a reason to import inside a function. (Hoisted one? Lower MAX_LOCAL_IMPORTS.)\n"
            + "\n".join(found))


def test_import_kinetree_core_transforms_loads_at_most_the_ratcheted_modules():
    code = "import sys, kinetree.core.transforms; print(sum(m.startswith('kinetree.') for m in sys.modules))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120, check=True)
    loaded = int(out.stdout.split()[-1])
    assert loaded <= MAX_TRANSFORMS_IMPORTS, (
        f"import kinetree.core.transforms loads {loaded} KineTree modules, at most {MAX_TRANSFORMS_IMPORTS}")


def test_no_module_over_the_line_budget():
    over = {}
    for folder in PACKAGES:
        for path in (ROOT / folder).rglob("*.py"):
            lines = len(path.read_text(encoding="utf-8").splitlines())
            if lines > MAX_LINES:
                over[path.relative_to(ROOT).as_posix()] = lines
    grown = {p: n for p, n in over.items() if n > LONG_MODULES.get(p, MAX_LINES)}
    assert not grown, f"modules over {MAX_LINES} lines (or over their listed ceiling): split them: {grown}"



TESTS = ROOT / "tests"


def _test_modules_imported(tree: ast.Module) -> list[tuple[int, str]]:
    """(line, module) of every import of a ``test_*`` module, function-local ones included."""
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found += [(node.lineno, a.name) for a in node.names if a.name.split(".")[-1].startswith("test_")]
        elif isinstance(node, ast.ImportFrom) and not node.level and node.module:
            if node.module.split(".")[-1].startswith("test_"):
                found.append((node.lineno, node.module))
            else:  # ``from tests.app import test_x``
                found += [(node.lineno, f"{node.module}.{a.name}") for a in node.names if a.name.startswith("test_")]
    return sorted(found)


def _test_sources() -> list[Path]:
    """The test modules and conftests (the benchmarks are scripts, run by hand)."""
    return sorted(p for p in TESTS.rglob("*.py") if "benchmarks" not in p.parts
                  and (p.name.startswith("test_") or p.name == "conftest.py"))


def test_no_test_module_imports_another():
    found = [f"{path.relative_to(ROOT).as_posix()}:{line} imports {module}" for path in _test_sources()
             for line, module in _test_modules_imported(ast.parse(path.read_text(encoding="utf-8")))]
    assert not found, ("test modules importing test modules (move what they share into tests/helpers/, a shared "
                       "fixture into the folder's conftest.py; /tmp/testhelpers-move.py did it once):\n"
                       + "\n".join(found))


def test_the_test_import_finder_finds_planted_imports():
    tree = ast.parse("import test_web_page\nfrom test_frame_handle import drag\nfrom helpers.gui import key\n"
                     "from tests.app import test_picking\nimport numpy\n\n\n"
                     "def f():\n    from test_loops import four_bar\n")
    assert _test_modules_imported(tree) == [(1, "test_web_page"), (2, "test_frame_handle"),
                                            (4, "tests.app.test_picking"), (9, "test_loops")]


def test_every_helper_module_is_used_by_a_test():
    helpers = {p.stem for p in (TESTS / "helpers").glob("*.py") if p.stem != "__init__"}
    assert len(helpers) > 5  # the glob found them
    used = set()
    for path in _test_sources():
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and node.module == "helpers":
                used |= {a.name for a in node.names}
            elif isinstance(node, ast.ImportFrom) and (node.module or "").startswith("helpers."):
                used.add(node.module.split(".")[1])
            elif isinstance(node, ast.Import):
                used |= {a.name.split(".")[1] for a in node.names if a.name.startswith("helpers.")}
    unused = sorted(helpers - used)
    assert not unused, f"tests/helpers modules no test imports (delete them, or their tests went missing): {unused}"
