"""Named poses and playback in the main window: the Poses dock (the document's named poses and
a timeline playing quintic joint-space motion through the checked ones), the end effector's
path traced in the viewport, and File ▸ Export animation (GIF, or MP4 with imageio-ffmpeg).

:class:`PlaybackState` is what the Poses list, the timeline and the path trace share (none
calls another): which poses the motion goes through, in order, and the seconds per segment.

Playback is not an edit: the robot is moved with
:meth:`~kinetree.app.model.document.RobotDocument.preview_configuration`, which records no undo step
and leaves the document unmodified (a lecturer playing qz → qr is asked nothing on closing).
"Go to" a pose is an edit, one undo step, as every change of the named poses is.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np
from kinetree.core import KineTreeError
from kinetree.core.kinematics.trajectory import joint_trajectory, sample_trajectory
from PySide6.QtCore import QObject, Qt, Signal
from PySide6.QtGui import QAction, QImage, QVector3D
from PySide6.QtWidgets import QFileDialog, QInputDialog, QSplitter

from ..model.numbers import read_number
from ..panels.poses import PosesPanel
from ..panels.timeline import TimelinePanel
from ..viewport.overlays.path_trace import PathTrace
from ..widgets.safe_output import atomic_output
from ..window.features import At, Feature, MenuId
from ..window.layout import hidden_tab, optional_dock

if TYPE_CHECKING:
    from ..model.document import RobotDocument
    from ..window.main_window import MainWindow

#: the most frames an exported animation may have
MAX_EXPORT_FRAMES = 3000
#: the most bytes a GIF's RGB frames may take (frames × width × height × 3): a GIF is encoded from
#: all its frames at once, and 3000 frames of 1920x1080 would need 18 GB
MAX_GIF_BYTES = 1 << 30
ANIMATION_FILTER = "GIF animation (*.gif);;MP4 video (*.mp4)"


class PlaybackState(QObject):
    """The motion the timeline plays: pose ``names`` in order and ``seconds`` per segment.

    ``changed`` follows every change of the motion, including edits of the named poses or of
    the tree that alter the waypoints (it is compared, so it fires once per real change).
    """

    changed = Signal()

    def __init__(self, doc: RobotDocument, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.doc = doc
        self.names: list[str] = []
        self.seconds = 2.0
        self._key: tuple | None = None
        doc.treeChanged.connect(lambda _change: self._check())

    def set_names(self, names: list[str]) -> None:
        self.names = list(names)
        self._check()

    def set_seconds(self, seconds: float) -> None:
        if not (np.isfinite(seconds) and seconds > 0):
            raise KineTreeError(f"seconds per segment must be positive, got {seconds}")
        self.seconds = float(seconds)
        self._check()

    def _check(self) -> None:
        key = (self.seconds, tuple((n, q.tobytes()) for n, q in zip(self.playable(), self.waypoints())),
               self.doc.tree.revision)
        if key != self._key:
            self._key = key
            self.changed.emit()

    def playable(self) -> list[str]:
        """The names that are poses of the current tree (a deleted pose drops out)."""
        poses = self.doc.tree.named_poses
        return [n for n in self.names if n in poses]

    def waypoints(self) -> list[np.ndarray]:
        poses = self.doc.tree.named_poses
        return [poses[n] for n in self.playable()]

    def duration(self) -> float:
        """Seconds the whole motion takes (0 with fewer than two poses)."""
        return self.seconds * max(len(self.playable()) - 1, 0)

    def configuration_at(self, t: float) -> np.ndarray | None:
        """The motion's configuration at ``t`` seconds (clipped); None without any pose."""
        P = self.waypoints()
        if not P:
            return None
        return sample_trajectory(P, self.seconds * max(len(P) - 1, 1), [t])[0]

    def samples(self, fps: float = 60.0) -> np.ndarray:
        """(frames, n) configurations at ``fps`` through the whole motion (empty: < 2 poses)."""
        P = self.waypoints()
        if len(P) < 2:
            return np.zeros((0, self.doc.tree.position_count))
        return joint_trajectory(P, [self.seconds] * (len(P) - 1), fps)[1]


# --- animation files ---------------------------------------------------------------------------
def animation_frames(poses: list[np.ndarray], seconds: float, fps: float) -> np.ndarray:
    """Configurations of an animation through ``poses``, ``seconds`` per segment, at ``fps``:
    ``round(seconds · segments · fps) + 1`` frames (both ends included)."""
    if len(poses) < 2:
        raise KineTreeError(f"an animation needs at least two poses, got {len(poses)}")
    Q = joint_trajectory(poses, [seconds] * (len(poses) - 1), fps)[1]
    if len(Q) > MAX_EXPORT_FRAMES:
        raise KineTreeError(f"{len(Q)} frames is more than {MAX_EXPORT_FRAMES}: fewer seconds or a lower fps")
    return Q


def render_frames(view, doc: RobotDocument, Q: np.ndarray, size: tuple[int, int]) -> Iterator[np.ndarray]:
    """Render ``view`` offscreen at each configuration of ``Q`` (shown with preview, no undo
    step), without the IK handle: (h, w, 3) RGB arrays. The document's configuration (and the
    handle) are restored afterwards."""
    w, h = size
    before = doc.configuration
    handle = getattr(view, "ik_handle", None)
    handle_on = handle is not None and handle.enabled
    if handle_on:  # a drag aid, not part of the motion
        handle.set_enabled(False)
    try:
        for q in Q:
            doc.preview_configuration(q)
            yield rgb_array(view.render_image(w, h))
    finally:
        doc.preview_configuration(before)
        if handle_on:
            handle.set_enabled(True)


def fit_motion(view, doc: RobotDocument, Q: np.ndarray, samples: int = 9,
               size: tuple[int, int] | None = None) -> None:
    """Frame the robot all through the motion ``Q``: the smallest sphere holding the view's own
    fit at a few of its configurations (the document's configuration is restored); ``size``:
    for images of that width and height rather than the widget's."""
    before = doc.configuration
    spheres = []
    for q in Q[np.unique(np.linspace(0, len(Q) - 1, samples).round().astype(int))]:
        doc.preview_configuration(q)
        view.fit(size=size)
        c = view.opts["center"]
        spheres.append((np.array([c.x(), c.y(), c.z()]), view.opts["distance"]))
    doc.preview_configuration(before)
    centres = np.array([c for c, _ in spheres])
    centre = (centres.min(axis=0) + centres.max(axis=0)) / 2
    distance = 1.1 * max(float(np.linalg.norm(c - centre)) * 2.4 + d for c, d in spheres)  # a margin
    view.setCameraPosition(pos=QVector3D(*centre.astype(float)), distance=distance)


def rgb_array(img: QImage) -> np.ndarray:
    """The H×W×3 uint8 RGB array of ``img`` (animation frames, scripts' screenshots)."""
    img = img.convertToFormat(QImage.Format.Format_RGB888)
    w, h = img.width(), img.height()
    arr = np.frombuffer(img.constBits(), dtype=np.uint8, count=img.bytesPerLine() * h)
    return arr.reshape(h, img.bytesPerLine())[:, :w * 3].reshape(h, w, 3).copy()


def check_animation_path(path: str | Path) -> str:
    """``"gif"`` or ``"mp4"`` for an animation file name; raise (before any frame is rendered)
    for another suffix, or for MP4 without imageio-ffmpeg."""
    path = Path(path)
    suffix = path.suffix.lower()
    if suffix == ".mp4":
        try:
            import imageio_ffmpeg  # noqa: F401
        except ImportError:
            raise KineTreeError(f"{path.name}: writing MP4 needs imageio-ffmpeg "
                                "(pip install imageio-ffmpeg); GIF works without it") from None
        return "mp4"
    if suffix == ".gif":
        return "gif"
    raise KineTreeError(f"{path.name}: an animation is written as .gif or .mp4, not {suffix or 'no suffix'!r}")


def check_animation_size(path: str | Path, frames: int, size: tuple[int, int]) -> None:
    """Refuse (before any frame is rendered) a GIF whose frames would not fit in
    :data:`MAX_GIF_BYTES`: a GIF is encoded from all its frames at once. An MP4 is streamed to
    the encoder a frame at a time, so only the frame count bounds it."""
    w, h = size
    need = frames * w * h * 3
    if check_animation_path(path) == "gif" and need > MAX_GIF_BYTES:
        raise KineTreeError(
            f"{Path(path).name}: {frames} frames of {w}x{h} need {need / 2**30:.1f} GB of memory for a GIF, "
            f"more than {MAX_GIF_BYTES / 2**30:.0f} GB: fewer seconds, a lower fps or a smaller size "
            "(or an MP4, which is streamed)")


def write_animation(path: str | Path, frames: Iterator[np.ndarray], fps: float, seconds: float | None = None) -> int:
    """Write ``frames`` as a GIF (looping) or an MP4 (needs imageio-ffmpeg); returns the count.
    ``seconds``: the motion's length, which a GIF's frame delays add up to (default: one
    ``1/fps`` between frames, both ends included).

    Atomic: written to a temporary file beside ``path``, renamed over it once complete, so a
    failure half-way leaves the old file (or none)."""
    path = Path(path)
    kind = check_animation_path(path)
    with atomic_output(path) as tmp:
        return _write_gif(tmp, frames, fps, seconds) if kind == "gif" else _write_mp4(tmp, frames, fps)


def gif_delays(count: int, seconds: float) -> list[int]:
    """Each of ``count`` frames' delay in whole hundredths of a second (a GIF's unit), adding up
    to ``seconds`` within half a hundredth: the looping GIF lasts as long as the motion.

    Frame k starts at k·seconds/count, rounded, so a rounding error is carried to the next frame
    instead of summed (1/15 s rounded to 6 cs on every frame played 15 fps 9 % short)."""
    starts = [round(k * seconds * 100 / count) for k in range(count + 1)]
    return [b - a for a, b in zip(starts, starts[1:])]


def _write_gif(path: Path, frames: Iterator[np.ndarray], fps: float, seconds: float | None = None) -> int:
    from PIL import Image

    # each frame is reduced to its palette as it comes (what Pillow's GIF writer does to an RGB
    # frame anyway): a third of the memory of the RGB frames, and none of them is kept
    images = [Image.fromarray(f).convert("P", palette=Image.Palette.ADAPTIVE) for f in frames]
    if not images:
        raise KineTreeError(f"{path.name}: an animation needs at least one frame")
    length = (len(images) - 1) / fps if seconds is None else seconds
    # Pillow takes milliseconds and writes their tenth: whole centiseconds pass through exactly
    delays = [10 * d for d in gif_delays(len(images), length)] if length > 0 else 1000.0 / fps
    images[0].save(path, format="GIF", save_all=True, append_images=images[1:], duration=delays, loop=0)
    return len(images)


def _write_mp4(path: Path, frames: Iterator[np.ndarray], fps: float) -> int:
    import imageio_ffmpeg

    count = 0
    out = None
    try:
        # streamed: a video is not held in memory. x264's yuv420p needs even sizes: an odd one gets
        # its edge pixel repeated (imageio-ffmpeg's default would scale 640x360 to 640x368). "-f mp4":
        # the temporary file's suffix is not .mp4
        for frame in frames:
            h, w = frame.shape[:2]
            frame = np.ascontiguousarray(np.pad(frame, ((0, h % 2), (0, w % 2), (0, 0)), mode="edge"))
            if out is None:
                out = imageio_ffmpeg.write_frames(str(path), (frame.shape[1], frame.shape[0]), fps=fps,
                                                  codec="libx264", macro_block_size=2, output_params=["-f", "mp4"])
                out.send(None)  # starts ffmpeg
            out.send(frame)
            count += 1
    finally:
        if out is not None:
            out.close()  # waits for ffmpeg to finish the file
    return count


# --- the main window -----------------------------------------------------------------------------
def install_playback(window: MainWindow) -> PlaybackState:
    """Add the Poses dock (named poses above the timeline; a tab beside the Pose dock, hidden
    until View ▸ Poses), the traced path, View ▸ Poses and File ▸ Export animation… to ``window``."""
    state = PlaybackState(window.doc, window)
    window.playback = state
    window.poses = PosesPanel(window.doc, state, settings=window.settings)
    window.timeline = TimelinePanel(window.doc, state)
    window.path_trace = PathTrace(window.viewport, window.doc, state, active=False)
    window.timeline.traceToggled.connect(window.path_trace.set_visible)
    body = QSplitter(Qt.Orientation.Vertical)
    body.setObjectName("posesSplitter")
    body.setChildrenCollapsible(False)
    body.addWidget(window.poses)
    body.addWidget(window.timeline)
    body.setStretchFactor(0, 1)
    # not scrolled: a tab beside the Pose dock, no wider than the right column already is
    dock, toggle = optional_dock(window, "Poses", "posesDock", body, Qt.DockWidgetArea.RightDockWidgetArea,
                                 "Ctrl+Shift+P", scroll=False)
    window.poses_dock = dock
    place_poses_dock(window)
    # the path only while the dock is open (checked follows the dock's own hide/show, not a tab
    # switch or a minimised window)
    toggle.toggled.connect(window.path_trace.set_active)
    window.path_trace.set_active(toggle.isChecked())
    export = QAction("Export &animation…", window)
    export.setObjectName("exportAnimationAction")
    export.setToolTip("Write the motion through the checked poses as a GIF (or an MP4 with imageio-ffmpeg)")
    export.triggered.connect(lambda: export_animation_dialog(window))
    window.export_animation_action = export
    return state


def place_poses_dock(window: MainWindow) -> None:
    """The Poses dock's default place: a tab beside the Pose dock, hidden until View ▸ Poses
    shows it (a visible tab bar takes height the default layout gives the five main docks: on
    an 800×600 screen the window would outgrow the screen)."""
    hidden_tab(window, window.docks["poseDock"], window.poses_dock, Qt.DockWidgetArea.RightDockWidgetArea)


FEATURE = Feature("playback", install_playback, docks=("posesDock",), place=place_poses_dock, actions={
    "toggle_posesDock": At(MenuId.VIEW, "features", 10), "exportAnimationAction": At(MenuId.FILE, "export", 20)})


def export_animation(window: MainWindow, path: str | Path, size: tuple[int, int], fps: float = 25.0,
                     progress: Callable[[int, int], None] | None = None) -> int:
    """Render the playback motion from ``window``'s viewport to ``path`` (GIF or MP4); returns
    the number of frames. Raises KineTreeError (fewer than two poses, a bad suffix…).

    Seen from the viewport's direction (and projection), framed as ``kinetree animate`` frames
    it: the whole robot all through the motion at the image's size (:func:`fit_motion`), not
    the live zoom, which cropped Puma at qr. The live camera is restored afterwards."""
    state: PlaybackState = window.playback
    check_animation_path(path)
    Q = animation_frames(state.waypoints(), state.seconds, fps)
    check_animation_size(path, len(Q), size)
    view = window.viewport

    def frames() -> Iterator[np.ndarray]:
        for k, frame in enumerate(render_frames(view, window.doc, Q, size)):
            if progress is not None:
                progress(k + 1, len(Q))
            yield frame

    live = {key: view.opts[key] for key in ("distance", "elevation", "azimuth")}
    live["center"] = QVector3D(view.opts["center"])  # a copy: the camera may move the object it holds
    try:
        fit_motion(view, window.doc, Q, size=size)
        return write_animation(path, frames(), fps, state.seconds * (len(state.waypoints()) - 1))
    finally:
        view.setCameraPosition(pos=live["center"], distance=live["distance"], elevation=live["elevation"],
                               azimuth=live["azimuth"])


def export_animation_dialog(window: MainWindow) -> None:
    """File ▸ Export animation…: a size, then a file; the checked poses' motion is written."""
    from PySide6.QtWidgets import QApplication

    if len(window.playback.playable()) < 2:
        window.show_error("Export animation", "Check two poses or more in the Poses dock: the animation "
                          "plays the motion through them (View ▸ Poses)")
        return
    text, ok = QInputDialog.getText(window, "Export animation", "Size (W×H) and frames per second:",
                                    text="640x400 @ 25")
    if not ok:
        return
    try:
        size_text, _, fps_text = text.partition("@")
        w, h = (int(v) for v in size_text.strip().lower().replace("×", "x").split("x"))
        fps = read_number(fps_text, "frames per second").value if fps_text.strip() else 25.0
        if not (16 <= w <= 4096 and 16 <= h <= 4096 and 1 <= fps <= 120):
            raise ValueError
    except ValueError:  # KineTreeError is one too
        window.show_error("Export animation", f"{text!r} is not like 640x400 @ 25 (16…4096 pixels, 1…120 fps)")
        return
    path, _ = QFileDialog.getSaveFileName(window, "Export animation", "motion.gif", ANIMATION_FILTER)
    if not path:
        return
    QApplication.setOverrideCursor(Qt.CursorShape.WaitCursor)
    try:
        count = export_animation(window, path, (w, h), fps,
                                 lambda k, n: window.statusBar().showMessage(f"Rendering frame {k} of {n}…"))
    except (KineTreeError, OSError) as exc:
        window.show_error("Export animation", str(exc))
        return
    finally:
        QApplication.restoreOverrideCursor()
    window.statusBar().showMessage(f"Exported {count} frames to {path}", 8000)
