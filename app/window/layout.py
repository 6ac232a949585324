"""The main window's default layout: which dock goes where, and how big.

Left column, full height: Bodies above Joint (both visible: editing the selected body's joint
while seeing the tree). Right: the joint sliders above the Pose readout. Bottom, under the
viewport and the right column: the DH table. The sizes come from the current font, so that six
sliders and six DH rows fit at 1280×800 and stay visible with presentation-size text.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import QEvent, QSize, Qt, QTimer
from PySide6.QtGui import QAction, QFontMetrics
from PySide6.QtWidgets import (
    QApplication,
    QBoxLayout,
    QDockWidget,
    QDoubleSpinBox,
    QFrame,
    QPushButton,
    QScrollArea,
    QStyle,
    QWidget,
)

from ..panels.sliders import ROW_SPACING

if TYPE_CHECKING:
    from .main_window import MainWindow

#: bump when the dock arrangement changes: saved states of an older layout are then ignored
LAYOUT_VERSION = 2
#: the default window covers this share of the screen's available area
SCREEN_SHARE = 0.9
#: rows the default layout keeps visible without scrolling
VISIBLE_SLIDERS = 7  # a 7-axis arm (Panda, iiwa) shows every slider without scrolling
VISIBLE_DH_ROWS = 6
SIDE_SHARE = 0.32  # most of the window width a side column takes (1280 wide: 409 px)
VISIBLE_BODIES = 8  # the base and a 6-axis arm with a tool
#: in Present mode, most of the window height the DH table takes (it scrolls): the view keeps the rest
PRESENT_DH_SHARE = 0.27
SCROLLED_MIN_WIDTH = 240  # a scrolled dock's narrowest (its content scrolls sideways below it)

L, R, B = (Qt.DockWidgetArea.LeftDockWidgetArea, Qt.DockWidgetArea.RightDockWidgetArea,
           Qt.DockWidgetArea.BottomDockWidgetArea)


def default_window_size(window: MainWindow) -> QSize:
    """90 % of the available screen area (the whole of it below 1280×800)."""
    screen = window.screen() or QApplication.primaryScreen()
    avail = screen.availableGeometry() if screen is not None else None
    if avail is None or avail.width() <= 0:
        return QSize(1280, 800)
    w, h = avail.width(), avail.height()
    return QSize(max(int(w * SCREEN_SHARE), min(w, 1280)), max(int(h * SCREEN_SHARE), min(h, 800)))


def place_default(window: MainWindow) -> None:
    """Size the window as :func:`default_window_size` and centre it on its screen."""
    window.resize(default_window_size(window))
    screen = window.screen() or QApplication.primaryScreen()
    if screen is not None:
        frame = window.frameGeometry()
        frame.moveCenter(screen.availableGeometry().center())
        window.move(frame.topLeft())


def compact_dh_rows(window: MainWindow) -> None:
    """DH rows as tall as a line of text plus padding (the style's default is taller): the
    six rows of a 6-axis arm fit under the viewport at 1280×800. Columns as wide as a
    seven-character number at the current text size."""
    view = window.dh.view
    fm = QFontMetrics(view.font())
    view.verticalHeader().setMinimumSectionSize(fm.height() + 4)
    view.verticalHeader().setDefaultSectionSize(fm.height() + 8)
    view.horizontalHeader().setDefaultSectionSize(max(72, fm.horizontalAdvance("-0.12345") + 16))


def _row_height() -> int:
    """Height of one slider row (a spin box is the tallest control in it)."""
    return QDoubleSpinBox().sizeHint().height()


def needed_sizes(window: MainWindow) -> dict[str, int]:
    """Widths and heights (pixels, with the dock title bars) the docks need at the current font."""
    compact_dh_rows(window)
    style = window.style()
    title = QFontMetrics(QApplication.font()).height() + 8  # a dock's title bar
    scrollbar = style.pixelMetric(QStyle.PixelMetric.PM_ScrollBarExtent)
    button = QPushButton("Home").sizeHint().height()
    row = _row_height()
    sliders = window.sliders
    grid_spacing = ROW_SPACING
    sliders_h = (title + 4 + button + 6 + 2 * 2 + 2 * 4  # title, margins, top bar, frame, grid margins
                 + VISIBLE_SLIDERS * row + (VISIBLE_SLIDERS - 1) * grid_spacing)
    dh = window.dh
    view = dh.view
    dh_rows = VISIBLE_DH_ROWS * view.verticalHeader().defaultSectionSize()
    dh_h = (title + dh.layout().contentsMargins().top() * 2 + view.horizontalHeader().sizeHint().height()
            + dh_rows + 2 * view.frameWidth() + scrollbar  # a horizontal scroll bar may appear
            + 2 * button + 3 * dh.layout().spacing())
    # the Joint form's own minimum width plus its scroll bar: no horizontal scrolling
    joint_scroll = window.joint.findChild(QScrollArea)
    joint_min = joint_scroll.widget().minimumSizeHint().width() if joint_scroll and joint_scroll.widget() else 360
    # the form widens with what it shows (a transform's six numbers on one line): room for
    # seven numbers at the current font, measured at 1× and 1.5× text on the library robots
    numbers = QFontMetrics(QApplication.font()).horizontalAdvance("0.0000  " * 7)
    # ... and the joint-to-parent matrix (four signed numbers a line), measured with a sample shown
    label = window.joint.matrix_label
    shown = label.text()
    label.setText("\n".join(["-0.0000  -0.0000  -0.0000  -0.0000"] * 4))
    if joint_scroll and joint_scroll.widget():
        m = joint_scroll.widget().layout().contentsMargins()
        numbers = max(numbers, window.joint.fixed_group.minimumSizeHint().width() + m.left() + m.right())
    label.setText(shown)
    left_w = max(max(joint_min, numbers) + scrollbar + 12, window.bodies.minimumSizeHint().width())
    top_bar = sliders.layout().itemAt(0)  # Home, Zero, Random, units, step: at their preferred widths
    right_w = max(sliders.minimumSizeHint().width(), top_bar.sizeHint().width() + 8,
                  window.pose.minimumSizeHint().width(), 360)
    tree = window.bodies.view
    tree_row = max(tree.sizeHintForRow(0), QFontMetrics(tree.font()).height() + 2)
    bodies_h = (title + 4 + window.bodies.toolbar.sizeHint().height() + tree.header().sizeHint().height()
                + VISIBLE_BODIES * tree_row + 2 * tree.frameWidth() + 6)
    return {"left": left_w, "right": right_w, "sliders": sliders_h, "dh": dh_h,
            "pose": window.pose.minimumSizeHint().height() + title, "bodies": bodies_h}


def stack_controls(window: MainWindow, width: int) -> bool:
    """The Joints dock's buttons and its units on one line, or the units below the buttons where
    that line is wider than ``width`` (Present mode at 1280×720: 623 px, the view kept 51 % of the
    width). Whether they are stacked."""
    top = window.sliders.layout().itemAt(0).layout()
    rows = [top.itemAt(k).sizeHint().width() for k in range(top.count())]
    stacked = sum(rows) + top.spacing() * (len(rows) - 1) + 8 > width
    top.setDirection(QBoxLayout.Direction.TopToBottom if stacked else QBoxLayout.Direction.LeftToRight)
    return stacked


def fit_docks(window: MainWindow) -> None:
    """Size the docks for the current font and window (placement unchanged)."""
    d = window.docks
    width = window.width()
    # a larger window shares its width with the controls instead of giving it all to the view
    # ... and a narrow one (1024 wide) still leaves the view a third: each side column takes
    # at most SIDE_SHARE of the width unless its dock cannot shrink that far
    cap = int(SIDE_SHARE * width)
    stacked = stack_controls(window, cap)
    QApplication.sendPostedEvents(None, QEvent.Type.LayoutRequest)  # the docks' minimum sizes follow
    n = needed_sizes(window)
    if stacked:  # the units' line below the buttons'
        n["sliders"] += window.sliders.angle_units.sizeHint().height() + ROW_SPACING
    left = max(min(max(n["left"], int(0.22 * width)), cap), d["jointDock"].minimumSizeHint().width())
    right = max(min(max(n["right"], int(0.24 * width)), cap), d["slidersDock"].minimumSizeHint().width())
    window.resizeDocks([d["bodiesDock"], d["slidersDock"]], [left, right], Qt.Orientation.Horizontal)
    if window.presenting:  # the room is the view's; a 720-line projector has little
        n["dh"] = min(n["dh"], int(PRESENT_DH_SHARE * window.height()))
    window.resizeDocks([d["dhDock"]], [n["dh"]], Qt.Orientation.Vertical)
    # the right column above the DH table: sliders first, the pose (which scrolls) gets the rest
    sep = window.style().pixelMetric(QStyle.PixelMetric.PM_DockWidgetSeparatorExtent)
    bars = window.menuBar().sizeHint().height() + window.statusBar().sizeHint().height()
    column = window.height() - bars - n["dh"] - 2 * sep
    pose = max(column - n["sliders"], window.docks["poseDock"].minimumSizeHint().height())
    window.resizeDocks([d["slidersDock"], d["poseDock"]], [n["sliders"], pose], Qt.Orientation.Vertical)
    bodies_h = max(n["bodies"], int(0.3 * window.height()))
    window.resizeDocks([d["bodiesDock"], d["jointDock"]], [bodies_h, window.height() - bodies_h],
                       Qt.Orientation.Vertical)


def fit_docks_later(window: MainWindow) -> None:
    """Refit the docks once a font change has reached every widget (size hints follow the
    font only after the posted font and layout events are delivered)."""

    def fit() -> None:
        QApplication.sendPostedEvents()
        fit_docks(window)

    QTimer.singleShot(0, window, fit)


def scrolled(widget: QWidget) -> QScrollArea:
    """``widget`` in a frameless scroll area, so that its dock can be narrower (or shorter) than
    the widget's own minimum: a dock's minimum size is the window's, and the Explain and
    Exercise panels' rows of controls beside the DH table's buttons widened a 1280-wide window
    to 1944 px, the right column off the screen."""
    area = QScrollArea()
    area.setObjectName(f"{widget.objectName() or 'dock'}Scroll")
    area.setFrameShape(QFrame.Shape.NoFrame)
    area.setWidgetResizable(True)
    area.setWidget(widget)
    # as small as a dock sensibly gets: the content scrolls below its own minimum
    area.setMinimumSize(SCROLLED_MIN_WIDTH, 0)
    return area


def fit_to_screen(window: MainWindow) -> None:
    """A window larger than its screen's available area gets the default size and place."""
    screen = window.screen() or QApplication.primaryScreen()
    if screen is None:
        return
    avail = screen.availableGeometry()
    if window.width() > avail.width() or window.height() > avail.height():
        place_default(window)
    elif not avail.contains(window.frameGeometry()):
        frame = window.frameGeometry()
        frame.moveLeft(min(max(frame.left(), avail.left()), avail.right() - frame.width() + 1))
        frame.moveTop(min(max(frame.top(), avail.top()), avail.bottom() - frame.height() + 1))
        window.move(frame.topLeft())


def optional_dock(window: MainWindow, title: str, name: str, widget, area: Qt.DockWidgetArea,
                  shortcut: str | None = None, scroll: bool = True) -> tuple[QDockWidget, QAction]:
    """A dock not in the default layout: docked in ``area``, hidden, with its View toggle
    (``toggle_<name>``; showing it brings it in front of the tabs it sits among); its widget
    :func:`scrolled` if ``scroll``."""
    dock = QDockWidget(title, window)
    dock.setObjectName(name)
    dock.setWidget(scrolled(widget) if scroll else widget)
    window.addDockWidget(area, dock)
    dock.hide()
    toggle = dock.toggleViewAction()
    toggle.setObjectName(f"toggle_{name}")
    if shortcut:
        toggle.setShortcut(shortcut)
    toggle.triggered.connect(lambda on: on and dock.raise_())
    return dock, toggle


def hidden_tab(window: MainWindow, anchor: QDockWidget, dock: QDockWidget, area: Qt.DockWidgetArea) -> None:
    """Dock ``dock`` hidden, to become a tab beside ``anchor`` when it is shown. Tabified while
    hidden, Qt left a stray tab bar (the anchor's title) over the menu bar's File menu."""
    dock.setFloating(False)
    window.addDockWidget(area, dock)
    dock.hide()
    if not getattr(dock, "_tab_beside", None):
        def shown(visible: bool) -> None:
            target = dock._tab_beside  # None: placed elsewhere for now (Present mode's walk)
            if (target is not None and visible and not dock.isFloating()
                    and dock not in window.tabifiedDockWidgets(target)):
                window.tabifyDockWidget(target, dock)
                dock.raise_()

        dock.visibilityChanged.connect(shown)
    dock._tab_beside = anchor


def apply_default_layout(window: MainWindow) -> None:
    """Put every dock in its default place, shown and docked, and size them (View ▸ Reset layout)."""
    d = window.docks
    # the left column runs the full height when the window is wide enough for it beside the DH
    # table's row of buttons; in a narrow one (a 1024-wide projector) the DH table runs the full
    # width under it instead, so that the window still fits the screen
    beside = d["jointDock"].minimumSizeHint().width() + d["dhDock"].minimumSizeHint().width()
    window.setCorner(Qt.Corner.BottomLeftCorner, L if beside + 200 <= window.width() else B)
    window.setCorner(Qt.Corner.TopLeftCorner, L)
    window.setCorner(Qt.Corner.BottomRightCorner, B)  # the DH table runs under the right column
    window.setCorner(Qt.Corner.TopRightCorner, R)
    for dock in d.values():
        dock.setFloating(False)
    window.addDockWidget(L, d["bodiesDock"])
    window.splitDockWidget(d["bodiesDock"], d["jointDock"], Qt.Orientation.Vertical)
    window.addDockWidget(R, d["slidersDock"])
    window.splitDockWidget(d["slidersDock"], d["poseDock"], Qt.Orientation.Vertical)
    window.addDockWidget(B, d["dhDock"])
    for dock in d.values():
        dock.show()
    for feature in window.feature_order:  # the features' docks: each a hidden tab somewhere
        if feature.place is not None:
            feature.place(window)
    fit_docks(window)


def reset_layout(window: MainWindow) -> None:
    """Every dock in its default place and size, and a window larger than its screen (one
    the docks had widened, or a saved one) back onto it (View ▸ Reset layout)."""
    apply_default_layout(window)
    size = window.size()
    fit_to_screen(window)
    if size != window.size():
        apply_default_layout(window)  # the docks' sizes for the new window size
