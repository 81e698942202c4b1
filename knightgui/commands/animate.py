"""``knightgui solve --animate FILE.gif|FILE.mp4``: the tour's construction as an animation
(knightgui/animation/export.py draws and encodes it).

The options are checked before the solve (a bad number, suffix or path, a missing encoder,
a GIF with too many frames or an export beyond the memory available, is one line and exit 2
without solving); the file is written through a temporary file in its folder and renamed
when complete, so a refused or interrupted export leaves nothing. A tqdm bar of frames is
drawn on stderr when stderr is a terminal.
"""
from __future__ import annotations

from typing import Any

from knightgui.commands._common import CliError, cli_errors, positive_int
from knightgui.commands.study.options import TaskBar


def add_options(p) -> None:
    """``--animate``, ``--fps``, ``--moves-per-frame`` and ``--size``."""
    p.add_argument("--animate", default=None, metavar="FILE",
                   help="write the tour's construction as an animated FILE.gif, or FILE.mp4 "
                        "(MP4 needs PyAV: pip install 'knightgui[video]')")
    p.add_argument("--fps", default=None, help="frames a second of --animate (1..50, "
                   "default 20)")
    p.add_argument("--moves-per-frame", default=None, metavar="K",
                   help="moves added in each frame of --animate (default: about 300 frames "
                        "in all)")
    p.add_argument("--size", default=None, metavar="PX",
                   help="longer side of --animate in pixels (16..4096, default 480, or one "
                        "pixel a square on bigger boards; rounded down to whole squares)")


def check(args, rows: int, cols: int) -> dict[str, Any] | None:
    """The export's settings from the options, checked before any solving; None without
    ``--animate``. Raises :class:`CliError` (exit 2) for a bad value, a missing encoder or a
    path that cannot be written."""
    from knightgui.animation import export as ax
    if args.animate is None:
        for opt in ("fps", "moves_per_frame", "size"):
            if getattr(args, opt) is not None:
                raise CliError(f"--{opt.replace('_', '-')} needs --animate FILE")
        return None
    with cli_errors(ax.AnimationError, prefix="--animate: "):
        fmt = ax.format_of(args.animate)
    settings = {
        "fps": positive_int("--fps", ax.FPS_DEFAULT if args.fps is None else args.fps,
                            ax.FPS_MIN, ax.FPS_MAX),
        "moves_per_frame": 0 if args.moves_per_frame is None else
        positive_int("--moves-per-frame", args.moves_per_frame, 1, 10**9),
        "size": ax.default_size(rows, cols) if args.size is None else
        positive_int("--size", args.size, ax.SIZE_MIN, ax.SIZE_MAX),
    }
    if settings["size"] < max(rows, cols):
        raise CliError(f"--size {settings['size']} is smaller than the board's longer side "
                       f"({max(rows, cols)} squares): one pixel a square at least")
    why = ax.missing_encoder(fmt)
    if why:
        raise CliError(f"--animate: {why}")
    _writable(args.animate)
    # the tour visits every square: the export's plan (its frames, its memory) is known now
    moves = rows * cols - 1 + (1 if getattr(args, "closed", False) and rows * cols > 1 else 0)
    with cli_errors(ax.AnimationError, prefix="--animate: "):
        ax.plan_moves(fmt, rows, cols, moves, settings["fps"], settings["moves_per_frame"],
                      settings["size"])
    return settings


def _writable(name: str) -> None:
    """Refuse a folder, a device or a folder we cannot write in, before solving."""
    import os
    from pathlib import Path

    from knightgui_core.system import files
    with cli_errors(OSError, prefix="--animate: "):
        files.check_write_target(name)
    folder = Path(name).parent
    if not folder.is_dir():
        raise CliError(f"--animate: cannot write {name!r}: no folder {str(folder)!r}")
    if not os.access(folder, os.W_OK | os.X_OK):
        raise CliError(f"--animate: cannot write {name!r}: the folder is not writable")


def write(args, tour, settings: dict[str, Any]) -> dict[str, Any]:
    """Write the animation; returns what ``--json`` reports under ``"animation"``. A file
    that cannot be written is a :class:`CliError` (exit 2), with nothing left behind."""
    from knightgui.animation import export as ax
    bar = TaskBar("animation", unit="frame")
    try:
        res = ax.export_animation(tour, args.animate, progress=bar, **settings)
    except ax.AnimationError as e:
        raise CliError(f"--animate: {e}") from None
    except OSError as e:
        from knightgui_core.system.files import FileRefused
        why = str(e) if isinstance(e, FileRefused) else \
            f"cannot write {args.animate!r}: {e.strerror or e}"
        raise CliError(f"--animate: {why}") from None
    finally:
        bar.close()
    p = res.plan
    return {"file": str(res.path), "format": p.fmt, "frames": p.frames, "width": p.width,
            "height": p.height, "fps": p.fps, "moves_per_frame": p.moves_per_frame,
            "bytes": res.bytes}


def say(info: dict[str, Any]) -> None:
    """The one line a plain run prints after writing the animation (stdout)."""
    print(f"animation: {info['file']}, {info['frames']:,} frames of {info['width']}×"
          f"{info['height']} at {info['fps']} fps, {info['moves_per_frame']:,} "
          f"move{'s' if info['moves_per_frame'] != 1 else ''} a frame, "
          f"{info['bytes']:,} bytes")
