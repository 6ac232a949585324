"""Bundled robots and icons (read with importlib.resources)."""
