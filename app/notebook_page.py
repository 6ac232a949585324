"""The robot live in a notebook cell (JupyterLab, Jupyter Notebook, VS Code): ``web_view(tree, q)``
displays the exported web page (:mod:`kinetree.core.io.web_page`) in a sandboxed ``<iframe
srcdoc>``: sliders, the pose readout, frames, DH axes and the named poses, run by the browser
itself, so it works on a notebook server without a display and needs no Jupyter extension. No Qt."""

from __future__ import annotations

import html

from kinetree.core.io.web_page import web_page

#: The cell's default height in pixels (the page's panel holds six sliders and the pose above it).
HEIGHT = 620


class WebView:
    """A robot's web page as a notebook output (``_repr_html_``); ``notes`` says what the page
    left out or decimated."""

    def __init__(self, tree, q=None, *, height: int = HEIGHT, title: str = "") -> None:
        if not isinstance(height, int) or not 100 <= height <= 4000:
            raise ValueError(f"height must be a whole number of pixels in 100…4000, got {height!r:.40}")
        self.height = height
        self.page, self.notes = web_page(tree, q, title=title or "robot")

    def _repr_html_(self) -> str:
        # srcdoc holds the whole page as an attribute value (quotes escaped); allow-scripts without
        # allow-same-origin: the page's script runs in an opaque origin, away from the notebook's
        return (f'<iframe class="kinetree-web-view" sandbox="allow-scripts" style="width: 100%; '
                f'height: {self.height}px; border: 0" srcdoc="{html.escape(self.page, quote=True)}"></iframe>')


def web_view(tree, q=None, *, height: int = HEIGHT, title: str = "") -> WebView:
    """The robot at ``q`` (None: home) as an interactive cell output; refuses (``FileFormatError``
    naming it) what the web page cannot model, as File ▸ Export web page does."""
    return WebView(tree, q, height=height, title=title)
