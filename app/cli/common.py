"""What every ``kinetree COMMAND`` shares: argument types, the ROBOT argument, joint values
(``--q``, ``--deg``, the limits check), warnings as ``kinetree CMD: warning: …`` lines and the
exit status. No Qt here.

Exit status: :data:`EXIT_OK`; :data:`EXIT_BAD_INPUT` for bad input (a one-line message on
stderr); :data:`EXIT_USAGE` for usage errors (argparse's own convention, also a number out of
an option's range); :data:`EXIT_PIPE` when stdout is closed early (``| head -1``; as a tool
killed by SIGPIPE).
"""

from __future__ import annotations

import argparse
import logging
import math
import os
import re
import stat
import sys
import warnings
from collections.abc import Callable, Iterator
from contextlib import contextmanager

import numpy as np
from kinetree.core import KineTreeError, list_robots
from kinetree.core.io import READ_SUFFIXES, open_robot

EXIT_OK = 0
EXIT_BAD_INPUT = 1
EXIT_USAGE = 2
EXIT_PIPE = 141  # 128 + SIGPIPE, the status a shell reports for a tool killed by it


class InputError(Exception):
    """Bad input found by the CLI itself (exit status 1)."""


# --- argument types -----------------------------------------------------------------------------

#: What argparse must take as a value, not an option: negative numbers in every notation float()
#: reads (``-1e-3``, ``-.5``, ``-1_000``, ``-inf``, ``-nan``); argparse alone knows only ``-1``
#: and ``-1.5`` and ends ``--q 0 -1e-3`` with "expected at least one argument".
NEGATIVE_NUMBER = re.compile(r"^-(\d[\d_]*\.?[\d_]*|\.\d[\d_]*)(e[-+]?\d+)?$|^-(inf|infinity|nan)$", re.IGNORECASE)


def accept_negative_numbers(parser: argparse.ArgumentParser) -> None:
    """Make ``parser`` read every negative number as a value (it must have no option that looks
    like a number, which argparse would otherwise consult)."""
    parser._negative_number_matcher = NEGATIVE_NUMBER  # argparse's hook for exactly this


def name_arg(text: str) -> str:
    """A body name given on the command line: an empty one is a usage error, not "the default"."""
    if not text.strip():
        raise argparse.ArgumentTypeError("must not be empty")
    return text


def size_arg(text: str) -> tuple[int, int]:
    """An image size ``WxH``, 16…8192 pixels each way."""
    try:
        w, h = (int(v) for v in text.lower().split("x"))
    except ValueError:
        raise argparse.ArgumentTypeError(f"size must look like 1280x800, got {text!r}") from None
    if not (16 <= w <= 8192 and 16 <= h <= 8192):
        raise argparse.ArgumentTypeError(f"size {text!r} out of range (16…8192)")
    return w, h


def positive_arg(text: str) -> float:
    """A positive, finite number."""
    try:
        v = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"must be a number, got {text!r}") from None
    if not (v > 0 and v < float("inf")):
        raise argparse.ArgumentTypeError(f"must be positive and finite, got {text!r}")
    return v


def add_robot_argument(parser: argparse.ArgumentParser, dest: str = "robot", package_path: bool = True,
                       help: str = "library name or robot file (.urdf, .xacro, .sdf, .xml/.mjcf, .kinetree.json, "
                                   ".csv)") -> None:
    """ROBOT and the options of reading it: ``--allow-env`` (off by default: a xacro's
    ``$(env X)`` would copy the environment into the model) and ``--package-path``."""
    parser.add_argument(dest, help=help)
    parser.set_defaults(_inputs=(*(parser.get_default("_inputs") or ()), dest))  # see check_outputs
    parser.add_argument("--allow-env", action="store_true",
                        help="let a .xacro read environment variables ($(env X), $(optenv X))")
    if package_path:
        parser.add_argument("--package-path", action="append", default=[], metavar="DIR",
                            help="a folder holding ROS packages, for package:// mesh URIs (repeatable; "
                                 "$ROS_PACKAGE_PATH and the file's ancestor folders are searched too)")


def add_output_argument(parser: argparse.ArgumentParser, *flags: str, what: str, **kwargs) -> None:
    """An argument naming a file the command writes (``what`` it holds: "conversion", "table" …),
    checked by :func:`check_outputs` against the input files before the command runs."""
    action = parser.add_argument(*flags, **kwargs)
    parser.set_defaults(_outputs={**(parser.get_default("_outputs") or {}), action.dest: what})


def check_output(output: str, source: str, what: str) -> None:
    """Refuse to write ``output`` over the input file ``source`` itself (through symlinks or
    another hard link): a half-written output would destroy the only copy of the robot."""
    try:
        same = os.path.isfile(source) and os.path.samefile(source, output)
    except OSError:  # no output file yet
        return
    if same:
        raise InputError(f"{output} is the input file {source}: write the {what} to another file")


def check_outputs(args: argparse.Namespace) -> None:
    """Every output path of the command (:func:`add_output_argument`) against every input file
    (:func:`add_robot_argument`): the one check, run by the dispatcher for every command."""
    for dest, what in (getattr(args, "_outputs", None) or {}).items():
        output = getattr(args, dest, None)
        for source in (getattr(args, d, None) for d in getattr(args, "_inputs", ())):
            if output and source:
                check_output(output, source, what)


#: the viewport's view presets (app/viewport/camera.py VIEW_PRESETS; not imported: no Qt here)
VIEWS = ("iso", "front", "side", "top")


def add_view_argument(parser: argparse.ArgumentParser) -> None:
    """``--view iso|front|side|top``: the GUI's view presets (front/side/top orthographic)."""
    parser.add_argument("--view", choices=VIEWS, default="iso",
                        help="iso (perspective, the default) or front / side / top (orthographic, as the "
                        "GUI's views: front looks along +y, side along -x, top down -z)")


def add_q_arguments(parser: argparse.ArgumentParser, default: str, deg_help: str) -> None:
    """``--q``, ``--deg`` and ``--ignore-limits``, as fk, screenshot and animate take them."""
    parser.add_argument("--q", nargs="+", type=float, metavar="V",
                        help=f"joint positions in configuration order (radians / metres; default: {default})")
    parser.add_argument("--deg", action="store_true", help=deg_help)
    parser.add_argument("--ignore-limits", action="store_true", help="accept a q outside the joint limits")


# --- the robot ----------------------------------------------------------------------------------

_KINDS = ((stat.S_ISDIR, "a folder"), (stat.S_ISFIFO, "a FIFO (named pipe)"), (stat.S_ISSOCK, "a socket"),
          (stat.S_ISCHR, "a character device"), (stat.S_ISBLK, "a block device"))


def check_robot_source(source: str) -> None:
    """Refuse a ROBOT that names an existing folder, device or pipe with no robot-file suffix:
    the library lookup would answer "no robot named '/etc'". A bare library name (``puma560``) stays a library name
    even when a folder of that name is in the working directory."""
    if source.lower().endswith(READ_SUFFIXES):
        return  # read as a file: the reader says what it is instead ("is a FIFO, not a regular file")
    try:
        st = os.stat(source)
    except (OSError, ValueError):
        return  # no such path: a library name
    if stat.S_ISREG(st.st_mode):
        return

    if source in list_robots():
        return
    kind = next((what for test, what in _KINDS if test(st.st_mode)), "not a regular file")
    raise InputError(f"{source} is {kind}, not a robot file")


def open_source(source: str, args: argparse.Namespace):
    """``(tree, stored configuration or None)`` of ROBOT ``source`` with ``args``'s reading options."""
    check_robot_source(source)
    return open_robot(source, allow_env=getattr(args, "allow_env", False),
                      package_paths=tuple(getattr(args, "package_path", ())))


# --- joint values -------------------------------------------------------------------------------

def angle_rows(tree) -> np.ndarray:
    """Per configuration row, whether ``--deg`` converts it: revolute joints and the angles of
    planar and composite joints (not lengths, not quaternions)."""
    rows = np.zeros(tree.position_count, dtype=bool)
    for name in tree.movable_joint_names:
        j = tree.find_joint(name).joint
        sl = tree.position_index(name)
        if j.type == "revolute":
            rows[sl] = True
        elif j.type == "planar":
            rows[sl.start + 2] = True
        elif j._rows:  # a composite joint's rotation rows
            for k in range(j.position_count):
                rows[sl.start + k] = k not in j.length_rows
    return rows


def angle_scale(tree) -> np.ndarray:
    """Per configuration row, the factor from radians to degrees (1 for the rows ``--deg`` leaves)."""
    return np.where(angle_rows(tree), 180 / np.pi, 1.0)


def configuration(tree, values: list[float] | None, degrees: bool) -> np.ndarray:
    """The configuration of ``--q`` values (home when None), angles in degrees if ``degrees``."""
    if values is None:
        return tree.home_configuration()
    q = np.array(values, dtype=float)
    if degrees and q.size == tree.position_count:  # another size: config_to_vector says so
        q = np.where(angle_rows(tree), q * (np.pi / 180), q)
    return tree.config_to_vector(q)


def checked_configuration(tree, args: argparse.Namespace, stored: np.ndarray | None,
                          values: list[float] | None = None, verb: str = "compute") -> np.ndarray:
    """The configuration a command draws or computes: ``--q`` (``args.q``, or ``values``; with
    ``--deg``), else the file's ``stored`` one, else home. A ``--q`` outside the joint limits is
    refused (:class:`InputError` naming joint, value and limits in the user's unit, and what
    ``--ignore-limits`` would ``verb``); the file's own configuration outside them (a published
    pose may lie outside) is used with a warning."""
    values = args.q if values is None else values
    q = stored if values is None and stored is not None else configuration(tree, values, args.deg)
    bad = [] if args.ignore_limits else tree.limit_violations(q)
    if bad and values is None:
        warn(args.command, "the stored configuration is outside the limits: "
             + "; ".join(v.describe(args.deg) for v in bad))
    elif bad:
        raise InputError("; ".join(v.describe(args.deg) for v in bad) + f" (--ignore-limits to {verb} it anyway)")
    return q


def fixed(values, digits: int) -> str:
    """Numbers with ``digits`` after the point, space-separated, with no ``-0.000`` and no
    overflow: a value too large to have decimals (|x| ≥ 2**52) is printed as it is, where
    rounding it would multiply it by 10**digits (1e308 became inf)."""
    out = []
    for x in np.asarray(values, dtype=float).ravel().tolist():
        if math.isfinite(x) and abs(x) < 2.0**52:
            x = round(x, digits) + 0.0  # rounding first keeps "-0.000000" out of the output
        out.append(f"{x:.{digits}f}")
    return " ".join(out)


# --- warnings and running -----------------------------------------------------------------------

def warn(command: str, message: str) -> None:
    """A ``kinetree COMMAND: warning: …`` line on stderr."""
    print(f"kinetree {command}: warning: {message}", file=sys.stderr)


class _WarningLines(logging.Handler):
    """Log records of WARNING and above (the viewport's "mesh file not loaded") as :func:`warn` lines."""

    def __init__(self, command: str) -> None:
        super().__init__(logging.WARNING)
        self.command = command

    def emit(self, record: logging.LogRecord) -> None:
        warn(self.command, record.getMessage())


@contextmanager
def warnings_as_lines(command: str) -> Iterator[None]:
    """Inside, a Python warning or a logged warning prints as :func:`warn` does (not with the
    core's source line, not as ``WARNING logger: …``)."""

    def show(message, category, filename, lineno, file=None, line=None) -> None:
        warn(command, str(message))

    handler = _WarningLines(command)
    logging.getLogger().addHandler(handler)
    try:
        with warnings.catch_warnings():
            warnings.showwarning = show
            yield
    finally:
        logging.getLogger().removeHandler(handler)


def error_text(exc: BaseException) -> str:
    """The one line of an error: an OSError without its "[Errno 28]" prefix (our own name the
    file in their message; the system's get theirs in front)."""
    if isinstance(exc, OSError) and exc.strerror:
        return f"{exc.filename}: {exc.strerror}" if exc.filename else exc.strerror
    return str(exc)


def run(command: Callable[[argparse.Namespace], int], args: argparse.Namespace) -> int:
    """Run a sub-command. A warning becomes a line ``kinetree CMD: warning: …`` on stderr; bad
    input one line on stderr and exit status 1; a closed stdout (``| head -1``) ends it
    quietly with status 141."""
    try:
        with warnings_as_lines(args.command):
            code = command(args)
        sys.stdout.flush()  # a closed pipe shows here, not as a message at exit
        return code
    except BrokenPipeError:  # the reader went away (`| head -1`): end quietly, as a SIGPIPE'd tool does
        # stdout to /dev/null: the interpreter's last flush must not raise again
        # (https://docs.python.org/3/library/signal.html#note-on-sigpipe)
        try:
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        except (OSError, ValueError):  # a stdout with no file descriptor (captured in a test)
            pass
        return EXIT_PIPE
    except (KineTreeError, InputError, OSError) as exc:
        print(f"kinetree {args.command}: {error_text(exc)}", file=sys.stderr)
        return EXIT_BAD_INPUT


# --- gravity (torques, dynamics) ------------------------------------------------------------------

#: Gravity when the robot sets none (``tree.gravity`` is 0 by default, as MATLAB's): the GUI's rule.
STANDARD_GRAVITY = (0.0, 0.0, -9.80665)  # the Joints panel's


def add_gravity_argument(parser: argparse.ArgumentParser) -> None:
    """``--gravity GX GY GZ`` (m/s²)."""
    parser.add_argument("--gravity", nargs=3, type=float, metavar=("GX", "GY", "GZ"),
                        help="gravity in the base frame, m/s² (default: the robot's, or 9.80665 along −z when it "
                             "sets none; --gravity 0 0 0 for none)")


def chosen_gravity(tree, given: list[float] | None) -> tuple[np.ndarray, str]:
    """``(gravity, where it comes from)``: ``--gravity``, else the robot's, else standard."""
    if given is not None:
        g = np.array(given, dtype=float)
        if not np.isfinite(g).all():
            raise InputError(f"--gravity must be finite numbers, got {' '.join(map(str, given))}")
        return g, "--gravity"
    if np.any(tree.gravity):
        return tree.gravity, "the robot's"
    return np.array(STANDARD_GRAVITY), "standard, along −z: the robot sets none"
