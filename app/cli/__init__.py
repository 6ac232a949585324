"""The command line, ``kinetree COMMAND …``: one module per command, each with
``add_parser(sub)`` and ``command(args)``; what they share (argument types, ROBOT, ``--q``
and the limits, warnings, exit status) is in :mod:`.common`. ``app/main.py`` (the entry point)
dispatches here; nothing here imports it. Only the rendering commands (:data:`DISPLAY_COMMANDS`)
import Qt, and only when they run.
"""

from __future__ import annotations

import argparse

from kinetree.core.lazy import LazyImports

from .common import EXIT_OK, EXIT_USAGE, accept_negative_numbers, check_outputs, run
from .display import run_with_display

#: every command's module, in the order ``kinetree --help`` lists them (see kinetree.core.lazy: the
#: architecture test checks each exists)
COMMAND_MODULES = LazyImports(__name__, {
    "screenshot": ".screenshot", "animate": ".animate", "details": ".details", "fk": ".fk", "convert": ".convert",
    "html": ".html", "library": ".library", "ik": ".ik", "symbolic": ".symbolic", "dh": ".dh",
    "dynamics": ".dynamics", "torques": ".torques",
})
#: every command, in that order, by its module's name
COMMANDS = tuple(COMMAND_MODULES.table)
#: the commands that render with the GUI machinery (see :mod:`.display`)
DISPLAY_COMMANDS = ("screenshot", "animate")


def build_parser() -> argparse.ArgumentParser:
    """The ``kinetree`` argument parser with every command."""
    p = argparse.ArgumentParser(
        prog="kinetree", description="Build and scrub kinematic trees. With no command (or just a robot: a "
        "library name or a file), opens the app.",
        epilog="kinetree [ROBOT] opens the app; kinetree COMMAND --help describes a command.")
    sub = p.add_subparsers(dest="command", metavar="COMMAND")
    for name in COMMANDS:
        accept_negative_numbers(getattr(COMMAND_MODULES, name).add_parser(sub))
    return p


def main(argv: list[str]) -> int:
    """Run ``kinetree COMMAND …`` (``argv`` without the program name); the exit status."""
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as exc:  # --help (0) or a usage error (2)
        return int(exc.code or EXIT_OK)
    if args.command is None:
        parser.print_help()
        return EXIT_USAGE
    module = getattr(COMMAND_MODULES, args.command)

    def command(a: argparse.Namespace) -> int:
        check_outputs(a)  # no command writes over its input file
        return module.command(a)

    if args.command in DISPLAY_COMMANDS:
        return run_with_display(args.command, lambda: command(args))
    return run(command, args)
