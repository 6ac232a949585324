"""Reading one SDFormat ``<model>`` (its links, joints, frames, nested models and includes) into
the frame graph and the link and joint records that :mod:`kinetree.core.io.sdf.read` builds the
tree from."""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np

from ...errors import KineTreeError
from ...model.body import Visual
from ...names import text_problem
from ...transforms import inverse_transform
from .elements import floats, kept, pose_matrix, resolve_uri, sdf_version
from .frames import Frame

__all__ = ["SdfWarning", "read_model"]

_MAX_MASS = 1e12
_DEFAULT_COLOR = (0.7, 0.7, 0.75, 1.0)
_JOINT_TYPES = ("revolute", "continuous", "prismatic", "fixed", "ball", "universal")
#: Children of <link>, <joint> and <axis> KineTree reads itself (all others are kept verbatim).
_LINK_READ = {"pose", "inertial", "visual", "collision"}
_JOINT_READ = {"pose", "parent", "child", "axis", "axis2"}


class SdfWarning(UserWarning):
    """Something in an SDFormat file was read differently from what it says, or not kept."""


class MeshNotFoundWarning(SdfWarning):
    """A mesh an SDFormat file names was not found; the visual is kept as written."""


#: why :func:`reserved_name` names are refused (the writer refuses them too)
RESERVED = "a name may not contain '::', be 'world' or start with '__'"


def reserved_name(name: str) -> bool:
    """Whether SDFormat reserves ``name`` for itself (a link, joint, frame or model may not have it)."""
    return "::" in name or name in ("world", "__model__") or name.startswith("__")


def _name(el, ctx, what: str) -> str:
    name = el.get("name")
    if problem := text_problem(name):
        raise ctx.error(el, f"<{el.tag}>", f"name {problem}")
    if reserved_name(name):
        raise ctx.error(el, f"{what} {name!r}", RESERVED)
    return name


def _child_text(el, tag: str, default: str | None = None) -> str | None:
    c = el.find(tag)
    return default if c is None or c.text is None else c.text.strip()


def read_model(el, ctx, version, prefix: str, outer: str | None, state: dict, depth: int,
               name: str | None = None, pose_el=None, pose_ctx=None) -> None:
    """Add the model ``el`` to ``state`` (its frames to ``state["graph"]``, links and joints to
    ``state["links"]``/``state["joints"]``). ``prefix``: the ``::`` scope of its elements;
    ``outer``: the enclosing model frame (``None`` for the top model); ``name``/``pose_el``:
    an ``<include>``'s overrides."""

    graph = state["graph"]
    if depth > state["max_nesting"]:
        raise ctx.error(el, "<model>", f"models nested more than {state['max_nesting']} deep")
    own = _name(el, ctx, "model") if name is None else name
    frame = f"{prefix}__model__"
    new17 = version >= (1, 7)
    pose_el = el.find("pose") if pose_el is None else pose_el
    pose_ctx = pose_ctx or ctx
    if el.get("placement_frame"):
        state["found"].append((SdfWarning, f"{ctx.where(el)}: model {own!r}: placement_frame "
                                           f"{el.get('placement_frame')!r} is not read; the pose places the "
                                           "model frame"))
    X = pose_matrix(pose_el, pose_ctx, f"model {own!r}")
    links = [c for c in el if c.tag == "link"]
    canonical = el.get("canonical_link") or (links[0].get("name") if links else None)
    if outer is None:  # the top model: its pose places it in the world
        graph.add(Frame(frame, "model", None, np.eye(4), ctx.where(el), canonical and prefix + canonical, prefix))
        graph.add(Frame("world", "world", frame, inverse_transform(X), ctx.where(el), None, prefix))
        state["model_info"] = {"name": own, "attrs": {k: v for k, v in el.attrib.items() if k != "name"},
                               "static": _child_text(el, "static", "false") in ("true", "1")}
    else:
        outer_scope = outer[: -len("__model__")]
        rel = _rel(pose_el, new17, outer_scope, outer, pose_ctx, state)
        graph.add(Frame(frame, "model", rel, X, pose_ctx.where(pose_el if pose_el is not None else el),
                        canonical and prefix + canonical, outer_scope))
        graph.add(Frame(prefix[:-2], "model", frame, np.eye(4), ctx.where(el), frame, outer_scope))
    kept_here: list[str] = []
    for c in el:
        if not isinstance(c.tag, str):
            continue
        tag = c.tag
        if tag == "link":
            _link(c, ctx, version, prefix, frame, state)
        elif tag == "joint":
            _joint(c, ctx, version, prefix, state)
        elif tag == "frame":
            if not new17:
                state["found"].append((SdfWarning, f"{ctx.where(c)}: <frame> needs SDFormat 1.7 or later; ignored"))
                continue
            n = _name(c, ctx, "frame")
            att = (c.get("attached_to") or "__model__").strip()
            att = "world" if att == "world" else prefix + att
            p = c.find("pose")
            rel = _rel(p, new17, prefix, att, ctx, state)
            graph.add(Frame(prefix + n, "frame", rel, pose_matrix(p, ctx, f"frame {n!r}"), ctx.where(c), att, prefix))
        elif tag == "model":
            sub = _name(c, ctx, "model")
            read_model(c, ctx, version, f"{prefix}{sub}::", frame, state, depth + 1)
        elif tag == "include":
            _include(c, ctx, version, prefix, frame, state, depth)
        elif tag in ("pose",):
            continue
        elif outer is None:
            kept_here.append(kept(c))
        else:
            state["found"].append((SdfWarning, f"{ctx.where(c)}: <{tag}> of nested model {prefix[:-2]!r} is not kept"))
    if outer is None:
        state["model_ext"] = tuple(kept_here)


def _rel(pose_el, new17: bool, scope: str, default: str, ctx, state) -> str:
    if pose_el is None:
        return default
    rel = pose_el.get("relative_to")
    if rel is not None and not new17:
        state["found"].append((SdfWarning, f"{ctx.where(pose_el)}: relative_to needs SDFormat 1.7 or later; "
                                           "ignored"))
        return default
    if rel is None or not rel.strip():
        return default
    rel = rel.strip()
    return "world" if rel == "world" else scope + rel


def _link(el, ctx, version, prefix: str, frame: str, state: dict) -> None:

    n = _name(el, ctx, "link")
    full = prefix + n
    p = el.find("pose")
    f = Frame(full, "link", _rel(p, version >= (1, 7), prefix, frame, ctx, state),
              pose_matrix(p, ctx, f"link {full!r}"), ctx.where(el), None, prefix)
    state["graph"].add(f)
    link = {"frame": f, "inertial": _inertial(el.find("inertial"), ctx, full), "visuals": [], "collisions": [],
            "ext": []}
    for c in el:
        if not isinstance(c.tag, str):
            continue
        if c.tag in ("visual", "collision"):
            shape = _shape(c, ctx, version, prefix, full, state)
            if shape is not None:
                link["visuals" if c.tag == "visual" else "collisions"].append(shape)
            else:
                link["ext"].append(_kept(c))
        elif c.tag not in _LINK_READ:
            link["ext"].append(_kept(c))
    link["ext"] = tuple(link["ext"])
    state["links"][full] = link


def _kept(el) -> str:

    return kept(el)


def _inertial(el, ctx, link: str) -> tuple[float, np.ndarray, np.ndarray]:

    if el is None:  # SDFormat's defaults (libsdformat and Drake give a link without <inertial> these)
        return 1.0, np.eye(4), np.eye(3)
    what = f"link {link!r}: inertial"
    m_el = el.find("mass")
    m = floats(m_el.text if m_el is not None else "1", 1, ctx, m_el if m_el is not None else el,
               f"{what} mass", _MAX_MASS)[0]
    if m < 0:
        raise ctx.error(m_el, what, f"mass {m} is negative")
    p = el.find("pose")
    if p is not None and (p.get("relative_to") or "").strip() not in ("", link.rsplit("::", 1)[-1]):
        raise ctx.error(p, what, "a pose relative_to another frame than the link is not read")
    X = pose_matrix(p, ctx, what)
    I = np.zeros((3, 3))
    ie = el.find("inertia")
    defaults = {"ixx": 1.0, "iyy": 1.0, "izz": 1.0, "ixy": 0.0, "ixz": 0.0, "iyz": 0.0}
    vals = {}
    for k, d in defaults.items():
        c = ie.find(k) if ie is not None else None
        vals[k] = floats(c.text if c is not None else str(d), 1, ctx, c if c is not None else el,
                         f"{what} {k}", _MAX_MASS)[0]
    I[0, 0], I[1, 1], I[2, 2] = vals["ixx"], vals["iyy"], vals["izz"]
    I[0, 1] = I[1, 0] = vals["ixy"]
    I[0, 2] = I[2, 0] = vals["ixz"]
    I[1, 2] = I[2, 1] = vals["iyz"]
    return m, X, I


def _shape(el, ctx, version, prefix: str, link: str, state: dict):
    """``(Visual, frame its pose is relative to or None for the link)``; ``None`` for geometry
    KineTree does not draw (kept verbatim by the caller)."""

    tag = el.tag
    what = f"link {link!r}: {tag} {el.get('name', '')!r}"
    g = el.find("geometry")
    kinds = [c for c in g if isinstance(c.tag, str)] if g is not None else []
    if len(kinds) != 1 or kinds[0].tag not in ("box", "cylinder", "sphere", "mesh"):
        shown = kinds[0].tag if kinds else "no geometry"
        state["found"].append((SdfWarning, f"{ctx.where(el)}: {what}: {shown} is not drawn; kept as written"))
        return None
    k = kinds[0]
    filename = ""
    if k.tag == "box":
        size = floats(_child_text(k, "size", "1 1 1"), 3, ctx, k, f"{what} box size")
    elif k.tag == "cylinder":
        size = [floats(_child_text(k, t, "1"), 1, ctx, k, f"{what} cylinder {t}")[0] for t in ("radius", "length")]
    elif k.tag == "sphere":
        size = floats(_child_text(k, "radius", "1"), 1, ctx, k, f"{what} sphere radius")
    else:
        size = floats(_child_text(k, "scale", "1 1 1"), 3, ctx, k, f"{what} mesh scale")
        uri = _child_text(k, "uri", "")
        if not uri:
            raise ctx.error(k, what, "mesh has no <uri>")
        outside: list = []
        path = resolve_uri(uri, ctx, state["root"], k.find("uri"), f"{what} mesh", outside)
        if outside:  # a file:// URI: kept for export, never read (the viewer loads plain paths only)
            filename = outside[0].as_uri()
            state["found"].append((SdfWarning, f"{ctx.where(k)}: {what}: mesh {uri!r:.200} is outside the model's "
                                               f"folder tree {str(state['root'])!r}; not read, kept as written"))
        elif path is not None and path.is_file():
            filename = str(path)
        else:
            # where it would be (inside the folder tree), or the URI as written when there is no folder
            filename = uri if path is None else str(path)
            state["found"].append((MeshNotFoundWarning, f"{ctx.where(k)}: {what}: mesh {uri!r:.200} not found; "
                                                        "kept as written"))
    lost = state.setdefault("lost", {})  # what of a shape is not kept: one warning at the end, with counts
    for c in el:
        if isinstance(c.tag, str) and c.tag not in ("geometry", "pose", "material"):
            lost[f"{tag} <{c.tag}>"] = lost.get(f"{tag} <{c.tag}>", 0) + 1
    color = _DEFAULT_COLOR
    mat = el.find("material")
    if mat is not None and tag == "visual":
        for t in ("diffuse", "ambient"):
            c = mat.find(t)
            if c is not None and (c.text or "").strip():
                n = len(c.text.split())
                rgba = floats(c.text, 4 if n == 4 else 3, ctx, c, f"{what} material {t}", 1e6)
                color = tuple(min(1.0, max(0.0, x)) for x in (*rgba, 1.0)[:4])
                break
    for c in mat if mat is not None else ():
        if isinstance(c.tag, str) and (tag != "visual" or c.tag not in ("diffuse", "ambient")):
            lost[f"material <{c.tag}>"] = lost.get(f"material <{c.tag}>", 0) + 1
    p = el.find("pose")
    rel = _rel(p, version >= (1, 7), prefix, link, ctx, state)
    try:
        v = Visual(k.tag, tuple(size), pose_matrix(p, ctx, what), color, filename, el.get("name") or "")
    except KineTreeError as exc:
        raise ctx.error(el, what, str(exc)) from None
    return v, (None if rel == link else rel)


def _axis(el, ctx, what: str, frame: Frame, version, prefix: str, state: dict) -> dict:

    out = {"xyz": np.array([0.0, 0.0, 1.0]), "lower": -math.inf, "upper": math.inf, "damping": 0.0,
           "friction": 0.0, "limit_ext": None, "in": None, "initial": None}
    if el is None:
        return out
    read = {"xyz", "limit", "dynamics", "use_parent_model_frame", "initial_position"}
    initial = el.find("initial_position")
    if initial is not None:  # the joint's home (KineTree writes a looped tree's closed home there)
        out["initial"] = floats(initial.text, 1, ctx, initial, f"{what} initial_position", 1e6)[0]
    rest = sorted({c.tag for c in el if isinstance(c.tag, str)} - read)
    lim = el.find("limit")
    if lim is not None:
        rest += [f"limit {t}" for t in sorted({c.tag for c in lim if isinstance(c.tag, str)}
                                              - {"lower", "upper", "effort", "velocity"})]
    if rest:  # <mimic> (1.11), limit stiffness …: said, not silently dropped
        state["found"].append((SdfWarning, f"{ctx.where(el)}: {what}: {', '.join(rest)} not kept"))
    xyz = el.find("xyz")
    if xyz is not None:
        a = np.array(floats(xyz.text, 3, ctx, xyz, f"{what} xyz", 1e6))
        if np.linalg.norm(a) < 1e-12:
            raise ctx.error(xyz, what, "axis xyz is zero")
        out["xyz"] = a / np.linalg.norm(a)
        ein = (xyz.get("expressed_in") or "").strip()
        if version >= (1, 7) and ein:
            out["in"] = "world" if ein == "world" else prefix + ein
    if version < (1, 7) and (_child_text(el, "use_parent_model_frame", "false") in ("true", "1")):
        out["in"] = f"{prefix}__model__"
    lim = el.find("limit")
    if lim is not None:
        for key in ("lower", "upper"):
            t = _child_text(lim, key)
            if t is not None:
                out[key] = floats(t, 1, ctx, lim.find(key), f"{what} limit {key}", math.inf)[0]
        if out["lower"] > out["upper"]:
            raise ctx.error(lim, what, f"limit lower {out['lower']} > upper {out['upper']}")
        extra = {k: _child_text(lim, k) for k in ("effort", "velocity") if _child_text(lim, k) is not None}
        for k, t in extra.items():
            floats(t, 1, ctx, lim.find(k), f"{what} limit {k}", math.inf)
        extra = {k: t for k, t in extra.items() if float(t) != -1.0}  # SDFormat's "no limit"
        if extra:
            out["limit_ext"] = "<limit " + " ".join(f'{k}="{float(t)!r}"' for k, t in extra.items()) + "/>"
    dyn = el.find("dynamics")
    if dyn is not None:
        for key in ("damping", "friction"):
            t = _child_text(dyn, key)
            if t is not None:
                out[key] = floats(t, 1, ctx, dyn.find(key), f"{what} dynamics {key}", 1e12)[0]
        rest = sorted({c.tag for c in dyn if isinstance(c.tag, str)} - {"damping", "friction"})
        if rest:
            state["found"].append((SdfWarning, f"{ctx.where(dyn)}: {what}: dynamics {', '.join(rest)} not kept"))
    return out


def _joint(el, ctx, version, prefix: str, state: dict) -> None:

    n = _name(el, ctx, "joint")
    full = prefix + n
    t = (el.get("type") or "").strip()
    what = f"joint {full!r}"
    if t not in _JOINT_TYPES:
        raise ctx.error(el, what, f"type {t!r:.40} is not one KineTree models ({', '.join(_JOINT_TYPES)})")
    ends = {}
    for end in ("parent", "child"):
        text = _child_text(el, end)
        if not text:
            raise ctx.error(el, what, f"has no <{end}>")
        ends[end] = "world" if text == "world" else prefix + text
    p = el.find("pose")
    f = Frame(full, "joint", _rel(p, version >= (1, 7), prefix, ends["child"], ctx, state),
              pose_matrix(p, ctx, what), ctx.where(el), ends["child"], prefix)
    state["graph"].add(f)
    axes = []
    for tag in ("axis", "axis2")[: {"universal": 2, "ball": 0, "fixed": 0}.get(t, 1)]:
        axes.append(_axis(el.find(tag), ctx, f"{what} <{tag}>", f, version, prefix, state))
    ext = tuple(_kept(c) for c in el if isinstance(c.tag, str) and c.tag not in _JOINT_READ)
    state["joints"].append({"name": full, "type": t, "frame": f, "parent": ends["parent"], "child": ends["child"],
                            "axes": axes, "ext": ext})


def _include(el, ctx, version, prefix: str, frame: str, state: dict, depth: int) -> None:

    state["includes"] += 1
    if state["includes"] > state["max_includes"]:
        raise ctx.error(el, "<include>", f"more than {state['max_includes']} includes")
    uri = _child_text(el, "uri")
    if not uri:
        raise ctx.error(el, "<include>", "has no <uri>")
    folder = resolve_uri(uri, ctx, state["root"], el.find("uri"), "<include>")
    if folder is None or not folder.exists():
        raise ctx.error(el, "<include>", f"{uri!r:.200} not found in the model's folder tree")
    path = folder if folder.is_file() else _model_file(folder, ctx, el, state)
    resolve_uri(str(path), ctx, state["root"], el, "<include>")  # model.config may point outside
    data = state["include_budget"].read(path, state["max_bytes"], "SDFormat file",
                                        lambda msg: ctx.error(el, "<include>", msg))
    sub_ctx = state["ctx_type"](str(path), path.parent)
    root = state["parse"](data, sub_ctx, state["budget"])
    models = root.findall("model") if root.tag == "sdf" else []
    if len(models) != 1:
        raise sub_ctx.error(root, f"<{root.tag}>", f"included by {ctx.where(el)}: must be <sdf> with one <model>")

    name = _child_text(el, "name") or _name(models[0], sub_ctx, "model")
    if problem := text_problem(name):
        raise ctx.error(el, "<include> name", problem)
    read_model(models[0], sub_ctx, sdf_version(root, sub_ctx), f"{prefix}{name}::", frame, state, depth + 1,
               name, el.find("pose"), ctx)


def _model_file(folder: Path, ctx, el, state) -> Path:
    """The SDFormat file of a model folder: the one its ``model.config`` names, else ``model.sdf``."""
    config = folder / "model.config"
    if config.is_file():
        cctx = state["ctx_type"](str(config), folder)
        root = state["parse"](state["read"](config, 1 << 20, "model.config"), cctx, state["budget"])
        names = [s.text.strip() for s in root.iter("sdf") if s.text and s.text.strip()]
        if names:
            return folder / names[-1]
    if (folder / "model.sdf").is_file():
        return folder / "model.sdf"
    raise ctx.error(el, "<include>", f"folder {str(folder)!r} has no model.config or model.sdf")

