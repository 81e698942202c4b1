"""The construction of a tour as an animated GIF or an MP4 film, without Qt.

Each frame is drawn with numpy as an image of palette indices (one byte a pixel): the board's
squares, the squares visited so far tinted, the path so far as lines between square centres
(a vectorised rasteriser: every segment sampled at one point a pixel), the start square and
the knight's current square. The frames are made one at a time from a canvas that only grows
(the new squares and segments of each frame are added to it), so drawing never holds more
than the canvas, the line mask and one frame, whatever the tour's length.

Encoding is imageio's: GIF through its Pillow plugin (a runtime dependency), MP4 (H.264)
through its PyAV plugin (the optional ``video`` extra: ``pip install 'knightgui[video]'``).
Pillow's GIF writer keeps every frame (one byte a pixel) until the file is closed, so a GIF
is held to :data:`GIF_PIXEL_BUDGET` pixels over all its frames; MP4 frames are streamed to the
encoder as they are drawn. The file is written through :func:`knightgui_core.system.files.
atomic_writer` (a temporary file in the same folder, renamed when complete): a refused path,
a full disk or a cancel leaves nothing behind.
"""
from __future__ import annotations

import contextlib
import math
import os
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from knightgui_core.board.tour import Tour
from knightgui_core.system import files
from knightgui_core.system.control import CancelLike, raise_if_cancelled
from knightgui_core.system.errors import InputError

FORMATS = ("gif", "mp4")
SIZE_MIN, SIZE_MAX, SIZE_DEFAULT = 16, 4096, 480
FPS_MIN, FPS_MAX, FPS_DEFAULT = 1, 50, 20       # GIF delays are in 1/100 s: 50 fps at most
TARGET_FRAMES = 300          # the automatic moves-per-frame aims at about this many frames
HOLD_SECONDS = 1.5           # the finished tour stays on screen this long at the end
GIF_PIXEL_BUDGET = 40_000_000   # frames × width × height of one GIF (≈ 80 MB held by Pillow)

#: palette indices and their colours (the SVG export's board colours)
LIGHT, DARK, LIGHT_SEEN, DARK_SEEN, LINE, START, KNIGHT, BORDER = range(8)
PALETTE = np.array([[240, 217, 181], [181, 136, 99], [214, 228, 240], [150, 176, 204],
                    [200, 20, 20], [30, 170, 60], [20, 20, 20], [60, 60, 60]], dtype=np.uint8)

#: how to get each format's encoder when it is missing (one line)
HOW_TO_GET = {"gif": "GIF export needs imageio and Pillow: pip install imageio pillow "
                     "(they come with knightgui; a bundle built without them cannot export)",
              "mp4": "MP4 export needs PyAV: pip install 'knightgui[video]' (or pip install av)"}


class AnimationError(InputError):
    """An export that cannot be made as asked (size, speed, format, a missing encoder)."""


def format_of(filename: str | os.PathLike[str]) -> str:
    """``gif`` or ``mp4`` from the file's suffix, or :class:`AnimationError`."""
    suffix = Path(filename).suffix.lower().lstrip(".")
    if suffix not in FORMATS:
        raise AnimationError(f"the animation must be a .gif or .mp4 file, got {str(filename)!r}")
    return suffix


def missing_encoder(fmt: str) -> str | None:
    """None when ``fmt`` can be written here, else the one line that says how to get it."""
    try:
        import imageio.v3  # noqa: F401
        if fmt == "gif":
            import PIL.GifImagePlugin  # noqa: F401
        else:
            import av
            if "libx264" not in av.codecs_available and "h264" not in av.codecs_available:
                return "MP4 export needs an H.264 encoder, which this PyAV build lacks"
    except ImportError:
        return HOW_TO_GET[fmt]
    return None


@dataclass(frozen=True)
class AnimationPlan:
    """What an export will make: ``cell`` pixels a square, a ``width`` × ``height`` image
    (MP4: even sides), ``moves`` moves shown ``moves_per_frame`` at a time in ``frames``
    frames (the start square alone first, the finished tour last), at ``fps``."""

    fmt: str
    rows: int
    cols: int
    cell: int
    width: int
    height: int
    moves: int
    moves_per_frame: int
    frames: int
    fps: int

    @property
    def hold_frames(self) -> int:
        """How many frames the finished tour stays (MP4 repeats the last frame)."""
        return max(1, round(HOLD_SECONDS * self.fps))

    @property
    def seconds(self) -> float:
        """The film's length."""
        return (self.frames - 1) / self.fps + HOLD_SECONDS


def default_size(rows: int, cols: int) -> int:
    """The size an export takes when none is given: :data:`SIZE_DEFAULT`, or one pixel a
    square on a board whose longer side is more than that (at most :data:`SIZE_MAX`)."""
    return min(max(SIZE_DEFAULT, rows, cols), SIZE_MAX)


def _whole(name: str, value: object, lo: int, hi: int) -> int:
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)):
        raise AnimationError(f"{name} must be a whole number, got {value!r}")
    if not lo <= int(value) <= hi:
        raise AnimationError(f"{name} must be between {lo} and {hi}, got {value}")
    return int(value)


def plan(tour: Tour, fmt: str = "gif", fps: int = FPS_DEFAULT, moves_per_frame: int = 0,
         size: int = SIZE_DEFAULT) -> AnimationPlan:
    """Check the settings against the tour and say what will be made. ``moves_per_frame``
    0 picks about :data:`TARGET_FRAMES` frames (and, for a GIF, stays in its pixel budget);
    ``size`` is the longer side in pixels, rounded down to whole squares."""
    if fmt not in FORMATS:
        raise AnimationError(f"format must be one of {', '.join(FORMATS)}, got {fmt!r}")
    fps = _whole("fps", fps, FPS_MIN, FPS_MAX)
    size = _whole("size", size, SIZE_MIN, SIZE_MAX)
    rows, cols = tour.rows, tour.cols
    moves = len(tour.path) - 1 + (1 if tour.closed and len(tour.path) > 1 else 0)
    moves_per_frame = _whole("moves per frame", moves_per_frame, 0, max(moves, 1))
    cell = size // max(rows, cols)
    if cell < 1:
        raise AnimationError(f"size {size} px is smaller than the board's longer side "
                             f"({max(rows, cols)} squares): one pixel a square at least")
    width, height = cols * cell, rows * cell
    if fmt == "mp4":          # H.264 in 4:2:0 needs even sides
        width, height = width + width % 2, height + height % 2
    pixels = width * height
    if moves_per_frame == 0:
        target = TARGET_FRAMES if fmt == "mp4" else min(TARGET_FRAMES, GIF_PIXEL_BUDGET // pixels)
        moves_per_frame = max(1, math.ceil(moves / max(target - 1, 1)))
    frames = math.ceil(moves / moves_per_frame) + 1 if moves else 1
    if fmt == "gif" and frames * pixels > GIF_PIXEL_BUDGET:
        least = math.ceil(moves / max(GIF_PIXEL_BUDGET // pixels - 1, 1))
        raise AnimationError(f"{frames:,} frames of {width}×{height} is more than a GIF can hold "
                             f"in memory here ({GIF_PIXEL_BUDGET:,} pixels): use {least} or "
                             "more moves per frame, a smaller size, or MP4")
    return AnimationPlan(fmt, rows, cols, cell, width, height, moves, moves_per_frame, frames,
                         fps)


def segment_pixels(x0: np.ndarray, y0: np.ndarray, x1: np.ndarray, y1: np.ndarray,
                   width: int, height: int, thick: int = 1) -> tuple[np.ndarray, np.ndarray]:
    """The pixels (ys, xs) of straight segments (x0, y0)–(x1, y1), all at once: each segment
    is sampled at max(|dx|, |dy|) + 1 evenly spaced points, thickened to a ``thick`` square
    brush, and clipped to the image."""
    x0, y0, x1, y1 = (np.asarray(a, dtype=np.int64).ravel() for a in (x0, y0, x1, y1))
    steps = np.maximum(np.abs(x1 - x0), np.abs(y1 - y0))
    counts = steps + 1
    seg = np.repeat(np.arange(len(x0)), counts)
    start = np.cumsum(counts) - counts
    t = (np.arange(int(counts.sum())) - start[seg]) / np.maximum(steps[seg], 1)
    xs = np.rint(x0[seg] + (x1 - x0)[seg] * t).astype(np.int64)
    ys = np.rint(y0[seg] + (y1 - y0)[seg] * t).astype(np.int64)
    if thick > 1:
        off = np.arange(thick) - (thick - 1) // 2
        xs = (xs[:, None, None] + off[None, :, None] + 0 * off[None, None, :]).ravel()
        ys = (ys[:, None, None] + 0 * off[None, :, None] + off[None, None, :]).ravel()
    keep = (xs >= 0) & (xs < width) & (ys >= 0) & (ys < height)
    return ys[keep], xs[keep]


class FrameRenderer:
    """Draws the frames of ``tour`` under ``p`` (an :class:`AnimationPlan`) one at a time."""

    def __init__(self, tour: Tour, p: AnimationPlan):
        self.p = p
        path = np.asarray(tour.path, dtype=np.int64)
        if tour.closed and len(path) > 1:
            path = np.append(path, path[0])
        self.path = path
        cols, rows, cell = p.cols, p.rows, p.cell
        self.col, self.row = path % cols, path // cols
        # pixel centres; row 0 (rank 1) at the bottom of the image
        self.cx = self.col * cell + cell // 2
        self.cy = (rows - 1 - self.row) * cell + cell // 2
        wrap_c = tour.board.topology in ("cylinder", "torus")
        wrap_r = tour.board.topology == "torus"
        dc, dr = np.diff(self.col), np.diff(self.row)
        if wrap_c:
            dc = np.where(np.abs(dc) * 2 > cols, dc - np.sign(dc) * cols, dc)
        if wrap_r:
            dr = np.where(np.abs(dr) * 2 > rows, dr - np.sign(dr) * rows, dr)
        self.dx, self.dy = dc * cell, -dr * cell        # each move as drawn, in pixels
        self.thick = max(1, cell // 10)
        squares = np.zeros((p.height, p.width), dtype=np.uint8)
        squares[:] = BORDER
        checker = ((np.arange(rows)[::-1, None] + np.arange(cols)[None, :]) % 2 == 0)
        board = np.where(checker, DARK, LIGHT).astype(np.uint8)    # a1 dark
        squares[:rows * cell, :cols * cell] = np.repeat(np.repeat(board, cell, 0), cell, 1)
        self.canvas = squares               # the board with the visited squares tinted
        self.lines = np.zeros((p.height, p.width), dtype=bool)    # the path drawn so far
        self.frame = np.empty_like(self.canvas)
        self.shown = 0                      # moves already on the canvas
        self._tint(0, 1)

    def _tint(self, first: int, last: int) -> None:
        """Tint the squares path[first:last] (visited)."""
        cell = self.p.cell
        r0 = (self.p.rows - 1 - self.row[first:last]) * cell
        c0 = self.col[first:last] * cell
        o = np.arange(cell)
        ys = (r0[:, None, None] + o[None, :, None] + 0 * o[None, None, :]).ravel()
        xs = (c0[:, None, None] + 0 * o[None, :, None] + o[None, None, :]).ravel()
        self.canvas[ys, xs] += LIGHT_SEEN - LIGHT     # LIGHT→LIGHT_SEEN, DARK→DARK_SEEN

    def _add_moves(self, upto: int) -> None:
        """Put moves shown..upto on the canvas: their squares tinted, their segments drawn
        (a move across a wrapping edge as two halves, one at each side)."""
        a, b = self.shown, upto
        n_squares = len(self.path) - 1 if len(self.path) > 1 and \
            self.path[-1] == self.path[0] else len(self.path)
        self._tint(a + 1, min(b + 1, n_squares))
        x0, y0 = self.cx[a:b], self.cy[a:b]
        x1, y1 = self.cx[a + 1:b + 1], self.cy[a + 1:b + 1]
        dx, dy = self.dx[a:b], self.dy[a:b]
        w = (x0 + dx != x1) | (y0 + dy != y1)         # wrapped: the half at the far side too
        ys, xs = segment_pixels(np.concatenate([x0, x1[w] - dx[w]]),
                                np.concatenate([y0, y1[w] - dy[w]]),
                                np.concatenate([x0 + dx, x1[w]]), np.concatenate([y0 + dy, y1[w]]),
                                self.p.width, self.p.height, self.thick)
        self.lines[ys, xs] = True
        self.shown = b

    def _mark(self, i: int, colour: int) -> None:
        cell = self.p.cell
        half = max(cell // 4, 2)
        x, y = int(self.cx[i]), int(self.cy[i])
        self.frame[max(y - half, 0):y + half + 1, max(x - half, 0):x + half + 1] = colour

    def frames(self) -> Iterator[np.ndarray]:
        """Every frame, in order, as one reused ``height`` × ``width`` array of palette
        indices (copy it to keep it)."""
        p = self.p
        for k in range(p.frames):
            self._add_moves(min(k * p.moves_per_frame, p.moves))
            np.copyto(self.frame, self.canvas)
            self.frame[self.lines] = LINE
            self._mark(0, START)
            self._mark(self.shown, KNIGHT)
            yield self.frame


@dataclass(frozen=True)
class ExportResult:
    """What was written: the file, its plan and its size in bytes."""

    path: Path
    plan: AnimationPlan
    bytes: int


def export_animation(tour: Tour, filename: str | os.PathLike[str], *, fps: int = FPS_DEFAULT,
                     moves_per_frame: int = 0, size: int = SIZE_DEFAULT,
                     progress: Callable[[int, int], object] | None = None,
                     cancel: CancelLike = None) -> ExportResult:
    """Write the construction of ``tour`` to ``filename`` (.gif or .mp4). ``progress(done,
    total)`` is called after each frame; ``cancel`` (the engine's cancel protocol) is asked
    between frames and stops with :class:`~knightgui_core.system.errors.Cancelled`, leaving
    no file. Raises :class:`AnimationError` for settings that cannot be met or a missing
    encoder, ``OSError`` (:class:`~knightgui_core.system.files.FileRefused`) when the file
    cannot be written."""
    fmt = format_of(filename)
    p = plan(tour, fmt, fps, moves_per_frame, size)
    why = missing_encoder(fmt)
    if why:
        raise AnimationError(why)
    files.check_write_target(filename)      # a folder or a device is refused before drawing
    import imageio.v3 as iio  # here: 0.25 s to import, only an export needs it
    renderer = FrameRenderer(tour, p)
    with files.atomic_writer(filename, "wb") as fh:
        if fmt == "gif":
            _write_gif(iio, fh, renderer, progress, cancel)
        else:
            _write_mp4(iio, fh, renderer, progress, cancel)
        # a cancel while the encoder finished the file: it is not kept either
        raise_if_cancelled(cancel, "the export")
    return ExportResult(Path(filename), p, os.stat(filename).st_size)


def _write_gif(iio, fh, renderer: FrameRenderer, progress, cancel) -> None:
    p = renderer.p
    delay = 1000 / p.fps
    durations = [delay] * (p.frames - 1) + [max(delay, HOLD_SECONDS * 1000)]
    palette = PALETTE.tobytes()
    writer = iio.imopen(fh, "w", plugin="pillow", extension=".gif")
    try:
        for k, frame in enumerate(renderer.frames()):
            raise_if_cancelled(cancel, "the export")
            # mode L with a palette: Pillow writes the indices as they are (no quantising)
            writer.write(frame.copy(), mode="L", palette=palette, duration=durations, loop=0,
                         optimize=False)
            if progress is not None:
                progress(k + 1, p.frames)
        writer.close()          # Pillow encodes the frames it holds here
    except BaseException:
        # the plugin would encode (again) every frame it holds when closed or collected:
        # drop them; the temporary file is removed by the writer
        getattr(writer, "images_to_write", []).clear()
        with contextlib.suppress(Exception):
            writer.close()
        raise


def _write_mp4(iio, fh, renderer: FrameRenderer, progress, cancel) -> None:
    import av
    p = renderer.p
    codec = "libx264" if "libx264" in av.codecs_available else "h264"
    with iio.imopen(fh, "w", plugin="pyav", extension=".mp4", container="mp4") as writer:
        writer.init_video_stream(codec, fps=p.fps, pixel_format="yuv420p")
        rgb = None
        for k, frame in enumerate(renderer.frames()):
            raise_if_cancelled(cancel, "the export")
            rgb = PALETTE[frame]
            writer.write_frame(rgb)
            if progress is not None:
                progress(k + 1, p.frames)
        for _ in range(p.hold_frames - 1):
            writer.write_frame(rgb)
