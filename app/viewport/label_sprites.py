"""Placed labels drawn by the GPU: every frame is one textured draw call.

Drawing a 1000-body tree's 300 labels with a QPainter on the GL widget cost ~20 ms a frame
(a rounded plate and a text each, through Qt's OpenGL paint engine). Here each label (plate and
text, antialiased by Qt's raster engine) is painted once into an atlas image, kept while its
text, colours and size stay the same; a frame uploads only what is new and draws one quad per
label. Leader lines are quads over a strip of the atlas whose alpha falls off across its
width (their antialiased edge); their end dots are sprites like the labels.
"""

from __future__ import annotations

import math

import numpy as np
from OpenGL import GL
from pyqtgraph.opengl.GLGraphicsItem import GLGraphicsItem
from PySide6 import QtOpenGL
from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QColor, QFont, QImage, QPainter

from .gl_programs import Program, location
from .label_layout import Placed, draw_label_text, leader_rgba

#: atlas side (pixels): ~6000 labels of a 10-point font; when full it starts afresh
ATLAS = 2048
_VERTEX = """
    uniform vec2 u_size;
    attribute vec2 a_position;
    attribute vec2 a_uv;
    attribute vec4 a_color;
    varying vec2 v_uv;
    varying vec4 v_color;
    void main() {
        v_uv = a_uv;
        v_color = a_color;
        gl_Position = vec4(2.0 * a_position.x / u_size.x - 1.0, 1.0 - 2.0 * a_position.y / u_size.y, 0.0, 1.0);
    }
"""
_FRAGMENT = """
    uniform sampler2D u_atlas;
    varying vec2 v_uv;
    varying vec4 v_color;
    void main() {
        gl_FragColor = texture2D(u_atlas, v_uv) * v_color;
    }
"""
_PROGRAM = Program("label", _VERTEX, _FRAGMENT)
#: the strip leader lines sample: 16 texel rows of white, transparent at both edges
_STRIP = (0, 0, 4, 16)
_STRIDE = 8  # floats per vertex: x, y (device pixels, y down), u, v, premultiplied RGBA


class _Atlas:
    """Sprites packed in rows into one image, mirrored in a GL texture (shared by every
    viewport: their contexts share objects)."""

    def __init__(self) -> None:
        self.image = QImage(ATLAS, ATLAS, QImage.Format.Format_RGBA8888_Premultiplied)
        self.texture: int | None = None
        self.clear()

    def clear(self) -> None:
        self.generation = getattr(self, "generation", -1) + 1  # quads made before point elsewhere
        self.image.fill(Qt.GlobalColor.transparent)
        self.slots: dict[tuple, tuple[int, int, int, int]] = {}
        self._x, self._y, self._row = _STRIP[2] + 1, 0, _STRIP[3]
        # coverage of a line 1.5 px wide across a quad 3.5 px wide (a leader's usual width and
        # its 1-px fringes; wider leaders scale it)
        profile = np.clip(1.25 - np.abs((np.arange(16) + 0.5) / 16 - 0.5) * 3.5, 0, 1)
        strip = np.repeat((255 * profile + 0.5).astype(np.uint8)[:, None], 4 * _STRIP[2], axis=1)
        self._pixels()[:16, :4 * _STRIP[2]] = strip  # premultiplied white: every channel = alpha
        self.dirty = [0, 0, ATLAS, ATLAS]  # x0, y0, x1, y1: painted since the last upload

    def _pixels(self) -> np.ndarray:
        return np.frombuffer(self.image.bits(), dtype=np.uint8).reshape(ATLAS, self.image.bytesPerLine())

    def allocate(self, w: int, h: int) -> tuple[int, int] | None:
        """The top-left corner of a free ``w`` × ``h`` region (None: the atlas is full)."""
        if self._x + w > ATLAS:
            self._x, self._y, self._row = 0, self._y + self._row + 1, 0
        if self._y + h > ATLAS or w > ATLAS:
            return None
        x, y = self._x, self._y
        self._x += w + 1
        self._row = max(self._row, h)
        d = self.dirty
        self.dirty = [min(d[0], x), min(d[1], y), max(d[2], x + w), max(d[3], y + h)]
        return x, y

    def upload(self) -> None:
        """Create the texture, or send it the rows painted since the last upload."""
        if self.texture is None:
            self.texture = int(GL.glGenTextures(1))
            GL.glBindTexture(GL.GL_TEXTURE_2D, self.texture)
            for name in (GL.GL_TEXTURE_MIN_FILTER, GL.GL_TEXTURE_MAG_FILTER):
                GL.glTexParameteri(GL.GL_TEXTURE_2D, name, GL.GL_LINEAR)
            for name in (GL.GL_TEXTURE_WRAP_S, GL.GL_TEXTURE_WRAP_T):
                GL.glTexParameteri(GL.GL_TEXTURE_2D, name, GL.GL_CLAMP_TO_EDGE)
            GL.glTexImage2D(GL.GL_TEXTURE_2D, 0, GL.GL_RGBA, ATLAS, ATLAS, 0, GL.GL_RGBA, GL.GL_UNSIGNED_BYTE, None)
            self.dirty = [0, 0, ATLAS, ATLAS]
        GL.glBindTexture(GL.GL_TEXTURE_2D, self.texture)
        x0, y0, x1, y1 = self.dirty
        if x1 > x0 and y1 > y0:  # only the rectangle painted (a drag paints its amount at every move)
            pixels = np.ascontiguousarray(self._pixels()[y0:y1, 4 * x0:4 * x1])
            GL.glPixelStorei(GL.GL_UNPACK_ALIGNMENT, 4)
            GL.glTexSubImage2D(GL.GL_TEXTURE_2D, 0, x0, y0, x1 - x0, y1 - y0, GL.GL_RGBA, GL.GL_UNSIGNED_BYTE, pixels)
        self.dirty = [ATLAS, ATLAS, 0, 0]


_atlas: _Atlas | None = None
_vbo: QtOpenGL.QOpenGLBuffer | None = None


def _premultiplied(rgba) -> tuple[float, float, float, float]:
    a = float(rgba[3])
    return float(rgba[0]) * a, float(rgba[1]) * a, float(rgba[2]) * a, a


def _sprite_key(p: Placed, style: tuple) -> tuple:
    return (p.text, p.color, p.plate, round(p.rect.width(), 2), round(p.rect.height(), 2), p.pad, style)


def _paint_sprites(atlas: _Atlas, missing: list[tuple[tuple, Placed]], font: QFont, shift: float,
                   dpr: float) -> bool:
    """Paint the labels not yet in the atlas; False: it is full (nothing was painted)."""
    spots = []
    for key, p in missing:
        w, h = math.ceil(p.rect.width() * dpr) + 2, math.ceil(p.rect.height() * dpr) + 2
        if w > ATLAS or h > ATLAS:
            continue  # wider than the atlas (thousands of pixels): never drawn
        at = atlas.allocate(w, h)
        if at is None:
            return False
        spots.append((key, p, at, w, h))
    painter = QPainter(atlas.image)
    painter.setRenderHints(QPainter.RenderHint.Antialiasing | QPainter.RenderHint.TextAntialiasing)
    painter.setFont(font)
    for key, p, (x, y), w, h in spots:
        painter.resetTransform()
        painter.translate(x + 1, y + 1)
        painter.scale(dpr, dpr)
        if p.plate[3] > 0:
            painter.setPen(Qt.PenStyle.NoPen)
            painter.setBrush(QColor.fromRgbF(*p.plate))
            radius = min(4.0, p.pad)
            painter.drawRoundedRect(QRectF(0, 0, p.rect.width(), p.rect.height()), radius, radius)
        painter.setPen(QColor.fromRgbF(*p.color))
        draw_label_text(painter, QPointF(p.pad, p.pad + shift), p.text)  # names: never markup
        atlas.slots[key] = (x, y, w, h)
    painter.end()
    return True


def _dot_key(radius: float, color, dpr: float) -> tuple:
    return ("•", round(radius, 2), color, dpr)


def _paint_dots(atlas: _Atlas, dots: list[tuple[tuple, float, tuple]], dpr: float) -> bool:
    spots = []
    for key, radius, color in dots:
        side = math.ceil(2 * radius * dpr) + 2
        at = atlas.allocate(side, side)
        if at is None:
            return False
        spots.append((key, radius, color, at, side))
    painter = QPainter(atlas.image)
    painter.setRenderHint(QPainter.RenderHint.Antialiasing)
    painter.setPen(Qt.PenStyle.NoPen)
    for key, radius, color, (x, y), side in spots:
        painter.setBrush(QColor.fromRgbF(*color))
        painter.drawEllipse(QPointF(x + side / 2, y + side / 2), radius * dpr, radius * dpr)
        atlas.slots[key] = (x, y, side, side)
    painter.end()
    return True


def _quads(rects: np.ndarray, uvs: np.ndarray, colors: np.ndarray) -> np.ndarray:
    """Two triangles per quad: ``rects`` (n, 4, 2) corners (device pixels, in the order
    top-left, top-right, bottom-right, bottom-left), ``uvs`` likewise, ``colors`` (n, 4)."""
    corners = [0, 1, 2, 0, 2, 3]
    out = np.empty((len(rects), 6, _STRIDE), dtype=np.float32)
    out[:, :, 0:2] = rects[:, corners]
    out[:, :, 2:4] = uvs[:, corners]
    out[:, :, 4:8] = colors[:, None, :]
    return out.reshape(-1, _STRIDE)


def _give_quads(atlas: _Atlas, labels: list[Placed], font: QFont, shift: float, dpr: float, key: tuple) -> bool:
    """Paint what ``labels`` need and the atlas lacks, and give each label its quads
    (``p.quads`` = (``key``, leader and dot, plate and text)); False: the atlas is full."""
    style = key[:3]
    keys = [_sprite_key(p, style) for p in labels]
    missing = {k: p for k, p in zip(keys, labels) if k not in atlas.slots}
    dots = {}
    for p in labels:
        if p.leader:
            radius, color = max(2.0, p.rect.height() / 10), leader_rgba(p)
            dot = _dot_key(radius, color, dpr)
            if dot not in atlas.slots:
                dots[dot] = (dot, radius, color)
    if not ((not missing or _paint_sprites(atlas, list(missing.items()), font, shift, dpr))
            and (not dots or _paint_dots(atlas, list(dots.values()), dpr))):
        return False
    s = 1.0 / ATLAS
    under = [np.zeros((0, _STRIDE), dtype=np.float32)] * len(labels)
    leaders = [k for k, p in enumerate(labels) if p.leader]
    if leaders:
        lp = [labels[k] for k in leaders]
        a = np.array([(p.anchor.x(), p.anchor.y()) for p in lp]) * dpr
        r = np.array([(p.rect.left(), p.rect.top(), p.rect.right(), p.rect.bottom()) for p in lp]) * dpr
        e = np.c_[np.clip(a[:, 0], r[:, 0], r[:, 2]), np.clip(a[:, 1], r[:, 1], r[:, 3])]
        d = e - a
        length = np.linalg.norm(d, axis=1)
        d = np.where(length[:, None] > 1e-9, d / np.maximum(length, 1e-9)[:, None], [1.0, 0.0])
        half = np.array([max(1.5, p.rect.height() / 14) for p in lp]) * dpr / 2 + 1.0
        n = np.c_[-d[:, 1], d[:, 0]] * half[:, None]
        rects = np.stack([a + n, e + n, e - n, a - n], axis=1)
        u = (_STRIP[2] / 2) * s
        uvs = np.tile(np.array([[u, 0.0], [u, 0.0], [u, _STRIP[3] * s], [u, _STRIP[3] * s]]), (len(lp), 1, 1))
        lines = _quads(rects, uvs, np.array([_premultiplied(leader_rgba(p)) for p in lp]))
        slots = np.array([atlas.slots[_dot_key(max(2.0, p.rect.height() / 10), leader_rgba(p), dpr)]
                          for p in lp], dtype=float)
        side = slots[:, 2:3]
        ends = _sprite_quads(slots, np.round(a[:, 0:1] - side / 2), np.round(a[:, 1:2] - side / 2), s)
        for i, k in enumerate(leaders):  # the line, then the dot at its point
            under[k] = np.concatenate([lines[6 * i:6 * i + 6], ends[6 * i:6 * i + 6]])
    slots = np.array([atlas.slots.get(k, (0, 0, 0, 0)) for k in keys], dtype=float).reshape(-1, 4)
    corner = np.array([(p.rect.left(), p.rect.top()) for p in labels]).reshape(-1, 2) * dpr
    over = _sprite_quads(slots, np.round(corner[:, 0:1]) - 1, np.round(corner[:, 1:2]) - 1, s).reshape(-1, 6, _STRIDE)
    for p, u_, o in zip(labels, under, over):  # (a label too wide for the atlas: an empty quad)
        p.quads = (key, u_, o)
    return True


#: the six vertices of a quad's two triangles (as :func:`_quads`): which take the far x, the far y
_FAR_X = np.array([0.0, 1.0, 1.0, 0.0, 1.0, 0.0])
_FAR_Y = np.array([0.0, 0.0, 1.0, 0.0, 1.0, 1.0])


def _sprite_quads(slots: np.ndarray, x0: np.ndarray, y0: np.ndarray, s: float) -> np.ndarray:
    """Quads showing atlas regions ``slots`` (x, y, w, h) texel for pixel, top-left at (x0, y0)."""
    # (every frame for the labels that move: a few broadcasts, not dozens of small stacks)
    out = np.ones((len(slots), 6, _STRIDE), dtype=np.float32)
    w, h = slots[:, 2:3], slots[:, 3:4]
    out[:, :, 0] = np.reshape(x0, (-1, 1)) + w * _FAR_X
    out[:, :, 1] = np.reshape(y0, (-1, 1)) + h * _FAR_Y
    out[:, :, 2] = (slots[:, 0:1] + w * _FAR_X) * s
    out[:, :, 3] = (slots[:, 1:2] + h * _FAR_Y) * s
    return out.reshape(-1, _STRIDE)


def draw_sprites(view, labels: list[Placed], font: QFont, shift: float = 0.0) -> None:
    """Draw the placed ``labels`` (in ``font``, the text ``shift`` pixels down its plate) over
    what the GL context of ``view`` has drawn so far; called inside a paint."""
    _draw(view, [(labels, font, shift)])


#: label items painted below this depth join one draw call made at this depth (:func:`queue_sprites`)
PASS_DEPTH = 100.5


def queue_sprites(view, labels: list[Placed], font: QFont, shift: float = 0.0) -> None:
    """Like :func:`draw_sprites`, but drawn with every other label queued in this frame by one
    call at :data:`PASS_DEPTH` (for items painted before it)."""
    sprite_pass = getattr(view, "_sprite_pass", None)
    if sprite_pass is None:
        view._sprite_pass = _SpritePass()
        view.addItem(view._sprite_pass)
        _draw(view, [(labels, font, shift)])  # this frame's items are already listed: drawn now
        return
    sprite_pass.queue.append((labels, font, shift))


def prepare_sprites(view, labels: list[Placed], font: QFont, shift: float = 0.0) -> None:
    """Have the next sprite pass of ``view`` put these labels in the atlas (an item painted
    after the pass draws them). Software GL finishes every draw queued so far before a texture
    they read is changed: a sprite painted after the pass would stall the frame."""
    sprite_pass = getattr(view, "_sprite_pass", None)
    if sprite_pass is not None:
        sprite_pass.early.append((labels, font, shift))


class _SpritePass(GLGraphicsItem):
    """Draws the labels queued by the items painted before it, all in one call."""

    def __init__(self) -> None:
        super().__init__()
        self.queue: list[tuple[list[Placed], QFont, float]] = []
        self.early: list[tuple[list[Placed], QFont, float]] = []  # to put in the atlas, drawn later
        self.setDepthValue(PASS_DEPTH)

    def paint(self) -> None:
        queue, early, self.queue, self.early = self.queue, self.early, [], []
        _draw(self.view(), queue, early)


def _locations(program: int) -> tuple[int, int, list[tuple[int, int, int]]]:
    """The program's uniform locations (u_size, u_atlas) and its attributes' (location, size, offset)."""
    attributes = [(location(program, name, attribute=True), size, offset)
                  for name, size, offset in (("a_position", 2, 0), ("a_uv", 2, 2), ("a_color", 4, 4))]
    return location(program, "u_size"), location(program, "u_atlas"), [a for a in attributes if a[0] != -1]


def _draw(view, groups: list[tuple[list[Placed], QFont, float]], early: list | tuple = ()) -> None:
    """Draw the groups (labels, font, shift) in one call; ``early``: groups only put in the atlas."""
    global _atlas, _vbo
    groups = [g for g in groups if g[0]]
    if not groups or (chosen := _PROGRAM.get()) is None:
        return
    shader, program = chosen
    atlas = _atlas = _atlas or _Atlas()
    dpr = float(view.devicePixelRatioF())
    for _attempt in range(2):  # a full atlas starts afresh once
        full = False
        for labels, font, shift in [*groups, *early]:
            key = (font.key(), shift, dpr, atlas.generation)
            todo = [p for p in labels if p.quads is None or p.quads[0] != key]
            if todo and not _give_quads(atlas, todo, font, shift, dpr, key):
                full = True
                break
        if not full:
            break
        atlas.clear()
    else:
        return  # more than a whole atlas of labels in one frame: not drawn
    # leader lines under every plate
    labels = [p for g in groups for p in g[0]]
    data = np.concatenate([p.quads[1] for p in labels if p.leader] + [p.quads[2] for p in labels])
    if _vbo is None:
        _vbo = QtOpenGL.QOpenGLBuffer(QtOpenGL.QOpenGLBuffer.Type.VertexBuffer)
        _vbo.setUsagePattern(QtOpenGL.QOpenGLBuffer.UsagePattern.StreamDraw)
        _vbo.create()
    GL.glActiveTexture(GL.GL_TEXTURE0)
    atlas.upload()
    depth, blend = GL.glIsEnabled(GL.GL_DEPTH_TEST), GL.glIsEnabled(GL.GL_BLEND)
    GL.glDisable(GL.GL_DEPTH_TEST)
    GL.glEnable(GL.GL_BLEND)
    GL.glBlendFunc(GL.GL_ONE, GL.GL_ONE_MINUS_SRC_ALPHA)
    size, sampler, attributes = _locations(program)
    _vbo.bind()
    try:
        _vbo.allocate(data, data.nbytes)
        with shader:
            GL.glUniform2f(size, view.width() * dpr, view.height() * dpr)
            GL.glUniform1i(sampler, 0)
            for loc, n, offset in attributes:
                GL.glVertexAttribPointer(loc, n, GL.GL_FLOAT, False, 4 * _STRIDE, GL.GLvoidp(4 * offset))
                GL.glEnableVertexAttribArray(loc)
            GL.glDrawArrays(GL.GL_TRIANGLES, 0, len(data))
    finally:
        for loc, _, _ in attributes:
            GL.glDisableVertexAttribArray(loc)
        _vbo.release()
        GL.glBindTexture(GL.GL_TEXTURE_2D, 0)
        GL.glBlendFunc(GL.GL_SRC_ALPHA, GL.GL_ONE_MINUS_SRC_ALPHA)
        (GL.glEnable if depth else GL.glDisable)(GL.GL_DEPTH_TEST)
        (GL.glEnable if blend else GL.glDisable)(GL.GL_BLEND)
