"""The viewport's tools, registered: each with its View ▸ Tool entry and key (:mod:`.tool`).

Adding a tool: a module of this package ending with ``TOOL = ToolSpec(…)``, and one line in
:data:`TOOL_MODULES`."""

from __future__ import annotations

from kinetree.core.lazy import LazyImports

from .tool import HandleTool, PickTool, ToolError, ToolSpec

#: the tools the view's own handles and pickers serve, in View ▸ Tool's order (the first is active in a new view)
_BUILT_IN: dict[str, ToolSpec] = {
    "pose": ToolSpec("&Pose handle (joints follow)", "Q", "ik", lambda n, view: HandleTool(n, view, view.ik_handle)),
    "move": ToolSpec("&Move frame", "W", "frame", lambda n, view: HandleTool(n, view, view.frame_handle)),
    "rotate": ToolSpec("&Rotate frame", "E", "frame", lambda n, view: HandleTool(n, view, view.frame_handle)),
    "measure": ToolSpec("Mea&sure", "R", None, lambda n, view: PickTool(n, view, view.measure)),
    "loop": ToolSpec("Close &loop…", "O", None, lambda n, view: PickTool(n, view, view.close_loop)),
}

#: the tools of their own modules, one line each (``name: ".module"``, listed after the built-in
#: ones); each module ends with ``TOOL = ToolSpec(…)`` (see kinetree.core.lazy:
#: tests/test_architecture.py checks every module exists and obeys the layers)
TOOL_MODULES = LazyImports(__name__, {
})


def tools_of(modules: LazyImports) -> dict[str, ToolSpec]:
    """The ``TOOL`` of each module in ``modules`` by its name, in order; a ToolError naming a
    module that declares none (checked as the view's module is imported)."""
    found = {}
    for name, module in modules.table.items():
        spec = getattr(getattr(modules, name), "TOOL", None)
        if not isinstance(spec, ToolSpec):
            raise ToolError(f"tool module {module!r} (TOOL_MODULES[{name!r}]) declares no TOOL = ToolSpec(…) at "
                            f"its end (found {type(spec).__name__})")
        found[name] = spec
    return found


#: the viewport's tools, in View ▸ Tool's order
TOOLS: dict[str, ToolSpec] = {**_BUILT_IN, **tools_of(TOOL_MODULES)}
