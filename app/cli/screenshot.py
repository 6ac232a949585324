"""``kinetree screenshot ROBOT -o OUT.png``: a robot rendered to a PNG without a window (works
with no display: a private Xvfb is started, see :mod:`.display`)."""

from __future__ import annotations

import argparse

import numpy as np

from .common import add_robot_argument, size_arg


def screenshot(robot: str, out: str, q: list[float] | None, size: tuple[int, int],
               theme: str = "dark", labels: bool = True, allow_env: bool = False, teach: int | None = None) -> None:
    """Render ``robot`` to a PNG without showing a window (``allow_env``: a xacro may read
    environment variables; ``teach``: the DH overlay of that link, 1-based)."""
    from kinetree.core.io import open_robot

    from ..application import make_application
    from .common import check_robot_source
    from .display import offscreen_view

    check_robot_source(robot)
    tree, config = open_robot(robot, allow_env=allow_env)
    if q is not None:
        config = tree.config_to_vector(np.array(q, dtype=float))
    app = make_application()
    doc, view = offscreen_view(tree, config, size, theme, labels, teach)
    view.fit()
    if teach is not None:  # close enough to read the link's parameters
        view.dh_overlay.focus()
    img = view.render_image(*size)
    view.close()
    view.deleteLater()
    app.processEvents()
    if not img.save(out, "PNG"):
        raise OSError(f"cannot write {out}")


def add_parser(sub) -> argparse.ArgumentParser:
    s = sub.add_parser("screenshot", help="render a robot to a PNG without a window",
                       description="Render a robot to a PNG without showing a window (works with no display).")
    add_robot_argument(s, package_path=False, help="library name or robot file")
    s.add_argument("-o", "--output", required=True, help="PNG file to write")
    s.add_argument("--q", nargs="+", type=float, metavar="V", help="joint values (radians / metres)")
    s.add_argument("--size", type=size_arg, default=(1280, 800), help="WxH in pixels (default 1280x800)")
    s.add_argument("--light", action="store_true", help="light background")
    s.add_argument("--no-labels", action="store_true", help="hide frame labels")
    s.add_argument("--teach", type=int, metavar="I", help="draw link I's DH frames and parameters (1-based)")
    return s


def command(args: argparse.Namespace) -> None:
    """``kinetree screenshot`` (run by :func:`.display.run_with_display`)."""
    screenshot(args.robot, args.output, args.q, args.size, "light" if args.light else "dark", not args.no_labels,
               allow_env=args.allow_env, teach=args.teach)
