"""The KineTree app. From a script or a notebook: ``from kinetree.app import show, Viewer,
interactive`` (Qt is imported only when one of them runs), ``web_view`` (the robot's web page
in a notebook cell; no Qt) and ``widget`` (the robot as a two-way JupyterLab widget; no Qt)."""

from importlib import import_module

from .scripting import Viewer, interactive, show

__all__ = ["Viewer", "interactive", "show", "web_view", "widget"]


#: names loaded when first asked for: the web page (numpy, the engine) and anywidget (ipywidgets,
#: IPython: ~0.15 s) are not loaded with the app (``kinetree --help`` imports this package)
_LAZY = {"web_view": ".notebook_page", "widget": ".notebook_widget", "RobotWidget": ".notebook_widget"}


def __getattr__(name: str):
    if name in _LAZY:
        return getattr(import_module(_LAZY[name], __name__), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
