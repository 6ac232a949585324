"""Test-wide setup."""

from PySide6.QtCore import QCoreApplication, Qt

# pyqtgraph caches compiled shader programs across GL widgets: every viewport must share
# one GL context group, which must be requested before the QApplication exists.
QCoreApplication.setAttribute(Qt.ApplicationAttribute.AA_ShareOpenGLContexts)

from hypothesis import settings  # noqa: E402

# tests/test_optional_packages.py reruns files without the optional packages: few examples there
settings.register_profile("optional", max_examples=5, deadline=None)
