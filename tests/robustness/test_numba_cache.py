"""A numba cache folder that cannot be written, or holds garbage, costs a compile, never a crash."""
import os
import shutil
import subprocess
import sys

import pytest

import knightgui_core.system.jit as jit
from knightgui_core.walks.solve import solve


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
    solve(8, 8, method="greedy")              # make sure the walk kernels are cached
    root = tmp_path / "cache"
    cache = root / jit.CACHE_DIR.name
    shutil.copytree(jit.CACHE_DIR, cache)
    own = jit.own_cache_folders(cache)       # this checkout's kernels (others are left alone)
    datas = sorted(p for d in own for p in d.glob("walk_kernel.greedy_walk*.nbc"))
    index = sorted(p for d in own for p in d.glob("validate_kernel.path_is_tour*.nbi"))
    assert datas and index
    datas[0].write_bytes(b"\x00garbage")
    index[0].write_bytes(b"\x80\x04garbage")  # no STOP: a torn write
    code = ("from knightgui_core.walks.solve import solve; r = solve(8, 8, method='greedy'); "
            "assert r.ok; print('solved')")
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                       timeout=300, env={"KNIGHTGUI_CACHE_DIR": str(root), "PATH": "/usr/bin"})
    assert r.returncode == 0 and "solved" in r.stdout, r.stderr
    assert "unreadable files" in r.stderr
    assert all(p.read_bytes()[:1] == b"\x80" for d in own for p in d.glob("*.nbc"))


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

# --- every way a cache can be wrong, against the installed command in a fresh cache ------

ANSWER = "a8→c7: 14,258 solutions, 18,280 dead ends"
KEY = jit.cache_key()


def _installed() -> str:
    exe = shutil.which("knightgui", path=os.path.dirname(sys.executable))
    assert exe, "the knightgui entry point is not installed beside this Python"
    return exe


def _run(root, *, preexec=None, extra_env=None):
    """The installed ``knightgui enumerate`` (8×8 a8→c7) with the cache root ``root``."""
    env = {"KNIGHTGUI_CACHE_DIR": str(root), "PATH": "/usr/bin:/bin",
           "HOME": str(root.parent), **(extra_env or {})}
    return subprocess.run([_installed(), "enumerate", "--rows", "8", "--cols", "8",
                           "--start", "a8", "--end", "c7"], capture_output=True, text=True,
                          timeout=600, env=env, preexec_fn=preexec, cwd=str(root.parent))


def _assert_right(r):
    assert r.returncode == 0 and ANSWER in r.stdout, (r.returncode, r.stdout, r.stderr[-2000:])
    lines = [ln for ln in r.stderr.splitlines()        # the compile notice is no warning
             if ln.strip() and "compiling the engine (once)" not in ln]
    assert len(lines) <= 1, r.stderr[-2000:]


@pytest.fixture(scope="module")
def good_cache(tmp_path_factory):
    """A cache root filled by one run of the installed command."""
    root = tmp_path_factory.mktemp("good") / "cache"
    _assert_right(_run(root))
    assert any((root / KEY).rglob("*.nbc"))
    return root


def _copy(good_cache, tmp_path):
    root = tmp_path / "cache"
    shutil.copytree(good_cache, root)
    return root


def _files(root, pattern):
    return sorted((root / KEY).rglob(pattern))


@pytest.mark.jit_only
def test_entries_written_under_another_module_name_are_not_loaded(tmp_path):
    """The reported failure: the source imported as ``core`` in a checkout, then the
    installed command. Each import name keeps its own folder, so both give the answer."""
    root = tmp_path / "cache"
    src = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(jit.__file__))))
    if not os.path.isdir(os.path.join(src, "core")):
        pytest.skip("not a checkout")
    code = ("from core.tietree.enumeration.enumerator import count_kernel; "
            "print(count_kernel(8, 8, 'a8', 'c7')['solutions'])")
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                       timeout=600, cwd=src, env={"KNIGHTGUI_CACHE_DIR": str(root),
                                                  "PATH": "/usr/bin:/bin"})
    assert r.returncode == 0 and r.stdout.strip() == "14258", r.stderr[-2000:]
    assert (root / KEY.replace("knightgui_core", "core", 1)).is_dir()
    _assert_right(_run(root))


@pytest.mark.jit_only
def test_entries_of_another_module_name_in_this_folder_are_a_miss(good_cache, tmp_path):
    """Even an entry that names a module this installation does not have (as an older cache
    layout would hold) is compiled again, with at most one line."""
    root = _copy(good_cache, tmp_path)
    n = 0
    for p in _files(root, "*.nbc"):
        data = p.read_bytes()
        if b"knightgui_core" in data:
            # same length, so the pickle frame stays intact and only the name is wrong
            p.write_bytes(data.replace(b"knightgui_core", b"knightgui_gone"))
            n += 1
    assert n
    _assert_right(_run(root))


@pytest.mark.jit_only
@pytest.mark.parametrize("how", ["truncated", "garbled", "another-build", "unreadable"])
def test_broken_entries_are_compiled_again(good_cache, tmp_path, how):
    root = _copy(good_cache, tmp_path)
    datas, index = _files(root, "*.nbc"), _files(root, "*.nbi")
    assert datas and index
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
    _assert_right(_run(root))


@pytest.mark.jit_only
def test_a_file_where_a_folder_should_be(tmp_path):
    root = tmp_path / "cache"
    root.mkdir()
    (root / KEY).write_text("a file, not a folder")
    _assert_right(_run(root))


@pytest.mark.jit_only
def test_a_file_where_numbas_own_folder_should_be(good_cache, tmp_path):
    root = _copy(good_cache, tmp_path)
    for d in [d for d in (root / KEY).iterdir() if d.is_dir()]:
        shutil.rmtree(d)
        d.write_text("a file, not a folder")
    _assert_right(_run(root))


def _small_files_only():
    """Files may not grow beyond 4 KiB (writes fail with EFBIG, as on a full disk)."""
    import resource
    import signal
    signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
    resource.setrlimit(resource.RLIMIT_FSIZE, (4096, 4096))


@pytest.mark.jit_only
def test_a_full_disk_while_saving(tmp_path):
    root = tmp_path / "cache"
    _assert_right(_run(root, preexec=_small_files_only))


@pytest.mark.jit_only
def test_a_child_process_uses_its_parents_cache_folder(tmp_path):
    """A process started by one that imported the engine (a Dask worker, a test's CLI run)
    inherits ``NUMBA_CACHE_DIR=<root>/<key>``: it caches in that same folder, warm, and
    never in a nested ``<key>/<key>`` one."""
    solve(8, 8, method="greedy")              # the walk kernels are in the parent's cache
    env = {k: v for k, v in os.environ.items() if k != "KNIGHTGUI_CACHE_DIR"}
    env["NUMBA_CACHE_DIR"] = str(jit.CACHE_DIR)
    code = ("import knightgui_core.system.jit as jit; print(jit.CACHE_DIR); "
            "from knightgui_core.walks.solve import solve; assert solve(8, 8, method='greedy').ok;"
            "import numba; from knightgui_core.walks import walk_kernel as k;"
            "print(sum(len(getattr(f, 'stats').cache_misses) for f in vars(k).values() "
            "if hasattr(f, 'stats')))")
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                       timeout=300, env=env)
    assert r.returncode == 0, r.stderr
    folder, misses = r.stdout.split()
    assert folder == str(jit.CACHE_DIR)
    assert misses == "0"                      # every walk kernel came from the cache
    assert not (jit.CACHE_DIR / jit.CACHE_DIR.name).exists()
