"""Entry point: ``kinetree [ROBOT]`` opens the app; ``kinetree COMMAND …`` runs a command of
the :mod:`kinetree.app.cli` package (imported only then: ``kinetree fk`` loads no Qt)."""

from __future__ import annotations

import logging
import os
import sys

from kinetree.core.lazy import LazyImports

from .widgets.application import make_application

#: the commands (the engine) only when one runs; the window (every feature, pyqtgraph, OpenGL) and the
#: kernels' warm-up only when the GUI runs (see kinetree.core.lazy)
_ON_USE = LazyImports(__name__, {"cli": ".cli", "MainWindow": ".window.main_window:MainWindow",
                                 "install_excepthook": ".window.main_window:install_excepthook",
                                 "start_warm_up": "kinetree.core.compiled_warmup:warm_up_in_background"})

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
    app = make_application(sys.argv)
    app.setApplicationName("KineTree")
    app.setOrganizationName("KineTree")
    window = _ON_USE.MainWindow()
    _ON_USE.install_excepthook(window)
    window.show()
    start(window, source)
    warm_up_in_background()
    return app.exec()


def warm_up_in_background():
    """Compile (or load) the engine's compiled kernels on a thread, so that the first Simulate
    or Torques does not freeze the window for the compilation (~1 min on a new machine).
    Returns the thread (the Simulate dock waits for the same one)."""
    return _ON_USE.start_warm_up()


def start(window, source: str | None) -> None:
    """A start, once the window shows: first offer the unsaved work of instances that died
    (restored robots get windows of their own when a file was asked for, so nothing is lost
    either way), then open ``source``."""
    window.offer_recovery(into_this_window=not source)
    if source:
        window.open_source(source, ask=False)


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    cli = _ON_USE.cli
    if argv and (argv[0] in cli.COMMANDS or argv[0].startswith("-")):
        return cli.main(argv)  # its warnings, logged ones too, are "kinetree CMD: warning: …" lines
    logging.basicConfig(level=logging.WARNING, format="%(levelname)s %(name)s: %(message)s")
    if len(argv) > 1:
        print("usage: kinetree [ROBOT] | kinetree COMMAND ... (kinetree --help lists the commands)", file=sys.stderr)
        return 2
    return run_gui(argv[0] if argv else None)


if __name__ == "__main__":
    sys.exit(main())
