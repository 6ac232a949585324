"""The app's opt-in for xacro files that read environment variables (``$(env X)``,
``$(optenv X)``): a checkable File menu entry remembered in QSettings, off by default, since a
robot file from elsewhere could otherwise copy the user's environment into the model."""

from __future__ import annotations

from PySide6.QtCore import QSettings
from PySide6.QtGui import QAction
from PySide6.QtWidgets import QWidget

#: QSettings key of the opt-in.
SETTING = "xacroAllowEnv"
ACTION_TEXT = "Allow &environment variables in xacro files"
#: What the core's refusal says (core/io/xacro/expand.py); the app adds where to turn it on.
REFUSAL = "reading environment variables is disabled"
HINT = ("To let xacro files read environment variables, check File ▸ Allow environment variables "
        "in xacro files, then open the file again.")


def allow_env(settings: QSettings) -> bool:
    """Whether robot files opened by the app may read environment variables."""
    return settings.value(SETTING, False, type=bool)


def add_allow_env_action(settings: QSettings, parent: QWidget) -> QAction:
    """The checkable menu entry (``allowEnvAction``), showing and storing :data:`SETTING`."""
    action = QAction(ACTION_TEXT, parent)
    action.setObjectName("allowEnvAction")
    action.setCheckable(True)
    action.setChecked(allow_env(settings))
    action.setToolTip("let .xacro files use $(env X) and $(optenv X) (off: they are refused)")
    action.toggled.connect(lambda on: settings.setValue(SETTING, bool(on)))
    return action


def with_hint(message: str) -> str:
    """``message`` with a pointer to the menu entry when it is the core's refusal of ``$(env)``."""
    return f"{message}\n\n{HINT}" if REFUSAL in message else message
