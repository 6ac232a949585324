"""The KineTree app. From a script or a notebook: ``from kinetree.app import show, Viewer,
interactive`` (Qt is imported only when one of them runs)."""

from .scripting import Viewer, interactive, show

__all__ = ["Viewer", "interactive", "show"]
