"""One place that configures how the engine's kernels are compiled.

Two modes, chosen once at import (``$KNIGHTGUI_KERNELS``: ``jit``, ``aot``; unset means
``aot`` inside a frozen app and ``jit`` elsewhere):

**jit** (development, wheels): numba compiles each kernel on first use; ``njit`` is numba's
with ``cache=True, nogil=True`` by default, so every kernel releases the GIL and the GUI thread
keeps painting while a solver thread computes. The on-disk cache is private and sealed
(:mod:`knightgui_core.system.kernel_cache`); in it each way of importing the engine has a
folder of its own (:func:`cache_key`: numba pickles a kernel with its module's name, so
entries of ``import core`` in a checkout must never reach the installed ``knightgui_core``,
nor entries of another release). No cache entry can stop a run: one that is truncated,
garbled, another build's, unreadable or cannot be written is compiled again instead, with
one warning line for the whole process.

**aot** (the bundle): the kernels listed in :mod:`knightgui_core.kernel_exports` come from the
extension module ``knightgui_aot`` that ``packaging/build_aot.py`` compiles with
``numba.pycc``; numba and LLVM are never imported. A compiled function trusts its argument
types blindly (a wrong dtype reads the wrong memory), so each call is checked against the
signature the build recorded in ``knightgui_aot_sig`` and a mismatch raises ``TypeError``.

:func:`specialise` copies a kernel with the kernels it calls replaced (a layout, a visitor):
one loop, one compiled and cached copy per use. Import this module before numba anywhere in
``core``.
"""
from __future__ import annotations

import contextlib
import functools
import hashlib
import logging
import os
import sys
import types
from collections.abc import Callable
from pathlib import Path
from typing import Any, cast

import numpy as np

from . import kernel_cache
from .environment import KernelsMissing, check_environment

log = logging.getLogger("knightgui.jit")


def cache_key() -> str:
    """The name of this installation's folder inside the cache root: the package name the
    engine was imported under and the versions of knightgui, Python and numba."""
    top = __name__.split(".")[0]
    found = {}
    # the names go through a loop, not as literals: PyInstaller copies the metadata of every
    # distribution named in a literal version() call, and the bundle must hold no numba
    for dist in ("knightgui", "numba"):
        try:
            from importlib.metadata import version
            found[dist] = version(dist)
        except Exception:  # noqa: BLE001 - not installed, or a broken metadata folder
            found[dist] = "source" if dist == "knightgui" else "none"
    mine, nb = found["knightgui"], found["numba"]
    key = f"{top}-{mine}-py{sys.version_info[0]}.{sys.version_info[1]}-numba{nb}"
    return "".join(ch if ch.isascii() and (ch.isalnum() or ch in "._-") else "_" for ch in key)


def choose_cache_dir() -> Path:
    """The folder numba's on-disk cache goes to: :func:`kernel_cache.choose_cache_dir` for
    this installation's :func:`cache_key`."""
    return kernel_cache.choose_cache_dir(cache_key())


def _looks_like_pickle(path: Path) -> bool:
    """An intact pickle frame: protocol-2+ pickles start with PROTO (0x80) and end with STOP
    ('.'). Reads three bytes, not the file (a cache holds tens of MB)."""
    with open(path, "rb") as f:
        head = f.read(2)
        if len(head) < 2 or head[0] != 0x80:
            return False
        f.seek(-1, os.SEEK_END)
        return f.read(1) == b"."


def own_cache_folders(d: Path) -> list[Path]:
    """The subfolders of the cache ``d`` that hold this installation's kernels. numba names
    the folder of a source folder ``<name>_<sha1 of its absolute path>``; other checkouts and
    versions that share the cache root have their own folders and are left alone."""
    root = Path(os.path.abspath(__file__)).parent.parent   # the package: core/
    out = []
    for sub in [root, *sorted(p for p in root.rglob("*") if p.is_dir())]:
        name = f"{sub.name}_{hashlib.sha1(str(sub).encode()).hexdigest()}"
        if (d / name).is_dir():
            out.append(d / name)
    return out


def scrub_cache(d: Path) -> int:
    """Remove this installation's cache entries that cannot be read back (a torn write, a
    disk error, garbage), on which numba would raise instead of compiling afresh: each index
    and data file must hold an intact pickle frame (:func:`_looks_like_pickle`). Returns the
    number of files removed."""
    removed = 0
    for folder in own_cache_folders(d):
        # one listing of the folder, the data files grouped by their index's stem (a glob per
        # index read the whole folder again for each one: seconds on a cache of 20,000 files)
        try:
            names = [e.name for e in os.scandir(folder)]
        except OSError:
            continue
        datas_of: dict[str, list[Path]] = {}
        for name in names:
            if name.endswith(".nbc"):
                stem = name[: -len(".nbc")].rpartition(".")[0]
                datas_of.setdefault(stem, []).append(folder / name)
        for name in names:
            if not name.endswith(".nbi"):
                continue
            entry = [folder / name, *datas_of.get(name[: -len(".nbi")], [])]
            try:
                if all(_looks_like_pickle(p) for p in entry):
                    continue
            except OSError:
                continue  # another process replaced it meanwhile
            for bad in entry:
                with contextlib.suppress(OSError):
                    bad.unlink()
                    removed += 1
    if removed:
        log.warning("numba cache in %s had %d unreadable files; they were removed and the "
                    "kernels will be compiled again", d, removed)
    return removed


def _argument_problem(a: Any, spec: tuple[Any, ...]) -> str | None:
    """What is wrong with argument ``a`` for ``spec`` (see :func:`checked`), or None."""
    kind = spec[0]
    if kind == "array":
        dt, ndim, readonly = np.dtype(spec[1]), spec[2], spec[3]
        if (isinstance(a, np.ndarray) and a.dtype == dt and a.ndim == ndim
                and a.flags.c_contiguous and (readonly or a.flags.writeable)):
            return None
        got = (f"{a.dtype}[{a.ndim}d]{'' if a.flags.c_contiguous else ' strided'}"
               f"{'' if a.flags.writeable else ' read-only'}"
               if isinstance(a, np.ndarray) else type(a).__name__)
        return (f"must be a C-contiguous {'' if readonly else 'writable '}{dt}[{ndim}d] "
                f"array, got {got}")
    if kind == "tuple":
        fields = spec[1]
        if not (isinstance(a, tuple) and len(a) == len(fields)):
            return f"must be a record of {len(fields)} fields, got {type(a).__name__}"
        for j, (field, sub) in enumerate(zip(a, fields)):
            problem = _argument_problem(field, sub)
            if problem:
                name = a._fields[j] if hasattr(a, "_fields") else str(j)
                return f"field {name} {problem}"
        return None
    if isinstance(a, (int, np.integer, bool, np.bool_)):
        return None
    return f"must be {'an integer' if kind == 'int' else 'a bool'}, got {type(a).__name__}"


def checked(fn: Callable[..., Any], name: str,
            spec: tuple[tuple[tuple[Any, ...], ...], str]) -> Callable[..., Any]:
    """``fn`` behind a check of its arguments against ``spec``, as recorded by
    ``packaging/build_aot.py``: ``((("array", dtype, ndim, readonly) | ("int",) | ("bool",)
    | ("tuple", (field spec, ...)), ...), "bool" | "other")`` — a ``"tuple"`` is a named
    record of kernel state, checked field by field. An ahead-of-time function would read a
    wrong argument as whatever it expects (or crash); this raises ``TypeError`` instead."""
    args_spec, ret = spec
    nargs = len(args_spec)

    def call(*args: Any) -> Any:
        if len(args) != nargs:
            raise TypeError(f"{name}() takes {nargs} arguments, got {len(args)}")
        for i, (a, sub) in enumerate(zip(args, args_spec)):
            problem = _argument_problem(a, sub)
            if problem:
                raise TypeError(f"{name}(): argument {i + 1} {problem}")
        out = fn(*args)
        return bool(out) if ret == "bool" else out

    call.__name__ = call.__qualname__ = name
    functools.update_wrapper(call, fn, assigned=(), updated=())   # sets __wrapped__ only
    return call


def py_leading_zeros(x: int | np.integer) -> int:
    """Leading zero bits of a uint64 (numba's intrinsic, in Python for the AOT mode)."""
    return 64 - int(x).bit_length()


def py_trailing_zeros(x: int | np.integer) -> int:
    """Trailing zero bits of a uint64 (64 for zero)."""
    x = int(x)
    return (x & -x).bit_length() - 1 if x else 64


def _mode() -> str:
    wanted = os.environ.get("KNIGHTGUI_KERNELS", "").strip().lower()
    if wanted in ("jit", "aot"):
        return wanted
    if wanted:
        log.warning("knightgui: warning: KNIGHTGUI_KERNELS=%s is not 'jit' or 'aot'; "
                    "ignored (the default is used)", wanted[:40])
    return "aot" if getattr(sys, "frozen", False) else "jit"


check_environment()       # before numba reads its variables
MODE = _mode()
AOT_MODULE = "knightgui_aot"

if MODE == "aot":
    import importlib  # noqa: E402
    try:
        _AOT = importlib.import_module(AOT_MODULE)
        _SIG = importlib.import_module(AOT_MODULE + "_sig").SIGNATURES
    except ImportError as e:
        import importlib.util  # noqa: E402
        if getattr(sys, "frozen", False) or importlib.util.find_spec("numba") is None:
            raise KernelsMissing(
                f"knightgui's compiled kernels ({AOT_MODULE}) are missing: build them with "
                f"packaging/build_aot.py, or set KNIGHTGUI_KERNELS=jit to compile with numba "
                f"({e})") from e
        log.warning("knightgui: warning: KNIGHTGUI_KERNELS=aot but the compiled kernels "
                    "(%s) are missing; compiling with numba instead", AOT_MODULE)
        MODE = "jit"

def _tolerate_cache_failures() -> None:
    """Wrap numba's cache load and save so that no cache entry can stop a run: a load that
    raises anything is a miss (the kernel is compiled and the entry written again), a save
    that raises (full disk, a file where a folder should be) is skipped."""
    from numba.core import caching

    cache_cls: Any = caching.Cache
    if getattr(cache_cls, "_knightgui_tolerant", False):
        return
    load, save = cache_cls.load_overload, cache_cls.save_overload

    def load_overload(self: Any, sig: Any, target_context: Any) -> Any:
        try:
            got = load(self, sig, target_context)
        except Exception as e:  # noqa: BLE001 - any bad entry is a cache miss
            kernel_cache.cache_warning("read", e)
            return None
        # an intact entry of another function (files swapped, another build's) must not run
        fndesc = getattr(got, "fndesc", None)
        func = getattr(self, "_py_func", None)
        if fndesc is not None and func is not None and (
                getattr(fndesc, "qualname", None) != func.__qualname__
                or getattr(fndesc, "modname", None) != func.__module__):
            kernel_cache.cache_warning("used", LookupError(
                f"the entry for {func.__qualname__} holds {fndesc.modname}.{fndesc.qualname}"))
            return None
        return got

    def save_overload(self: Any, sig: Any, data: Any) -> None:
        try:
            save(self, sig, data)
        except Exception as e:  # noqa: BLE001 - the kernel is compiled; keeping it is a bonus
            kernel_cache.cache_warning("written", e)

    cache_cls.load_overload = load_overload
    cache_cls.save_overload = save_overload
    cache_cls._knightgui_tolerant = True


if MODE == "jit":
    _cache_dir = choose_cache_dir()
    CACHE_DIR: Path | None = _cache_dir
    os.environ["NUMBA_CACHE_DIR"] = str(_cache_dir)

    import numba  # noqa: E402  (after NUMBA_CACHE_DIR is set)
    from numba.cpython.unsafe.numbers import leading_zeros as _nb_leading_zeros  # noqa: E402
    from numba.cpython.unsafe.numbers import trailing_zeros as _nb_trailing_zeros  # noqa: E402

    # numba's intrinsics (typed as numba _Intrinsic objects) take one integer inside a kernel
    leading_zeros = cast(Callable[[Any], int], _nb_leading_zeros)
    trailing_zeros = cast(Callable[[Any], int], _nb_trailing_zeros)

    # numba.config creates its settings at run time, so the stubs do not know CACHE_DIR
    numba.config.CACHE_DIR = str(_cache_dir)  # type: ignore[attr-defined]
    scrub_cache(_cache_dir)
    kernel_cache.seal_numba_cache_files()
    _tolerate_cache_failures()

    def _jit(func: Callable[..., Any], kwargs: dict[str, Any]) -> Any:
        try:
            return numba.njit(**kwargs)(func)
        except RuntimeError as e:          # "cannot cache function ...: no locator available"
            if not kwargs.get("cache"):
                raise
            kernel_cache.cache_warning("opened", e)
            return numba.njit(**{**kwargs, "cache": False})(func)

    def njit(*args: Any, **kwargs: Any) -> Any:
        """``numba.njit`` with ``cache=True`` and ``nogil=True`` unless told otherwise (and
        without the cache when numba finds no usable folder for it)."""
        kwargs.setdefault("cache", True)
        kwargs.setdefault("nogil", True)
        if args and callable(args[0]) and len(args) == 1:
            return _jit(args[0], kwargs)
        if args:
            return numba.njit(*args, **kwargs)
        return lambda func: _jit(func, kwargs)

else:
    CACHE_DIR = None

    leading_zeros, trailing_zeros = py_leading_zeros, py_trailing_zeros

    def njit(*args: Any, **kwargs: Any) -> Any:
        """The compiled function of an exported kernel; other kernels (helpers compiled
        into their callers) stay plain Python functions."""
        def wrap(func: Callable[..., Any]) -> Callable[..., Any]:
            module = func.__module__.rsplit(".", 1)[-1]
            sym = f"{module}__{func.__name__}"
            fn = getattr(_AOT, sym, None)
            if fn is None:
                return func
            return checked(fn, f"{func.__module__}.{func.__name__}", _SIG[sym])
        if args and callable(args[0]) and len(args) == 1 and not kwargs:
            return wrap(args[0])
        return wrap


def num_threads() -> int:
    """Threads the engine's parallel work may use."""
    return max(1, int(numba.get_num_threads()) if MODE == "jit" else os.cpu_count() or 1)


def _source_bytes(fn: Any) -> bytes:
    """The text of the file ``fn`` was written in (empty where there is none, as in the
    bundle): a bound kernel's constants and the helpers beside it are not in its bytecode, so
    a specialised copy's cache name digests its whole module, as numba itself checks the
    template's file."""
    try:
        return Path(fn.__code__.co_filename).read_bytes()
    except (OSError, AttributeError, TypeError, ValueError):
        return b""


def specialise(kernel: Any, name: str, *, refcounts: bool = True, **bindings: Any) -> Any:
    """A copy of ``kernel`` (an ``njit`` function, or its plain function in the bundle) in
    which each global name of ``bindings`` calls the kernel given for it: the generic loop is
    written once and numba compiles one copy per set of bindings. Call it at import time, once
    per use, and keep the result in a module global; mark the small bound kernels
    ``inline="always"`` (:func:`inlined`) so that numba writes them into the loop.

    Closures or kernels passed as arguments would do the same, but numba caches neither (a
    kernel value is a "dynamic global"; a closure's cache key holds its cells' pickles, new in
    every process). The copy is an ordinary function of the template's module, named ``name``
    with a digest of the bound kernels' code and files (a changed binding, constant or helper
    beside it is a new cache entry); a template marked ``inline="always"`` gives a copy
    marked so.

    ``refcounts=False`` compiles the copy without numba's reference counting (``_nrt``), for
    a loop that allocates nothing: counting a visitor's arrays up and down at every visit
    took about half the time of the count by states' loop (bench/table.py)."""
    py = getattr(kernel, "py_func", kernel)
    digest = hashlib.sha1()
    glob = dict(py.__globals__)
    for key in sorted(bindings):
        bound = bindings[key]
        if key not in py.__code__.co_names and not any(
                key in getattr(c, "co_names", ()) for c in py.__code__.co_consts):
            raise NameError(f"specialise: {py.__qualname__} does not call {key!r}")
        bpy = getattr(bound, "py_func", bound)
        digest.update(f"{key}={bpy.__qualname__}:".encode() + bpy.__code__.co_code)
        digest.update(_source_bytes(bpy))
        glob[key] = bound
    if not refcounts:
        digest.update(b"refcounts=False")     # another compiled copy, another cache entry
    fn = types.FunctionType(py.__code__, glob, name, py.__defaults__, py.__closure__)
    fn.__qualname__ = f"{name}_{digest.hexdigest()[:10]}"
    fn.__doc__ = py.__doc__
    fn.__kwdefaults__ = py.__kwdefaults__
    options: dict[str, Any] = {} if refcounts else {"_nrt": False}
    inline = getattr(kernel, "targetoptions", {}).get("inline")
    if inline:
        options["inline"] = inline
    return njit(fn, **options) if options else njit(fn)


def inlined(kernel: Any) -> Any:
    """A copy of ``kernel`` that numba writes into each caller: a plain kernel is inlined by
    LLVM only when compiled in its caller's process, and stays a call when it comes from the
    cache, so a hot loop's code would otherwise depend on what the cache held."""
    return njit(inline="always")(getattr(kernel, "py_func", kernel))
