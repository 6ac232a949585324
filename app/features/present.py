"""Present mode (F11, View ▸ Present): the window full screen with one scale factor for all its
text and lines, readable from the back of a lecture hall, and the keys of a presenter's clicker.

One factor scales everything, through :meth:`MainWindow.set_text_scale`: the application font
(every panel, the dock titles, the Explain dock's matrices and symbols), the viewport's labels,
the DH overlay's texts and its line widths. Its default follows the screen the window is on: 2 on
a 1080-pixel high screen (9-pt text becomes 24 px), proportionally on larger ones, and never less
than draws 18-px digits on it (a 720-line projector too); Ctrl++ / Ctrl+- change it while
presenting and it is remembered (setting ``presentScale``) apart from the everyday text size, for
screens of that size only (a factor chosen at 1080 lines is not reused on a 720-line projector).
Entering, the DH table gets at most a share of the height and the camera frames the robot again.
The docks for building a robot (Bodies, Joint) are hidden meanwhile, the room going to the view
and the teaching docks. F11 again restores the window as it was (size, docks, text size).

While presenting, the selected body is emphasised: the other bodies' meshes are greyed and their
link lines faded. The Explain dock's Step / Back / Play answer Right or PageDown / Left or
PageUp / Space (what a clicker sends) whenever the dock is shown, with the focus anywhere in
the window but a text field (which keeps its keys).

While presenting, every key a clicker sends walks the lecture (:class:`ClickerKeys`, an
application-wide event filter installed only then, so that no slider, spin box or window shortcut
sees them, whatever has the focus): PageDown / Right / Down / Space a step on, PageUp / Left / Up a
step back, Home / End the first / last step, B or ``.`` a black screen (the same key again
returns). The first step key shows the Explain dock and begins the walk from the DH table through
A₁ … Aₙ (:meth:`ExplainPanel.set_walk`), the Explain dock a column on the right, the sliders, the
pose, the DH table and the status bar hidden meanwhile (the room goes to the view and the column).
A text field keeps its typing keys (B, ., Space, Left, Right, Home, End); outside Present mode the
keys are the widgets' own, as before.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np
from kinetree.core import KineTreeError
from PySide6.QtCore import QEvent, QObject, Qt, QTimer
from PySide6.QtGui import QAction, QColor, QFont, QFontMetricsF, QKeySequence, QPalette, QWindow
from PySide6.QtWidgets import (
    QAbstractSpinBox,
    QApplication,
    QDockWidget,
    QLineEdit,
    QPlainTextEdit,
    QTextEdit,
    QWidget,
)

from ..model.dh_chain import cached_chain, chain_tip
from ..viewport.overlays.ghost_follow import GhostFollow
from ..viewport.view import THEMES
from ..widgets.text_style import LEGIBLE_PX
from ..window.features import At, Feature, MenuId

if TYPE_CHECKING:
    from ..window.main_window import MainWindow

#: the factor at a 1080-pixel high screen; other screens get it in proportion to their height
SCALE_AT_1080 = 2.0
#: link lines of the bodies not selected, in Present mode: this alpha
FADED = 0.25
#: docks for building a robot, hidden while presenting (F11 again shows them as they were)
EDITING_DOCKS = ("bodiesDock", "jointDock")
#: docks hidden while the clicker walks the lecture (its keys move no joint; the walk's first step
#: is the DH table): the Explain dock becomes a column on the right, this share of the window's
#: width, showing the step's block alone (:meth:`ExplainPanel.set_walk`). Across the bottom at 60 %
#: of the height it left the view a strip of 350 px at 1080 lines and still needed scrolling for
#: Aᵢ and Tᵢ⁰; a column keeps the view its full height and the matrices one above the other, and a
#: 4×4 of signed numbers with 3 decimals fits its width at 24-px text on a 1280-wide screen.
WALK_HIDDEN, WALK_SHARE = ("slidersDock", "poseDock", "dhDock"), 0.38
#: rounds of posted layout requests sent at the walk's first key (nested layouts post their own)
LAYOUT_ROUNDS = 3
#: widgets floating over the viewport, sized by their text
FLOATING = ("viewportToolbar", "gridLabel")
#: QFont's resolve-mask bit of a size set on the font itself (QFont::SizeResolved; not in PySide)
SIZE_RESOLVED = 0x2
#: a presenter's clicker: key → what the walk does
CLICKER = {Qt.Key.Key_PageDown: "step", Qt.Key.Key_Right: "step", Qt.Key.Key_Down: "step", Qt.Key.Key_Space: "step",
           Qt.Key.Key_PageUp: "back", Qt.Key.Key_Left: "back", Qt.Key.Key_Up: "back",
           Qt.Key.Key_Home: "first", Qt.Key.Key_End: "last", Qt.Key.Key_B: "blank", Qt.Key.Key_Period: "blank"}
#: the clicker keys a focused text field keeps (they type or move its cursor, never a joint)
TYPING = (Qt.Key.Key_B, Qt.Key.Key_Period, Qt.Key.Key_Space, Qt.Key.Key_Left, Qt.Key.Key_Right,
          Qt.Key.Key_Home, Qt.Key.Key_End)


def default_scale(screen_height: int) -> float:
    """Present mode's factor for a screen ``screen_height`` pixels high (2 at 1080, 1.5 at 800),
    in steps of 0.05, within 1…3."""
    return float(min(max(round(SCALE_AT_1080 * screen_height / 1080 / 0.05) * 0.05, 1.0), 3.0))


def legible_scale(widget: QWidget) -> float:
    """The smallest factor (in steps of 0.05, at most 3) at which the application's base font
    draws its digits :data:`~.text_style.LEGIBLE_PX` tall on the screen ``widget`` is on (its
    dots per inch): at 720 lines the proportional 1.35 drew 12-px digits."""
    base = float(QApplication.instance().property("kinetreeBasePointSize") or QApplication.font().pointSizeF())
    font = QFont(QApplication.font())
    for k in range(20, 61):  # 1.00 … 3.00
        font.setPointSizeF(base * k * 0.05)
        if QFontMetricsF(font, widget).tightBoundingRect("0123456789").height() >= LEGIBLE_PX:
            return k * 0.05
    return 3.0


def follow_font(window: QWidget) -> None:
    """Make every dock title and every widget with a style sheet follow the application font.

    A dock draws its title in a font it took when it was made, unless its own font differs from
    the application's: it gets one that differs in a rendering-neutral field only (so its size
    still follows the application font). A widget with a style sheet keeps the font the sheet
    gave it until the sheet is applied again."""
    for dock in window.findChildren(QDockWidget):
        if dock.font().styleStrategy() != QFont.StyleStrategy.PreferQuality:
            font = QFont()
            font.setStyleStrategy(QFont.StyleStrategy.PreferQuality)
            dock.setFont(font)
    for w in (window, *window.findChildren(QWidget)):
        sheet = w.styleSheet()
        if sheet:
            w.setStyleSheet(sheet)
    # once the posted font changes have arrived: the widgets they missed, and the widgets floating
    # over the view (they keep the size of their old text unless told)
    QTimer.singleShot(0, window, lambda: _after_font_change(window))


def _after_font_change(window: QWidget) -> None:
    inherit_missed_font(window)
    for w in window.findChildren(QWidget):
        if w.objectName() in FLOATING and w.isVisible():
            w.adjustSize()


def inherit_missed_font(window: QWidget) -> None:
    """Give the parent's font size to every widget that inherits its font but missed a change.

    Qt hands a font change down by walking a widget's list of children by index; a scroll area
    whose scroll bar comes or goes with the larger text raises the bar's container meanwhile,
    which reorders that list, and the child after it is skipped: the DH table's column header,
    the first time after a robot was opened, kept its old 9-pt text. Setting an empty font (no
    field of its own) makes such a widget resolve its font from its parent again."""
    for w in window.findChildren(QWidget):  # parents before their children
        parent = w.parentWidget()
        if (parent is None or w.isWindow() or w.testAttribute(Qt.WidgetAttribute.WA_SetFont)
                or w.testAttribute(Qt.WidgetAttribute.WA_StyleSheet) or w.font().resolveMask() & SIZE_RESOLVED):
            continue
        if w.font().pointSizeF() != parent.font().pointSizeF():
            w.setFont(QFont())


def _typing(widget: QWidget | None) -> bool:
    """An editable text field of its own (a spin box's field steps a joint: not one)."""
    if isinstance(widget, QLineEdit):
        return not widget.isReadOnly() and not isinstance(widget.parentWidget(), QAbstractSpinBox)
    return isinstance(widget, (QTextEdit, QPlainTextEdit)) and not widget.isReadOnly()


class ClickerKeys(QObject):
    """Installed on the application while presenting: a clicker's keys sent to ``window`` (to its
    focus widget or to the window itself) go to the walk, before any widget or shortcut sees them."""

    def __init__(self, present: PresentMode) -> None:
        super().__init__(present)
        self.present = present

    def eventFilter(self, obj, ev) -> bool:  # noqa: N802
        kind = ev.type()
        if kind not in (QEvent.Type.KeyPress, QEvent.Type.ShortcutOverride):
            return False
        window = self.present.window
        if isinstance(obj, QWindow):  # (the viewport's GL surface hands its keys to the viewport widget)
            if obj is not window.windowHandle():
                return False
        elif not isinstance(obj, QWidget) or obj.window() is not window:
            return False  # a dialog keeps its keys
        mods = ev.modifiers() & ~Qt.KeyboardModifier.KeypadModifier
        what = CLICKER.get(Qt.Key(ev.key())) if mods == Qt.KeyboardModifier.NoModifier else None
        if what is None:
            return False
        if ev.key() in TYPING and _typing(QApplication.focusWidget()):
            return False
        if kind == QEvent.Type.ShortcutOverride:
            ev.accept()  # no shortcut (B: the theme; the dock's step actions): the key press follows
            return True
        if not ev.isAutoRepeat() or what != "blank":
            self.present.clicker(what)
        return True


class PresentMode(QObject):
    """F11 / View ▸ Present for ``window``; the clicker keys for its Explain dock."""

    def __init__(self, window: MainWindow) -> None:
        super().__init__(window)
        self.window = window
        self.active = False
        self._saved: dict | None = None
        self._tab_beside = None  # during the walk: what the Explain dock is a tab beside otherwise
        self._dock_width: tuple[int, int] | None = None  # during the walk: the Explain dock's own width limits
        self.keys = ClickerKeys(self)
        self.blank = QWidget(window, objectName="presentBlank")  # B / . : the screen black
        # a native window of its own: raised, it covers the viewport's native GL window too
        self.blank.setAttribute(Qt.WidgetAttribute.WA_NativeWindow)
        self.blank.setAutoFillBackground(True)
        palette = self.blank.palette()
        palette.setColor(QPalette.ColorRole.Window, QColor(0, 0, 0))
        self.blank.setPalette(palette)
        self.blank.hide()
        self.action = QAction("&Present", window, objectName="presentAction", checkable=True)
        self.action.setShortcuts([QKeySequence(Qt.Key.Key_F11)])
        self.action.setToolTip("Full screen, all text and lines larger (Ctrl++ / Ctrl+- while presenting), "
                               "the selected body emphasised; F11 again restores the window")
        self.action.toggled.connect(self.set_active)
        explain = window.explain
        self.step_action = self._key_action("Explain: &step", "presentStepAction", explain.step_button,
                                            (Qt.Key.Key_Right, Qt.Key.Key_PageDown))
        self.back_action = self._key_action("Explain: &back", "presentBackAction", explain.back_button,
                                            (Qt.Key.Key_Left, Qt.Key.Key_PageUp))
        self.play_action = self._key_action("Explain: p&lay / pause", "presentPlayAction", explain.play_button,
                                            (Qt.Key.Key_Space,))
        window.explain_dock.visibilityChanged.connect(lambda _v: self._enable_keys())
        self._enable_keys()
        doc = window.doc
        doc.selectionChanged.connect(lambda _n: self._emphasis())
        doc.treeChanged.connect(lambda _c: self._emphasis())
        follow_font(window)

    def _key_action(self, text: str, name: str, button, keys) -> QAction:
        """A window-wide action clicking ``button`` (the real one: enabled, checked, as a click)."""
        action = QAction(text, self.window, objectName=name)
        action.setShortcuts([QKeySequence(k) for k in keys])
        action.setShortcutContext(Qt.ShortcutContext.WindowShortcut)
        action.triggered.connect(lambda: button.click() if button.isEnabled() else None)
        self.window.addAction(action)
        return action

    def _enable_keys(self) -> None:
        """The arrows, Page keys and Space step only while the Explain dock is shown (they are the
        widgets' own keys otherwise)."""
        on = self.window.explain_dock.isVisible()
        for a in (self.step_action, self.back_action, self.play_action):
            a.setEnabled(on)

    # --- the clicker -------------------------------------------------------------------------
    def clicker(self, what: str) -> None:
        """A clicker key while presenting: ``step``, ``back``, ``first``, ``last`` or ``blank``."""
        if what == "blank":
            self.set_blank(not self.blank.isVisible())
            return
        w, panel = self.window, self.window.explain
        if not w.explain_dock.isVisible() or not panel.walking:  # the first key: the walk from its start
            # a column on the right (WALK_SHARE); Present mode's end restores the docks' places
            if self._tab_beside is None:  # not a tab beside the DH table meanwhile (the end restores it)
                self._tab_beside = getattr(w.explain_dock, "_tab_beside", None) or False
                w.explain_dock._tab_beside = None
            for key in WALK_HIDDEN:  # back as they were when Present mode ends (its saved state)
                if key in w.docks:
                    w.docks[key].hide()
            w.statusBar().hide()  # its line is the column's (back when Present mode ends)
            w.explain_dock.setFloating(False)
            # its share of the width from the first layout on (:meth:`_walk_layout`): the view is
            # resized once, straight to its size in the walk (resizeDocks once the dock was laid out
            # drew 3 frames at an intermediate size, then 3 more; the key took 127 ms to its frame)
            if self._dock_width is None:
                self._dock_width = (w.explain_dock.minimumWidth(), w.explain_dock.maximumWidth())
            w.explain_dock.setFixedWidth(int(WALK_SHARE * w.width()))
            w.addDockWidget(Qt.DockWidgetArea.RightDockWidgetArea, w.explain_dock)
            panel.set_walk(True)  # before the dock shows: it loads once, in the walk (at the DH table)
            w.explain_dock.show()
            w.explain_dock.raise_()
            if not panel.active:  # loaded now: its dock says it is visible later, and reloading then reset the walk
                panel.set_active(True)
            self._walk_layout()
            return
        if panel.chain is None:  # no DH chain (the dock says why): nothing to walk
            return
        {"step": panel.step, "back": panel.back, "first": panel.first, "last": panel.last}[what]()

    def set_blank(self, on: bool) -> None:
        """A black cover over the whole window (as a presentation program's B key) or not."""
        if on:
            self.blank.setGeometry(self.window.rect())
            self.blank.raise_()
        self.blank.setVisible(bool(on))

    # --- entering and leaving ------------------------------------------------------------------
    def _screen_size(self) -> str:
        """The size of the screen the window is on, as ``"1920x1080"``."""
        screen = self.window.screen() or QApplication.primaryScreen()
        size = screen.geometry().size() if screen is not None else None
        return f"{size.width()}x{size.height()}" if size is not None else "1920x1080"

    def scale(self) -> float:
        """The factor for presenting on the window's screen: the one remembered for a screen of its
        size (setting ``presentScale``, with ``presentScreen``), else the screen's default, but never
        less than draws 18-px digits there (:func:`legible_scale`). A factor chosen on a 1080-line
        screen is never reused on a 720-line projector, where it left a view of 650×260 pixels."""
        settings = self.window.settings
        saved = settings.value("presentScale")
        if saved is not None and settings.value("presentScreen") == self._screen_size():
            return float(saved)
        return max(default_scale(int(self._screen_size().split("x")[1])), legible_scale(self.window))

    def remember(self, scale: float) -> None:
        """Ctrl++ / Ctrl+- while presenting: ``scale`` kept for screens of this one's size."""
        self.window.settings.setValue("presentScale", scale)
        self.window.settings.setValue("presentScreen", self._screen_size())

    def set_active(self, on: bool) -> None:
        """Enter (full screen, scaled, selection emphasised) or leave Present mode (as before)."""
        w = self.window
        if bool(on) == self.active:
            return
        if on:
            self._saved = {"geometry": w.saveGeometry(), "state": w.saveState(), "scale": w.text_scale,
                           "full": w.isFullScreen(), "maximized": w.isMaximized(),
                           "status": not w.statusBar().isHidden()}
            self.active = w.presenting = True
            QApplication.instance().installEventFilter(self.keys)
            follow_font(w)  # docks added since
            for key in EDITING_DOCKS:  # the room goes to the view: at large text all docks do not fit
                if key in w.docks:
                    w.docks[key].hide()
            w.set_text_scale(self.scale())
            screen = w.screen()
            if screen is not None:  # a desktop without a window manager ignores "full screen"
                w.setGeometry(screen.geometry())
            w.showFullScreen()
            QTimer.singleShot(0, w, self._fit_view)  # after the docks are fitted to the new size
            QTimer.singleShot(0, w, self._prefetch)
        else:
            saved = self._saved or {"scale": 1.0, "full": False, "maximized": False}
            self.active = w.presenting = False
            QApplication.instance().removeEventFilter(self.keys)
            self.set_blank(False)
            w.explain.set_walk(False)
            if self._dock_width is not None:  # (fixed during the walk)
                w.explain_dock.setMinimumWidth(self._dock_width[0])
                w.explain_dock.setMaximumWidth(self._dock_width[1])
                self._dock_width = None
            if self._tab_beside is not None:
                w.explain_dock._tab_beside, self._tab_beside = self._tab_beside or None, None
            w.set_text_scale(saved["scale"])
            if not saved["full"]:
                w.showMaximized() if saved["maximized"] else w.showNormal()
            if "geometry" in saved:
                w.restoreGeometry(saved["geometry"])
                w.restoreState(saved["state"])
                w.statusBar().setVisible(saved["status"])
        if self.action.isChecked() != self.active:
            self.action.setChecked(self.active)
        self._emphasis()

    def _walk_layout(self) -> None:
        """The walk's docks laid out now (the Explain dock fixed at its share of the width until
        Present mode ends: a refit of the docks for a new text size, Ctrl++ or the one entering
        began, resized the right-hand column it shares with the hidden Joints dock), the robot
        framed again at the view's new size, before anything is drawn: one frame, the settled one."""
        w = self.window
        # only the layouts: the posted paints come after, at the settled sizes (a dock area's
        # layout request posts its docks' own, hence a few rounds)
        for _ in range(LAYOUT_ROUNDS):
            QApplication.sendPostedEvents(None, QEvent.Type.LayoutRequest)
        w.viewport.fit()

    def _fit_view(self) -> None:
        """Frame the robot in the view as presenting left it (another size, other docks)."""
        if self.active:
            QApplication.sendPostedEvents()  # the docks' new sizes reach the view first
            self.window.viewport.fit()

    def _prefetch(self) -> None:
        """The walk's first symbolic matrices computed now, on the Explain dock's worker: on the first
        key, that computation (sympy imported, A₁ built: ~1 s holding the GIL on a second thread)
        slowed every event of the GUI thread, the first key's frame came 300…600 ms late."""
        w = self.window
        if not self.active or w.explain.walking:
            return
        tree = w.doc.tree
        try:  # the chain the walk will show (as the dock loads it)
            chain = cached_chain(tree, chain_tip(tree, w.doc.selection), w.explain.state.convention)
        except KineTreeError:
            return  # no DH chain: the walk says why, nothing to compute
        if chain.count:
            w.explain.symbolic.prefetch(chain, 1)

    def _emphasis(self) -> None:
        """Grey the bodies other than the selected one, fade their link lines (Present mode)."""
        view = self.window.viewport
        tree, name = self.window.doc.tree, self.window.doc.selection
        on = self.active and name is not None and (name in tree.body_names or name == tree.base_name)
        view.batch.set_dimmed([s for n, s in view._slots.items() if n != name] if on else [])

        base = np.array(THEMES[view.theme]["link"], dtype=float)
        n = len(tree.body_names)
        if not on or not n:
            view.links.setData(color=tuple(base))
            return
        colors = np.tile(base, (2 * n, 1))
        colors[:, 3] = FADED
        if name in tree.body_names:  # the selected body's own link line, from its parent
            k = tree.body_names.index(name)
            colors[2 * k:2 * k + 2, 3] = 1.0
        view.links.setData(color=colors)


def install_present(window: MainWindow) -> PresentMode:
    """View ▸ Present (F11) and the Explain dock's clicker keys (after the Explain dock)."""
    present = PresentMode(window)
    window.present = present

    window.ghost_follow = GhostFollow(window.viewport, window.teach, window.explain.timer.isActive)
    return present


FEATURE = Feature("present", install_present, requires=("teach",), actions={
    "presentAction": At(MenuId.VIEW, "present", 10), "presentStepAction": At(MenuId.VIEW_EXPLAIN_KEYS, "keys", 10),
    "presentBackAction": At(MenuId.VIEW_EXPLAIN_KEYS, "keys", 20),
    "presentPlayAction": At(MenuId.VIEW_EXPLAIN_KEYS, "keys", 30)})
