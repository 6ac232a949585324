"""``kinetree animate ROBOT --poses P1 P2 [P3 …] -o OUT.gif|.mp4``: the motion through named
poses (quintic joint-space segments, ``--seconds`` each) rendered offscreen, with the end
effector's path traced. Like ``screenshot`` it needs the GUI machinery and a display, and
starts a private Xvfb when there is none.

Frames: ``round(seconds · segments · fps) + 1`` (both end poses included). Exit status 1 for
bad input: an unknown pose (the message names it and lists the robot's poses), a bad suffix,
MP4 without imageio-ffmpeg, too many frames, a GIF whose frames would need more than 1 GB.
"""

from __future__ import annotations

import argparse

from .common import add_robot_argument, positive_arg, size_arg

#: the largest --fps (a GIF cannot show more than 100 frames a second anyway)
MAX_FPS = 120.0


def _fps(text: str) -> float:
    v = positive_arg(text)
    if v > MAX_FPS:
        raise argparse.ArgumentTypeError(f"at most {MAX_FPS:g} frames a second, got {text!r}")
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
    a.add_argument("-o", "--output", required=True, help="file to write: .gif or .mp4")
    a.add_argument("--seconds", type=positive_arg, default=2.0, help="seconds per segment (default 2)")
    a.add_argument("--fps", type=_fps, default=25.0, help="frames per second (default 25)")
    a.add_argument("--size", type=size_arg, default=(640, 400), help="WxH in pixels (default 640x400)")
    a.add_argument("--teach", type=int, metavar="I", help="draw link I's DH frames and parameters (1-based)")
    a.add_argument("--light", action="store_true", help="light background")
    a.add_argument("--no-labels", action="store_true", help="hide frame labels")
    a.add_argument("--no-trace", action="store_true", help="do not draw the end effector's path")
    return a


def animate(robot: str, poses: list[str], out: str, seconds: float = 2.0, fps: float = 25.0,
            size: tuple[int, int] = (640, 400), theme: str = "dark", labels: bool = True, trace: bool = True,
            allow_env: bool = False, teach: int | None = None) -> int:
    """Render the motion through ``poses`` (names) of ``robot`` to ``out``; returns the frame count."""
    from kinetree.core import KineTreeError
    from kinetree.core.io import open_robot

    from ..application import make_application
    from ..playback import (
        PlaybackState,
        animation_frames,
        check_animation_path,
        check_animation_size,
        fit_motion,
        render_frames,
        write_animation,
    )
    from .common import check_robot_source

    check_animation_path(out)
    check_robot_source(robot)
    tree, _ = open_robot(robot, allow_env=allow_env)
    known = list(tree.named_poses)
    for name in poses:
        if name not in tree.named_poses:
            raise KineTreeError(f"{robot}: no pose named {name!r:.80}; its poses: {', '.join(known) or 'none'}")
    Q = animation_frames([tree.named_poses[n] for n in poses], seconds, fps)
    check_animation_size(out, len(Q), size)
    from ..viewport.path_trace import PathTrace
    from .display import offscreen_view

    def traced(doc, view) -> None:
        state = PlaybackState(doc, view)
        state.set_seconds(seconds)
        state.set_names(poses)
        view.path_trace = PathTrace(view, doc, state)
        view.path_trace.set_visible(trace)

    app = make_application()
    doc, view = offscreen_view(tree, Q[0], size, theme, labels, teach, before_show=traced)
    fit_motion(view, doc, Q)  # the whole robot all along (not screenshot --teach's close-up of the link)
    try:
        return write_animation(out, render_frames(view, doc, Q, size), fps)
    finally:
        view.close()
        view.deleteLater()
        app.processEvents()


def command(args: argparse.Namespace) -> None:
    """``kinetree animate`` (run by :func:`.display.run_with_display`)."""
    count = animate(args.robot, args.poses, args.output, args.seconds, args.fps, args.size,
                    "light" if args.light else "dark", not args.no_labels, not args.no_trace,
                    allow_env=args.allow_env, teach=args.teach)
    print(f"{args.output}: {count} frames at {args.fps:g} fps")
