"""The files of an MJCF model, vetted before MuJoCo's C parser sees any of them.

:func:`vet_model` reads the model file and every ``<include file>`` (recursively) with the
project's bounded reads and a parser that resolves nothing (no DTD, no entities, no network;
libxml2's nesting limit), counts elements, and collects every file the model names — ``<mesh>``,
``<texture>`` (and its cube faces), ``<hfield>``, ``<skin>``, ``<flexcomp>``, any ``file*``
attribute — under the ``<compiler>``'s ``meshdir``/``texturedir``/``assetdir``. A name (or one of
those folders) that is absolute or leaves the model's folder tree (also through a symlink) is
refused, naming file, line and element; so is a named file that is not a regular file (a FIFO, a
device) or too large. The vetted bytes are handed to MuJoCo in memory (:class:`Vetted`), so it
never opens a path itself. A missing mesh, texture, height-field or skin file is not an error
here: the reader warns and drops what uses it; any other missing file (a ``<flexcomp>``'s, which
MuJoCo reads while parsing) is refused.
"""

from __future__ import annotations

import math
import os
from dataclasses import dataclass, field
from pathlib import Path

from lxml import etree

from ...disk.safe_io import MAX_BODIES, IncludeBudget, check_regular_file, read_regular_file, xml_error_text
from ...errors import FileFormatError
from ...model.xml_fragment import fragment_element, fragment_text

__all__ = ["MAX_ASSET_BYTES", "MAX_BYTES", "MAX_ELEMENTS", "MAX_INCLUDES", "SOURCE_ATTR", "Vetted", "parse_mjcf_xml",
           "source_of", "vet_model"]

#: An MJCF file (the model or an included one) larger than this is refused before parsing.
MAX_BYTES = 50 * 1024 * 1024
#: All asset files of one model together (meshes, textures, height fields) at most this.
MAX_ASSET_BYTES = 1024 * 1024 * 1024
#: Elements in the model and its includes together.
MAX_ELEMENTS = 2_000_000
#: ``<include>`` elements in the model and its includes together.
MAX_INCLUDES = 1000
#: A texture's width and height at most (a cube or skybox has six faces of width × width).
MAX_TEXTURE_SIDE = 4096
#: Texels of all textures together (builtin ones and PNG files): two full-size cube maps.
MAX_TEXELS = 2 * 6 * MAX_TEXTURE_SIDE**2
#: A height field's rows and columns at most, each; all height fields' samples together at most
#: :data:`MAX_HFIELD_SAMPLES`.
MAX_HFIELD_SIDE = 4096
MAX_HFIELD_SAMPLES = 4 * MAX_HFIELD_SIDE**2
#: ``<size nuser_body= nuser_jnt= …>``: user numbers per object at most (MuJoCo allocates them
#: for every object of the kind).
MAX_NUSER = 256
#: ``<size nkey>`` at most (each key holds the whole state).
MAX_KEYS = 10_000
#: A builtin mesh's resolutions (its first two ``params``; a grid's three counts, whose product is
#: at most the square of it): a supersphere of resolution 1000 took MuJoCo minutes, 300 two seconds.
MAX_MESH_RESOLUTION = 300

#: The ``<compiler>`` folder MuJoCo puts before each element's ``file…`` attribute (assetdir for others).
_DIR_OF = {"mesh": "meshdir", "skin": "meshdir", "hfield": "meshdir", "flexcomp": "meshdir", "texture": "texturedir"}
#: Elements whose missing file the reader can drop from the spec before MuJoCo compiles; MuJoCo
#: reads any other file (``<flexcomp>``'s) while parsing, from the working folder when it is not
#: handed the bytes, so those must be there.
DROPPABLE = ("mesh", "skin", "hfield", "texture")

_PARSER_ARGS = dict(resolve_entities=False, no_network=True, huge_tree=False, load_dtd=False,
                    dtd_validation=False, remove_comments=True, remove_pis=True, collect_ids=False)

#: The ``<custom><text>`` naming the body that is KineTree's base (MJCF's base is the world,
#: which has no name, mass or inertia of its own; the base is written as a body welded to it).
BASE_TEXT = "kinetree_base"


@dataclass
class Vetted:
    """What :func:`vet_model` found: the model's text, the includes and asset files MuJoCo may
    read (keyed as MuJoCo asks for them), the asset names whose file is missing (with the
    message to warn with) and the expanded element tree (includes in place) for what KineTree
    keeps verbatim."""

    source: str
    folder: Path
    xml: str
    root: etree._Element
    includes: dict[str, bytes] = field(default_factory=dict)
    assets: dict[str, bytes] = field(default_factory=dict)
    #: (element tag, file as written, message) of asset files that are not there
    missing: list[tuple[str, str, str]] = field(default_factory=list)
    #: asset file as written → absolute path, for the visuals' mesh files
    paths: dict[str, str] = field(default_factory=dict)
    #: (element tag, file attribute as written) → absolute path
    by_name: dict[tuple[str, str], str] = field(default_factory=dict)


#: Kept MJCF elements are stored wrapped in ``<mjcf>…</mjcf>`` (robot, body extensions), so that an
#: MJCF export writes back only them and a URDF export keeps them as unknown elements.
KEPT_TAG = "mjcf"

#: Marks the elements an include brought in with the included file's name (for messages).
SOURCE_ATTR = "{urn:kinetree:mjcf}source"


def source_of(el, default: str) -> str:
    """The file (``model.xml > part.xml``) ``el`` of the expanded tree came from."""
    while el is not None:
        if isinstance(el.tag, str) and el.get(SOURCE_ATTR) is not None:
            return el.get(SOURCE_ATTR)
        el = el.getparent()
    return default


def _where(source: str, el) -> str:
    line = getattr(el, "sourceline", None)
    return f"{source}:{line}" if line else source


def _start_tag(el) -> str:
    attrs = "".join(f" {k}={v!r:.80}" for k, v in el.attrib.items() if not k.startswith("{"))
    return f"<{el.tag}{attrs}>"


def parse_mjcf_xml(data: bytes, source: str) -> etree._Element:
    """Parse MJCF text with a parser that reads no DTD, expands no entity and touches no
    network; errors name ``source`` and the line."""
    for token in (b"<!DOCTYPE", b"<!ENTITY"):
        i = data.find(token)
        if i >= 0:
            line = data.count(b"\n", 0, i) + 1
            raise FileFormatError(f"{source}:{line}: {token.decode()[2:].lower()}: "
                                  "DTD and entity declarations are not allowed in an MJCF file")
    try:
        root = etree.fromstring(data, etree.XMLParser(**_PARSER_ARGS))
    except etree.XMLSyntaxError as exc:
        line = exc.lineno or (exc.position[0] if exc.position else 0)
        raise FileFormatError(f"{source}:{line}: malformed XML: {xml_error_text(exc.msg)}") from None
    except ValueError as exc:
        raise FileFormatError(f"{source}: malformed XML: {exc}") from None
    if root.tag != "mujoco":
        raise FileFormatError(f"{source}:{root.sourceline}: the root element is <{root.tag}>, not <mujoco>: "
                              "not an MJCF file")
    return root


def _within(path: Path, real_folder: Path) -> Path | None | bool:
    """``path`` resolved (through symlinks) when it stays in ``real_folder``'s tree; False when it
    leaves it, None when it cannot be resolved (a symlink loop, a name too long)."""
    try:
        real = path.resolve()
    except (OSError, RuntimeError, ValueError):
        return None
    return real if real.is_relative_to(real_folder) else False


class _Vetter:
    def __init__(self, path: Path) -> None:
        self.path = path
        self.folder = path.absolute().parent
        try:
            self.real_folder = self.folder.resolve()
        except (OSError, RuntimeError) as exc:
            raise FileFormatError(f"{path}: cannot resolve its folder ({exc})") from None
        self.elements = 0
        self.n_includes = 0
        self.asset_bytes = 0
        self.budget = IncludeBudget()
        self.seen: set[Path] = set()

    def inside(self, name: str, source: str, el, what: str) -> Path:
        """The absolute path of ``name`` (relative to the model's folder), refused when it is
        absolute or leaves the folder tree (also through a symlink)."""
        if not name or "\x00" in name:
            raise FileFormatError(f"{_where(source, el)}: {_start_tag(el)}: empty or invalid {what} name")
        if name.startswith(("/", "\\", "~")) or Path(name).is_absolute() or (len(name) > 1 and name[1] == ":"):
            raise FileFormatError(f"{_where(source, el)}: {_start_tag(el)}: {what} {name!r:.200} is an absolute "
                                  "path; an MJCF file may only name files in its own folder tree")
        real = _within(self.folder / name, self.real_folder)
        if real is None:
            raise FileFormatError(f"{_where(source, el)}: {_start_tag(el)}: {what} {name!r:.200} cannot be "
                                  "resolved (a symlink loop or a name too long)") from None
        if real is False:
            raise FileFormatError(f"{_where(source, el)}: {_start_tag(el)}: {what} {name!r:.200} is outside "
                                  "the model's folder; an MJCF file may only name files in its own folder tree")
        return real

    def parse(self, data: bytes, source: str) -> etree._Element:
        root = parse_mjcf_xml(data, source)
        for el in root.iter():
            self.elements += 1
            if self.elements > MAX_ELEMENTS:
                raise FileFormatError(f"{_where(source, el)}: more than {MAX_ELEMENTS} elements; an MJCF model "
                                      f"(with its includes) may have at most {MAX_ELEMENTS}")
        return root

    def expand(self, root: etree._Element, source: str, includes: dict[str, bytes], chain: tuple[Path, ...]) -> None:
        """Replace each ``<include>`` of ``root`` by the children of the file's ``<mujoco>``."""
        for el in list(root.iter("include")):
            name = el.get("file")
            if name is None:
                raise FileFormatError(f"{_where(source, el)}: <include>: has no file attribute")
            self.n_includes += 1
            if self.n_includes > MAX_INCLUDES:
                raise FileFormatError(f"{_where(source, el)}: {_start_tag(el)}: more than {MAX_INCLUDES} includes")
            real = self.inside(name, source, el, "included file")
            if real in chain:
                raise FileFormatError(f"{_where(source, el)}: {_start_tag(el)}: includes itself (a cycle)")
            if not real.exists():  # a FIFO or a device exists: the budget's read refuses it, saying what it is
                raise FileFormatError(f"{_where(source, el)}: {_start_tag(el)}: included file {name!r:.200} "
                                      "not found")
            sub_source = f"{source} > {name}"
            here = f"{_where(source, el)}: {_start_tag(el)}"
            try:
                data = self.budget.read(real, MAX_BYTES, "MJCF file",
                                        lambda msg, here=here: FileFormatError(f"{here}: {msg}"))
            except FileFormatError as exc:
                raise exc if str(exc).startswith(here) else FileFormatError(f"{here}: {exc}") from None
            includes[name] = data
            sub = self.parse(data, sub_source)
            self.expand(sub, sub_source, includes, chain + (real,))
            parent = el.getparent()
            at = parent.index(el)
            parent.remove(el)
            for k, child in enumerate(list(sub)):
                if isinstance(child.tag, str):
                    child.set(SOURCE_ATTR, sub_source)
                parent.insert(at + k, child)


def _dirs(root: etree._Element) -> dict[str, str]:
    """meshdir, texturedir and assetdir as MuJoCo takes them (later ``<compiler>``s override;
    assetdir stands in for an unset meshdir or texturedir)."""
    d = {"meshdir": "", "texturedir": "", "assetdir": ""}
    for c in root.iter("compiler"):
        for k in d:
            if c.get(k) is not None:
                d[k] = c.get(k)
    for k in ("meshdir", "texturedir"):
        if not d[k]:
            d[k] = d["assetdir"]
    return d


def _key(folder: str, name: str) -> str:
    """The name MuJoCo asks its file system for: the folder and the name joined as text."""
    if not folder:
        return name
    return folder + name if folder.endswith(("/", "\\")) else folder + "/" + name


def _number(el, attr: str, source: str, n: int | None = None) -> list[float]:
    """The numbers of ``el``'s ``attr`` (empty when absent), refused when not numbers."""
    text = el.get(attr)
    if text is None:
        return []
    try:
        values = [float(t) for t in text.split()]
    except ValueError:
        values = []
    if not values or (n is not None and len(values) != n) or not all(math.isfinite(x) for x in values):
        raise FileFormatError(f"{_where(source_of(el, source), el)}: {_start_tag(el)}: {attr} {text!r:.80} is not "
                              f"{'a number' if n == 1 else 'a list of numbers'}")
    return values


def _too_big(el, source: str, what: str, value: float, limit: int) -> FileFormatError:
    return FileFormatError(f"{_where(source_of(el, source), el)}: {_start_tag(el)}: {what} {value:.15g} is more than "
                           f"{limit}, the most KineTree reads")


def _side(el, attr: str, source: str, limit: int) -> float:
    """``el``'s size ``attr`` (0 when absent or negative), refused above ``limit``."""
    x = max([*_number(el, attr, source, 1), 0.0][0], 0.0)
    if x > limit:
        raise _too_big(el, source, attr, x, limit)
    return x


def _builtin_texels(root: etree._Element, source: str) -> int:
    """Texels of the builtin textures (MuJoCo draws them itself: width × height, six faces of
    width × width for a cube or skybox), each side refused above :data:`MAX_TEXTURE_SIDE`."""
    total = 0
    for el in root.iter("texture"):
        if el.get("builtin", "none").strip() == "none":
            continue
        cube = el.get("type", "cube").strip() in ("cube", "skybox")
        w, h = (_side(el, attr, source, MAX_TEXTURE_SIDE) for attr in ("width", "height"))
        total += int(6 * w * w if cube else w * h)
        if total > MAX_TEXELS:
            raise _too_big(el, source, "texels of the builtin textures together", total, MAX_TEXELS)
    return total


def _hfield_samples(root: etree._Element, source: str) -> int:
    """Samples of the height fields given by ``nrow``/``ncol``, each refused above
    :data:`MAX_HFIELD_SIDE`."""
    total = 0
    for el in root.iter("hfield"):
        total += int(_side(el, "nrow", source, MAX_HFIELD_SIDE)) * int(_side(el, "ncol", source, MAX_HFIELD_SIDE))
        if total > MAX_HFIELD_SAMPLES:
            raise _too_big(el, source, "samples of the height fields together", total, MAX_HFIELD_SAMPLES)
    return total


def _png_pixels(blob: bytes, tag: str, where: str, el) -> int:
    """Pixels of a PNG texture or height field, from its header (a small PNG can inflate to
    gigabytes); 0 for other files, whose size bounds what MuJoCo makes of them."""
    if tag not in ("texture", "hfield") or blob[:8] != b"\x89PNG\r\n\x1a\n" or len(blob) < 24:
        return 0
    w, h = int.from_bytes(blob[16:20], "big"), int.from_bytes(blob[20:24], "big")
    side = MAX_TEXTURE_SIDE if tag == "texture" else MAX_HFIELD_SIDE
    if w > side * (6 if tag == "texture" else 1) or h > side * (6 if tag == "texture" else 1):
        raise FileFormatError(f"{where}: {_start_tag(el)}: PNG image of {w} × {h} pixels; a {tag} may have at most "
                              f"{side} (a cube texture six faces of {side})")
    return w * h


def _check_sizes(root: etree._Element, source: str) -> None:
    """Refuse, before MuJoCo allocates anything, the sizes its compiler would allocate gigabytes for
    from a few bytes of XML: ``<size nuser_*>`` and ``nkey``, builtin meshes' resolutions, and
    bodies and elements multiplied out by nested ``<replicate count>``, ``<flexcomp count>`` and
    ``<composite count>`` grids (together at most :data:`~kinetree.core.disk.safe_io.MAX_BODIES`
    bodies and :data:`MAX_ELEMENTS` elements).
    Textures and height fields are bounded by :func:`_builtin_texels` and :func:`_hfield_samples`."""
    for el in root.iter("size"):
        for attr in el.attrib:
            if attr.startswith("nuser_") or attr == "nkey":
                limit = MAX_KEYS if attr == "nkey" else MAX_NUSER
                x = _number(el, attr, source, 1)[0]
                if x > limit:
                    raise _too_big(el, source, attr, x, limit)
    for el in root.iter("mesh"):
        if el.get("builtin", "none").strip() == "none":
            continue
        grid = el.get("builtin").strip() == "grid"
        params = _number(el, "params", source)[:3 if grid else 2]
        for x in params:
            if x > MAX_MESH_RESOLUTION:
                raise _too_big(el, source, "builtin mesh resolution", x, MAX_MESH_RESOLUTION)
        if grid and math.prod(max(x, 1) for x in params) > MAX_MESH_RESOLUTION**2:
            raise _too_big(el, source, "grid mesh points", math.prod(max(x, 1) for x in params),
                           MAX_MESH_RESOLUTION**2)
    totals = {"bodies": 0, "elements": 0}

    def walk(el, times: int) -> None:
        for child in el:
            if not isinstance(child.tag, str):
                continue
            n = times
            if child.tag == "replicate":
                n *= max(int(_number(child, "count", source, 1)[0] if child.get("count") else 1), 1)
            totals["elements"] += n
            made = 0
            if child.tag == "body":
                made = n
            elif child.tag in ("flexcomp", "composite") and child.get("count") is not None:
                made = n * math.prod(max(int(x), 1) for x in _number(child, "count", source))
            totals["bodies"] += made
            if totals["bodies"] > MAX_BODIES:
                raise FileFormatError(f"{_where(source_of(child, source), child)}: {_start_tag(child)}: the model "
                                      f"makes more than {MAX_BODIES} bodies (<replicate> counts and flexcomp or "
                                      f"composite grids multiplied out); KineTree reads at most {MAX_BODIES}")
            if totals["elements"] > MAX_ELEMENTS:
                raise FileFormatError(f"{_where(source_of(child, source), child)}: {_start_tag(child)}: the model "
                                      f"makes more than {MAX_ELEMENTS} elements (<replicate> counts multiplied "
                                      f"out); an MJCF model may have at most {MAX_ELEMENTS}")
            walk(child, n)

    walk(root, 1)


def vet_model(path: str | os.PathLike) -> Vetted:
    """Read and vet the MJCF file ``path``, its includes and asset files (module docstring)."""
    path = Path(path)
    source = str(path)
    v = _Vetter(path)
    data = read_regular_file(path, MAX_BYTES, "MJCF file")
    top = parse_mjcf_xml(data, source)
    v.elements = sum(1 for _ in top.iter())
    if v.elements > MAX_ELEMENTS:
        raise FileFormatError(f"{source}: more than {MAX_ELEMENTS} elements; an MJCF model may have at most "
                              f"{MAX_ELEMENTS}")
    expanded = parse_mjcf_xml(data, source)
    includes: dict[str, bytes] = {}
    try:
        real_self = path.resolve()
    except (OSError, RuntimeError):
        real_self = path.absolute()
    v.expand(expanded, source, includes, (real_self,))
    _check_sizes(expanded, source)
    dirs = _dirs(expanded)
    for c in expanded.iter("compiler"):  # a folder outside the tree is refused even when no file names it
        for k in ("meshdir", "texturedir", "assetdir"):
            if c.get(k):
                v.inside(c.get(k), source_of(c, source), c, k)
    out = Vetted(source, v.folder, data.decode("utf-8", errors="replace"), expanded, includes)
    texels = {"texture": _builtin_texels(expanded, source), "hfield": _hfield_samples(expanded, source)}
    for el in expanded.iter():
        if not isinstance(el.tag, str):
            continue
        if el.tag == "model" and el.getparent() is not None and el.getparent().tag == "asset":
            # a whole other MJCF that MuJoCo would parse itself, its own files unvetted
            raise FileFormatError(f"{_where(source_of(el, source), el)}: {_start_tag(el)}: model assets (<model> "
                                  "with <attach>) are not supported")
        for attr, name in el.attrib.items():
            if not attr.startswith("file") or el.tag in ("include",):
                continue
            key = _key(dirs.get(_DIR_OF.get(el.tag, "assetdir"), ""), name)
            if key in out.paths:
                out.by_name[(el.tag, name)] = out.paths[key]
                continue
            real = v.inside(key, source_of(el, source), el, "file")
            where = _where(source_of(el, source), el)
            if not real.exists():
                if el.tag not in DROPPABLE:
                    raise FileFormatError(f"{where}: {_start_tag(el)}: file {key!r:.200} not found")
                out.missing.append((el.tag, name, f"{where}: {_start_tag(el)}: file {key!r:.200} not found; what "
                                                  "uses it is left out"))
                continue
            try:  # a FIFO or a device is refused here, never handed on (MuJoCo would open it itself)
                blob = read_regular_file(real, MAX_BYTES * 4, "model asset")
            except FileFormatError as exc:
                raise FileFormatError(f"{where}: {_start_tag(el)}: {exc}") from None
            if el.tag in texels:
                texels[el.tag] += _png_pixels(blob, el.tag, where, el)
            v.asset_bytes += len(blob)
            if v.asset_bytes > MAX_ASSET_BYTES:
                raise FileFormatError(f"{_where(source, el)}: the model's asset files are more than "
                                      f"{MAX_ASSET_BYTES // 2**20} MB together")
            if texels["texture"] > MAX_TEXELS or texels["hfield"] > MAX_HFIELD_SAMPLES:
                over = "texture" if texels["texture"] > MAX_TEXELS else "hfield"
                limit = MAX_TEXELS if over == "texture" else MAX_HFIELD_SAMPLES
                raise FileFormatError(f"{where}: {_start_tag(el)}: the model's {over}s have more than {limit} "
                                      f"{'texels' if over == 'texture' else 'samples'} together")
            out.assets[key] = blob
            if el.tag not in DROPPABLE:  # read while parsing: MjSpec's parser looks only in the includes given
                out.includes[key] = blob
            out.paths[key] = str(real)
            out.by_name[(el.tag, name)] = str(real)
    return out


def vet_kept_files(tree, folder: Path | None, source: str) -> list[str]:
    """Leave out of ``tree``'s kept ``<mjcf>`` fragments (robot, body and joint extensions read
    from a URDF, SDFormat or project file) every element naming a file the import did not vet,
    and return a warning for each. MJCF export copies the absolute files these name into its
    assets folder, so a fragment naming ``/etc/passwd`` would be copied out; as for meshes, an
    absolute name must be a regular file inside ``folder``'s tree (an MJCF import writes its
    vetted files so), a relative one must not leave it (the MJCF reader vets it when the export
    is read). Without ``folder`` (text read from a string) absolute names are left out."""
    real_folder = None
    if folder is not None:
        try:
            real_folder = Path(folder).resolve()
        except (OSError, RuntimeError):
            real_folder = None
    found: list[str] = []

    def problem(name: str) -> str:
        p = Path(name)
        if not p.is_absolute():
            if real_folder is None or _within(Path(folder) / p, real_folder):
                return ""
            return f"leaves the model's folder tree {str(real_folder)!r}"
        if real_folder is None:
            return "is an absolute path and the model has no folder"
        if not _within(p, real_folder):
            return f"is outside the model's folder tree {str(real_folder)!r}"
        try:
            check_regular_file(p)
        except FileFormatError as exc:
            return str(exc).removeprefix(f"{p}: ")
        return ""

    def vetted(texts: tuple[str, ...], what: str) -> tuple[str, ...] | None:
        """``texts`` without what names unvetted files; None when nothing was left out."""
        out, changed = [], False
        for text in texts:
            # other formats' elements: no export copies what they name (texts are normalized: tag first)
            if not text.startswith(f"<{KEPT_TAG}") or "file" not in text:
                out.append(text)
                continue
            el = fragment_element(text, what)
            dropped = whole = False
            for e in list(el.iter()):
                for attr, name in e.attrib.items():
                    why = problem(name) if attr.startswith("file") else ""
                    if why:
                        found.append(f"{source}: {what}: kept MJCF {_start_tag(e)}: file {name!r:.200} {why}; "
                                     "left out (an MJCF export would copy it)")
                        if e.getparent() is None:
                            whole = True
                        else:
                            e.getparent().remove(e)
                        dropped = True
                        break
            changed |= dropped
            if not dropped:
                out.append(text)
            elif not whole and len(el):
                out.append(fragment_text(el))
        return tuple(out) if changed else None

    for holder, what in ((tree, "robot"), *((b, f"link {b.name!r}") for b in (tree.base, *tree.bodies)),
                         *((b.joint, f"joint {b.joint.name!r}") for b in tree.bodies)):
        if holder.extensions and (kept := vetted(holder.extensions, what)) is not None:
            holder.extensions = kept
    return found
