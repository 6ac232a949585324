"""``kinetree animate ROBOT --poses P1 P2 [P3 …] -o OUT.gif|.mp4``: the motion through named
poses (quintic joint-space segments, ``--seconds`` each) rendered offscreen, with the end
effector's path traced. Like ``screenshot`` it needs the GUI machinery and a display, and
starts a private Xvfb when there is none.

Frames: ``round(seconds · segments · fps) + 1`` (both end poses included). Exit status 1 for
bad input: an unknown pose (the message names it and lists the robot's poses), a bad suffix,
MP4 without imageio-ffmpeg, too many frames, a GIF whose frames would need more than 1 GB;
2 for an --fps or --seconds out of range. A pose outside the joint limits is a warning.
"""

from __future__ import annotations

import argparse
import math

import numpy as np
from kinetree.core.lazy import LazyImports

from ..widgets.application import make_application
from .common import (
    InputError,
    add_output_argument,
    add_robot_argument,
    add_view_argument,
    open_source,
    positive_arg,
    size_arg,
    warn,
)
from .display import offscreen_view

#: the traced path (pyqtgraph, OpenGL), only when the command runs (see kinetree.core.lazy)
_QT = LazyImports(__name__, {"PathTrace": "..viewport.overlays.path_trace:PathTrace"})

#: the largest --fps (a GIF cannot show more than 100 frames a second anyway)
MAX_FPS = 120.0
#: the smallest --fps: a GIF frame's delay is 16 bits of hundredths of a second (655.35 s at
#: most; Pillow overflowed past it); a video so slow is no use either
MIN_FPS = 100 / 65535


def _fps(text: str) -> float:
    v = positive_arg(text)
    if v > MAX_FPS:
        raise argparse.ArgumentTypeError(f"at most {MAX_FPS:g} frames a second, got {text!r}")
    if v < MIN_FPS:
        raise argparse.ArgumentTypeError(f"at least {math.ceil(MIN_FPS * 1e6) / 1e6:g} frames a second "
                                         f"(a GIF frame lasts at most 655.35 s), got {text!r}")
    return v


def add_parser(sub) -> argparse.ArgumentParser:
    a = sub.add_parser(
        "animate", help="render a motion through named poses to a GIF or MP4",
        description="Render the joint-space motion through the robot's named poses (quintic, at rest at each) "
        "to a GIF, or an MP4 when imageio-ffmpeg is installed, with the end effector's path traced. "
        "Works with no display. Frames: round(seconds x segments x fps) + 1.")
    add_robot_argument(a, package_path=False, help="library name or robot file")
    a.add_argument("--poses", nargs="+", required=True, metavar="P",
                   help="named poses to pass through, in order (at least two; an unknown name's error "
                   "lists the robot's poses)")
    add_output_argument(a, "-o", "--output", what="animation", required=True, help="file to write: .gif or .mp4")
    a.add_argument("--seconds", type=positive_arg, default=2.0, help="seconds per segment (default 2)")
    a.add_argument("--fps", type=_fps, default=25.0, help="frames per second (default 25)")
    a.add_argument("--size", type=size_arg, default=(640, 400), help="WxH in pixels (default 640x400)")
    a.add_argument("--teach", type=int, metavar="I", help="draw link I's DH frames and parameters (1-based)")
    a.add_argument("--light", action="store_true", help="light background")
    a.add_argument("--no-labels", action="store_true", help="hide frame labels")
    a.add_argument("--no-trace", action="store_true", help="do not draw the end effector's path")
    add_view_argument(a)
    a.add_argument("--deg", action="store_true", help="angles in messages (a pose outside the limits) in degrees")
    a.add_argument("--ignore-limits", action="store_true", help="no warning for a pose outside the joint limits")
    return a


def motion(tree, poses: list[str], out: str, seconds: float, fps: float, size: tuple[int, int]) -> np.ndarray:
    """The configurations of the frames through the named ``poses``, refused (before anything
    is rendered) when there are too many or a GIF of them would not fit in memory."""
    from ..features.playback import MAX_EXPORT_FRAMES, animation_frames, check_animation_size

    segments = len(poses) - 1
    if segments >= 1 and not seconds * segments * fps < MAX_EXPORT_FRAMES:  # also inf: round() would overflow
        raise InputError(f"{segments} segment{'s' if segments > 1 else ''} of {seconds:g} s at {fps:g} fps is more "
                         f"than {MAX_EXPORT_FRAMES} frames: fewer seconds or a lower fps")
    Q = animation_frames([tree.named_poses[n] for n in poses], seconds, fps)
    check_animation_size(out, len(Q), size)
    return Q


def animate(tree, poses: list[str], Q: np.ndarray, out: str, seconds: float = 2.0, fps: float = 25.0,
            size: tuple[int, int] = (640, 400), theme: str = "dark", labels: bool = True, trace: bool = True,
            teach: int | None = None, view_preset: str = "iso") -> int:
    """Render the frames ``Q`` (:func:`motion`) of ``tree`` through its named ``poses`` to
    ``out`` seen from ``view_preset`` (iso, front, side or top); returns the frame count."""
    from ..features.playback import PlaybackState, fit_motion, render_frames, write_animation

    def traced(doc, view) -> None:
        state = PlaybackState(doc, view)
        state.set_seconds(seconds)
        state.set_names(poses)
        view.path_trace = _QT.PathTrace(view, doc, state)
        view.path_trace.set_visible(trace)

    app = make_application()
    doc, view = offscreen_view(tree, Q[0], size, theme, labels, teach, before_show=traced, view_preset=view_preset)
    fit_motion(view, doc, Q)  # the whole robot all along (not screenshot --teach's close-up of the link)
    try:
        return write_animation(out, render_frames(view, doc, Q, size), fps, seconds * (len(poses) - 1))
    finally:
        view.close()
        view.deleteLater()
        app.processEvents()


def check_pose_names(tree, args: argparse.Namespace) -> None:
    """Refuse a pose name the robot lacks, naming its poses."""
    known = list(tree.named_poses)
    for name in args.poses:
        if name not in tree.named_poses:
            raise InputError(f"{args.robot}: no pose named {name!r:.80}; its poses: {', '.join(known) or 'none'}")


def warn_poses_outside_limits(tree, args: argparse.Namespace) -> None:
    """A pose outside the joint limits is the file's own, so, as fk does with the stored
    configuration, it is drawn with a warning in the user's unit (``--deg``), unless
    ``--ignore-limits``."""
    if args.ignore_limits:
        return
    for name in dict.fromkeys(args.poses):
        bad = tree.limit_violations(np.asarray(tree.named_poses[name], dtype=float))
        if bad:
            warn(args.command, f"pose {name!r} is outside the limits: " + "; ".join(v.describe(args.deg) for v in bad))


def command(args: argparse.Namespace) -> None:
    """``kinetree animate`` (run by :func:`.display.run_with_display`)."""
    from ..features.playback import check_animation_path

    check_animation_path(args.output)
    tree, _ = open_source(args.robot, args)
    check_pose_names(tree, args)
    Q = motion(tree, args.poses, args.output, args.seconds, args.fps, args.size)
    warn_poses_outside_limits(tree, args)  # of a motion that is going to be drawn
    count = animate(tree, args.poses, Q, args.output, args.seconds, args.fps, args.size,
                    "light" if args.light else "dark", not args.no_labels, not args.no_trace, teach=args.teach,
                    view_preset=args.view)
    print(f"{args.output}: {count} frames at {args.fps:g} fps")
