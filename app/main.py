"""Entry point: ``kinetree [ROBOT]`` opens the app; ``kinetree screenshot …`` renders headless."""

from __future__ import annotations

import argparse
import logging
import os
import shutil
import subprocess
import sys
import traceback
from collections.abc import Callable

import numpy as np


def make_application(argv: list[str] | None = None):
    """The QApplication, created with shared GL contexts (pyqtgraph caches shader programs
    across viewports, so every viewport must be in one share group)."""
    from PySide6.QtCore import QCoreApplication, Qt
    from PySide6.QtWidgets import QApplication

    app = QApplication.instance()
    if app is None:
        QCoreApplication.setAttribute(Qt.ApplicationAttribute.AA_ShareOpenGLContexts)
        app = QApplication(argv if argv is not None else [])
    return app


def ensure_display() -> subprocess.Popen | None:
    """Give Qt an X display: the viewport needs OpenGL, which Qt's offscreen platform lacks.

    With no ``DISPLAY``, start a private Xvfb (Mesa renders in software) and return it.
    """
    if os.environ.get("DISPLAY") or sys.platform != "linux":
        return None
    xvfb = shutil.which("Xvfb")
    if xvfb is None:
        raise RuntimeError("no display and no Xvfb: install xvfb (apt-get install xvfb) or set DISPLAY")
    r, w = os.pipe()
    proc = subprocess.Popen([xvfb, "-displayfd", str(w), "-screen", "0", "2560x1600x24", "-nolisten", "tcp"],
                            pass_fds=(w,), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    os.close(w)
    with os.fdopen(r) as f:
        number = f.readline().strip()
    if not number:
        proc.kill()
        raise RuntimeError("Xvfb did not start")
    os.environ["DISPLAY"] = f":{number}"
    os.environ["QT_QPA_PLATFORM"] = "xcb"
    return proc


def offscreen_view(tree, config, size: tuple[int, int], theme: str = "dark", labels: bool = True,
                   teach: int | None = None, before_show=None):
    """A document of ``tree`` at ``config`` and a viewport of it shown at ``size`` in the iso
    view, for rendering (screenshot, animate); ``teach``: the DH overlay of that link;
    ``before_show(doc, view)`` adds items first. Returns ``(doc, view)``."""
    from .document import RobotDocument
    from .viewport.view import RobotViewport

    doc = RobotDocument(tree)
    doc.load(tree, config)
    view = RobotViewport(doc)
    view.set_theme(theme)
    view.set_labels_visible(labels)
    if before_show is not None:
        before_show(doc, view)
    if teach is not None:
        from .teach import attach_overlay

        view.dh_overlay = attach_overlay(view, doc, teach)
    view.resize(*size)
    view.show()
    make_application().processEvents()
    view.set_view("iso")
    return doc, view


def screenshot(robot: str, out: str, q: list[float] | None, size: tuple[int, int],
               theme: str = "dark", labels: bool = True, allow_env: bool = False, teach: int | None = None) -> None:
    """Render ``robot`` to a PNG without showing a window (``allow_env``: a xacro may read
    environment variables; ``teach``: the DH overlay of that link, 1-based)."""
    from kinetree.core.io import open_robot

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


#: Qt platforms that draw without a display server (the app then runs, unseen or on a device)
HEADLESS_PLATFORMS = ("offscreen", "minimal", "vnc", "eglfs", "linuxfb", "vkkhrdisplay")


def missing_display() -> str | None:
    """Why the app cannot open a window here (None: it can), checked before Qt is started:
    on Linux without a display Qt aborts the process with its own plugin message."""
    if not sys.platform.startswith("linux"):
        return None
    platform = os.environ.get("QT_QPA_PLATFORM", "").split(":")[0].strip().lower()
    if platform in HEADLESS_PLATFORMS:
        return None
    if platform == "wayland" or (not platform and os.environ.get("WAYLAND_DISPLAY")):
        if os.environ.get("WAYLAND_DISPLAY"):
            return None
    if os.environ.get("DISPLAY"):
        return None
    return ("kinetree: no display found (DISPLAY and WAYLAND_DISPLAY are not set); without one use the headless "
            "commands: kinetree screenshot, animate, details, fk, ik, symbolic, convert, library (kinetree --help)")


def run_gui(source: str | None) -> int:
    problem = missing_display()
    if problem:
        print(problem, file=sys.stderr)
        return 1
    from .main_window import MainWindow, install_excepthook

    app = make_application(sys.argv)
    app.setApplicationName("KineTree")
    app.setOrganizationName("KineTree")
    window = MainWindow()
    install_excepthook(window)
    window.show()
    start(window, source)
    return app.exec()


def start(window, source: str | None) -> None:
    """A start, once the window shows: first offer the unsaved work of instances that died
    (restored robots get windows of their own when a file was asked for, so nothing is lost
    either way), then open ``source``."""
    window.offer_recovery(into_this_window=not source)
    if source:
        window.open_source(source, ask=False)


def _size(text: str) -> tuple[int, int]:
    try:
        w, h = (int(v) for v in text.lower().split("x"))
    except ValueError:
        raise argparse.ArgumentTypeError(f"size must look like 1280x800, got {text!r}") from None
    if not (16 <= w <= 8192 and 16 <= h <= 8192):
        raise argparse.ArgumentTypeError(f"size {text!r} out of range (16…8192)")
    return w, h


def build_parser() -> tuple[argparse.ArgumentParser, dict]:
    from .cli import common as cli

    p = argparse.ArgumentParser(
        prog="kinetree", description="Build and scrub kinematic trees. With no command (or just a robot: a "
        "library name or a file), opens the app.",
        epilog="kinetree [ROBOT] opens the app; kinetree COMMAND --help describes a command.")
    sub = p.add_subparsers(dest="command", metavar="COMMAND")
    s = sub.add_parser("screenshot", help="render a robot to a PNG without a window",
                       description="Render a robot to a PNG without showing a window (works with no display).")
    s.add_argument("robot", help="library name or robot file")
    s.add_argument("-o", "--output", required=True, help="PNG file to write")
    s.add_argument("--q", nargs="+", type=float, metavar="V", help="joint values (radians / metres)")
    s.add_argument("--size", type=_size, default=(1280, 800), help="WxH in pixels (default 1280x800)")
    s.add_argument("--light", action="store_true", help="light background")
    s.add_argument("--no-labels", action="store_true", help="hide frame labels")
    s.add_argument("--allow-env", action="store_true",
                   help="let a .xacro read environment variables ($(env X), $(optenv X))")
    s.add_argument("--teach", type=int, metavar="I", help="draw link I's DH frames and parameters (1-based)")
    from .cli.animate import add_parser as add_animate  # needs a display, as screenshot does

    add_animate(sub)
    commands = cli.add_subcommands(sub)
    return p, commands


def run_with_display(command: str, work: Callable[[], None]) -> int:
    """Run ``work`` for ``kinetree COMMAND`` with an X display (a private Xvfb when there is
    none): 0, or 1 with a one-line message for a KineTreeError, OSError or RuntimeError.

    The private Xvfb is terminated whatever happens in ``work`` (another exception is printed
    as a traceback, exit 1): it must not outlive us. The process then ends with ``os._exit``:
    Qt must not talk to the X server that has gone at its own exit."""
    from kinetree.core import KineTreeError

    xvfb = None
    code = 1
    try:
        xvfb = ensure_display()
        work()
        code = 0
    except (KineTreeError, OSError, RuntimeError) as exc:
        print(f"kinetree {command}: {exc}", file=sys.stderr)
    except BaseException:
        if xvfb is None:
            raise
        traceback.print_exc()  # os._exit below: nothing else would show it
    finally:
        if xvfb is not None:
            sys.stdout.flush()
            sys.stderr.flush()
            xvfb.terminate()
            try:
                xvfb.wait(timeout=5)
            except subprocess.TimeoutExpired:
                xvfb.kill()
            os._exit(code)
    return code


def _screenshot_command(args: argparse.Namespace) -> int:
    return run_with_display("screenshot", lambda: screenshot(
        args.robot, args.output, args.q, args.size, "light" if args.light else "dark", not args.no_labels,
        allow_env=args.allow_env, teach=args.teach))


COMMANDS = ("screenshot", "details", "fk", "convert", "library", "ik", "symbolic", "animate")


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    logging.basicConfig(level=logging.WARNING, format="%(levelname)s %(name)s: %(message)s")
    if argv and (argv[0] in COMMANDS or argv[0].startswith("-")):
        parser, commands = build_parser()
        try:
            args = parser.parse_args(argv)
        except SystemExit as exc:  # --help (0) or a usage error (2)
            return int(exc.code or 0)
        if args.command is None:
            parser.print_help()
            return 2
        if args.command == "screenshot":
            return _screenshot_command(args)
        if args.command == "animate":
            from .cli.animate import animate_command

            return animate_command(args)
        from .cli.common import run

        return run(commands[args.command], args)
    if len(argv) > 1:
        print("usage: kinetree [ROBOT] | kinetree COMMAND ... (kinetree --help lists the commands)", file=sys.stderr)
        return 2
    return run_gui(argv[0] if argv else None)


if __name__ == "__main__":
    sys.exit(main())
