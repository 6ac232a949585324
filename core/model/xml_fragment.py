"""Robot-file elements KineTree does not model, kept verbatim as XML text.

A URDF's ``<transmission>``, ``<gazebo>``, ``<ros2_control>``, a joint's ``<dynamics>`` … are
stored as the text of one XML element, attached to the robot, link or joint they came from,
and written back on export. The text is data: it is parsed only to check that it is one
well-formed element (with a parser that expands no entities, reads no DTD and touches no
network) and re-serialized by lxml, never interpreted. XInclude elements (any element in the
XInclude namespace) are refused: a reader that resolves XInclude would read the file one names
(``<xi:include href="/etc/passwd" parse="text"/>``) when it opens an exported file.
"""

from __future__ import annotations

import copy
from collections.abc import Iterable

from lxml import etree

from ..errors import InvalidPropertyError

__all__ = ["MAX_FRAGMENT_CHARS", "XINCLUDE_NAMESPACES", "check_fragments", "fragment_element", "fragment_text",
           "xinclude_elements", "xinclude_text"]

#: One kept element may not be longer than this (a robot file is capped at 50 MB anyway).
MAX_FRAGMENT_CHARS = 50 * 1024 * 1024

#: XInclude's namespace, and the draft's one that libxml2 also resolves.
XINCLUDE_NAMESPACES = frozenset({"http://www.w3.org/2001/XInclude", "http://www.w3.org/2003/XInclude"})

_PARSER = etree.XMLParser(resolve_entities=False, no_network=True, huge_tree=False, load_dtd=False,
                          dtd_validation=False, remove_comments=False, remove_pis=False, collect_ids=False)


def xinclude_elements(el: etree._Element) -> list[etree._Element]:
    """The elements of ``el`` (itself included) in an XInclude namespace, in document order."""
    return [e for e in el.iter() if isinstance(e.tag, str) and etree.QName(e).namespace in XINCLUDE_NAMESPACES]


def xinclude_text(el: etree._Element) -> str:
    """``el``'s start tag, for a message: ``<xi:include href='/etc/passwd' parse='text'>``."""
    attrs = "".join(f" {etree.QName(k).localname}={v!r:.80}" for k, v in el.attrib.items())
    return f"<{el.prefix + ':' if el.prefix else ''}{etree.QName(el).localname}{attrs}>"


def fragment_text(el: etree._Element) -> str:
    """The text of ``el`` (without its tail), blank text between elements removed so that
    pretty-printing on export and reading back give the same text."""
    el = _copy(el)
    for e in el.iter():
        if len(e) and e.text is not None and not e.text.strip():
            e.text = None
        if e is not el and e.tail is not None and not e.tail.strip():
            e.tail = None
    el.tail = None
    return etree.tostring(el, encoding="unicode", with_tail=False)


def _copy(el: etree._Element) -> etree._Element:
    # a deep copy keeps the namespace declarations the element inherits from its ancestors
    return copy.deepcopy(el)


def fragment_element(text: str, what: str = "extension") -> etree._Element:
    """Parse one kept element (see :func:`check_fragments`) into a new lxml element."""
    if not isinstance(text, str):
        raise InvalidPropertyError(f"{what}: must be XML text (a str), got {type(text).__name__} {text!r:.80}")
    if len(text) > MAX_FRAGMENT_CHARS:
        raise InvalidPropertyError(f"{what}: {len(text)} characters is more than {MAX_FRAGMENT_CHARS}")
    if "<!DOCTYPE" in text or "<!ENTITY" in text:
        raise InvalidPropertyError(f"{what}: DTD and entity declarations are not allowed")
    try:
        el = etree.fromstring(text.encode("utf-8"), _PARSER)
    except (etree.XMLSyntaxError, ValueError) as exc:
        raise InvalidPropertyError(f"{what}: not one well-formed XML element ({exc}): {text[:80]!r}") from None
    if el.getroottree().docinfo.doctype:
        raise InvalidPropertyError(f"{what}: DTD and entity declarations are not allowed")
    if not isinstance(el.tag, str):
        raise InvalidPropertyError(f"{what}: must be an XML element, got {text[:80]!r}")
    if xi := xinclude_elements(el):
        raise InvalidPropertyError(f"{what}: XInclude element {xinclude_text(xi[0])} is not allowed (a reader that "
                                   "resolves XInclude would read the file it names)")
    return el


def check_fragments(value: Iterable[str] | None, what: str) -> tuple[str, ...]:
    """``value`` as a tuple of normalized element texts; :class:`InvalidPropertyError` for
    anything that is not a sequence of well-formed single XML elements."""
    if value is None or isinstance(value, (str, bytes)):
        raise InvalidPropertyError(f"{what}: must be a list of XML element texts, got {value!r:.80}")
    try:
        items = tuple(value)
    except TypeError:
        raise InvalidPropertyError(f"{what}: must be a list of XML element texts, got {value!r:.80}") from None
    return tuple(fragment_text(fragment_element(t, f"{what}[{k}]")) for k, t in enumerate(items))
