"""``kinetree screenshot ROBOT -o OUT.png``: a robot rendered to a PNG without a window (works
with no display: a private Xvfb is started, see :mod:`.display`)."""

from __future__ import annotations

import argparse

import numpy as np

from ..widgets.application import make_application
from ..widgets.safe_output import save_png
from .common import (
    add_output_argument,
    add_q_arguments,
    add_robot_argument,
    add_view_argument,
    checked_configuration,
    open_source,
    size_arg,
)
from .display import offscreen_view


def screenshot(tree, config: np.ndarray, out: str, size: tuple[int, int], theme: str = "dark",
               labels: bool = True, teach: int | None = None, view_preset: str = "iso") -> None:
    """Render ``tree`` at ``config`` to a PNG without showing a window (``teach``: the DH
    overlay of that link, 1-based; ``view_preset``: iso, front, side or top)."""
    app = make_application()
    doc, view = offscreen_view(tree, config, size, theme, labels, teach, view_preset=view_preset)
    view.fit()
    if teach is not None:  # close enough to read the link's parameters
        view.dh_overlay.focus()
    img = view.render_image(*size)
    view.close()
    view.deleteLater()
    app.processEvents()
    save_png(img, out)


def add_parser(sub) -> argparse.ArgumentParser:
    s = sub.add_parser("screenshot", help="render a robot to a PNG without a window",
                       description="Render a robot to a PNG without showing a window (works with no display). "
                       "A --q outside the joint limits is refused, as by fk, unless --ignore-limits.")
    add_robot_argument(s, package_path=False, help="library name or robot file")
    add_output_argument(s, "-o", "--output", what="screenshot", required=True, help="PNG file to write")
    add_q_arguments(s, "the file's stored configuration, else home", "angles in --q (and in messages) in degrees")
    s.add_argument("--size", type=size_arg, default=(1280, 800), help="WxH in pixels (default 1280x800)")
    s.add_argument("--light", action="store_true", help="light background")
    s.add_argument("--no-labels", action="store_true", help="hide frame labels")
    s.add_argument("--teach", type=int, metavar="I", help="draw link I's DH frames and parameters (1-based)")
    add_view_argument(s)
    return s


def command(args: argparse.Namespace) -> None:
    """``kinetree screenshot`` (run by :func:`.display.run_with_display`)."""
    tree, stored = open_source(args.robot, args)
    q = checked_configuration(tree, args, stored, verb="draw")
    screenshot(tree, q, args.output, args.size, "light" if args.light else "dark", not args.no_labels, args.teach,
               args.view)
