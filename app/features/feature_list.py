"""The window's features (:data:`FEATURES`, installed by :class:`~.main_window.MainWindow` after
those each requires) and what they put on the window (:class:`FeatureParts`). Adding a feature:
one module ending with ``FEATURE = Feature(…)`` (:class:`~.features.Feature`), and one line in
:data:`FEATURE_MODULES`."""

from __future__ import annotations

from typing import TYPE_CHECKING

from kinetree.core.lazy import LazyImports

from ..window.features import Feature, FeatureError

if TYPE_CHECKING:
    from PySide6.QtGui import QAction
    from PySide6.QtWidgets import QDockWidget, QWidget

    from ..panels.assign_frames import AssignFramesPanel
    from ..panels.exercise import ExercisePanel
    from ..panels.explain import ExplainPanel
    from ..panels.poses import PosesPanel
    from ..panels.simulate import SimulatePanel
    from ..panels.timeline import TimelinePanel
    from ..panels.torques import TorquePanel
    from ..viewport.overlays.assigned_frames import AssignedFrames
    from ..viewport.overlays.dh_overlay import DHOverlay
    from ..viewport.overlays.ghost_follow import GhostFollow
    from ..viewport.overlays.path_trace import PathTrace
    from .analysis import Analysis
    from .playback import PlaybackState
    from .present import PresentMode
    from .teach import TeachState

#: the feature modules of this package, one line each, in install order where requirements allow; each
#: ends with ``FEATURE = Feature(…)`` (see kinetree.core.lazy: tests/test_architecture.py checks every
#: module exists and obeys the layers)
FEATURE_MODULES = LazyImports(__name__, {
    "ik_tools": ".ik_tools",  # View ▸ Inverse kinematics handle, IK position only (also in the viewport's tool bar)
    "teach": ".teach",  # the DH overlay, View ▸ DH parameters, the Explain and Exercise docks, the exam
    "analysis": ".analysis",  # View ▸ Workspace, Centre of mass, Inertia, Gravity torques, Self-collision
    "tools": ".tools",  # View ▸ Tool: Q pose, W move frame, E rotate frame, R measure, O close loop
    "help": ".help",  # Help ▸ User guide, Getting started, Keyboard shortcuts, About; the empty robot's hint
    "playback": ".playback",  # the Poses dock with the timeline, the traced path, File ▸ Export animation
    "web_export": ".web_export",  # File ▸ Export web page
    "torques": ".torques",  # View ▸ Torques: the torques along the Poses dock's motion
    "simulate": ".simulate",  # View ▸ Simulate (S): let the robot go
    "matrix_check": ".matrix_check",  # View ▸ Check a matrix…
    "assign_frames": ".assign_frames",  # View ▸ Assign frames: the student's own DH frames, checked
    "present": ".present",  # View ▸ Present (F11), the Explain dock's clicker keys, the ghost followed
})


def features_of(modules: LazyImports) -> tuple[Feature, ...]:
    """The ``FEATURE`` of each module in ``modules``, in its order; a FeatureError naming a module
    that declares none (checked as the window's module is imported, before any window exists)."""
    found = []
    for name, module in modules.table.items():
        feature = getattr(getattr(modules, name), "FEATURE", None)
        if not isinstance(feature, Feature):
            raise FeatureError(f"feature module {module!r} (FEATURE_MODULES[{name!r}]) declares no "
                               f"FEATURE = Feature(…) at its end (found {type(feature).__name__})")
        found.append(feature)
    return tuple(found)


#: the window's features (:class:`~.main_window.MainWindow` installs them after those each requires)
FEATURES: tuple[Feature, ...] = features_of(FEATURE_MODULES)


class FeatureParts:
    """What the features put on the window, declared (None until installed): a base class of
    :class:`~.main_window.MainWindow`. A feature that keeps something on the window declares it
    here; everything else it made is in ``window.features[name]``."""

    teach: TeachState | None = None
    dh_overlay: DHOverlay | None = None
    dh_overlay_action: QAction | None = None
    explain: ExplainPanel | None = None
    explain_dock: QDockWidget | None = None
    exercise: ExercisePanel | None = None
    exercise_dock: QDockWidget | None = None
    analysis: Analysis | None = None
    tool_actions: dict[str, QAction | QWidget] | None = None
    help_actions: dict[str, QAction] | None = None
    playback: PlaybackState | None = None
    poses: PosesPanel | None = None
    timeline: TimelinePanel | None = None
    path_trace: PathTrace | None = None
    poses_dock: QDockWidget | None = None
    export_animation_action: QAction | None = None
    export_web_page_action: QAction | None = None
    torques: TorquePanel | None = None  # built when its dock is first shown
    torques_dock: QDockWidget | None = None
    simulate: SimulatePanel | None = None
    simulate_dock: QDockWidget | None = None
    check_matrix_action: QAction | None = None
    assign_frames: AssignFramesPanel | None = None
    assign_frames_dock: QDockWidget | None = None
    assigned_frames: AssignedFrames | None = None
    present: PresentMode | None = None
    ghost_follow: GhostFollow | None = None
    presenting = False  # View ▸ Present (app/features/present.py)
