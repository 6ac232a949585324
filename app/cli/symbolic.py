"""``kinetree symbolic``: T_n^0 (or T_n^j with ``--in``) or one A_i as a symbolic matrix in the
lecture's notation (``d2`` for a prismatic joint, ``c12``, Spong's ``T_3^0`` or Craig's ``^0T_3``). No Qt here.

Formats: ``text`` (``c1``, ``s12``: the lecture's shorthand), ``latex`` (``c_{1}``, a
``bmatrix``), ``python`` (a script that rebuilds the matrix with sympy) and ``json``
(``{"variables", "joints", "parameters", "matrix"}``, the matrix as 4×4 strings in sympy syntax,
which ``sympy.sympify`` reads back). sympy is imported only when this command runs.
"""

from __future__ import annotations

import argparse
import json

from kinetree.core.dh.chain import chain_path
from kinetree.core.lazy import LazyImports

from .common import InputError, add_robot_argument, name_arg, open_source

#: the symbolic model imports sympy (~0.5 s): not for `kinetree --help` (see kinetree.core.lazy)
_SYMPY = LazyImports(__name__, {"symbolic": "kinetree.core.teach.symbolic"})

#: Entries up to this long print as a grid; longer ones one per line.
GRID_WIDTH = 24


def _legend(model, comment: str) -> list[str]:
    used = model.matrix.free_symbols
    lines = [f"{comment} {v.name} = joint {j!r}" for v, j in zip(model.variables, model.joints) if v in used]
    lines += [f"{comment} {p.name} = {value!r}" for p, value in model.parameters.items()]
    return lines


def _text(model, title: str, label: str) -> str:
    to_text = _SYMPY.symbolic.to_text
    M = model.matrix
    cells = [[to_text(M[r, c], model.order[r][c]) for c in range(4)] for r in range(4)]
    lines = [f"# {title}", *_legend(model, "#")]
    if max(len(x) for row in cells for x in row) <= GRID_WIDTH:
        widths = [max(len(cells[r][c]) for r in range(4)) for c in range(4)]
        lines.append(f"{label} =")
        lines += ["  [" + "  ".join(cells[r][c].rjust(widths[c]) for c in range(4)) + "]" for r in range(4)]
    else:
        lines += [f"{label}[{r + 1},{c + 1}] = {cells[r][c]}" for r in range(3) for c in range(4)]
        lines.append(f"{label}[4,:] = " + "  ".join(cells[3]))
    return "\n".join(lines)


def command(args: argparse.Namespace) -> int:
    symbolic = _SYMPY.symbolic
    symbolic_model, to_latex, to_python, to_python_script = (
        symbolic.symbolic_model, symbolic.to_latex, symbolic.to_python, symbolic.to_python_script)
    tree, _ = open_source(args.robot, args)
    body = args.body or tree.end_effector
    if body is None:
        raise InputError(f"{args.robot} has no bodies")
    if args.link is not None and args.frame is not None:
        raise InputError("--link and --in: A_I is always in its parent's frame; give one of them")
    model = symbolic_model(tree, body, args.params, link=args.link, frame=args.frame, revolute=args.revolute,
                           sums=args.sums, first=args.first)
    path = chain_path(tree, body)
    label = model.label("text", args.notation)
    if args.link is not None:  # the chain's numbers may start past 1 (a wrist named q4…)
        what = f"{label}, the pose of {path[args.link - model.first]!r} in its parent"
    else:
        what = f"{label}, the pose of {body!r} in {args.frame or tree.base_name!r}"
    if args.format == "json":
        print(json.dumps({
            "robot": args.robot, "body": body, "link": args.link, "frame": args.frame or tree.base_name,
            "frames": list(model.frames), "label": label, "params": args.params,
            "variables": [v.name for v in model.variables], "joints": model.joints,
            "parameters": {p.name: value for p, value in model.parameters.items()},
            "matrix": [[to_python(model.matrix[r, c]) for c in range(4)] for r in range(4)],
        }, indent=2))
    elif args.format == "python":
        print(f"# {what}\n" + to_python_script(model, model.label("python")), end="")
    elif args.format == "latex":
        lines = [f"% {what}", *_legend(model, "%"), to_latex(model.matrix, model.label("latex", args.notation),
                                                                model.order)]
        print("\n".join(lines))
    else:
        print(_text(model, f"{what} ({args.params} parameters)", label))
    return 0


def _link(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"must be a whole number, got {text!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be 1 or more (links count from 1), got {value}")
    return value


def add_parser(sub) -> argparse.ArgumentParser:
    p = sub.add_parser("symbolic", help="symbolic pose of a body (c1, s12 …) or one link's A_i", description=(
        "The symbolic pose T_n^0 of BODY (default: the end effector) in the base, with --in FRAME T_n^j "
        "in FRAME (a body on the chain), or with --link I only A_I, the I-th body's pose in its parent on "
        "the way to BODY, in the joint variables: q_i (or theta_i) for a revolute joint, d_i for a "
        "prismatic one, i its place in the configuration. A chain whose joints are named q4, q5, q6 "
        "keeps those numbers (--first sets them). Parameters: symbolic (the default: the lecture's symbols "
        "a1, d2 … for a DH row's non-zero lengths, numbers for a joint set otherwise), numeric (numbers; right "
        "angles exact), general (every DH constant a "
        "symbol). Formats: text (c1, s12), latex, json (matrix entries in sympy syntax), python (a sympy "
        "script)."))
    add_robot_argument(p, package_path=False)
    p.add_argument("--body", type=name_arg, help="last body of the chain (default: the end effector)")
    p.add_argument("--in", dest="frame", type=name_arg, metavar="FRAME",
                   help="express the pose in FRAME, a body on the chain (T_n^j = A_{j+1}…A_n; default: the base)")
    p.add_argument("--link", type=_link, metavar="I",
                   help="only A_I, the I-th body from the base (1-based, in the chain's numbering)")
    p.add_argument("--params", choices=("numeric", "symbolic", "general"), default="symbolic",
                   help="DH constants as the lecture's symbols (default: a1, d3 for a DH row's non-zero lengths; a "
                        "joint not set by a DH row keeps its numbers), as numbers, or all as symbols")
    p.add_argument("--revolute", choices=("q", "theta"), default="q",
                   help="name of a revolute joint's variable: q1 (default) or the lecture's theta1")
    p.add_argument("--sums", choices=("folded", "expanded"), default="folded",
                   help="sums of joint angles folded as c12 (default) or expanded as c1*c2 - s1*s2")
    p.add_argument("--notation", choices=("spong", "craig"), default="spong",
                   help="T_3^0 as Spong and the lecture write it (default) or Craig's ^0T_3")
    p.add_argument("--first", type=_link, metavar="K",
                   help="number the chain's first joint K (default: 1, or as joint names q4, q5 … say)")
    p.add_argument("--format", choices=("text", "latex", "json", "python"), default="text")
    return p
