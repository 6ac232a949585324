"""The KineTree app. From a script or a notebook: ``from kinetree.app import show, Viewer,
interactive`` (Qt is imported only when one of them runs), ``web_view`` (the robot's web page
in a notebook cell; no Qt) and ``widget`` (the robot as a two-way JupyterLab widget; no Qt)."""

from kinetree.core.lazy import LazyImports

from .scripting import Viewer, interactive, show

__all__ = ["Viewer", "interactive", "show", "web_view", "widget"]


#: names loaded when first asked for (see kinetree.core.lazy): the web page (numpy, the engine) and
#: anywidget (ipywidgets, IPython: ~0.15 s) are not loaded with the app (``kinetree --help`` imports
#: this package)
_LAZY = LazyImports(__name__, {"web_view": ".notebook_page:web_view", "widget": ".notebook_widget:widget",
                               "RobotWidget": ".notebook_widget:RobotWidget"})
__getattr__ = _LAZY.module_getattr
