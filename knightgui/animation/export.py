"""The construction of a tour as an animated GIF or an MP4 film, without Qt.

Each frame is drawn with numpy as an image of palette indices (one byte a pixel): the
squares, those visited tinted, the path so far (a vectorised rasteriser), the start and the
knight's square. The frames come one at a time from a canvas that only grows, so drawing
holds the canvas, the line mask and one frame, whatever the tour's length.

GIF frames are encoded by Pillow, which keeps every frame until the file is closed: a GIF
is held to :data:`GIF_PIXEL_BUDGET` pixels in all. MP4 (H.264) is encoded by PyAV (the
``video`` extra), streamed, with its look-ahead and threads bounded. The memory an export
needs (:func:`memory_needed`) is checked when it is planned; one that would not fit is
refused with the largest size that does.

The file is written through :func:`knightgui_core.system.files.atomic_writer`: any failure,
a cancel or ``KeyboardInterrupt`` leaves no temporary file and the target as it was. Every
failure is one sentence: :class:`AnimationError` for what cannot be made, ``OSError``
(:class:`~knightgui_core.system.files.FileRefused`) for the file.
"""
from __future__ import annotations

import contextlib
import math
import os
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from knightgui_core.board.tour import Tour
from knightgui_core.system import files
from knightgui_core.system.control import CancelLike, raise_if_cancelled
from knightgui_core.system.errors import Cancelled, InputError

FORMATS = ("gif", "mp4")
SIZE_MIN, SIZE_MAX, SIZE_DEFAULT = 16, 4096, 480
FPS_MIN, FPS_MAX, FPS_DEFAULT = 1, 50, 20       # GIF delays are in 1/100 s: 50 fps at most
TARGET_FRAMES = 300          # the automatic moves-per-frame aims at about this many frames
HOLD_SECONDS = 1.5           # the finished tour stays on screen this long at the end
GIF_PIXEL_BUDGET = 40_000_000   # frames × width × height of one GIF (≈ 80 MB held by Pillow)
MP4_LOOKAHEAD = 10          # frames libx264 looks ahead (its default, 40, takes 2× the memory)
MP4_THREADS = min(4, os.cpu_count() or 1)   # encoder threads (each holds frames of its own)
#: memory an export takes, measured (peak RSS over a process that only solved): bytes a
#: pixel of one frame, and a fixed part (the rasteriser's batches, the encoder's tables).
#: Drawing: canvas, line mask and frame, 1 byte a pixel each. GIF: Pillow's conversion of
#: the frame it encodes (the frames it holds are counted apart, 1 byte a pixel). MP4: the
#: RGB frame, its copy as a PyAV frame and as YUV, and libx264's look-ahead and reference
#: frames: 78 bytes a pixel at 4096×4096 with the bounds above.
DRAW_BYTES_PER_PIXEL = 3
GIF_BYTES_PER_PIXEL = 4
MP4_BYTES_PER_PIXEL = 90
FIXED_BYTES = 128 << 20

#: palette indices and their colours (the SVG export's board colours)
LIGHT, DARK, LIGHT_SEEN, DARK_SEEN, LINE, START, KNIGHT, BORDER = range(8)
PALETTE = np.array([[240, 217, 181], [181, 136, 99], [214, 228, 240], [150, 176, 204],
                    [200, 20, 20], [30, 170, 60], [20, 20, 20], [60, 60, 60]], dtype=np.uint8)

#: how to get each format's encoder when it is missing (one line)
HOW_TO_GET = {"gif": "GIF export needs Pillow: pip install pillow "
                     "(it comes with knightgui; a bundle built without it cannot export)",
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
    0 picks about :data:`TARGET_FRAMES` frames (a GIF within its pixel budget); ``size`` is
    the longer side in pixels, rounded down to whole squares; an export that would not fit
    in memory is refused, naming the largest size that fits."""
    moves = len(tour.path) - 1 + (1 if tour.closed and len(tour.path) > 1 else 0)
    return plan_moves(fmt, tour.rows, tour.cols, moves, fps, moves_per_frame, size)


def plan_moves(fmt: str, rows: int, cols: int, moves: int, fps: int = FPS_DEFAULT,
               moves_per_frame: int = 0, size: int = SIZE_DEFAULT) -> AnimationPlan:
    """:func:`plan` for a tour of ``moves`` moves on a ``rows`` × ``cols`` board, before
    the tour is known."""
    if fmt not in FORMATS:
        raise AnimationError(f"format must be one of {', '.join(FORMATS)}, got {fmt!r}")
    fps = _whole("fps", fps, FPS_MIN, FPS_MAX)
    size = _whole("size", size, SIZE_MIN, SIZE_MAX)
    moves_per_frame = _whole("moves per frame", moves_per_frame, 0, max(moves, 1))
    p = _layout(fmt, rows, cols, moves, fps, moves_per_frame, size)
    need, avail = memory_needed(p), _available()
    if need > avail:
        raise AnimationError(_too_big(p, need, avail, moves_per_frame))
    return p


def _layout(fmt: str, rows: int, cols: int, moves: int, fps: int, moves_per_frame: int,
            size: int) -> AnimationPlan:
    """The plan of checked settings (:func:`plan` without the memory check)."""
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


def memory_needed(p: AnimationPlan) -> int:
    """Bytes of memory the export ``p`` takes at its peak, beyond the process's own (see
    :data:`MP4_BYTES_PER_PIXEL` and its neighbours)."""
    pixels = p.width * p.height
    per = DRAW_BYTES_PER_PIXEL + (MP4_BYTES_PER_PIXEL if p.fmt == "mp4" else
                                  GIF_BYTES_PER_PIXEL + p.frames)
    return FIXED_BYTES + per * pixels


def _available() -> int:
    from knightgui_core.system.limits import available_memory
    return available_memory()


def _mib(n: int) -> str:
    return f"{n / 2**30:.1f} GiB" if n >= 2**30 else f"{max(n, 0) / 2**20:.0f} MiB"


def _too_big(p: AnimationPlan, need: int, avail: int, moves_per_frame: int) -> str:
    """The refusal of ``p`` (``need`` bytes, ``avail`` available), naming the largest size
    whose plan (the same settings, whole squares) fits."""
    what = (f"a {p.width}×{p.height} {p.fmt.upper()} needs about {_mib(need)} of memory and "
            f"{_mib(avail)} is available")
    side = max(p.rows, p.cols)
    for cell in range(p.cell - 1, 0, -1):
        if cell * side < SIZE_MIN:
            break
        try:
            smaller = _layout(p.fmt, p.rows, p.cols, p.moves, p.fps, moves_per_frame,
                              cell * side)
        except AnimationError:
            continue
        if memory_needed(smaller) <= avail:
            return f"{what}: use a size of {cell * side} px or less"
    return f"{what}: not even the smallest size fits; free some memory"


#: pixels a batch of the rasteriser and of the tint handles at once: each batch holds a few
#: int64 arrays of this length (about 16 MB each), whatever the size and the tour
BATCH_PIXELS = 1 << 21


def _thin_pixels(x0, y0, x1, y1) -> tuple[np.ndarray, np.ndarray]:
    """Segments one pixel thick: each sampled at max(|dx|, |dy|) + 1 evenly spaced points,
    from its start to its end."""
    steps = np.maximum(np.abs(x1 - x0), np.abs(y1 - y0))
    counts = steps + 1
    seg = np.repeat(np.arange(len(x0)), counts)
    start = np.cumsum(counts) - counts
    t = (np.arange(int(counts.sum())) - start[seg]) / np.maximum(steps[seg], 1)
    xs = np.rint(x0[seg] + (x1 - x0)[seg] * t).astype(np.int64)
    ys = np.rint(y0[seg] + (y1 - y0)[seg] * t).astype(np.int64)
    return ys, xs


def _thick_spans(a0, b0, a1, b1, thick: int, a_size: int, b_size: int
                 ) -> tuple[np.ndarray, np.ndarray]:
    """Segments whose major axis is ``a`` (|da| ≥ |db|) drawn with a ``thick`` square brush,
    as one span along ``b`` for each column ``a``, clipped to the image: the pixels of the
    brush stamped at each sample point without its overlaps (the samples' ``b`` is
    monotone, so a column's span runs between the samples at its window's ends)."""
    lo_off = (thick - 1) // 2               # the brush covers offsets -lo_off .. hi_off
    hi_off = thick - 1 - lo_off
    steps = np.abs(a1 - a0)
    cols = steps + thick                    # columns a segment touches
    seg = np.repeat(np.arange(len(a0)), cols)
    k = np.arange(int(cols.sum())) - np.repeat(np.cumsum(cols) - cols, cols)
    st = steps[seg]
    a = np.minimum(a0, a1)[seg] - lo_off + k
    u_lo, u_hi = np.maximum(k - thick + 1, 0), np.minimum(k, st)   # the window's samples
    back = (a1 < a0)[seg]                   # sample i sits at u = i, or steps - i
    i_lo, i_hi = np.where(back, st - u_lo, u_lo), np.where(back, st - u_hi, u_hi)
    db, bb, den = (b1 - b0)[seg], b0[seg], np.maximum(st, 1)
    b_lo = np.rint(bb + db * (i_lo / den)).astype(np.int64)
    b_hi = np.rint(bb + db * (i_hi / den)).astype(np.int64)
    b_lo, b_hi = np.minimum(b_lo, b_hi) - lo_off, np.maximum(b_lo, b_hi) + hi_off
    b_lo, b_hi = np.maximum(b_lo, 0), np.minimum(b_hi, b_size - 1)
    keep = (a >= 0) & (a < a_size) & (b_hi >= b_lo)
    a, b_lo, b_hi = a[keep], b_lo[keep], b_hi[keep]
    lengths = b_hi - b_lo + 1
    col = np.repeat(np.arange(len(a)), lengths)
    b = b_lo[col] + np.arange(int(lengths.sum())) - np.repeat(np.cumsum(lengths) - lengths,
                                                              lengths)
    return a[col], b


def _segment_batches(x0, y0, x1, y1, width: int, height: int, thick: int = 1
                     ) -> Iterator[tuple[np.ndarray, np.ndarray]]:
    """The pixels (ys, xs) of the segments, in batches of about :data:`BATCH_PIXELS`."""
    x0, y0, x1, y1 = (np.asarray(v, dtype=np.int64).ravel() for v in (x0, y0, x1, y1))
    steps = np.maximum(np.abs(x1 - x0), np.abs(y1 - y0))
    bound = (steps + thick) * (2 * thick - 1)       # pixels a segment can take, at most
    total = np.cumsum(bound)
    first = 0
    while first < len(x0):
        base = total[first - 1] if first else 0
        last = max(int(np.searchsorted(total, base + BATCH_PIXELS, "right")), first + 1)
        s = slice(first, last)
        first = last
        if thick == 1:
            ys, xs = _thin_pixels(x0[s], y0[s], x1[s], y1[s])
            keep = (xs >= 0) & (xs < width) & (ys >= 0) & (ys < height)
            yield ys[keep], xs[keep]
            continue
        flat = np.abs(x1[s] - x0[s]) >= np.abs(y1[s] - y0[s])       # x is the major axis
        steep = ~flat
        xa, ya = _thick_spans(x0[s][flat], y0[s][flat], x1[s][flat], y1[s][flat], thick,
                              width, height)
        yb, xb = _thick_spans(y0[s][steep], x0[s][steep], y1[s][steep], x1[s][steep], thick,
                              height, width)
        yield np.concatenate([ya, yb]), np.concatenate([xa, xb])


def segment_pixels(x0: np.ndarray, y0: np.ndarray, x1: np.ndarray, y1: np.ndarray,
                   width: int, height: int, thick: int = 1) -> tuple[np.ndarray, np.ndarray]:
    """The pixels (ys, xs) of straight segments (x0, y0)–(x1, y1), all at once: each sampled
    at max(|dx|, |dy|) + 1 points (one pixel thick: in that order), thickened to a ``thick``
    square brush and clipped to the image; the frames draw them batch by batch."""
    parts = list(_segment_batches(x0, y0, x1, y1, width, height, thick))
    if not parts:
        return np.zeros(0, np.int64), np.zeros(0, np.int64)
    return np.concatenate([p[0] for p in parts]), np.concatenate([p[1] for p in parts])


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
        topology = tour.board.topology
        dc, dr = np.diff(self.col), np.diff(self.row)
        if topology in ("cylinder", "torus"):
            dc = np.where(np.abs(dc) * 2 > cols, dc - np.sign(dc) * cols, dc)
        if topology == "torus":
            dr = np.where(np.abs(dr) * 2 > rows, dr - np.sign(dr) * rows, dr)
        self.dx, self.dy = dc * cell, -dr * cell        # each move as drawn, in pixels
        self.thick = max(1, cell // 10)
        squares = np.full((p.height, p.width), BORDER, dtype=np.uint8)
        checker = ((np.arange(rows)[::-1, None] + np.arange(cols)[None, :]) % 2 == 0)
        board = np.where(checker, DARK, LIGHT).astype(np.uint8)    # a1 dark
        squares[:rows * cell, :cols * cell] = np.repeat(np.repeat(board, cell, 0), cell, 1)
        self.canvas = squares               # the board with the visited squares tinted
        self.lines = np.zeros((p.height, p.width), dtype=bool)    # the path drawn so far
        self.frame = np.empty_like(self.canvas)
        self.shown = 0                      # moves already on the canvas
        self._tint(0, 1)

    def _tint(self, first: int, last: int) -> None:
        """Tint the squares path[first:last] (visited), :data:`BATCH_PIXELS` at a time."""
        cell = self.p.cell
        o = np.arange(cell)
        per = max(1, BATCH_PIXELS // (cell * cell))
        for lo in range(first, last, per):
            hi = min(lo + per, last)
            r0 = (self.p.rows - 1 - self.row[lo:hi]) * cell
            c0 = self.col[lo:hi] * cell
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
        for ys, xs in _segment_batches(
                np.concatenate([x0, x1[w] - dx[w]]), np.concatenate([y0, y1[w] - dy[w]]),
                np.concatenate([x0 + dx, x1[w]]), np.concatenate([y0 + dy, y1[w]]),
                self.p.width, self.p.height, self.thick):
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
    total)`` is called after each frame; ``cancel`` is asked between frames and stops with
    :class:`~knightgui_core.system.errors.Cancelled`. Raises :class:`AnimationError` or
    ``OSError`` as the module docstring says; no failure leaves a file."""
    fmt = format_of(filename)
    p = plan(tour, fmt, fps, moves_per_frame, size)
    why = missing_encoder(fmt)
    if why:
        raise AnimationError(why)
    files.check_write_target(filename)      # a folder or a device is refused before drawing
    renderer = FrameRenderer(tour, p)
    with files.atomic_writer(filename, "wb") as fh:
        try:
            if fmt == "gif":
                _write_gif(fh, renderer, progress, cancel)
            else:
                _write_mp4(fh, renderer, progress, cancel)
        except (AnimationError, Cancelled, OSError):
            raise
        except MemoryError:
            raise AnimationError(f"the {fmt.upper()} export ran out of memory at "
                                 f"{p.width}×{p.height}: use a smaller size") from None
        except Exception as e:  # noqa: BLE001 - an encoder's error is one sentence
            text = str(e).strip().splitlines()
            raise AnimationError(f"the {fmt.upper()} encoder failed: "
                                 f"{text[0] if text else type(e).__name__}") from None
        # a cancel while the encoder finished the file: it is not kept either
        raise_if_cancelled(cancel, "the export")
    return ExportResult(Path(filename), p, os.stat(filename).st_size)


def _write_gif(fh, renderer: FrameRenderer, progress, cancel) -> None:
    """The frames through Pillow's GIF writer into ``fh``, held (a copy each: the renderer
    reuses its frame) until the one save. Pillow directly, not imageio's plugin: a plugin
    interrupted while it is made is finalised at interpreter exit, printing a traceback."""
    from PIL import Image  # here: only an export needs it
    p = renderer.p
    delay = 1000 / p.fps
    durations = [delay] * (p.frames - 1) + [max(delay, HOLD_SECONDS * 1000)]
    images = []
    for k, frame in enumerate(renderer.frames()):
        raise_if_cancelled(cancel, "the export")
        images.append(Image.fromarray(frame.copy()))     # mode L: the palette's indices
        if progress is not None:
            progress(k + 1, p.frames)
    # a palette with mode L: Pillow writes the indices as they are (no quantising)
    images[0].save(fh, format="GIF", save_all=True, append_images=images[1:],
                   palette=PALETTE.tobytes(), duration=durations, loop=0, optimize=False)


def _write_mp4(fh, renderer: FrameRenderer, progress, cancel) -> None:
    """The frames through PyAV's H.264 encoder into ``fh``, as they are drawn. On a failure
    the container is closed quietly (nothing of it reports later) and the failure raised as
    it came."""
    import av
    p = renderer.p
    codec = "libx264" if "libx264" in av.codecs_available else "h264"
    container = av.open(fh, mode="w", format="mp4")
    ok = False
    try:
        stream: Any = container.add_stream(codec, rate=p.fps)     # a VideoStream
        stream.width, stream.height, stream.pix_fmt = p.width, p.height, "yuv420p"
        stream.codec_context.thread_count = MP4_THREADS
        if codec == "libx264":
            stream.codec_context.options = {"rc-lookahead": str(MP4_LOOKAHEAD)}

        def put(rgb) -> None:
            for packet in stream.encode(av.VideoFrame.from_ndarray(rgb, format="rgb24")):
                container.mux(packet)
        rgb = None
        for k, frame in enumerate(renderer.frames()):
            raise_if_cancelled(cancel, "the export")
            rgb = PALETTE[frame]
            put(rgb)
            if progress is not None:
                progress(k + 1, p.frames)
        for _ in range(p.hold_frames - 1):
            put(rgb)
        for packet in stream.encode(None):          # what the encoder still holds
            container.mux(packet)
        container.close()
        ok = True
    finally:
        if not ok:
            with contextlib.suppress(Exception):
                container.close()
