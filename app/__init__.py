"""The KineTree app. From a script or a notebook: ``from kinetree.app import show, Viewer,
interactive`` (Qt is imported only when one of them runs), ``web_view`` (the robot's web page
in a notebook cell; no Qt) and ``widget`` (the robot as a two-way JupyterLab widget; no Qt)."""

from importlib import import_module

from .notebook_page import web_view
from .scripting import Viewer, interactive, show

__all__ = ["Viewer", "interactive", "show", "web_view", "widget"]


def __getattr__(name: str):
    # anywidget (ipywidgets, IPython: ~0.15 s) loads when the widget is first asked for, not with the app
    if name in ("widget", "RobotWidget"):
        return getattr(import_module(".notebook_widget", __name__), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
