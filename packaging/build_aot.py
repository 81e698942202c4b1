"""Compile knightgui's kernels ahead of time into one extension module, ``knightgui_aot``.

    .venv/bin/python packaging/build_aot.py [--out build/aot] [--cpu x86-64-v2]

The bundle ships this module instead of numba and LLVM (about 170 MB of the bundle).
Every kernel listed in ``knightgui_core.kernel_exports.EXPORTS`` is compiled with ``numba.pycc`` for
the one signature it gets in development (read after
``knightgui_core.warmup.exercise_all()`` has called each one
through the public API), and its wrapper releases the GIL like the JIT kernels
(``nogil=True``), so the window stays live and the studies run on every core.

``knightgui_core.system.jit`` loads the module when ``KNIGHTGUI_KERNELS=aot`` or inside a frozen app, and
then never imports numba. Prints the module's path and size.
"""
from __future__ import annotations

import argparse
import importlib
import os
import platform
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
MODULE = "knightgui_aot"


def default_cpu() -> str:
    """A baseline every x86-64 machine of the last fifteen years has (popcnt, SSE4.2);
    elsewhere LLVM's generic model for the architecture."""
    return "x86-64-v2" if platform.machine().lower() in ("x86_64", "amd64") else ""


def _release_gil_in_wrappers() -> None:
    """numba.pycc builds its wrappers with default flags, which hold the GIL while a kernel
    runs; ask for the GIL to be released, as ``nogil=True`` does for the JIT kernels."""
    import numba.pycc.compiler as pycc_compiler

    base = pycc_compiler.Flags

    class ReleaseGilFlags(base):
        def __init__(self, *args, **kwargs):
            super().__init__(*args, **kwargs)
            self.release_gil = True

    pycc_compiler.Flags = ReleaseGilFlags


def signatures():
    """``[(symbol, signature, py_func)]`` for every export, after exercising them."""
    from knightgui_core import kernel_exports as exports
    from knightgui_core import warmup

    warmup.exercise_all()
    out = []
    problems = []
    for mod, names in exports.EXPORTS.items():
        m = importlib.import_module(f"knightgui_core.{mod}")
        for name in names:
            disp = getattr(m, name)
            sigs = exports.python_signatures(disp)
            if len(sigs) != 1:
                problems.append(f"knightgui_core.{mod}.{name}: {len(sigs)} signatures {sigs}")
                continue
            out.append((exports.symbol(mod, name), sigs[0], disp.py_func))
    if problems:
        raise SystemExit("build_aot: every exported kernel needs exactly one signature:\n  "
                         + "\n  ".join(problems))
    return out


def describe(sig) -> tuple:
    """A numba signature as plain data for ``knightgui_core.system.jit``'s argument check:
    ``((("array", dtype, ndim, readonly) | ("int",) | ("bool",) | ("tuple", (field, ...)),
    ...), return kind)``."""
    from numba.core import types

    def arg(t):
        if isinstance(t, types.Array):
            if t.layout != "C":
                raise SystemExit(f"build_aot: {sig}: arrays must be C-contiguous, got {t}")
            return ("array", str(t.dtype), t.ndim, not t.mutable)
        if isinstance(t, types.Boolean):
            return ("bool",)
        if isinstance(t, types.Integer):
            return ("int",)
        if isinstance(t, types.BaseTuple):   # a named record of kernel state
            return ("tuple", tuple(arg(f) for f in t.types))
        raise SystemExit(f"build_aot: {sig}: no check written for argument type {t}")

    ret = "bool" if isinstance(sig.return_type, types.Boolean) else "other"
    return tuple(arg(t) for t in sig.args), ret


def write_signatures(out_dir: Path, entries) -> Path:
    path = out_dir / f"{MODULE}_sig.py"
    lines = [f'"""Argument types of {MODULE}\'s functions (written by packaging/build_aot.py)."""',
             "SIGNATURES = {"]
    lines += [f"    {sym!r}: {describe(sig)!r},  # {sig}" for sym, sig, _ in entries]
    lines.append("}")
    path.write_text("\n".join(lines) + "\n")
    return path


def build(out_dir: Path, cpu: str) -> Path:
    os.environ["KNIGHTGUI_KERNELS"] = "jit"   # compile from the numba kernels, not from a
    sys.path.insert(0, str(ROOT))             # module built before
    from numba.pycc import CC

    entries = signatures()
    _release_gil_in_wrappers()
    out_dir.mkdir(parents=True, exist_ok=True)
    cc = CC(MODULE)
    cc.output_dir = str(out_dir)
    cc.target_cpu = cpu
    for sym, sig, func in entries:
        cc.export(sym, sig)(func)
    for old in out_dir.glob(f"{MODULE}*"):
        if old.is_file():
            old.unlink()
    cc.compile()
    write_signatures(out_dir, entries)
    built = built_module(out_dir)
    if built is None:
        raise SystemExit(f"build_aot: numba.pycc wrote no {MODULE} module to {out_dir}")
    return built


def built_module(out_dir: Path) -> Path | None:
    found = sorted(p for p in out_dir.glob(f"{MODULE}.*") if p.suffix in (".so", ".pyd"))
    return found[0] if found and (out_dir / f"{MODULE}_sig.py").is_file() else None


def up_to_date(out_dir: Path) -> bool:
    """The module exists and is newer than the engine's code and this script (the call
    sites in ``core`` fix each kernel's argument types, so any change there counts)."""
    mod = built_module(out_dir)
    if mod is None:
        return False
    newest = max(p.stat().st_mtime for p in [*(ROOT / "core").rglob("*.py"), Path(__file__)])
    return mod.stat().st_mtime > newest


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", type=Path, default=ROOT / "build" / "aot",
                    help="folder for the extension module (default: build/aot)")
    ap.add_argument("--cpu", default=default_cpu(),
                    help="LLVM CPU name to compile for (default: %(default)s)")
    ap.add_argument("--if-stale", action="store_true",
                    help="do nothing when the module is newer than every file in core/")
    args = ap.parse_args(argv)
    if args.if_stale and up_to_date(args.out.resolve()):
        print(f"{built_module(args.out.resolve())} is up to date")
        return 0
    t0 = time.perf_counter()
    path = build(args.out.resolve(), args.cpu)
    print(f"built {path} ({path.stat().st_size / 1e6:.1f} MB, cpu {args.cpu or 'generic'}) "
          f"in {time.perf_counter() - t0:.0f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
