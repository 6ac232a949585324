"""The document: the one model object every panel edits and listens to."""

from __future__ import annotations

import itertools
import warnings
from collections.abc import Callable, Iterable
from pathlib import Path

import numpy as np
from kinetree.core import KineTreeError, LoopClosureError, PhysicsWarning, RigidBodyTree
from kinetree.core.disk.identity import FileIdentity, disk_state
from kinetree.core.disk.safe_io import MAX_BODIES
from kinetree.core.io import export_robot, open_robot, save_project
from kinetree.core.io.files import DroppedOnExportWarning
from kinetree.core.io.project import MAX_BYTES, project_text
from kinetree.core.kinematics.ik import IKResult, inverse_kinematics
from kinetree.core.kinematics.loop_closing import check_actuation, follow_target
from kinetree.core.kinematics.loops import solve_loops
from kinetree.core.transforms import inverse_transform
from PySide6.QtCore import QObject, Signal
from PySide6.QtGui import QUndoStack

from .changes import TreeChange, diff_bodies, diff_trees
from .commands import SetConfigurationCommand, TreeEditCommand
from .edits import follow_link_visuals


def project_path(source: str | Path) -> Path | None:
    """The path a document opened from ``source`` saves to: project files only (an imported
    URDF or DH table is saved as a new project, never overwritten)."""
    return Path(source) if str(source).lower().endswith(".json") else None


def read_identity(path: Path | None) -> FileIdentity | None:
    """The identity of the project file at ``path`` (None if there is none to read)."""
    return FileIdentity.read(path, MAX_BYTES) if path is not None else None


def source_name(source: str | Path) -> str:
    """The name a document opened from ``source`` goes by: a library name as is, a file's name."""
    return Path(str(source)).name


def adapt_configuration(old_tree: RigidBodyTree | None, old_q: np.ndarray | None,
                        new_tree: RigidBodyTree) -> np.ndarray:
    """Carry joint positions over to an edited tree by joint name (new joints start at home, and
    so does a retyped one: 1.047 rad is no prismatic position)."""
    q = new_tree.home_configuration()
    if old_tree is None or old_q is None or len(old_q) != old_tree.position_count:
        return q
    old = old_tree.config_to_dict(old_q)
    old_types = {b.joint.name: b.joint.type for b in old_tree.bodies}
    new_types = {b.joint.name: b.joint.type for b in new_tree.bodies}
    for name, value in old.items():
        if old_types.get(name) != new_types.get(name):
            continue
        try:
            sl = new_tree.position_index(name)
        except KineTreeError:
            continue
        v = np.atleast_1d(value)
        if v.size == sl.stop - sl.start:
            q[sl] = v
    return q


#: Gauss–Newton iterations of a warm-started closing (:func:`closed` with ``near``).
WARM_ITERATIONS = 25
#: Steps of a mouse move of the IK handle on a closed mechanism (each closes the loops again):
#: a move is a few pixels, the next move goes on from there (more cost a frame's time).
LIVE_ITERATIONS = 3


def closed(tree: RigidBodyTree, q: np.ndarray, near: np.ndarray | None = None) -> np.ndarray:
    """``q`` with the passive joints solved so that every loop of ``tree`` closes (``q`` itself
    for a tree without loops). ``near``: the configuration shown now, whose passive values warm
    start the solve so the mechanism stays on its assembly branch (a slider tick moves the
    actuated joints only). Raises :class:`LoopClosureError`."""
    if not tree.loops:
        return q
    if near is not None and near.shape == q.shape:
        start = q.copy()
        for b in tree.bodies:
            if not b.joint.actuated and b.joint.position_count:
                sl = tree.position_index(b.joint.name)
                start[sl] = near[sl]
        try:
            # a slider tick converges in three or four steps from the shown values; at the
            # mechanism's limit every step fails: capped, a refused tick stays within a frame
            return solve_loops(tree, start, max_iterations=WARM_ITERATIONS)
        except LoopClosureError:
            if np.array_equal(start, q):  # the same solve again would fail the same way
                raise
            # else from the values asked for, below (an edit may have moved a passive joint on purpose)
    return tree.solve_loops(q)


#: The memory the undo history may hold. Each tree edit keeps a whole copy of the tree (a
#: 2,000-body tree: 7 MB a step): the history keeps as many steps as fit, the oldest are dropped.
HISTORY_BYTES = 256 * 2**20
_BODY_BYTES = 4096  # measured with tracemalloc: a tree's copy, with its kinematics, 3.5–4.2 kB a body
MAX_HISTORY_STEPS = 10_000


def snapshot_bytes(tree: RigidBodyTree) -> int:
    """About what one undo step of a tree edit holds: a copy of ``tree``."""
    extensions = sum(len(t) for b in (tree.base, *tree.bodies) for t in b.extensions)
    return _BODY_BYTES * (tree.num_bodies + 1) + extensions


def history_limit(tree: RigidBodyTree) -> int:
    """How many undo steps of edits of ``tree`` fit in :data:`HISTORY_BYTES` (at least 2)."""
    return int(min(MAX_HISTORY_STEPS, max(2, HISTORY_BYTES // snapshot_bytes(tree))))


def show_history_note(view, doc: RobotDocument) -> None:
    """Keep ``view``'s (a QUndoView's) first entry saying what the history keeps: the user is told
    when older steps are dropped (see :data:`HISTORY_BYTES`)."""
    view.setEmptyLabel(doc.history_note())
    doc.pathChanged.connect(lambda _path: view.setEmptyLabel(doc.history_note()))


class RobotDocument(QObject):
    """Owns the tree, the configuration, the selection, the file path and the undo stack.

    Panels call the edit methods; each pushes one undo command; the command changes the
    state and the document emits ``treeChanged``/``configurationChanged``/``selectionChanged``.
    ``treeChanged`` carries a :class:`~kinetree.app.model.changes.TreeChange` (what the edit touched);
    ``configurationChanged`` follows it only when the joint positions changed.
    """

    treeChanged = Signal(object)  # a TreeChange
    configurationChanged = Signal()
    selectionChanged = Signal(object)  # body name or None
    visualSelectionChanged = Signal(object)  # index of the selected body's visual being edited, or None
    pathChanged = Signal(object)
    modifiedChanged = Signal(bool)
    message = Signal(str)  # a one-line status message for the user

    def __init__(self, tree: RigidBodyTree | None = None, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.undo_stack = QUndoStack(self)
        self.undo_stack.cleanChanged.connect(self._on_clean_changed)
        self._tree = tree or RigidBodyTree()
        self.undo_stack.setUndoLimit(history_limit(self._tree))
        self._q = closed(self._tree, self._tree.home_configuration())  # LoopClosureError when it cannot be
        self._selection: str | None = None
        self._visual: int | None = None
        self._path: Path | None = None
        self._name: str | None = None  # what it was opened from, for the title when it has no path
        self._identity: FileIdentity | None = None  # the file at ``path`` as last read or written
        self._drags = itertools.count(1)
        self._poses_tree: RigidBodyTree | None = None
        self._poses_key: tuple | None = None
        self._poses = np.zeros((0, 4, 4))

    def _on_clean_changed(self, clean: bool) -> None:
        # a bound slot (not a lambda) so Qt disconnects it when the document is destroyed
        self.modifiedChanged.emit(not clean)

    # --- state -------------------------------------------------------------------------------
    @property
    def tree(self) -> RigidBodyTree:
        """The current tree. Read it; change it only through the edit methods."""
        return self._tree

    @property
    def configuration(self) -> np.ndarray:
        return self._q.copy()

    @property
    def selection(self) -> str | None:
        return self._selection

    @property
    def selected_visual(self) -> int | None:
        """The selected body's visual the move/rotate handles act on (None: its frame)."""
        return self._visual

    @property
    def path(self) -> Path | None:
        return self._path

    @property
    def disk_identity(self) -> FileIdentity | None:
        """What the file at :attr:`path` was when this document last read or wrote it (None:
        no path, or a document restored from an autosave, whose base is unknown)."""
        return self._identity

    def disk_state(self) -> str:
        """``same``, ``changed`` or ``missing``: the file at :attr:`path` now, against what this
        document last read or wrote (``same`` when there is nothing to compare with)."""
        if self._path is None or self._identity is None:
            return "same"
        state, now = disk_state(self._path, self._identity)
        if now is not None:  # only its time moved (a touch, an identical save): compare quickly next time
            self._identity = now
        return state

    @property
    def name(self) -> str:
        """What the user calls the document: its file name, else what it was opened from
        (``puma560``, ``ur5.urdf``), else ``untitled``."""
        if self._path is not None:
            return self._path.name
        return self._name or "untitled"

    @property
    def from_file(self) -> bool:
        """True when the document was opened from a file or a library robot, False for one
        built from nothing in the app (File ▸ New, a restored autosave without a path)."""
        return self._path is not None or self._name is not None

    @property
    def modified(self) -> bool:
        return not self.undo_stack.isClean()

    def poses(self) -> np.ndarray:
        """(n_bodies, 4, 4) body poses at the current configuration (computed once per change:
        the viewport and the pose panel both read them on every slider tick)."""
        key = (self._tree.revision, self._q.tobytes())
        if self._poses_tree is not self._tree or self._poses_key != key:  # holding the tree: no id reuse
            self._poses = self._tree.forward_kinematics(self._q)
            self._poses_tree, self._poses_key = self._tree, key
        return self._poses

    def pose_of(self, body: str, frame: str | None = None) -> np.ndarray:
        """Pose of ``body`` in ``frame`` (the base when ``None``) at the current configuration."""
        P = self.poses()
        i, j = self._tree.index_of(body), -1 if frame is None else self._tree.index_of(frame)
        T = P[i] if i >= 0 else np.eye(4)
        return T if j < 0 else inverse_transform(P[j]) @ T

    def history_note(self) -> str:
        """What the undo history keeps, for its view: its first entry (the opened state)."""
        mb = snapshot_bytes(self._tree) / 2**20
        return (f"Opened (the history keeps the last {self.undo_stack.undoLimit()} steps, {mb:.2g} MB each "
                "for this robot; older ones are dropped)")

    def serialized(self) -> str:
        """The project text of the current state (what Save would write); a FileFormatError
        if it could not be opened again (the autosave writes nothing it could not restore)."""
        return project_text(self._tree, self._q, self.name)

    def snapshot(self) -> tuple[RigidBodyTree, np.ndarray]:
        """The tree and a copy of the configuration now, to serialize on another thread (an edit
        replaces the document's tree, never changes it: see :mod:`.commands`)."""
        return self._tree, self._q.copy()

    # --- whole-document operations (not undoable: they start a new history) ------------------
    def load(self, tree: RigidBodyTree, configuration: np.ndarray | None = None,
             path: Path | None = None, name: str | None = None, identity: FileIdentity | None = None) -> None:
        """Replace the document; ``name`` is what it was opened from (see :attr:`name`),
        ``identity`` what the file at ``path`` was when it was read (see :attr:`disk_identity`).
        A tree with closed loops gets its configuration closed (:meth:`closed`): a
        :class:`LoopClosureError` when it cannot be, before anything changes."""
        q = configuration if configuration is not None else tree.home_configuration()
        q = closed(tree, q)
        self.undo_stack.clear()
        self._identity = identity if path else None
        self.undo_stack.setUndoLimit(history_limit(tree))  # Qt sets it on an empty stack only
        self._tree = tree
        self._q = q
        self._selection = None
        self.select_visual(None)
        self._path = Path(path) if path else None
        self._name = name
        self.undo_stack.setClean()
        self.treeChanged.emit(TreeChange.reset())
        self.configurationChanged.emit()
        self.selectionChanged.emit(None)
        self.pathChanged.emit(self._path)
        self.modifiedChanged.emit(False)

    def open(self, source: str | Path) -> None:
        """Open a project file, an importable robot file (URDF, xacro, DH CSV) or a library
        robot name. Raises KineTreeError on bad input. Only project files become the
        document's path: an imported robot is saved as a new project."""
        path = project_path(source)
        identity = read_identity(path)  # before reading: a change in between is seen as a change
        tree, q = open_robot(source)
        self.load(tree, q, path, source_name(source), identity)

    def save(self, path: str | Path | None = None) -> None:
        """Write the project to ``path`` (else :attr:`path`); it becomes the document's path.
        Callers ask about a file changed on disk first (see :meth:`disk_state`)."""
        target = Path(path) if path else self._path
        if target is None:
            raise KineTreeError("no file name: use Save As")
        self._identity = save_project(self._tree, target, self._q)
        self._path = target
        self.undo_stack.setClean()
        self.pathChanged.emit(target)

    def reload(self, tree: RigidBodyTree, configuration: np.ndarray | None, identity: FileIdentity | None) -> None:
        """Take the file's new content (read by the caller from :attr:`path`) as one undo step
        that leaves the document unmodified: Undo brings back what was there before the reload,
        unsaved edits included."""
        q = configuration if configuration is not None else tree.home_configuration()
        sel = self._selection if self._selection in tree.body_names or self._selection == tree.base_name else None
        self.undo_stack.push(TreeEditCommand(self, f"Reload {self.name} from disk", (self._tree, self._q),
                                             (tree, q.copy()), sel, TreeChange.reset()))
        self._identity = identity
        self.undo_stack.setClean()

    def export(self, path: str | Path, **options) -> str:
        """Write the robot as URDF, SDFormat, MJCF or a DH table CSV (``options`` as :func:`export_robot`); the
        status line to show, saying what the format could not hold or wrote otherwise."""
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            export_robot(self._tree, path, configuration=self._q, **options)
        # what the format could not hold (an MJCF's massless moving bodies, a URDF's <transmission>),
        # then what it wrote otherwise (motor data, asymmetric friction …): every writer's warning,
        # as Open shows the reader's; the status line keeps the first 300 characters
        said = sorted((w for w in caught if issubclass(w.category, UserWarning) and "named pose" not in str(w.message)),
                      key=lambda w: not issubclass(w.category, DroppedOnExportWarning))
        lost = [str(w.message) for w in said]
        for w in caught:  # still warnings too, as before (the log, scripts)
            warnings.warn_explicit(w.message, w.category, w.filename, w.lineno)
        n = len(self._tree.named_poses)
        notes = lost  # first: the status line keeps 300 characters
        if n and not str(path).lower().endswith(".json"):
            notes.append(f"{n} named pose{'s' if n > 1 else ''} not written (the format has no place for them; "
                         "save a project to keep them)")
        return f"Exported {path}: {'; '.join(notes)}" if notes else f"Exported {path}"

    # --- selection ---------------------------------------------------------------------------
    def select(self, name: str | None) -> None:
        if name is not None and name not in self._tree.body_names and name != self._tree.base_name:
            name = None
        self.select_visual(None)  # a body picked again: its frame, not a visual
        if name != self._selection:
            self._selection = name
            self.selectionChanged.emit(name)

    def select_visual(self, index: int | None) -> None:
        """Make the selected body's visual ``index`` what the move/rotate handles act on."""
        body = self._selection
        shapes = self._tree.get_body(body).visuals if body is not None else ()
        if index is not None and not 0 <= index < len(shapes):
            index = None
        if index != self._visual:
            self._visual = index
            self.visualSelectionChanged.emit(index)

    # --- edits -------------------------------------------------------------------------------
    def edit(self, text: str, change: Callable[[RigidBodyTree], str | None | object],
             drag: int | None = None, only: Iterable[str] | None = None) -> bool:
        """Apply ``change`` to a copy of the tree; if it succeeds push it as one undo step.

        ``change`` may return the name of the body to select afterwards, or a whole new tree
        to replace the current one. On a KineTreeError
        nothing changes, ``message`` is emitted, and the error is re-raised for the caller
        that wants to show it in place. Edits made with one ``drag`` token (:meth:`begin_drag`)
        merge into one undo step. ``only``: the bodies ``change`` can touch (their joints,
        visuals or properties; no body added, removed or renamed, no joint retyped): a drag's
        edit, then diffed over those bodies alone and the configuration kept as it is.
        """
        before = (self._tree, self._q)
        new_tree = self._tree.copy()
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always", PhysicsWarning)
            result = change(new_tree)
        for w in caught:  # still warnings (the log, scripts); a physics one is also said in the window
            warnings.warn_explicit(w.message, w.category, w.filename, w.lineno)
        if isinstance(result, RigidBodyTree):
            new_tree = result
        else:  # the links drawn by Add child follow the frames they join
            follow_link_visuals(new_tree)
        new_tree.check_mimics()  # a tree the kinematics cannot run never reaches the undo stack
        if new_tree.num_bodies > MAX_BODIES:  # what could not be saved, autosaved and restored is not made
            raise KineTreeError(f"{text}: {new_tree.num_bodies} bodies is more than the {MAX_BODIES} "
                                "KineTree accepts")
        sel = result if isinstance(result, str) else self._selection
        if sel is not None and sel not in new_tree.body_names and sel != new_tree.base_name:
            sel = None
        if only is not None and not isinstance(result, RigidBodyTree):
            new_q, diff = self._q.copy(), diff_bodies(self._tree, new_tree, only)
        else:
            new_q, diff = adapt_configuration(self._tree, self._q, new_tree), diff_trees(self._tree, new_tree)
        new_q = closed(new_tree, new_q)  # a loop the edit made or changed: closed, or the edit refused
        # the command keeps both trees and swaps them: no copy beyond the one edited here
        self.undo_stack.push(TreeEditCommand(self, text, before, (new_tree, new_q), sel, diff, drag))
        for w in caught:
            if issubclass(w.category, PhysicsWarning):  # kept as typed, and the user is told why it is odd
                self.message.emit(str(w.message))
        return True

    def try_edit(self, text: str, change: Callable[[RigidBodyTree], object]) -> str | None:
        """As :meth:`edit`, but returns the error message instead of raising (None on success)."""
        try:
            self.edit(text, change)
        except KineTreeError as exc:
            self.message.emit(str(exc))
            return str(exc)
        return None

    def begin_drag(self) -> int:
        """A token that merges every configuration change made with it into one undo step."""
        return next(self._drags)

    def set_configuration(self, q, text: str = "Move joints", drag: int | None = None) -> None:
        """Set joint positions (vector or {joint: value}); ``drag`` merges into one step."""
        new_q = self._closed_or_said(self._tree.config_to_vector(q))
        if new_q is None or np.array_equal(new_q, self._q):
            return
        self.undo_stack.push(SetConfigurationCommand(self, text, self._q.copy(), new_q, drag))

    def set_random_configuration(self, text: str = "Random pose") -> None:
        """Random positions within the limits (closed, on home's branch, on a robot with loops:
        :meth:`RigidBodyTree.random_configuration`); a mechanism that no random draw of its
        actuators assembles: the reason in ``message``, nothing moves."""
        try:
            q = self._tree.random_configuration()
        except LoopClosureError as exc:
            self.message.emit(str(exc))
            return
        if not np.array_equal(q, self._q):  # closed already: not solved again from the pose shown (another branch)
            self.undo_stack.push(SetConfigurationCommand(self, text, self._q.copy(), q, None))

    def _closed_or_said(self, q: np.ndarray) -> np.ndarray | None:
        """``q`` with the loops closed, or None (the move refused, the reason in ``message``)."""
        try:
            return closed(self._tree, q, self._q)
        except LoopClosureError as exc:
            self.message.emit(str(exc))
            return None

    def close_loop(self, name: str, body_a: str, frame_a, body_b: str, frame_b, kind: str,
                   passive: Iterable[str] = ()) -> bool:
        """Close a loop (:meth:`RigidBodyTree.add_loop`) and make the ``passive`` joints passive,
        as one undo step; the configuration is closed with it (the edit refused, with its
        reason, when it cannot be)."""
        passive = list(passive)

        def change(t: RigidBodyTree) -> None:
            for joint in passive:
                t.find_joint(joint).joint.actuated = False
            t.add_loop(name, body_a, frame_a, body_b, frame_b, kind)
            try:
                check_actuation(t)
            except LoopClosureError as exc:
                raise LoopClosureError(f"loop {name!r} between {body_a!r} and {body_b!r}: {exc}") from None

        return self.edit(f"Close loop {name}", change)

    def set_actuated(self, joint: str, on: bool) -> bool:
        """Make ``joint`` actuated (driven by its slider) or passive (solved by the loops), as one
        undo step; refused (:class:`LoopClosureError`) when the mechanism would be driven by no
        joint, or by more or fewer joints than its degrees of freedom."""

        def change(t: RigidBodyTree) -> None:
            t.find_joint(joint).joint.actuated = bool(on)
            try:
                check_actuation(t)
            except LoopClosureError as exc:
                raise LoopClosureError(f"joint {joint!r} cannot be made {'actuated' if on else 'passive'}: "
                                       f"{exc}") from None

        return self.edit(f"Make {joint} {'actuated' if on else 'passive'}", change)

    def open_loop(self, name: str) -> bool:
        """Remove the loop ``name`` (its joints stay passive until made actuated), as one undo step."""
        return self.edit(f"Open loop {name}", lambda t: t.remove_loop(name) and None)

    def preview_configuration(self, q) -> None:
        """Show joint positions without an undo step and without marking the document modified
        (playback: watching an animation is not an edit). The next edit starts from them."""
        new_q = self._closed_or_said(self._tree.config_to_vector(q))
        if new_q is not None and not np.array_equal(new_q, self._q):
            self._set_configuration(new_q)

    def move_body_to(self, body: str, target, drag: int | None = None, live: bool = False,
                     frame: str | None = None, position_only: bool = False):
        """Inverse kinematics: move ``body`` to the 4×4 ``target``, given in ``frame`` (the base
        when ``None``), from the current configuration, and apply the best configuration found
        (within the limits), also when the target is out of reach. ``live`` (a mouse drag): a
        few warm-started iterations, no random restarts, so the robot never jumps. Returns the
        :class:`IKResult`. The joints that move ``frame`` are held (the target moves with them).
        ``position_only``: the target's origin only, any orientation."""
        tree, q = self._tree, self._q
        base = frame is None or frame == tree.base_name
        # a target in a frame: that frame must not move, or the target would move with it
        locked, name = [], None if base else frame
        while name is not None and name != tree.base_name:
            joint = tree.get_body(name).joint
            if joint.mimic is not None:  # it moves with its leader
                locked.append(joint.mimic.joint)
            elif joint.position_count:
                locked.append(joint.name)
            name = tree.parent_name(name)
        goal = np.asarray(target, dtype=float) if base else tree.get_transform(q, frame) @ np.asarray(target, float)
        if tree.loops and all(b.joint.position_count in (0, 1) for b in tree.bodies):
            return self._move_closed(body, goal, drag, live, locked, position_only)
        result = inverse_kinematics(tree, body, goal, q, max_iterations=40 if live else 200,
                                    restarts=0 if live else 20, locked=locked,
                                    weights=(0, 0, 0, 1, 1, 1) if position_only else None)
        self.set_configuration(result.q, f"Move {body} to a pose", drag)
        return result

    def _move_closed(self, body: str, goal: np.ndarray, drag: int | None, live: bool, locked: list[str],
                     position_only: bool):
        """:meth:`move_body_to` on a tree with closed loops: the actuated joints move, the passive
        ones follow, every loop stays closed; at the mechanism's limit the motion stops at the
        last closed configuration and ``message`` says why."""

        weights = (0, 0, 0, 1, 1, 1) if position_only else (1, 1, 1, 1, 1, 1)
        q, reason = follow_target(self._tree, body, goal, self._q, weights=weights,
                                  iterations=LIVE_ITERATIONS if live else 100, locked=locked)
        if reason is not None:
            self.message.emit(f"Move {body}: stopped at the mechanism's limit: {reason}")
        self.set_configuration(q, f"Move {body} to a pose", drag)
        T = self._tree.get_transform(q, body) if body != self._tree.base_name else np.eye(4)
        position = float(np.linalg.norm(goal[:3, 3] - T[:3, 3]))
        c = float(np.clip((np.trace(goal[:3, :3] @ T[:3, :3].T) - 1) / 2, -1.0, 1.0))
        orientation = 0.0 if position_only else float(np.arccos(c))
        return IKResult(q, position <= 1e-6 and orientation <= 1e-6, position, orientation, 0)

    def set_joint_position(self, joint: str, value, drag: int | None = None) -> None:
        q = self._q.copy()
        q[self._tree.position_index(joint)] = value
        self.set_configuration(q, f"Move {joint}", drag)

    # --- called by commands ------------------------------------------------------------------
    def _restore(self, tree: RigidBodyTree, q: np.ndarray, selection: str | None, change: TreeChange) -> None:
        # the command's snapshot becomes the document's tree (never changed in place: every
        # edit works on a copy), so undo and redo copy nothing
        moved = self._q.shape != q.shape or not np.array_equal(self._q, q)
        self._tree = tree
        self._q = q.copy()
        changed = selection != self._selection
        self._selection = selection  # before treeChanged: views read it while refreshing
        if changed or (self._visual is not None and self._visual >= len(tree.get_body(selection).visuals)):
            self.select_visual(None)
        self.treeChanged.emit(change)
        if moved:
            self.configurationChanged.emit()
        if changed:
            self.selectionChanged.emit(selection)

    def _set_configuration(self, q: np.ndarray) -> None:
        self._q = q.copy()
        self.configurationChanged.emit()
