"""Which body is under a pixel of the viewport: a click selects it, the cursor highlights it.

Frames and labels are drawn over the meshes, so a frame origin or a label under the cursor wins;
otherwise the surface nearest the camera along the mouse ray (ray–triangle tests in each body's
own frame against the drawn visuals, and the collision geometry while it is shown). Bodies whose
bounding sphere the ray misses are never tested, so a click on Talos (205k triangles) tests the
triangles of the few bodies along the ray. Clicking again on frames that coincide on screen (a
spherical wrist, a tool point on its flange) steps to the next of them.
"""

from __future__ import annotations

import numpy as np

from ..model.edits import add_child
from .tools.ik_handle import mouse_ray

#: How near (pixels) the cursor must be to a frame origin to pick that frame.
PICK_PX = 10.0


#: A body's triangles are grouped by the cells of a 4×4×4 grid over its box, each group (at most
#: this many triangles) with its own bounding sphere: a ray tests the groups it passes through.
PIECE = 2048


class _Triangles:
    """Every pickable triangle in its body's frame, in pieces: groups of nearby triangles of one
    body (label index: 0 the base), each with a bounding sphere."""

    def __init__(self, meshes: list[tuple[int, np.ndarray, np.ndarray]]) -> None:
        tris, owners, bounds = [], [], []
        by_body: dict[int, list[np.ndarray]] = {}
        for k, V, F in meshes:
            F = np.asarray(F, dtype=np.int64).reshape(-1, 3)
            if len(F):
                by_body.setdefault(k, []).append(np.asarray(V, dtype=float)[F])
        n = 0
        for k, parts in sorted(by_body.items()):
            tri = np.concatenate(parts)  # (m, 3 corners, 3)
            c = tri.mean(axis=1)
            lo, hi = c.min(axis=0), c.max(axis=0)
            cell = np.clip(((c - lo) / np.maximum(hi - lo, 1e-12) * 4).astype(int), 0, 3) @ (16, 4, 1)
            order = np.argsort(cell, kind="stable")
            tri, cell = tri[order], cell[order]
            cuts = [0, *np.flatnonzero(np.diff(cell)) + 1, len(tri)]
            for a, b in zip(cuts[:-1], cuts[1:]):
                for s in range(a, b, PIECE):
                    bounds.append((n + s, n + min(s + PIECE, b)))
                    owners.append(k)
            tris.append(tri)
            n += len(tri)
        tri = np.concatenate(tris) if tris else np.zeros((0, 3, 3))
        self.v0 = tri[:, 0]
        self.e1 = tri[:, 1] - tri[:, 0]
        self.e2 = tri[:, 2] - tri[:, 0]
        self.owner = np.array(owners, dtype=int)
        self.bounds = np.array(bounds, dtype=int).reshape(-1, 2)
        starts = self.bounds[:, 0]
        lo = np.minimum.reduceat(tri.min(axis=1), starts, axis=0) if len(starts) else np.zeros((0, 3))
        hi = np.maximum.reduceat(tri.max(axis=1), starts, axis=0) if len(starts) else np.zeros((0, 3))
        self.center = (lo + hi) / 2
        self.radius = np.linalg.norm(hi - lo, axis=1) / 2 + 1e-9
        self.bodies = np.unique(self.owner)

    def hit(self, poses: np.ndarray, origin: np.ndarray, direction: np.ndarray) -> tuple[int, float] | None:
        """The body (label index) whose surface the ray meets first and the distance there."""
        if not len(self.owner):
            return None
        k = self.owner
        R, p = poses[k, :3, :3], poses[k, :3, 3]
        o = np.einsum("kji,kj->ki", R, origin - p)  # the ray in each piece's body frame
        d = np.einsum("kji,j->ki", R, direction)
        oc = o - self.center
        b = np.einsum("ki,ki->k", oc, d)
        disc = b * b - (np.einsum("ki,ki->k", oc, oc) - self.radius ** 2)
        root = np.sqrt(np.maximum(disc, 0))
        near = np.flatnonzero((disc >= 0) & (root - b > 0))
        if not len(near):
            return None
        # the triangles of the pieces whose spheres the ray passes through, all at once
        a, e = self.bounds[near, 0], self.bounds[near, 1]
        counts = e - a
        idx = np.repeat(a - np.cumsum(counts) + counts, counts) + np.arange(counts.sum())
        t = self._distances(idx, np.repeat(o[near], counts, axis=0), np.repeat(d[near], counts, axis=0))
        best = int(np.argmin(t))
        return (int(np.repeat(k[near], counts)[best]), float(t[best])) if np.isfinite(t[best]) else None

    def _distances(self, idx: np.ndarray, O: np.ndarray, D: np.ndarray) -> np.ndarray:
        """Distance along each ray (O, D) to triangle ``idx``, both faces; inf where it misses
        (Möller–Trumbore)."""
        v0, e1, e2 = self.v0[idx], self.e1[idx], self.e2[idx]
        pvec = np.cross(D, e2)
        det = np.einsum("ij,ij->i", e1, pvec)
        ok = np.abs(det) > 1e-15
        inv = np.divide(1.0, det, out=np.zeros_like(det), where=ok)
        tvec = O - v0
        u = np.einsum("ij,ij->i", tvec, pvec) * inv
        qvec = np.cross(tvec, e1)
        v = np.einsum("ij,ij->i", D, qvec) * inv
        t = np.einsum("ij,ij->i", e2, qvec) * inv
        ok &= (u >= 0) & (v >= 0) & (u + v <= 1) & (t > 0)
        return np.where(ok, t, np.inf)


class Picker:
    """Picks bodies in a :class:`~kinetree.app.viewport.view.RobotViewport` (label indices: 0 is
    the base, k the body ``k - 1``)."""

    def __init__(self, view) -> None:
        self.view = view
        self._triangles: _Triangles | None = None
        self._last_click: tuple[float, float, tuple[int, ...], int] | None = None

    def invalidate(self) -> None:
        """The drawn geometry changed (an edit, collision geometry shown or hidden)."""
        self._triangles = None
        self._last_click = None

    def _geometry(self) -> _Triangles:
        if self._triangles is None:
            view = self.view
            label_of_slot = {int(s): k for k, s in enumerate(view._slot_of_index)}
            meshes = [(label_of_slot[p.slot], p.vertices, p.faces) for p in view._parts if p.slot in label_of_slot]
            for owner, item, V in view._meshes:  # translucent visuals: their own items
                md = item.opts["meshdata"]
                meshes.append((owner + 1, md.vertexes() @ V[:3, :3].T + V[:3, 3], md.faces()))
            if view.collisions.shown:  # collision parts are slotted by label index
                meshes += [(p.slot, p.vertices, p.faces) for p in view.collisions.parts]
            self._triangles = _Triangles(meshes)
        return self._triangles

    def frames_at(self, x: float, y: float) -> list[int]:
        """Bodies whose frame origin or label is drawn under (x, y): the nearest origin first,
        the deepest first where origins coincide on screen."""
        view = self.view
        pts = np.vstack([np.zeros((1, 3)), view._poses[:, :3, 3]]) if len(view._poses) else np.zeros((1, 3))
        px = view.project(pts)
        dist = np.hypot(px[:, 0] - x, px[:, 1] - y)
        near = np.flatnonzero(dist <= PICK_PX)
        found = [int(k) for k in sorted(near, key=lambda k: (round(float(dist[k]), 1), -k))]
        if view.labels.visible():
            for rect, indices in view.labels.drawn_bodies:
                if rect.contains(x, y):
                    found += [k for k in indices if k not in found]
        return found

    def surface_at(self, x: float, y: float) -> int | None:
        """The body whose drawn surface is nearest the camera under (x, y)."""
        hit = self.surface_point(x, y)
        return None if hit is None else hit[0]

    def surface_point(self, x: float, y: float) -> tuple[int, np.ndarray] | None:
        """The body whose drawn surface is nearest the camera under (x, y), and the world point
        where the mouse ray meets it."""
        o, d = mouse_ray(self.view, x, y)
        hit = self._geometry().hit(self.view._slot_poses(), o, d)
        return None if hit is None else (hit[0], o + hit[1] * d)

    def body_at(self, x: float, y: float) -> int | None:
        """The body under (x, y) (a frame or label drawn on top wins over a surface), or None."""
        frames = self.frames_at(x, y)
        return frames[0] if frames else self.surface_at(x, y)

    def add_child_at(self, x: float, y: float) -> str | None:
        """Shift+click on a body's surface: a new revolute child placed there, with a link drawn
        to it (one undo step); its name, or None where no surface is."""
        hit = self.surface_point(x, y)
        if hit is None:
            return None
        view = self.view
        parent = view._name(hit[0])
        T = view._slot_poses()[hit[0]]
        at = T[:3, :3].T @ (hit[1] - T[:3, 3])  # the point in the parent's frame
        before = set(view.doc.tree.body_names)
        view.doc.try_edit(f"Add revolute body on {parent}", lambda t: add_child(t, parent, "revolute", at))
        return next(iter(set(view.doc.tree.body_names) - before), None)

    def click(self, x: float, y: float) -> int | None:
        """The body a click at (x, y) selects: as :meth:`body_at`, but a click again at the same
        spot over several coinciding frames selects the next one."""
        frames = tuple(self.frames_at(x, y))
        if len(frames) > 1 and self._last_click is not None:
            lx, ly, last, i = self._last_click
            if last == frames and abs(lx - x) <= 3 and abs(ly - y) <= 3:
                i = (i + 1) % len(frames)
                self._last_click = (x, y, frames, i)
                return frames[i]
        self._last_click = (x, y, frames, 0)
        return frames[0] if frames else self.surface_at(x, y)
