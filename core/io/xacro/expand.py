"""A restricted xacro expander: ``.xacro`` → URDF text without running any code of the file.

:func:`expand_xacro` implements the xacro language of ROS (``xacro`` 2.x, in-order processing)
on lxml trees, with ``${…}`` expressions evaluated by :mod:`.xacro_eval` (an ``ast`` walk over a
whitelist, never ``eval``):

- ``xacro:property`` (``value=``, ``default=``, ``remove=``, ``scope="parent"|"global"``,
  ``lazy_eval``, block properties), with ROS xacro's scopes (a macro body sees the caller's
  properties; properties and macros defined in a macro are local to it) and lazy evaluation;
- ``xacro:macro`` (``p``, ``p:=default``, ``p:=^``, ``p:=^|default``, ``*block``,
  ``**block``), ``xacro:insert_block``, ``xacro:call macro=``, nested and recursive macros;
- ``xacro:if`` / ``xacro:unless``, ``xacro:element``, ``xacro:attribute``, ``xacro:arg``;
- ``xacro:include filename=`` relative to the folder of the file the tag is written in (then of
  the file being processed, as ROS xacro), absolute, ``$(find pkg)/…`` or ``package://pkg/…``,
  or a glob pattern
  (``optional="true"``; ``ns="n"`` puts the file's properties and macros in namespace ``n``:
  ``${n.prop}``, ``<xacro:n.macro>``, as ROS xacro);
- ``$(arg x)``, ``$(find pkg)`` (the URDF folder's ancestors, ``package_paths``, then
  ``$ROS_PACKAGE_PATH``, as mesh ``package://`` URIs), ``$(dirname)``, ``$(eval …)``, and
  ``$(env X)`` / ``$(optenv X default)`` only with ``allow_env=True``; ``$${`` escapes;
- ``load_yaml(name)`` / ``xacro.load_yaml(name)`` (``yaml.safe_load``, ``!degrees`` … unit tags,
  at most 256 KB and a million nodes, merge keys counted).

Includes and ``load_yaml`` read only files inside the xacro's folder tree, the ROS package it is in
(the nearest folder above it with a ``package.xml``), ``package_paths``, ``$ROS_PACKAGE_PATH`` or a
package (with a ``package.xml``) found by ``$(find)`` (:mod:`.xacro_files`); a glob pattern looks
at no more than ``max_glob_entries`` directory entries.

Not supported (an error names them): ``$(cwd)``, ``python.*``,
``%`` string formatting, string methods other than :data:`.xacro_eval.STR_METHODS`; ``p:=^``
forwards properties only (ROS xacro also forwards Python builtins such as ``len``).

Every included file gets the same hostile-input XML checks as a URDF (no DTD, no entities).
Bounds (:class:`XacroLimits`): output elements and bytes (attributes of ``xacro:attribute``
included), wall time (checked inside expressions and YAML reading too), macro nesting, include
depth, and the bytes of values all expressions create (:class:`.xacro_eval.Budget`: comparisons
and hashes of shared containers are charged as walked, ``str()`` is sized before it is built).
Anything else that fails becomes a :class:`FileFormatError` naming the exception; values shown in
messages are cut to about 200 characters.

Errors are :class:`FileFormatError` ``<file>: xacro expansion failed: <where>:<line>:
<element>: <message>``, where ``<where>`` is the file (the included one, or the one defining
the macro) the offending element comes from. Nothing is process-global: each call has its own
tables, arguments and file stack.
"""

from __future__ import annotations

import keyword
import os
import re
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from lxml import etree

from ...errors import FileFormatError
from ..urdf.parse import _Ctx, _parse_xml, _read
from .eval import MAX_LEN, Budget, ExprError, Namespace, evaluate, short, to_text
from .files import MAGIC, Files, allowed_roots, cut, exists
from .tables import Macro, Macros, Scope, boolean, literal, parse_params

__all__ = ["XacroLimits", "expand_xacro"]

_LEXER = re.compile(r"(?P<dollars>\$\$+[{(])|(?P<expr>\$\{[^}]*\})|(?P<ext>\$\([^)]*\))|(?P<text>[^$]+|\$[^{($]+|\$$)")


_MAX_MESSAGE = 2000  # characters of an error message


@dataclass(frozen=True)
class XacroLimits:
    """What one expansion may use before it is refused."""

    max_elements: int = 1_000_000
    max_bytes: int = 50 * 2**20
    timeout: float = 5.0  # seconds of wall time
    max_macro_depth: int = 100  # nested macro calls and block insertions
    max_include_depth: int = 20
    max_values: int = 100 * 2**20  # bytes of strings and lists that expressions may create in all
    max_glob_entries: int = 10_000  # directory entries one include pattern may look at


class _Fail(Exception):
    """Expansion stops; the message already says where."""


def _xacro_local(el) -> str | None:
    """``"macro"`` for ``<xacro:macro>`` (any xacro namespace URI), else None."""
    tag = el.tag
    if not isinstance(tag, str):
        return None
    if el.prefix == "xacro" or (tag.startswith("{") and tag[1:tag.index("}")].rstrip("/#").endswith("xacro")):
        return etree.QName(tag).localname
    return None


_RESERVED = ("math", "xacro", "python")  # the evaluator's own namespaces


def _is_xacro_attr(key: str) -> bool:
    return key.startswith("{") and key[1:key.index("}")].rstrip("/#").endswith("xacro")


class _Expander(Files):
    def __init__(self, top: Path, package_paths: Sequence[str | os.PathLike], allow_env: bool,
                 args: Mapping[str, str] | None, limits: XacroLimits) -> None:
        self.top = top
        self.limits = limits
        self.allow_env = allow_env
        self.args: dict[str, str] = dict(args or {})
        self.package_paths = [Path(p).absolute() for p in package_paths]
        self.ros_paths = [Path(p).absolute() for p in os.environ.get("ROS_PACKAGE_PATH", "").split(os.pathsep) if p]
        self.roots = allowed_roots(top, self.package_paths, self.ros_paths)  # and packages $(find) finds
        self.files: list[Path] = [top]  # include stack
        self.deadline = time.monotonic() + limits.timeout
        self.budget = Budget(limits.max_values, limits.timeout, self.deadline)
        self.elements = 0
        self.bytes = 0
        self.depth = 0
        self.yaml_cache: dict[Path, Any] = {}

    # ---------------------------------------------------------------- errors and bounds
    def file_of(self, el) -> str:
        url = el.getroottree().docinfo.URL if el is not None else None
        return url or str(self.files[-1])

    def fail(self, el, msg: str) -> _Fail:
        if el is None:
            return _Fail(f"{self.files[-1]}: {msg}")
        local = _xacro_local(el)
        name = f"<xacro:{local}>" if local else f"<{etree.QName(el.tag).localname if isinstance(el.tag, str) else '?'}>"
        return _Fail(f"{self.file_of(el)}:{el.sourceline}: {name}: {msg}")

    def tick(self, el) -> None:
        if time.monotonic() > self.deadline:
            raise self.fail(el, f"expansion takes longer than {self.limits.timeout:g} s; stopped")

    def grow(self, el, n_elements: int, n_bytes: int) -> None:
        self.elements += n_elements
        self.bytes += n_bytes
        if self.elements > self.limits.max_elements:
            raise self.fail(el, f"output exceeds {self.limits.max_elements} elements; stopped")
        if self.bytes > self.limits.max_bytes:
            raise self.fail(el, f"output exceeds {self.limits.max_bytes // 2**20} MB; stopped")

    # ---------------------------------------------------------------- text and expressions
    def lookup(self, scope: Scope, name: str) -> Any:
        s = scope.find(name)
        if s is None:
            raise KeyError(name)
        if name in s.lazy:
            if name in s.busy:
                raise ExprError(f"circular property definition {' -> '.join(s.busy + [name])}")
            s.busy.append(name)
            try:
                s.vals[name] = literal(self.text_value(s.vals[name], s))
            finally:
                s.busy.remove(name)
            s.lazy.discard(name)
        return s.vals[name]

    def text_value(self, text: str, scope: Scope, el=None) -> Any:
        """ROS xacro's ``eval_text``: one ``${…}`` alone keeps its type, else the text."""
        parts: list[Any] = []
        pos = 0
        while pos < len(text):
            m = _LEXER.match(text, pos)
            if m is None:
                raise ExprError(f"invalid expression: {short(text[pos:], 60)}")
            pos = m.end()
            tok = m.group()
            if m.lastgroup == "dollars":
                parts.append(tok[1:])
            elif m.lastgroup == "expr":
                inner = to_text(self.text_value(tok[2:-1], scope, el))
                try:
                    parts.append(evaluate(inner, lambda n: self.lookup(scope, n), lambda f: self.load_yaml(f, el),
                                          self.budget))
                except ExprError as exc:  # the innermost expression is the one to show
                    src = tok[2:-1] if len(tok) < 200 else tok[2:200] + "…"
                    raise ExprError(str(exc) if "(in '$" in str(exc) else f"{exc} (in '${{{src}}}')") from None
            elif m.lastgroup == "ext":
                parts.append(self.extension(to_text(self.text_value(tok[2:-1], scope, el)), el))
            else:
                parts.append(tok)
        if len(parts) == 1:
            return parts[0]
        texts = [to_text(x) for x in parts]
        if sum(map(len, texts)) > MAX_LEN:  # each part is bounded, not their number
            raise ExprError(f"text longer than {MAX_LEN} characters")
        return self.budget.charge_value("".join(texts))

    def text(self, text: str, scope: Scope, el, what: str) -> str:
        if "$" not in text:
            return text
        v = self.value(text, scope, el, what)
        try:
            return to_text(v)
        except ExprError as exc:
            raise self.fail(el, f"{what}: {exc}") from None

    def value(self, text: str, scope: Scope, el, what: str) -> Any:
        try:
            return self.text_value(text, scope, el)
        except ExprError as exc:
            raise self.fail(el, f"{what}: {exc}") from None

    def flag(self, text: str, scope: Scope, el, what: str) -> bool:
        try:
            return boolean(self.text_value(text, scope, el))
        except ExprError as exc:
            raise self.fail(el, f"{what} {short(text)}: {exc}") from None

    def extension(self, inner: str, el) -> str:
        cmd, _, rest = inner.strip().partition(" ")
        words = rest.split()
        if cmd == "arg" and len(words) == 1:
            if words[0] not in self.args:
                raise ExprError(f"undefined substitution argument $(arg {words[0]})")
            return self.args[words[0]]
        if cmd == "find" and len(words) == 1:
            return str(self.package(words[0]))
        if cmd in ("env", "optenv") and words:
            if not self.allow_env:
                raise ExprError(f"$({inner.strip()}): reading environment variables is disabled; enable it with "
                                "allow_env=True (command line: --allow-env)")
            if cmd == "env":
                if words[0] not in os.environ:
                    raise ExprError(f"environment variable {short(words[0])} is not set")
                return os.environ[words[0]]
            return os.environ.get(words[0], " ".join(words[1:]))
        if cmd == "dirname" and not words:
            return str(Path(self.file_of(el)).parent.absolute())
        if cmd == "eval":
            def arg(name: str) -> Any:
                return literal(self.args[name])
            return to_text(evaluate(rest, arg, budget=self.budget))
        raise ExprError(f"unsupported substitution $({inner.strip()}) (supported: arg, find, dirname, eval, "
                        "env and optenv)")

    # ---------------------------------------------------------------- files
    def include(self, el, out, scope: Scope, macros: Macros) -> None:
        spec = el.get("filename")
        if not spec:
            raise self.fail(el, "needs a filename attribute")
        name = self.text(spec, scope, el, "filename")
        try:
            path = self.locate(name, el)
            if MAGIC.search(name):  # a glob: the matching files in name order, maybe none (as ROS)
                pattern = path if Path(name).is_absolute() else Path(self.file_of(el)).parent / name
                paths = self.glob(name, pattern, el)
            else:
                path = self.inside(name, path, f"included file {short(name)}")
                paths = [path] if exists(path.is_file) else []
        except ExprError as exc:
            raise self.fail(el, str(exc)) from None
        if not paths and not MAGIC.search(name):
            if el.get("optional") and self.flag(el.get("optional"), scope, el, "optional"):
                return
            raise self.fail(el, f"included file {short(name)} not found ({cut(str(path))})")
        if len(self.files) > self.limits.max_include_depth:
            raise self.fail(el, f"includes nested deeper than {self.limits.max_include_depth}; stopped")
        if el.get("ns"):  # the files' properties and macros go into a namespace (ROS xacro's NameSpace)
            ns = self.text(el.get("ns"), scope, el, "ns")
            ns_scope, macros = Scope(scope, ns=True), Macros()
            scope.set(ns, Namespace(ns, ns_scope, macros, lambda n: self.lookup(ns_scope, n)), lazy=False)
            scope = ns_scope
        for path in paths:
            self.tick(el)
            try:
                root = _parse_xml(_read(path), _Ctx(str(path)))
            except FileFormatError as exc:
                msg = " ".join(str(exc).splitlines())
                raise _Fail(f"{msg} (included from {self.file_of(el)}:{el.sourceline})") from None
            root.getroottree().docinfo.URL = str(path.absolute())
            self.files.append(path.absolute())
            self.children(root, out, scope, macros)
            self.files.pop()

    # ---------------------------------------------------------------- the walk
    def children(self, src, out, scope: Scope, macros: Macros) -> None:
        if src.text:
            self.append_text(out, self.text(src.text, scope, src, "text"), src)
        for child in src:
            if isinstance(child.tag, str):
                self.element(child, out, scope, macros)
            if child.tail:
                self.append_text(out, self.text(child.tail, scope, child, "text"), child)

    def append_text(self, out, s: str, el) -> None:
        if not s:
            return
        self.grow(el, 0, len(s))
        try:
            if len(out):
                out[-1].tail = (out[-1].tail or "") + s
            else:
                out.text = (out.text or "") + s
        except ValueError:  # NUL and other control characters
            raise self.fail(el, f"text {short(s, 40)} has characters XML cannot hold") from None

    def plain(self, el, tag: str, out, scope: Scope, macros: Macros, skip: tuple[str, ...] = ()) -> None:
        try:
            new = etree.SubElement(out, tag)
        except ValueError:
            raise self.fail(el, f"invalid element name {short(tag)}") from None
        size = len(tag) + 5
        for k, v in el.attrib.items():
            if _is_xacro_attr(k) or k in skip:
                continue
            val = self.text(v, scope, el, f"attribute {short(k)}")
            try:
                new.set(k, val)
            except ValueError:
                raise self.fail(el, f"attribute {short(k)}: value {short(val, 40)} has characters XML cannot "
                                    "hold") from None
            size += len(k) + len(val) + 4
        self.grow(el, 1, size)
        self.children(el, new, scope, macros)

    def element(self, el, out, scope: Scope, macros: Macros) -> None:
        self.tick(el)
        local = _xacro_local(el)
        if local is None:
            self.plain(el, el.tag, out, scope, macros)
        elif local == "property":
            self.property(el, scope)
        elif local == "macro":
            self.macro(el, macros)
        elif local in ("if", "unless"):
            cond = el.get("value")
            if cond is None:
                raise self.fail(el, "needs a value attribute")
            keep = self.flag(cond, scope, el, "value")
            if keep != (local == "unless"):
                self.children(el, out, scope, macros)
        elif local == "include":
            self.include(el, out, scope, macros)
        elif local == "arg":
            name, default = el.get("name"), el.get("default")
            if not name:
                raise self.fail(el, "needs a name attribute")
            if name not in self.args:
                if default is None:
                    raise self.fail(el, f"arg {short(name)} needs a default attribute")
                self.args[name] = self.text(default, scope, el, "default")
        elif local == "insert_block":
            self.insert_block(el, out, scope, macros)
        elif local == "element":
            key = next((k for k in el.attrib if _is_xacro_attr(k) and etree.QName(k).localname == "name"), None)
            tag = self.text(el.get(key), scope, el, "xacro:name") if key else ""
            if not tag:
                raise self.fail(el, "needs a non-empty xacro:name attribute")
            self.plain(el, tag, out, scope, macros)
        elif local == "attribute":
            name, val = el.get("name"), el.get("value")
            if not name or val is None:
                raise self.fail(el, "needs name and value attributes")
            name = self.text(name, scope, el, "name")
            val = self.text(val, scope, el, "value")
            self.grow(el, 0, len(name) + len(val) + 4)  # counted as the attributes of plain elements
            try:
                out.set(name, val)
            except ValueError:
                raise self.fail(el, f"invalid attribute name {short(name)} or value") from None
        elif local == "call":
            name = el.get("macro")
            if not name:
                raise self.fail(el, "needs a macro attribute")
            self.call(el, self.text(name, scope, el, "macro"), out, scope, macros, skip=("macro",))
        else:
            self.call(el, local, out, scope, macros)

    def property(self, el, scope: Scope) -> None:
        raw = el.get("name")  # other attributes are ignored (ROS xacro warns)
        name = self.text(raw, scope, el, "name") if raw else ""
        if not name.isidentifier() or keyword.iskeyword(name) or name.startswith("__"):
            raise self.fail(el, f"property name {short(name)} must be a Python identifier not starting with '__'")
        if name in _RESERVED:  # ${math.pi} would silently mean the property
            raise self.fail(el, f"property name {short(name)} is reserved ({', '.join(_RESERVED)} are not allowed)")
        value, default = el.get("value"), el.get("default")
        remove = self.flag(el.get("remove", "false"), scope, el, "remove")
        if (value is not None) + (default is not None) + remove > 1:
            raise self.fail(el, f"property {short(name)}: value, default and remove are mutually exclusive")
        if remove:
            s = scope
            while s is not None:
                s.vals.pop(name, None)
                s.lazy.discard(name)
                s = s.parent
            return
        if default is not None:
            if scope.find(name) is not None:
                return
            value = default
        key: str = name
        stored: Any = value
        if value is None:  # a block property: its content is inserted by insert_block
            key, stored = "**" + name, el
        lazy = self.flag(el.get("lazy_eval", "true"), scope, el, "lazy_eval")
        where = el.get("scope")
        target = scope
        if where == "global":
            target, lazy = scope.top(), False
        elif where == "parent":
            if scope.parent is None:
                return  # ROS xacro warns and drops it
            target, lazy = scope.parent, False
            while not scope.ns and target.ns and target.parent is not None:  # from a macro: past namespaces
                target = target.parent
        elif where is not None:
            raise self.fail(el, f"scope {short(where)} is not 'parent' or 'global'")
        if not lazy and isinstance(stored, str):
            stored = self.value(stored, scope, el, f"property {short(name)}")
        target.set(key, stored, lazy)

    def macro(self, el, macros: Macros) -> None:
        name = el.get("name") or ""
        if name.startswith("xacro:"):
            name = name[6:]
        if not name or name == "call" or "." in name:
            raise self.fail(el, f"invalid macro name {short(name)}")
        try:
            params, defaults = parse_params(el.get("params", ""))
        except ExprError as exc:
            raise self.fail(el, f"macro {short(name)}: {exc}") from None
        defines = any(_xacro_local(e) in ("macro", "include") for e in el.iterdescendants())
        macros.defs[name] = Macro(name, el, params, defaults, defines)

    def call(self, el, name: str, out, scope: Scope, macros: Macros, skip: tuple[str, ...] = ()) -> None:
        m, at, at_macros = macros.get(name), scope, macros
        if m is None and "." in name:  # ns.macro: the namespace's macro, run in its scope
            *path, last = name.split(".")
            for part in path:
                s = at.find(part)
                ns = s.vals[part] if s is not None else None
                if not isinstance(ns, Namespace):
                    raise self.fail(el, f"unknown macro name xacro:{name} ({short(part)} is not a namespace)")
                at, at_macros = ns.scope, ns.macros
            m = at_macros.get(last)
        if m is None:
            raise self.fail(el, f"unknown macro name xacro:{name}")
        scope, macros = at, at_macros  # as ROS xacro: arguments and blocks of ns.m are evaluated in ns
        local = Scope(scope)
        params = dict.fromkeys(m.params)  # still unset, in order (a dict: 1000 parameters stay linear)
        for k, v in el.attrib.items():
            if k in skip or _is_xacro_attr(k):
                continue
            if k not in params or k.startswith("*"):
                raise self.fail(el, f"macro {short(name)} has no parameter {short(k)}")
            del params[k]
            local.set(k, self.value(v, scope, el, f"attribute {short(k)}"), lazy=False)
        blocks, used = [], 0
        if len(el):
            holder = etree.Element("blocks")  # the call's content, evaluated in the caller's scope
            self.children(el, holder, scope, macros)
            blocks = [b for b in holder if isinstance(b.tag, str)]
        for p in [p for p in params if p.startswith("*")]:
            if used == len(blocks):
                raise self.fail(el, f"macro {short(name)}: not enough blocks for parameter {short(p)}")
            local.set(p, blocks[used], lazy=False)
            used += 1
            del params[p]
        if used < len(blocks):
            raise self.fail(el, f"macro {short(name)}: unused block <{cut(str(blocks[used].tag))}>")
        for p in list(params):
            if p not in m.defaults:
                continue
            forward, default = m.defaults[p]
            if forward is not None and scope.find(forward) is not None:
                v = self.value(f"${{{forward}}}", scope, el, f"parameter {short(p)}")
            elif default is not None:
                v = self.value(default, scope, el, f"default of parameter {short(p)}")
            else:
                raise self.fail(el, f"macro {short(name)}: no property {short(forward)} to forward to parameter "
                                    f"{short(p)}")
            local.set(p, v, lazy=False)
            del params[p]
        if params:
            raise self.fail(el, f"macro {short(name)}: missing parameters {short(', '.join(params))[1:-1]}")
        # macros defined in the body are local to it (a new table only when there can be any)
        self.nested(el, lambda: self.children(m.body, out, local, Macros(macros) if m.defines else macros))

    def nested(self, el, body) -> None:
        if self.depth >= self.limits.max_macro_depth:
            raise self.fail(el, f"macros nested deeper than {self.limits.max_macro_depth}; stopped")
        self.depth += 1
        try:
            body()
        finally:
            self.depth -= 1

    def insert_block(self, el, out, scope: Scope, macros: Macros) -> None:
        name = el.get("name")
        if not name:
            raise self.fail(el, "needs a name attribute")
        if scope.find("**" + name) is not None:
            block = scope.find("**" + name).vals["**" + name]  # type: ignore[union-attr]
            self.nested(el, lambda: self.children(block, out, scope, macros))
        elif scope.find("*" + name) is not None:
            block = scope.find("*" + name).vals["*" + name]  # type: ignore[union-attr]
            self.nested(el, lambda: self.element(block, out, scope, macros))
        else:
            raise self.fail(el, f"undefined block {short(name)}")


def expand_xacro(path: str | os.PathLike, *, package_paths: Sequence[str | os.PathLike] = (),
                 allow_env: bool = False, args: Mapping[str, str] | None = None,
                 limits: XacroLimits = XacroLimits(), data: bytes | None = None) -> bytes:
    """The URDF text (UTF-8) that the xacro file ``path`` expands to.

    ``args`` set ``xacro:arg`` values (as ``name:=value`` on ROS xacro's command line);
    ``data`` is the file's content when already read. Raises :class:`FileFormatError` naming the
    file, line and element for anything refused, failing or overrunning ``limits``.
    """
    shown, path = str(path), Path(path).absolute()
    if data is None:
        data = _read(path)
    try:
        root = _parse_xml(data, _Ctx(shown))
    except FileFormatError as exc:  # lxml's messages may end in "\n, line 2, column 6"
        raise FileFormatError(" ".join(str(exc).splitlines())) from None
    root.getroottree().docinfo.URL = str(path)
    try:
        x = _Expander(path, package_paths, allow_env, args, limits)  # (resolving the package paths may fail)
        if _xacro_local(root) is not None:
            raise x.fail(root, "the root element must be a robot, not a xacro tag")
        holder = etree.Element("top")
        x.plain(root, root.tag, holder, Scope(), Macros())
        out = holder[0]
        out.tail = None
        text = etree.tostring(out, encoding="utf-8", xml_declaration=True)
    except (_Fail, ExprError) as exc:  # (an ExprError should have got file and line; never let one escape bare)
        one_line = " ".join(str(exc).splitlines())  # an expression echoed from a text node may span lines
        if len(one_line) > _MAX_MESSAGE:  # each shown value is cut; this bounds their number
            one_line = one_line[:_MAX_MESSAGE] + "…"
        raise FileFormatError(f"{shown}: xacro expansion failed: {one_line}") from None
    except RecursionError:
        raise FileFormatError(f"{shown}: xacro expansion failed: macros, blocks or properties nested too "
                              "deeply") from None
    except MemoryError:
        raise FileFormatError(f"{shown}: xacro expansion failed: out of memory") from None
    except FileFormatError:
        raise
    except Exception as exc:  # the last line of defence: a bug of ours must not reach the user as a bare error
        raise FileFormatError(f"{shown}: xacro expansion failed: {type(exc).__name__} "
                              f"{short(str(exc))[1:-1]}") from None
    return text
