"""The GUI machinery of the rendering commands (``screenshot``, ``animate``) without a window:
an X display (a private Xvfb when there is none), an offscreen viewport, and running the
command so that the private Xvfb never outlives it. Qt is imported only when a command runs.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import traceback
from collections.abc import Callable

from kinetree.core import KineTreeError
from kinetree.core.lazy import LazyImports

from ..widgets.application import make_application
from .common import EXIT_BAD_INPUT, EXIT_OK, InputError, error_text, warnings_as_lines

#: the document and the 3D view (Qt, pyqtgraph, OpenGL), only when a rendering command runs (see kinetree.core.lazy)
_QT = LazyImports(__name__, {"RobotDocument": "..model.document:RobotDocument",
                             "RobotViewport": "..viewport.view:RobotViewport"})


def ensure_display(until_last_client: bool = False) -> subprocess.Popen | None:
    """Give Qt an X display: the viewport needs OpenGL, which Qt's offscreen platform lacks.

    With no ``DISPLAY``, start a private Xvfb (Mesa renders in software) and return it.
    ``until_last_client``: the Xvfb ends by itself when its last client (our Qt) disconnects,
    for a process that keeps Qt until its own end (a notebook kernel): killing it earlier
    would leave Qt talking to a server that has gone. It then runs in a session of its own, so
    a signal to our process group (Jupyter stops a kernel slow to shut down by SIGTERM to its
    group) does not end it while our Qt still tears its windows down (a segfault at exit).
    """
    if os.environ.get("DISPLAY") or sys.platform != "linux":
        return None
    xvfb = shutil.which("Xvfb")
    if xvfb is None:
        raise RuntimeError("no display and no Xvfb: install xvfb (apt-get install xvfb) or set DISPLAY")
    r, w = os.pipe()
    args = [xvfb, "-displayfd", str(w), "-screen", "0", "2560x1600x24", "-nolisten", "tcp"]
    proc = subprocess.Popen(args + (["-terminate"] if until_last_client else []), start_new_session=until_last_client,
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
                   teach: int | None = None, before_show=None, view_preset: str = "iso"):
    """A document of ``tree`` at ``config`` and a viewport of it shown at ``size`` in the
    ``view_preset`` view (iso, or front/side/top orthographic), for rendering (screenshot,
    animate); ``teach``: the DH overlay of that link; ``before_show(doc, view)`` adds items
    first. Returns ``(doc, view)``."""
    doc = _QT.RobotDocument(tree)
    doc.load(tree, config)
    view = _QT.RobotViewport(doc)
    view.set_theme(theme)
    view.set_labels_visible(labels)
    if before_show is not None:
        before_show(doc, view)
    if teach is not None:
        from ..features.teach import attach_overlay

        view.dh_overlay = attach_overlay(view, doc, teach)
    view.resize(*size)
    view.show()
    make_application().processEvents()
    view.set_view(view_preset)
    return doc, view


def run_with_display(command: str, work: Callable[[], None]) -> int:
    """Run ``work`` for ``kinetree COMMAND`` with an X display (a private Xvfb when there is
    none): 0, or 1 with a one-line message for a KineTreeError, InputError, OSError or
    RuntimeError. Warnings print as ``kinetree COMMAND: warning: …`` lines.

    The private Xvfb is terminated whatever happens in ``work`` (another exception is printed
    as a traceback, exit 1): it must not outlive us. The process then ends with ``os._exit``:
    Qt must not talk to the X server that has gone at its own exit."""
    xvfb = None
    code = EXIT_BAD_INPUT
    try:
        with warnings_as_lines(command):
            xvfb = ensure_display()
            work()
        code = EXIT_OK
    except (KineTreeError, InputError, OSError, RuntimeError) as exc:
        print(f"kinetree {command}: {error_text(exc)}", file=sys.stderr)
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
