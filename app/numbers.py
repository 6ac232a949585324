"""``kinetree.app.numbers``, as the user guide documents it: the module
:mod:`kinetree.app.model.numbers` under its former name (the same module object)."""

import sys

from .model import numbers as _moved

sys.modules[__name__] = _moved
