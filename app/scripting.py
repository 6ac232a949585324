"""The window from a script or a notebook: :func:`show`, :class:`Viewer`, :func:`interactive`,
and the picture a notebook shows for a :class:`~kinetree.core.RigidBodyTree`.

MATLAB's ``show(robot, config)`` and ``interactiveRigidBodyTree(robot)``, in napari's manner
(``napari.Viewer()``): the real main window, driven from Python. Qt is imported only when a
function runs (``import kinetree.app`` stays cheap for the command line); without a display
(Linux, no ``DISPLAY``) the window is drawn on a private Xvfb and :func:`show` gives a picture.
"""

from __future__ import annotations

import math
import numbers
import sys
import warnings
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from kinetree.core.errors import FileFormatError, InvalidPropertyError, UnknownBodyError
from kinetree.core.lazy import LazyImports

from .model.script_input import script_configuration as _configuration

if TYPE_CHECKING:  # numpy too is imported when a function runs: ``kinetree --help`` needs neither
    import numpy as np

#: what the entry points need only when they run (see kinetree.core.lazy): Qt with the app, the window and the
#: offscreen view, anywidget with the notebook widget, the engine's tree with IPython's picture formatter;
#: ``import kinetree.app`` (and so ``kinetree --help``) loads none of them
_ON_USE = LazyImports(__name__, {
    "missing_display": ".main:missing_display", "ensure_display": ".cli.display:ensure_display",
    "offscreen_view": ".cli.display:offscreen_view", "make_application": ".widgets.application:make_application",
    "rgb_array": ".features.playback:rgb_array", "save_png": ".widgets.safe_output:save_png",
    "commit_focused_editor": ".widgets.qt_utils:commit_focused_editor",
    "MainWindow": ".window.main_window:MainWindow", "RobotDocument": ".model.document:RobotDocument",
    "notebook_widget": ".notebook_widget", "RigidBodyTree": "kinetree.core.tree:RigidBodyTree",
})

#: A picture's default size (width, height) in pixels.
PICTURE_SIZE = (640, 480)
CAMERA_VIEWS = ("iso", "front", "side", "top")


def _ipython():
    """The running IPython shell, or None (IPython is never imported here: only looked for)."""
    if "IPython" not in sys.modules:
        return None
    from IPython import get_ipython

    return get_ipython()


def _enable_event_loop() -> bool:
    """Let IPython run Qt's event loop between cells (as ``%gui qt`` does; napari does the same).
    Whether an event loop will keep a window live after its call returns."""
    shell = _ipython()
    if shell is None:
        return False
    if not _qt_loop(shell):
        problem = "IPython did not take it (a --simple-prompt shell cannot)"
        try:
            shell.enable_gui("qt")
        except (NotImplementedError, RuntimeError, ValueError, ImportError) as exc:  # a plain InteractiveShell
            problem = str(exc) or type(exc).__name__
        if not _qt_loop(shell):
            warnings.warn(f"kinetree: IPython could not run Qt's event loop ({problem}); the window updates "
                          "only while a KineTree call runs (Viewer.wait() hands it to the user)",
                          RuntimeWarning, stacklevel=3)
            return False
    return True


_private_display = None  # the Xvfb started for this process (its DISPLAY is then no user's screen)


def _qt_loop(shell) -> bool:
    return str(getattr(shell, "active_eventloop", None) or "").startswith("qt")  # "qt", or "qt6" once resolved


def has_display() -> bool:
    """Whether a window can be seen here (else windows go to a private Xvfb). Qt's offscreen
    platforms run the app unseen: a blocking show() there would wait for a close nobody can make."""
    import os

    platform = os.environ.get("QT_QPA_PLATFORM", "").split(":")[0].strip().lower()
    return _private_display is None and _ON_USE.missing_display() is None and platform not in ("offscreen", "minimal")


def _application():
    """The QApplication, on a private Xvfb when there is no display (it then lives as long as
    the process: it ends by itself with Qt's connection)."""
    global _private_display
    if not has_display() and _private_display is None:
        _private_display = _ON_USE.ensure_display(until_last_client=True)
    app = _ON_USE.make_application()
    if not app.applicationName() or app.applicationName() == "python":
        app.setApplicationName("KineTree")
        app.setOrganizationName("KineTree")
    return app


def picture(tree, q=None, size: tuple[int, int] = PICTURE_SIZE, view: str = "iso") -> np.ndarray:
    """``tree`` at ``q`` rendered offscreen (no window), as an H×W×3 uint8 array."""
    _check_view(view)
    q = _configuration(tree, q)
    app = _application()
    _doc, viewport = _ON_USE.offscreen_view(tree, q, size, view_preset=view)
    try:
        viewport.fit(size=size)
        return _ON_USE.rgb_array(viewport.render_image(*size))
    finally:
        viewport.close()
        viewport.deleteLater()
        app.processEvents()


def png_bytes(rgb: np.ndarray) -> bytes:
    """PNG file bytes of an H×W×3 uint8 array."""
    import numpy as np
    from PySide6.QtCore import QBuffer, QByteArray, QIODevice
    from PySide6.QtGui import QImage

    rgb = np.ascontiguousarray(rgb, dtype=np.uint8)
    h, w = rgb.shape[:2]
    img = QImage(rgb.data, w, h, 3 * w, QImage.Format.Format_RGB888)
    data = QByteArray()
    buffer = QBuffer(data)
    buffer.open(QIODevice.OpenModeFlag.WriteOnly)
    img.save(buffer, "PNG")
    buffer.close()
    return bytes(data.data())


def _check_view(view: str) -> None:
    if view not in CAMERA_VIEWS:
        raise InvalidPropertyError(f"camera view {view!r} is not one of {', '.join(CAMERA_VIEWS)}")


class Event:
    """Callbacks for one kind of change: ``connect(callback)``, ``disconnect(callback)``."""

    def __init__(self) -> None:
        self._callbacks: list[Callable[[Any], None]] = []

    def connect(self, callback: Callable[[Any], None]) -> Callable[[Any], None]:
        self._callbacks.append(callback)
        return callback

    def disconnect(self, callback: Callable[[Any], None]) -> None:
        self._callbacks.remove(callback)

    def emit(self, value) -> None:
        for callback in list(self._callbacks):
            callback(value)


class Events:
    """``configuration`` (callbacks get the joint vector, a numpy array) and ``tree`` (the
    document's new :class:`RigidBodyTree`, after any edit in the window, undo included)."""

    def __init__(self) -> None:
        self.configuration = Event()
        self.tree = Event()


class Camera:
    """The window's camera: :meth:`fit`, :meth:`view` and ``distance`` (m), ``elevation`` and
    ``azimuth`` (degrees), each readable and settable."""

    def __init__(self, viewport) -> None:
        self._viewport = viewport

    def fit(self, size: tuple[int, int] | None = None) -> None:
        """Frame the whole robot in the view (``size``: in a screenshot of that size instead)."""
        self._viewport.fit(size=size)

    def view(self, preset: str) -> None:
        """``"iso"`` (perspective), ``"front"``, ``"side"`` or ``"top"`` (orthographic)."""
        _check_view(preset)
        self._viewport.set_view(preset)

    def _set(self, **kw) -> None:
        for key, value in kw.items():
            if not isinstance(value, numbers.Real) or not math.isfinite(value) or (key == "distance" and value <= 0):
                raise InvalidPropertyError(f"camera {key} {value!r} is not a finite{' positive' * (key == 'distance')}"
                                           " number")
        self._viewport.setCameraPosition(**{k: float(v) for k, v in kw.items()})

    distance = property(lambda self: float(self._viewport.opts["distance"]),
                        lambda self, v: self._set(distance=v), doc="Distance from the centre, metres.")
    elevation = property(lambda self: float(self._viewport.opts["elevation"]),
                         lambda self, v: self._set(elevation=v), doc="Elevation, degrees.")
    azimuth = property(lambda self: float(self._viewport.opts["azimuth"]),
                       lambda self, v: self._set(azimuth=v), doc="Azimuth, degrees.")


def _script_window_class():
    """The main window for a script (made once, Qt imported then)."""
    global _ScriptWindow
    if _ScriptWindow is None:
        from PySide6.QtCore import Signal

        commit_focused_editor = _ON_USE.commit_focused_editor

        class ScriptWindow(_ON_USE.MainWindow):
            """The main window with a ``closed`` signal; closing it does not ask to save a robot
            that has no file: the script holds the result (``Viewer.tree``, ``configuration``)."""

            closed = Signal()

            def closeEvent(self, ev) -> None:  # noqa: N802
                if self.doc.path is None:
                    commit_focused_editor()
                    self.doc.undo_stack.setClean()
                super().closeEvent(ev)
                if ev.isAccepted():
                    self.closed.emit()

        _ScriptWindow = ScriptWindow
    return _ScriptWindow


_ScriptWindow = None


class Viewer:
    """The KineTree main window on ``tree`` at ``q``, live from a script.

    ``v.configuration`` (get/set: setting redraws at once), ``v.tree`` (the window's current
    tree, with the user's edits), ``v.select(name)``, ``v.camera`` (:class:`Camera`),
    ``v.screenshot(path=None)``, ``v.wait()`` (until the window is closed), ``v.close()``;
    ``v.events.configuration`` / ``v.events.tree`` call back with plain values. In IPython,
    Qt's event loop is integrated (``%gui qt``) so the window stays live between cells; in a
    plain script it is live while a call runs (call :meth:`wait` to hand it to the user).
    """

    def __init__(self, tree, q=None, *, title: str | None = None) -> None:
        q = _configuration(tree, q)
        self._app = _application()
        self.live = _enable_event_loop()
        self._doc = _ON_USE.RobotDocument(tree)
        self._window = _script_window_class()(self._doc)
        self._doc.load(tree, q, name=title or "robot")
        self.events = Events()
        self._closed = False
        self._doc.configurationChanged.connect(self._configuration_changed)
        self._doc.treeChanged.connect(self._tree_changed)
        self._window.closed.connect(self._on_closed)
        self._window.show()
        self._app.processEvents()
        self._window.viewport.fit()
        self.camera = Camera(self._window.viewport)
        self._app.processEvents()

    # --- state -------------------------------------------------------------------------------
    @property
    def tree(self):
        """The window's current tree (edits made in the window included)."""
        return self._doc.tree

    @property
    def configuration(self) -> np.ndarray:
        """The joint positions shown (a copy)."""
        return self._doc.configuration

    @configuration.setter
    def configuration(self, q) -> None:
        vec = _configuration(self._doc.tree, q)
        self._doc.set_configuration(vec, "Move joints (script)")  # undoable in the window
        self._redraw()

    @property
    def window(self):
        """The :class:`~kinetree.app.window.main_window.MainWindow` (for what this class does not wrap)."""
        return self._window

    @property
    def closed(self) -> bool:
        return self._closed

    def select(self, name: str | None) -> None:
        """Select body ``name`` (None: nothing), as a click in the window does."""
        tree = self._doc.tree
        if name is not None and name != tree.base_name and name not in tree.body_names:
            raise UnknownBodyError(f"select: no body named {name!r}")
        self._doc.select(name)
        self._redraw()

    def pose(self, body: str | None = None) -> np.ndarray:
        """The 4×4 pose of ``body`` (default: the selected body, else the last one) in the base."""
        tree = self._doc.tree
        if body is None:
            sel = self._doc.selection
            body = sel if sel in tree.body_names else (tree.body_names[-1] if tree.body_names else tree.base_name)
        return self._doc.pose_of(body).copy()

    # --- pictures ----------------------------------------------------------------------------
    def screenshot(self, path: str | Path | None = None, size: tuple[int, int] | None = None) -> np.ndarray:
        """The 3D view as an H×W×3 uint8 array (``size``: the view's own by default), written as
        a PNG to ``path`` if given."""
        view = self._window.viewport
        w, h = size or (max(view.width(), 1), max(view.height(), 1))
        img = view.render_image(int(w), int(h))
        if path is not None:
            _ON_USE.save_png(img, path)
        return _ON_USE.rgb_array(img)

    def _repr_png_(self) -> bytes:
        return png_bytes(self.screenshot())

    # --- notebook ----------------------------------------------------------------------------
    def widget(self, *, height: int | None = None):
        """A notebook widget (:class:`~kinetree.app.notebook_widget.RobotWidget`, the ``notebook``
        extra) linked to this window: it shows the window's tree and configuration; its sliders set
        :attr:`configuration` (the window redraws; consecutive widget moves are one undo step there),
        and the window's moves, from Python or the user, move it. An edit of the tree in the window
        rebuilds it; one the web page cannot show unlinks it, with a warning naming what."""
        notebook = _ON_USE.notebook_widget  # anywidget (ipywidgets, IPython): heavy, optional
        doc = self._doc
        w = notebook.widget(doc.tree, doc.configuration, height=height or notebook.HEIGHT, title=doc.name)
        drag = doc.begin_drag()

        def from_widget(change) -> None:  # the page's sliders, through the kernel (or a script)
            doc.set_configuration(change["new"], "Move joints (notebook widget)", drag)  # equal: no step
            self._redraw()

        def to_widget(q) -> None:
            w.configuration = q  # the value it holds: no change, no echo

        def to_widget_tree(tree) -> None:  # before the configuration's event, which then fits it
            try:
                w.show_tree(tree, doc.configuration)
            except FileFormatError as exc:
                w.unobserve(from_widget, "configuration")
                self.events.configuration.disconnect(to_widget)
                self.events.tree.disconnect(to_widget_tree)
                warnings.warn(f"kinetree: the notebook widget no longer follows the window: {exc}",
                              RuntimeWarning, stacklevel=2)

        w.observe(from_widget, "configuration")
        self.events.configuration.connect(to_widget)
        self.events.tree.connect(to_widget_tree)
        return w

    # --- window ------------------------------------------------------------------------------
    def wait(self) -> None:
        """Run the window until the user closes it."""
        if self._closed:
            return
        from PySide6.QtCore import QEventLoop

        loop = QEventLoop()
        self._window.closed.connect(loop.quit)
        loop.exec()

    def close(self) -> None:
        """Close the window (the tree and configuration stay readable)."""
        if not self._closed:
            self._window.close()
            self._app.processEvents()

    def _redraw(self) -> None:
        if not self._closed:
            self._window.viewport.repaint()
            self._app.processEvents()

    def _configuration_changed(self) -> None:
        self.events.configuration.emit(self._doc.configuration)

    def _tree_changed(self, _change) -> None:
        self.events.tree.emit(self._doc.tree)

    def _on_closed(self) -> None:
        self._closed = True

    def __repr__(self) -> str:
        state = "closed" if self._closed else "open"
        return f"<kinetree Viewer of {self._doc.name!r} ({state})>"


def show(tree, q=None, *, block: bool = True, size: tuple[int, int] = PICTURE_SIZE, view: str = "iso"):
    """Show ``tree`` at ``q`` (vector or {joint: value}; None: home) in the KineTree window.

    ``block=True``: return when the window is closed; ``block=False``: return at once (the
    window is live between cells in IPython, where Qt's event loop is integrated as by
    ``%gui qt``). Either way returns the :class:`Viewer`. Without a display (a notebook on a
    server, Linux without ``DISPLAY``) no window opens: the robot is rendered (``size``,
    ``view``) and displayed in IPython (returning None), or returned as an H×W×3 uint8 array.
    """
    if not has_display():
        rgb = picture(tree, q, size, view)
        if _ipython() is not None:
            from IPython.display import Image, display

            display(Image(data=png_bytes(rgb), format="png"))
            return None
        return rgb
    _check_view(view)
    viewer = Viewer(tree, q)
    if view != "iso":
        viewer.camera.view(view)
        viewer.camera.fit()
    if block:
        viewer.wait()
    return viewer


def interactive(tree, q=None, end_effector: str | None = None) -> tuple[np.ndarray, np.ndarray]:
    """Open the window on ``tree`` at ``q``, wait until the user closes it, and return the
    ``(configuration, end_effector_pose)`` left: the 4×4 pose in the base of ``end_effector``
    (default: the body selected at the close, else the last body).

    Unlike MATLAB's ``interactiveRigidBodyTree``, which returns an object at once and moves the
    marker body by inverse kinematics only, this blocks (use :class:`Viewer` for a live object),
    every joint has its slider and any body can be dragged, and the tree may be edited too
    (read it then from a :class:`Viewer`)."""
    viewer = Viewer(tree, q)
    if end_effector is not None:
        viewer.pose(end_effector)  # a bad name is refused before the user spends time
    viewer.wait()
    return viewer.configuration, viewer.pose(end_effector)


def _tree_png(tree) -> bytes | None:
    """The notebook picture of a tree (IPython's ``image/png`` formatter)."""
    if not tree.body_names:
        return None  # an empty tree: its text repr says more
    return png_bytes(picture(tree))


def register_formatter(shell=None) -> bool:
    """Make IPython show a :class:`RigidBodyTree` as a picture (done when this module is
    imported inside IPython). Whether a shell was found."""
    shell = shell or _ipython()
    if shell is None or not hasattr(shell, "display_formatter"):
        return False
    shell.display_formatter.formatters["image/png"].for_type(_ON_USE.RigidBodyTree, _tree_png)
    return True


register_formatter()
