"""The window's features (:data:`FEATURES`, installed by :class:`~.main_window.MainWindow` after
those each requires) and what they put on the window (:class:`FeatureParts`). Adding a feature:
one module ending with its :class:`~.features.Feature`, and one line here."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..window.features import Feature
from .analysis import ANALYSIS_FEATURE
from .assign_frames import ASSIGN_FRAMES_FEATURE
from .help import HELP_FEATURE
from .ik_tools import IK_TOOLS_FEATURE
from .matrix_check import MATRIX_CHECK_FEATURE
from .playback import PLAYBACK_FEATURE
from .present import PRESENT_FEATURE
from .simulate import SIMULATE_FEATURE
from .teach import TEACH_FEATURE
from .tools import TOOLS_FEATURE
from .torques import TORQUES_FEATURE
from .web_export import WEB_EXPORT_FEATURE

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

FEATURES: tuple[Feature, ...] = (
    IK_TOOLS_FEATURE,  # View ▸ Inverse kinematics handle, IK position only (also in the viewport's tool bar)
    TEACH_FEATURE,  # the DH overlay, View ▸ DH parameters, the Explain and Exercise docks, the exam
    ANALYSIS_FEATURE,  # View ▸ Workspace, Centre of mass, Inertia, Gravity torques, Self-collision
    TOOLS_FEATURE,  # View ▸ Tool: Q pose, W move frame, E rotate frame, R measure, O close loop
    HELP_FEATURE,  # Help ▸ User guide, Getting started, Keyboard shortcuts, About; the empty robot's hint
    PLAYBACK_FEATURE,  # the Poses dock with the timeline, the traced path, File ▸ Export animation
    WEB_EXPORT_FEATURE,  # File ▸ Export web page
    TORQUES_FEATURE,  # View ▸ Torques: the torques along the Poses dock's motion
    SIMULATE_FEATURE,  # View ▸ Simulate (S): let the robot go
    MATRIX_CHECK_FEATURE,  # View ▸ Check a matrix…
    ASSIGN_FRAMES_FEATURE,  # View ▸ Assign frames: the student's own DH frames, checked
    PRESENT_FEATURE,  # View ▸ Present (F11), the Explain dock's clicker keys, the ghost followed
)


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
