"""``knightgui solve --animate``: the construction of a tour as a GIF or MP4 (knightgui/
animation_export.py), its frames read back with imageio; cancel, refused paths with nothing
left behind, a missing encoder, and the memory of a 100×100 export."""
from __future__ import annotations

import io
import json
import math
import os
import subprocess
import sys
import time

import numpy as np
import pytest

from knightgui.animation import export as ax
from knightgui.cli import run
from knightgui.commands.study.options import TaskBar
from knightgui_core.system.errors import Cancelled
from knightgui_core.walks.solve import solve

iio = pytest.importorskip("imageio.v3")
KNIGHTGUI = [sys.executable, "-m", "knightgui"]


def call(capsys, *argv):
    code = run(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def leftovers(folder) -> list[str]:
    """Temporary files an export may have left in ``folder``."""
    return [p.name for p in folder.iterdir() if p.name.endswith(".tmp")]


def colour_at(frame: np.ndarray, x: int, y: int) -> tuple[int, ...]:
    return tuple(int(v) for v in frame[y, x, :3])


def test_gif_has_one_frame_per_move_then_holds_the_finished_tour(tmp_path, capsys):
    out = tmp_path / "t.gif"
    code, stdout, err = call(capsys, "solve", "--rows", "8", "--cols", "8", "-q", "--json",
                             "--animate", str(out))
    assert code == 0, err
    d = json.loads(stdout.strip().splitlines()[-1])
    info = d["animation"]
    assert info["format"] == "gif" and info["moves_per_frame"] == 1
    frames = iio.imread(out)
    assert frames.shape == (64, 480, 480, 3) == (info["frames"], info["height"],
                                                   info["width"], 3)
    cell = 60
    c, r = d["path"][0]
    at_start = [colour_at(f, c * cell + cell // 2, (7 - r) * cell + cell // 2)
                for f in frames[:2]]
    # the knight stands on the start, then leaves it marked
    assert at_start == [tuple(ax.PALETTE[ax.KNIGHT]), tuple(ax.PALETTE[ax.START])]
    # the path grows: more red pixels frame after frame, none at the start
    red = [(np.all(f == ax.PALETTE[ax.LINE], axis=-1)).sum() for f in frames]
    assert red[0] == 0 and all(a < b for a, b in zip(red[:-1], red[1:]))
    # every square visited at the end (tinted), the knight on the last square
    c, r = d["path"][-1]
    assert colour_at(frames[-1], c * cell + cell // 2, (7 - r) * cell + cell // 2) == \
        tuple(ax.PALETTE[ax.KNIGHT])
    corner = {colour_at(frames[-1], c * cell + 1, r * cell + 1) for c in range(8)
              for r in range(8)}
    assert corner <= {tuple(ax.PALETTE[i]) for i in (ax.LIGHT_SEEN, ax.DARK_SEEN, ax.LINE)}
    assert iio.immeta(out, index=0)["duration"] == 50            # 20 fps
    assert iio.immeta(out, index=63)["duration"] == ax.HOLD_SECONDS * 1000
    assert "animation" not in err and not leftovers(tmp_path)


def test_speed_size_and_moves_per_frame(tmp_path, capsys):
    out = tmp_path / "t.gif"
    code, stdout, err = call(capsys, "solve", "--rows", "6", "--cols", "8", "--closed", "-q",
                             "--animate", str(out), "--fps", "10", "--size", "205",
                             "--moves-per-frame", "10")
    assert code == 0, err
    frames = iio.imread(out)
    # 48 moves of a closed tour, 10 a frame, the start alone first; 205 px // 8 = 25 a square
    assert frames.shape == (math.ceil(48 / 10) + 1, 6 * 25, 8 * 25, 3)
    assert iio.immeta(out, index=1)["duration"] == 100
    assert "6 frames of 200×150 at 10 fps, 10 moves a frame" in stdout


def test_mp4_streams_every_frame_and_holds_the_end(tmp_path, capsys):
    if ax.missing_encoder("mp4"):
        pytest.skip(ax.missing_encoder("mp4"))
    out = tmp_path / "t.mp4"
    code, stdout, err = call(capsys, "solve", "--rows", "5", "--cols", "5", "-q", "--json",
                             "--animate", str(out), "--size", "101", "--fps", "10")
    assert code == 0, err
    info = json.loads(stdout.strip().splitlines()[-1])["animation"]
    props = iio.improps(out, plugin="pyav")
    # 20 px a square: 100×100 (even sides), 24 moves + the start, the end held 1.5 s
    assert (info["width"], info["height"], info["frames"]) == (100, 100, 25)
    assert props.shape == (25 + 15 - 1, 100, 100, 3)


@pytest.mark.parametrize("fmt, module", [("mp4", "av"), ("gif", "PIL.GifImagePlugin")])
def test_missing_encoder_says_how_to_get_it(tmp_path, capsys, monkeypatch, fmt, module):
    """Without PyAV (the optional extra) or Pillow (the bundle leaves both out)."""
    monkeypatch.setitem(sys.modules, module, None)          # its import fails
    code, out, err = call(capsys, "solve", "--rows", "8", "--cols", "8", "-q",
                          "--animate", str(tmp_path / f"t.{fmt}"))
    assert code == 2 and out == ""
    assert err.strip() == f"--animate: {ax.HOW_TO_GET[fmt]}"
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("make, says", [
    (lambda d: (d / "x.gif").mkdir() or d / "x.gif", "is a folder, not a regular file"),
    (lambda d: (d / "full.gif").symlink_to("/dev/full") or d / "full.gif",
     "is a symbolic link, not a regular file"),
    (lambda d: (d / "f").write_text("") or d / "f" / "x.gif", "Not a directory"),
    (lambda d: d / "none" / "x.gif", "no folder"),
    (lambda d: d / "x.png", "must be a .gif or .mp4 file"),
    (lambda d: d, "must be a .gif or .mp4 file"),
])
def test_bad_paths_are_one_line_and_exit_2(tmp_path, capsys, make, says):
    target = make(tmp_path)
    before = sorted(p.name for p in tmp_path.iterdir())
    code, out, err = call(capsys, "solve", "--rows", "8", "--cols", "8", "-q",
                          "--animate", str(target))
    assert code == 2 and out == ""              # refused before solving: no tour printed
    assert len(err.strip().splitlines()) == 1 and says in err, err
    assert sorted(p.name for p in tmp_path.iterdir()) == before


@pytest.mark.parametrize("args, says", [
    (["--fps", "0"], "--fps must be between 1 and 50"),
    (["--size", "8"], "--size must be between 16 and 4096"),
    (["--moves-per-frame", "x"], "--moves-per-frame must be a whole number"),
])
def test_bad_settings_are_one_line_and_exit_2(tmp_path, capsys, args, says):
    code, out, err = call(capsys, "solve", "--rows", "8", "--cols", "8", "-q",
                          "--animate", str(tmp_path / "t.gif"), *args)
    assert code == 2 and says in err and len(err.strip().splitlines()) == 1
    code, _, err = call(capsys, "solve", "--rows", "8", "--cols", "8", "-q", *args)
    assert code == 2 and "needs --animate FILE" in err or "must be" in err


def test_a_gif_too_big_for_memory_is_refused_with_what_to_do(tmp_path, capsys):
    code, out, err = call(capsys, "solve", "--rows", "100", "--cols", "100", "-q",
                          "--animate", str(tmp_path / "t.gif"), "--moves-per-frame", "1")
    assert code == 2
    assert "use 41 or more moves per frame" in err and len(err.strip().splitlines()) == 1
    assert list(tmp_path.iterdir()) == []


def test_a_write_that_fails_midway_leaves_nothing(tmp_path):
    """The file system refuses the write (a file size limit: EFBIG, as a full disk would):
    one line, exit 2, neither the GIF nor its temporary file left."""
    out = tmp_path / "t.gif"
    limit = 20_000          # the 8×8 GIF is about 80 kB
    # the limit is set once the kernels are compiled (numba's cache files are bigger)
    code = ("import resource, sys\n"
            "from knightgui_core.walks.solve import solve\n"
            "solve(8, 8)\n"
            f"resource.setrlimit(resource.RLIMIT_FSIZE, ({limit}, {limit}))\n"
            "from knightgui.cli import run\n"
            "sys.exit(run(sys.argv[1:]))\n")
    proc = subprocess.run([sys.executable, "-c", code, "solve", "--rows", "8", "--cols", "8",
                           "-q", "--animate", str(out)],
                          capture_output=True, text=True, timeout=300)
    assert proc.returncode == 2, proc.stderr
    line = proc.stderr.strip().splitlines()[-1]
    assert line.startswith("--animate: cannot write") and "left as it was" in line, line
    assert list(tmp_path.iterdir()) == []


def test_cancel_stops_between_frames_and_leaves_no_file(tmp_path):
    tour = solve(10, 10).tour
    seen: list[int] = []
    out = tmp_path / "t.gif"
    with pytest.raises(Cancelled):
        ax.export_animation(tour, out, moves_per_frame=1,
                            progress=lambda done, total: seen.append(done),
                            cancel=lambda: len(seen) >= 3)
    assert seen == [1, 2, 3]
    assert list(tmp_path.iterdir()) == []
    # a file that was there stays as it was
    out.write_bytes(b"old")
    with pytest.raises(Cancelled):
        ax.export_animation(tour, out, cancel=lambda: True)
    assert out.read_bytes() == b"old" and not leftovers(tmp_path)
    # a cancel that comes while the encoder writes the file out (asked once more after the
    # last frame): no file either
    done: list[int] = []
    frames = ax.plan(tour).frames
    with pytest.raises(Cancelled):
        ax.export_animation(tour, tmp_path / "late.gif", progress=lambda d, t: done.append(d),
                            cancel=lambda: bool(done) and done[-1] == frames)
    assert done[-1] == frames
    assert sorted(p.name for p in tmp_path.iterdir()) == ["t.gif"]


def test_progress_bar_only_on_a_terminal():
    class Tty(io.StringIO):
        def isatty(self):
            return True
    tty, plain = Tty(), io.StringIO()
    for stream in (tty, plain):
        bar = TaskBar("animation", stream=stream, unit="frame")   # solve --animate's
        for k in range(1, 6):
            bar(k, 5)
        bar.close()
    assert "animation" in tty.getvalue() and "frame" in tty.getvalue()
    assert plain.getvalue() == ""


def test_segments_are_continuous_and_clipped():
    ys, xs = ax.segment_pixels([0, 3], [0, 0], [10, 3], [0, 9], 20, 20)
    pts = set(zip(xs.tolist(), ys.tolist()))
    assert {(x, 0) for x in range(11)} <= pts and {(3, y) for y in range(10)} <= pts
    ys, xs = ax.segment_pixels([5], [5], [5 + 40], [5 + 20], 20, 20, thick=3)
    assert xs.max() == 19 and ys.max() < 20 and xs.min() == 4   # clipped, thickened
    # a knight move: every step moves one pixel along the long side, ends included
    ys, xs = ax.segment_pixels([10], [10], [30], [50], 64, 64)
    assert len(xs) == 41 and (xs[0], ys[0]) == (10, 10) and (xs[-1], ys[-1]) == (30, 50)
    assert np.all(np.abs(np.diff(ys)) == 1) and np.all(np.abs(np.diff(xs)) <= 1)


def test_moves_across_a_wrapping_edge_are_drawn_short():
    tour = solve(6, 6, topology="torus").tour
    p = ax.plan(tour, "gif", size=300)
    r = ax.FrameRenderer(tour, p)
    # every move drawn as the piece makes it: at most two squares along and one across
    assert np.abs(r.dx).max() <= 2 * p.cell and np.abs(r.dy).max() <= 2 * p.cell
    assert np.abs(r.dx).max() + np.abs(r.dy).max() > 0
    for _ in r.frames():
        pass
    # a move drawn across the whole board would paint far more than this
    per_move = (2 * p.cell + 1) * r.thick ** 2 * 2
    assert r.lines.sum() <= p.moves * per_move


def _peak_rss(args, tmp_path) -> tuple[int, str]:
    """A ``knightgui`` child's exit code must be 0; its peak RSS in bytes and stderr."""
    err = tmp_path / "stderr.txt"
    with open(err, "wb") as e:
        proc = subprocess.Popen(KNIGHTGUI + args, stdin=subprocess.DEVNULL,
                                stdout=subprocess.DEVNULL, stderr=e)
    deadline = time.monotonic() + 300
    while True:
        pid, status, usage = os.wait4(proc.pid, os.WNOHANG)
        if pid:
            break
        if time.monotonic() > deadline:
            proc.kill()
            pytest.fail(f"knightgui {' '.join(args)} still running after 300 s")
        time.sleep(0.05)
    assert os.waitstatus_to_exitcode(status) == 0, err.read_text()
    return usage.ru_maxrss * 1024, err.read_text()


def test_a_100x100_gif_stays_within_its_memory_bound(tmp_path):
    """10,000 moves in 245 frames: drawing holds one canvas, Pillow the frames (40 M pixels
    at most), so the child's peak stays within 256 MB of a child that only prints its
    version (Linux keeps a child's peak across fork and exec: compare children alike)."""
    out = tmp_path / "big.gif"
    solve(100, 100, closed=True)        # compiled and cached here: the child only loads them
    peak, err = _peak_rss(["solve", "--rows", "100", "--cols", "100", "--closed", "-q",
                           "--animate", str(out)], tmp_path)
    base, _ = _peak_rss(["--version"], tmp_path)
    assert peak < base + (256 << 20), (peak, base)
    props = iio.improps(out)
    assert props.shape[0] * props.shape[1] * props.shape[2] <= ax.GIF_PIXEL_BUDGET
    assert props.shape[1:] == (400, 400, 3)


@pytest.mark.slow
def test_a_100x100_mp4_streams_its_frames(tmp_path):
    """MP4 frames go to the encoder as drawn: 2,001 frames take no more memory than 245."""
    if ax.missing_encoder("mp4"):
        pytest.skip(ax.missing_encoder("mp4"))
    solve(100, 100, closed=True)        # compiled and cached here: the children only load them
    few, _ = _peak_rss(["solve", "--rows", "100", "--cols", "100", "--closed", "-q",
                        "--animate", str(tmp_path / "few.mp4")], tmp_path)
    many, _ = _peak_rss(["solve", "--rows", "100", "--cols", "100", "--closed", "-q",
                         "--animate", str(tmp_path / "many.mp4"), "--moves-per-frame", "5"],
                        tmp_path)
    assert many < few + (32 << 20), (few, many)
    assert iio.improps(tmp_path / "many.mp4", plugin="pyav").shape[0] == 2001 + 29


def test_a_board_bigger_than_the_default_size_gets_one_pixel_a_square(tmp_path, capsys):
    out = tmp_path / "big.gif"
    code, stdout, err = call(capsys, "solve", "--rows", "500", "--cols", "500", "--closed",
                             "-q", "--json", "--animate", str(out))
    assert code == 0, err
    info = json.loads(stdout.strip().splitlines()[-1])["animation"]
    assert (info["width"], info["height"]) == (500, 500)
    props = iio.improps(out)
    assert props.shape == (info["frames"], 500, 500, 3)
    assert info["frames"] * 500 * 500 <= ax.GIF_PIXEL_BUDGET


def test_a_folder_that_cannot_be_written_is_refused_before_solving(tmp_path, capsys,
                                                                   monkeypatch):
    """(As root every folder is writable: the permission check is made to say no.)"""
    real = os.access
    monkeypatch.setattr(os, "access", lambda p, mode, *a, **k:
                        False if str(p) == str(tmp_path) else real(p, mode, *a, **k))
    code, out, err = call(capsys, "solve", "--rows", "8", "--cols", "8", "-q",
                          "--animate", str(tmp_path / "t.gif"))
    assert code == 2 and out == ""
    assert err.strip() == f"--animate: cannot write {str(tmp_path / 't.gif')!r}: the folder " \
                          "is not writable"
    assert list(tmp_path.iterdir()) == []


def test_drawing_holds_its_frames_and_a_bounded_batch():
    """A 5×5 board at 1000 px: squares of 200 px, lines 20 px thick. The rasteriser draws
    each column of a thick segment as one span, in batches, so its peak allocation stays
    near the frame's own arrays whatever the brush (a brush stamped at every point of a
    frame's 24 moves took 150 MB here, 8 GB at 4096 px)."""
    import tracemalloc
    tour = solve(5, 5, start="a1").tour
    p = ax.plan(tour, "gif", size=1000, moves_per_frame=24)
    tracemalloc.start()
    try:
        r = ax.FrameRenderer(tour, p)
        for _ in r.frames():
            pass
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    frame = p.width * p.height
    assert peak < 4 * frame + 2 * 8 * ax.BATCH_PIXELS, peak     # 18 MB; 124 MB stamped
    assert r.lines.sum() > 24 * 2 * p.cell * r.thick        # the lines are there, thick


def test_thick_segments_are_the_brush_stamped_at_every_point():
    """The span rasteriser draws exactly the pixels of a square brush stamped at each
    sample point of each segment, clipped, also when split into small batches."""
    def stamped(x0, y0, x1, y1, w, h, thick):
        out = set()
        off = range(-((thick - 1) // 2), thick - (thick - 1) // 2)
        for a, b, c, d in zip(x0, y0, x1, y1):
            steps = max(abs(c - a), abs(d - b))
            for i in range(steps + 1):
                t = i / max(steps, 1)
                x, y = int(np.rint(a + (c - a) * t)), int(np.rint(b + (d - b) * t))
                out |= {(x + i, y + j) for i in off for j in off
                        if 0 <= x + i < w and 0 <= y + j < h}
        return out
    rng = np.random.default_rng(7)
    for batch in (ax.BATCH_PIXELS, 40):
        for _ in range(150):
            n, (w, h) = int(rng.integers(1, 5)), rng.integers(5, 60, 2)
            x0, x1 = rng.integers(-15, w + 15, (2, n))
            y0, y1 = rng.integers(-15, h + 15, (2, n))
            thick = int(rng.integers(1, 8))
            old, ax.BATCH_PIXELS = ax.BATCH_PIXELS, batch
            try:
                ys, xs = ax.segment_pixels(x0, y0, x1, y1, int(w), int(h), thick)
            finally:
                ax.BATCH_PIXELS = old
            assert set(zip(xs.tolist(), ys.tolist())) == stamped(
                x0.tolist(), y0.tolist(), x1.tolist(), y1.tolist(), w, h, thick)


def test_an_export_beyond_the_memory_available_names_the_size_that_fits(tmp_path, capsys,
                                                                        monkeypatch):
    monkeypatch.setattr(ax, "_available", lambda: 200 << 20)
    out = tmp_path / "x.gif"
    args = ["solve", "--rows", "5", "--cols", "5", "--start", "a1", "-q", "--animate", str(out)]
    code, out_text, err = call(capsys, *args, "--size", "4096")
    assert code == 2, err
    assert err.strip() == ("--animate: a 4095×4095 GIF needs about 272 MiB of memory and "
                           "200 MiB is available: use a size of 2405 px or less")
    assert out_text == ""                           # refused before solving
    assert list(tmp_path.iterdir()) == []
    code, _, err = call(capsys, *args, "--size", "2405")       # what it named fits
    assert code == 0, err
    monkeypatch.setattr(ax, "_available", lambda: 64 << 20)
    code, _, err = call(capsys, *args, "--size", "4096")
    assert code == 2 and err.strip().endswith("not even the smallest size fits; free some "
                                              "memory"), err


@pytest.mark.parametrize("fmt", ["gif", "mp4"])
def test_a_full_disk_mid_encoding_is_one_line_and_keeps_the_old_file(tmp_path, fmt):
    """The disk fills while the encoder writes (every write past 20 kB raises ENOSPC): one
    line, exit 2, the old file kept, no temporary; nothing of the encoder reports later
    (PyAV's writer used to print a 16-line traceback when collected)."""
    if ax.missing_encoder(fmt):
        pytest.skip(ax.missing_encoder(fmt))
    out = tmp_path / f"t.{fmt}"
    out.write_bytes(b"old")
    # no fileno(): every byte goes through write(), as Pillow writes to a descriptor directly
    code = ("import contextlib, errno, io, sys\n"
            "from knightgui_core.system import files\n"
            "real = files.atomic_writer\n"
            "class Full:\n"
            "    def __init__(self, f): self.f, self.n = f, 0\n"
            "    def write(self, b):\n"
            "        self.n += len(b)\n"
            "        if self.n > 20_000:\n"
            "            raise OSError(errno.ENOSPC, 'No space left on device')\n"
            "        return self.f.write(b)\n"
            "    def fileno(self): raise io.UnsupportedOperation('fileno')\n"
            "    def __getattr__(self, name): return getattr(self.f, name)\n"
            "@contextlib.contextmanager\n"
            "def full(path, mode='wb', **kw):\n"
            "    with real(path, mode, **kw) as f:\n"
            "        yield Full(f)\n"
            "files.atomic_writer = full\n"
            "from knightgui.cli import run\n"
            "sys.exit(run(sys.argv[1:]))\n")
    proc = subprocess.run([sys.executable, "-c", code, "solve", "--rows", "8", "--cols", "8",
                           "-q", "--animate", str(out), "--moves-per-frame", "1"],
                          capture_output=True, text=True, timeout=300)
    assert proc.returncode == 2, proc.stderr
    assert proc.stderr.splitlines() == [f"--animate: cannot write {out}: the disk is full; "
                                        "the file was left as it was"]
    assert out.read_bytes() == b"old" and leftovers(tmp_path) == []


def test_an_encoder_error_is_one_line_and_leaves_nothing(tmp_path, capsys, monkeypatch):
    if ax.missing_encoder("mp4"):
        pytest.skip(ax.missing_encoder("mp4"))
    import av

    def broken(*a, **k):
        raise ValueError("Conversion to rgb24 failed\nsecond line")
    monkeypatch.setattr(av.VideoFrame, "from_ndarray", broken)
    out = tmp_path / "t.mp4"
    code, _, err = call(capsys, "solve", "--rows", "5", "--cols", "5", "-q", "--animate",
                        str(out), "--size", "100")
    assert code == 2
    assert err.strip() == "--animate: the MP4 encoder failed: Conversion to rgb24 failed"
    assert list(tmp_path.iterdir()) == []


@pytest.mark.slow
def test_a_5x5_gif_at_4096_px_stays_within_its_estimate(tmp_path):
    """The estimate that refuses an export is an upper bound of what it takes: the peak of
    a child that writes the 4095×4095 GIF against one that only solves."""
    tour = solve(5, 5, start="a1").tour
    need = ax.memory_needed(ax.plan(tour, "gif", size=4096))
    base, _ = _peak_rss(["solve", "--rows", "5", "--cols", "5", "--start", "a1", "-q"], tmp_path)
    peak, _ = _peak_rss(["solve", "--rows", "5", "--cols", "5", "--start", "a1", "-q",
                         "--animate", str(tmp_path / "x.gif"), "--size", "4096"], tmp_path)
    assert peak < base + need, (peak, base, need)
