"""The robot as a two-way JupyterLab widget: ``widget(tree, q)`` returns a :class:`RobotWidget`
(an anywidget, the ``notebook`` extra) showing the web page's view, sliders and pose readout
(:mod:`kinetree.core.io.web_page`; three.js and ``page.js`` from ``resources/web/``, shipped in
the package: nothing is fetched at view time). No Qt: it works on a notebook server without a
display.

Synced both ways: ``configuration`` (the engine's vector; a slider move in the page sets it and
Python's observers fire; setting it from Python moves the robot) and ``selected`` (the body whose
pose is read out; a click on a body in the view selects it). ``pose`` (4×4) and ``pose_text``
(the Pose dock's text, degrees and 4 digits as the page shows them) are computed here by the
engine whenever either changes.
"""

from __future__ import annotations

import json
import re
from functools import cache

import numpy as np
from kinetree.core.errors import UnknownBodyError
from kinetree.core.io.web_page import READOUT_DIGITS, _asset, page_data

from .model.numbers import pose_readouts
from .model.script_input import script_configuration as _configuration
from .notebook_page import HEIGHT

try:  # the notebook extra (pip install 'kinetree[notebook]'); without it widget() says so
    import anywidget
    import traitlets
except ImportError:  # pragma: no cover - exercised where the extra is not installed
    anywidget = traitlets = None


@cache
def widget_esm() -> str:
    """The widget's ES module: three.js (its UMD build, kept out of the global scope), the page's
    core, markup and style, and ``widget.js``'s ``render``. Built once from the shipped files."""
    markup = re.search(r"<body>\s*(.*?)\s*<script type=\"application/json\"", _asset("page.html"), re.S)
    if markup is None:  # a shipped file: a packaging error
        raise RuntimeError("resources/web/page.html: no markup before its data element")
    return ("// KineTree notebook widget: three.js (MIT licence, resources/web/three.LICENSE), page.js, widget.js\n"
            # the UMD build fills `exports` when `exports` and `module` exist; `define` shadowed so that a
            # notebook's require.js cannot take it instead
            "const THREE = (function () {\nconst exports = {}, module = { exports }, define = undefined;\n"
            f"{_asset('three.min.js')}\nreturn exports;\n}})();\n{_asset('page.js')}\n"
            f"const PAGE_CSS = {json.dumps(_asset('page.css'))};\nconst PAGE_BODY = {json.dumps(markup.group(1))};\n"
            f"{_asset('widget.js')}")


def widget(tree, q=None, *, height: int = HEIGHT, title: str = "") -> RobotWidget:
    """``tree`` at ``q`` (None: home) as a live :class:`RobotWidget`. Refuses (``FileFormatError``
    naming it) what the web page cannot model; ImportError without anywidget."""
    if anywidget is None:
        raise ImportError("kinetree.app.widget needs anywidget: pip install 'kinetree[notebook]'")
    return RobotWidget(tree, q, height=height, title=title)


if anywidget is not None:
    class _Configuration(traitlets.TraitType):
        """The tree's configuration as a list of floats, from a list, an array or {joint: value}:
        a wrong size, a non-number or a non-finite value is refused (InvalidConfigurationError
        naming it); a position outside its limits is kept with a warning, as ``Viewer`` does."""

        default_value: list[float] = []
        info_text = "a configuration of the widget's tree"

        def validate(self, obj, value):
            return [float(v) for v in _configuration(obj.tree, value)]

    class RobotWidget(anywidget.AnyWidget):
        """A robot in a notebook (see the module): ``configuration``, ``selected``, ``pose``,
        ``pose_text``; ``tree`` is a copy of the tree given (later edits to that tree are not
        shown); ``notes`` says what the page left out or decimated."""

        configuration = _Configuration().tag(sync=True)
        selected = traitlets.Unicode(None, allow_none=True).tag(sync=True)
        pose = traitlets.List(traitlets.List(traitlets.Float())).tag(sync=True)
        pose_text = traitlets.Dict().tag(sync=True)
        height = traitlets.Int(HEIGHT).tag(sync=True)
        _robot = traitlets.Dict().tag(sync=True)

        @property
        def _esm(self) -> str:
            return widget_esm()

        def __init__(self, tree, q=None, *, height: int = HEIGHT, title: str = "") -> None:
            self.tree = tree.copy()
            data, self.notes = page_data(self.tree, q, title=title or "robot")
            super().__init__(_robot=data, height=height, configuration=data["q"], selected=self.tree.end_effector)
            self._pose()

        def show_tree(self, tree, q=None) -> None:
            """Show a copy of ``tree`` at ``q`` instead (the view is rebuilt); the selection is kept
            if the body is still there. Refuses (``FileFormatError``) what the page cannot model,
            the widget unchanged."""
            copy = tree.copy()
            data, notes = page_data(copy, q, title=self._robot.get("title", "robot"))
            selected = self.selected if self.selected in copy.body_names else copy.end_effector
            # validated against the new tree, observed once, sent to the page in one message
            with self.hold_sync(), self.hold_trait_notifications():
                self.tree, self.notes = copy, notes
                self._robot = data
                self.configuration = data["q"]
                self.selected = selected

        @traitlets.validate("height")
        def _check_height(self, proposal):
            height = proposal["value"]
            if not 100 <= height <= 4000:
                raise ValueError(f"height must be a whole number of pixels in 100…4000, got {height!r:.40}")
            return height

        @traitlets.validate("selected")
        def _check_selected(self, proposal):
            name = proposal["value"]
            if name is not None and name not in self.tree.body_names:
                raise UnknownBodyError(f"widget: selected {name!r:.80} is not a body of the tree (the base "
                                       "has no pose to read out)")
            return name

        @traitlets.observe("configuration", "selected")
        def _pose(self, change=None) -> None:
            if self.selected is None:
                self.pose, self.pose_text = [], {}
                return
            T = self.tree.get_transform(np.array(self.configuration), self.selected)
            self.pose = T.tolist()
            self.pose_text = pose_readouts(T, READOUT_DIGITS, True)
