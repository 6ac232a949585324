"""SDFormat's frame graph: every link, joint, ``<frame>`` and (nested) model frame of a model,
flattened to ``::`` names, each posed relative to another; :class:`FrameGraph` resolves them
into poses in the top model frame and refuses cycles and unknown names, naming the frames.

Default frames (SDFormat 1.7+, and the same for 1.5/1.6 which have no ``relative_to``): a
link's pose is relative to its model frame, a joint's to its child link, a frame's to the frame
it is attached to (default: the model frame), a nested model's to the enclosing model frame.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from ...errors import FileFormatError
from ...transforms import inverse_transform

__all__ = ["Frame", "FrameGraph"]


@dataclass
class Frame:
    """One named frame: ``kind`` (``model``, ``link``, ``joint``, ``frame``, ``world``), its
    pose ``X`` relative to frame ``rel`` (``None``: the top model frame itself), what it is
    attached to (a frame's ``attached_to``, a joint's child, a model's canonical link) and
    where it was written (``where``: ``file:line``) for messages."""

    name: str
    kind: str
    rel: str | None
    X: np.ndarray
    where: str
    attached: str | None = None
    scope: str = ""
    extra: dict = field(default_factory=dict)


class FrameGraph:
    """The frames of one model tree, by full (``::``) name."""

    def __init__(self) -> None:
        self.frames: dict[str, Frame] = {}
        self._pose: dict[str, np.ndarray] = {}

    def add(self, frame: Frame) -> None:
        old = self.frames.get(frame.name)
        if old is not None:
            raise FileFormatError(f"{frame.where}: {frame.kind} {frame.name!r}: name already used by the "
                                  f"{old.kind} at {old.where} (SDFormat names must be unique in a model)")
        self.frames[frame.name] = frame

    def _get(self, name: str, by: Frame, what: str) -> Frame:
        f = self.frames.get(name)
        if f is None:
            shown = name[len(by.scope):] if name.startswith(by.scope) else name
            raise FileFormatError(f"{by.where}: {by.kind} {by.name!r}: {what} {shown!r} names no link, joint, "
                                  f"frame or model of {'the model' if not by.scope else repr(by.scope[:-2])}")
        return f

    def pose(self, name: str) -> np.ndarray:
        """The pose of frame ``name`` in the top model frame (4×4)."""
        if name in self._pose:
            return self._pose[name]
        chain: list[Frame] = []
        seen: set[str] = set()
        cur = self.frames[name]
        while cur.rel is not None and cur.name not in self._pose:
            if cur.name in seen:
                names = [f.name for f in chain]
                loop = names[names.index(cur.name):] + [cur.name]
                raise FileFormatError(f"{cur.where}: {cur.kind} {cur.name!r}: pose relative_to frames form a "
                                      f"cycle: {' → '.join(loop)}")
            seen.add(cur.name)
            chain.append(cur)
            cur = self._get(cur.rel, cur, "pose relative_to")
        X = self._pose.get(cur.name, np.eye(4) if cur.rel is None else None)
        self._pose[cur.name] = X
        for f in reversed(chain):
            X = X @ f.X
            self._pose[f.name] = X
        return self._pose[name]

    def relative(self, a: str, b: str) -> np.ndarray:
        """The pose of frame ``b`` in frame ``a``."""
        return inverse_transform(self.pose(a)) @ self.pose(b)

    def link_of(self, name: str, by: Frame, what: str) -> str:
        """The link frame ``name`` is attached to (``world`` for the world): itself for a link,
        a joint's child link, a frame's ``attached_to`` (followed), a model's canonical link."""
        seen: list[str] = []
        cur = self._get(name, by, what)
        while cur.kind not in ("link", "world"):
            if cur.name in seen:
                raise FileFormatError(f"{cur.where}: {cur.kind} {cur.name!r}: attached_to frames form a cycle: "
                                      f"{' → '.join(seen[seen.index(cur.name):] + [cur.name])}")
            seen.append(cur.name)
            if cur.attached is None:
                raise FileFormatError(f"{cur.where}: model {cur.name.removesuffix('::__model__')!r} has no link "
                                      "to attach frames to")
            cur = self._get(cur.attached, cur, "attached_to")
        return cur.name
