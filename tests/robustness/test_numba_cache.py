"""A numba cache folder that cannot be written, or holds garbage, costs a compile, never a crash.

The cases run a fresh process on the two kernels of :mod:`cache_helpers` (the cache's rules
hold for every numba cache file of a process that imported the engine); the scrub at start-up
and the package name in the key folder concern the engine's own folders, so their tests copy
or compile one small engine kernel, ``validate_kernel.path_is_tour``.
"""
import hashlib
import os
import shutil
import subprocess
import sys

import numpy as np
import pytest
from cache_helpers import KEY, assert_right, entries, fill_cache, numba_folder, run_kernels, write_kernels

import knightgui_core.system.jit as jit

#: one call of ``path_is_tour`` (a 1×1 board's one-square path is a tour), and its stats
_VALIDATE = ("import numpy as np; from {pkg}.board.validate_kernel import path_is_tour as f; "
             "print(f(np.zeros(1, np.int32), 1, 1, False), "
             "sum(sum(c.values()) for c in (f.stats.cache_hits, f.stats.cache_misses)), "
             "sum(f.stats.cache_misses.values()))")


def _validate(pkg, root, cwd):
    """``path_is_tour`` called in a fresh process that imports the engine as ``pkg``, with
    the cache root ``root``: (its answer, the kernel's signatures looked up, its misses)."""
    r = subprocess.run([sys.executable, "-c", _VALIDATE.format(pkg=pkg)], capture_output=True,
                       text=True, timeout=300, cwd=str(cwd),
                       env={"KNIGHTGUI_CACHE_DIR": str(root), "PATH": "/usr/bin:/bin",
                            "HOME": str(root.parent), "PYTHONDONTWRITEBYTECODE": "1"})
    assert r.returncode == 0, r.stderr[-2000:]
    return r, tuple(int(x) for x in r.stdout.split())


def test_unwritable_cache_folder_falls_back_with_a_note(tmp_path, monkeypatch, caplog):
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder")
    monkeypatch.setenv("KNIGHTGUI_CACHE_DIR", str(blocker / "numba"))
    with caplog.at_level("WARNING", logger="knightgui.jit"):
        chosen = jit.choose_cache_dir()
    assert chosen != blocker / "numba" and chosen.is_dir()
    assert "not writable" in caplog.text


@pytest.mark.jit_only
def test_corrupt_cache_entries_are_removed_and_recompiled(tmp_path):
    """Start-up removes this installation's torn entries (a data file without its pickle
    header takes its index along; an index without its end), and the kernel whose entry it
    was is compiled again and cached afresh."""
    from knightgui_core.board.validate_kernel import path_is_tour
    assert path_is_tour(np.zeros(1, np.int32), 1, 1, False) == 1   # cached here
    board = next(d for d in jit.own_cache_folders(jit.CACHE_DIR) if d.name.startswith("board_"))
    root = tmp_path / "cache"
    copy = root / KEY / board.name
    copy.mkdir(parents=True)
    for p in board.glob("validate_kernel.path_is_tour-*"):
        shutil.copy2(p, copy / p.name)
    datas = sorted(copy.glob("*.nbc"))
    assert datas and sorted(copy.glob("*.nbi"))
    datas[0].write_bytes(b"\x00garbage")
    walks = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(jit.__file__))), "walks")
    torn = root / KEY / f"walks_{hashlib.sha1(walks.encode()).hexdigest()}"
    torn.mkdir()
    (torn / "walk_kernel.greedy_walk-1.py311.nbi").write_bytes(b"\x80\x04garbage")  # no STOP
    (torn / "walk_kernel.greedy_walk-1.py311.1.nbc").write_bytes(b"\x80\x04intact.")
    r, (answer, looked_up, misses) = _validate("knightgui_core", root, tmp_path)
    assert answer == 1 and looked_up == misses == 1, r.stdout
    assert "unreadable files" in r.stderr
    assert not any(torn.iterdir())
    assert all(jit._looks_like_pickle(p) for p in copy.glob("*.nb[ic]"))   # noqa: SLF001
    assert sorted(copy.glob("*.nbc")) and sorted(copy.glob("*.nbi"))


def test_the_scrub_reads_only_this_checkouts_folders(tmp_path):
    """Another checkout's folder in a shared cache root is not this process's business: the
    scrub leaves its files, even unreadable ones, and removes unreadable ones of its own."""
    import hashlib
    import os
    walks = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(jit.__file__))), "walks")
    mine = tmp_path / f"walks_{hashlib.sha1(walks.encode()).hexdigest()}"
    other = tmp_path / ("walks_" + "0" * 40)
    for d in (mine, other):
        d.mkdir()
        (d / "walk_kernel.greedy_walk-1.py311.nbi").write_bytes(b"\x80\x04garbage")   # torn
        (d / "walk_kernel.greedy_walk-1.py311.1.nbc").write_bytes(b"\x80\x04intact.")
    assert jit.own_cache_folders(tmp_path) == [mine]
    assert jit.scrub_cache(tmp_path) == 2
    assert not any(mine.iterdir()) and len(list(other.iterdir())) == 2



def test_the_scrub_pairs_each_index_with_its_own_data_files(tmp_path):
    """A torn data file takes its index with it, and only its own: ``f-1``'s files are not
    ``f-10``'s though one name starts the other."""
    import hashlib
    import os
    walks = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(jit.__file__))), "walks")
    mine = tmp_path / f"walks_{hashlib.sha1(walks.encode()).hexdigest()}"
    mine.mkdir()
    good = b"\x80\x04intact."
    (mine / "k.f-1.py311.nbi").write_bytes(good)
    (mine / "k.f-1.py311.1.nbc").write_bytes(good)
    (mine / "k.f-1.py311.2.nbc").write_bytes(b"\x80\x04torn")
    (mine / "k.f-10.py311.nbi").write_bytes(good)
    (mine / "k.f-10.py311.1.nbc").write_bytes(good)
    assert jit.scrub_cache(tmp_path) == 3
    assert sorted(p.name for p in mine.iterdir()) == ["k.f-10.py311.1.nbc", "k.f-10.py311.nbi"]

# --- every way a cache can be wrong, against a fresh process in a fresh cache ---------------


@pytest.fixture(scope="module")
def kernels(tmp_path_factory):
    """The kernel module every test of this file runs (one path: the cache copies fit it)."""
    return write_kernels(tmp_path_factory.mktemp("kernels"))


@pytest.fixture(scope="module")
def good_cache(kernels, tmp_path_factory):
    """A cache root filled by one run of the kernels."""
    return fill_cache(kernels, tmp_path_factory.mktemp("good"))


def _copy(good_cache, tmp_path):
    root = tmp_path / "cache"
    shutil.copytree(good_cache, root)
    return root


def _run(kernels, root, **env):
    return run_kernels(kernels, root.parent, KNIGHTGUI_CACHE_DIR=str(root), **env)


@pytest.mark.jit_only
def test_entries_written_under_another_module_name_are_not_loaded(tmp_path):
    """The source imported as ``core`` in a checkout, then as the installed
    ``knightgui_core``: each import name keeps its own folder, so the second compiles its
    own entry instead of loading one that names the other's modules."""
    root = tmp_path / "cache"
    src = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(jit.__file__))))
    if not os.path.isdir(os.path.join(src, "core")):
        pytest.skip("not a checkout")
    r, (answer, _looked_up, misses) = _validate("core", root, src)
    assert answer == 1 and misses == 1, r.stdout
    assert (root / KEY.replace("knightgui_core", "core", 1)).is_dir()
    r, (answer, _looked_up, misses) = _validate("knightgui_core", root, tmp_path)
    assert answer == 1 and misses == 1 and r.stderr == "", r
    assert (root / KEY).is_dir()


@pytest.mark.jit_only
def test_entries_of_another_module_name_in_this_folder_are_a_miss(kernels, good_cache, tmp_path):
    """Even an entry that names a module this installation does not have (as an older cache
    layout would hold) is compiled again, with at most one line."""
    from cache_helpers import MODULE
    root = _copy(good_cache, tmp_path)
    gone = MODULE[:-4] + "gone"               # same length: the pickle frame stays intact
    n = 0
    for p in entries(root, "*.nbc"):
        data = p.read_bytes()
        if MODULE.encode() in data:
            p.write_bytes(data.replace(MODULE.encode(), gone.encode()))
            n += 1
    assert n
    r = assert_right(_run(kernels, root))
    assert r.report["misses"] > 0, r


def _break(how, datas, index):
    """Break the cache entries ``datas`` (data files) and ``index`` (index files) ``how``."""
    if how == "truncated":
        for p in datas + index:
            p.write_bytes(p.read_bytes()[: max(1, p.stat().st_size // 2)])
    elif how == "garbled":
        for p in datas:
            b = bytearray(p.read_bytes())
            for i in range(10, len(b) - 1, 7):
                b[i] ^= 0x5A
            p.write_bytes(bytes(b))
    elif how == "another-build":
        # every data file holds another kernel's code: intact pickles, wrong contents
        blobs = [p.read_bytes() for p in datas]
        for p, blob in zip(datas, blobs[1:] + blobs[:1]):
            p.write_bytes(blob)
    else:
        for p in datas + index:
            p.unlink()
            p.mkdir()            # unreadable as a file, whoever runs the test (root too)


@pytest.mark.jit_only
@pytest.mark.parametrize("how", ["truncated", "garbled", "another-build", "unreadable"])
def test_broken_entries_are_compiled_again(kernels, good_cache, tmp_path, how):
    root = _copy(good_cache, tmp_path)
    datas, index = entries(root, "*.nbc"), entries(root, "*.nbi")
    assert datas and index
    _break(how, datas, index)
    r = assert_right(_run(kernels, root))
    assert r.report["misses"] > 0 and r.report["hits"] == 0, r


@pytest.mark.jit_only
@pytest.mark.slow
def test_broken_engine_entries_are_compiled_again(tmp_path):
    """The cases above on the engine's own kernels: the installed ``knightgui enumerate``
    fills a cache cold, then runs on copies of it broken each way (the tests above hold the
    same rules on the tiny kernels, in seconds)."""
    exe = shutil.which("knightgui", path=os.path.dirname(sys.executable))
    assert exe, "the knightgui entry point is not installed beside this Python"

    def run(root):
        env = {"KNIGHTGUI_CACHE_DIR": str(root), "PATH": "/usr/bin:/bin",
               "HOME": str(tmp_path), "TMPDIR": str(tmp_path)}
        r = subprocess.run([exe, "enumerate", "--rows", "8", "--cols", "8", "--start", "a8",
                            "--end", "c7"], capture_output=True, text=True, timeout=600,
                           env=env, cwd=str(tmp_path))
        assert r.returncode == 0, r.stderr[-2000:]
        assert "a8→c7: 14,258 solutions, 18,280 dead ends" in r.stdout, r.stdout
        lines = [ln for ln in r.stderr.splitlines()
                 if ln.strip() and "compiling the engine (once)" not in ln]
        assert len(lines) <= 1, r.stderr[-2000:]

    good = tmp_path / "good"
    run(good)
    for how in ("truncated", "garbled", "another-build", "unreadable"):
        root = tmp_path / how
        shutil.copytree(good, root)
        datas, index = entries(root, "*.nbc"), entries(root, "*.nbi")
        assert datas and index
        _break(how, datas, index)
        run(root)


@pytest.mark.jit_only
def test_a_file_where_a_folder_should_be(kernels, tmp_path):
    root = tmp_path / "cache"
    root.mkdir()
    (root / KEY).write_text("a file, not a folder")
    r = assert_right(_run(kernels, root))
    assert "not used" in r.stderr and not r.report["cache"].startswith(str(root)), r


@pytest.mark.jit_only
def test_a_file_where_numbas_own_folder_should_be(tmp_path):
    """numba's folder for a source folder is a file: the kernels still run (their module is
    a copy of this test's own, so whatever numba caches beside it instead stays here)."""
    kernels = write_kernels(tmp_path / "kernels")
    root = tmp_path / "cache"
    (root / KEY).mkdir(parents=True)
    (root / KEY / numba_folder(kernels)).write_text("a file, not a folder")
    assert_right(_run(kernels, root))


def _small_files_only():
    """Files may not grow beyond 4 KiB (writes fail with EFBIG, as on a full disk): each
    kernel's data file is larger."""
    import resource
    import signal
    signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
    resource.setrlimit(resource.RLIMIT_FSIZE, (4096, 4096))


@pytest.mark.jit_only
def test_a_full_disk_while_saving(kernels, tmp_path):
    root = tmp_path / "cache"
    r = assert_right(run_kernels(kernels, tmp_path, preexec=_small_files_only,
                                 KNIGHTGUI_CACHE_DIR=str(root)))
    assert len(r.warnings) == 1 and "could not be written" in r.stderr, r
    assert not entries(root, "*.nbc")


@pytest.mark.jit_only
def test_a_child_process_uses_its_parents_cache_folder(kernels, good_cache, tmp_path):
    """A process started by one that imported the engine (a Dask worker, a test's CLI run)
    inherits ``NUMBA_CACHE_DIR=<root>/<key>``: it caches in that same folder, warm, and
    never in a nested ``<key>/<key>`` one."""
    root = _copy(good_cache, tmp_path)
    r = assert_right(run_kernels(kernels, tmp_path, NUMBA_CACHE_DIR=str(root / KEY)), 0)
    assert r.report["cache"] == str(root / KEY)
    assert r.report["misses"] == 0 and r.report["hits"] > 0   # every kernel from the cache
    assert not (root / KEY / KEY).exists()
