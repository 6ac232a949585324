"""Test-wide setup."""

from PySide6.QtCore import QCoreApplication, Qt

# pyqtgraph caches compiled shader programs across GL widgets: every viewport must share
# one GL context group, which must be requested before the QApplication exists.
QCoreApplication.setAttribute(Qt.ApplicationAttribute.AA_ShareOpenGLContexts)
