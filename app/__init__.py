"""The KineTree app. From a script or a notebook: ``from kinetree.app import show, Viewer,
interactive`` (Qt is imported only when one of them runs), and ``web_view`` (the robot's web page
in a notebook cell; no Qt)."""

from .notebook_page import web_view
from .scripting import Viewer, interactive, show

__all__ = ["Viewer", "interactive", "show", "web_view"]
