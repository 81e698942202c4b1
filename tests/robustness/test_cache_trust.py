"""The kernel cache never unpickles a file another user could have written, nor a file whose
seal does not vouch for it.

The planted entries below are real pickles that, once unpickled, create a marker file: the
attack a cache folder open to others allows. Each test runs a fresh process on a cache root
(the two kernels of :mod:`cache_helpers`: the rules hold for every numba cache file of a
process that imported the engine) and checks that the marker never appears and the answer is
right.
"""
import os
import pickle
import shutil
import stat
import subprocess
import sys
from pathlib import Path

import pytest
from cache_helpers import KEY, assert_right, entries, fill_cache, run_kernels, write_kernels

import knightgui_core.system.jit as jit
from knightgui_core.system import kernel_cache

ROOT = hasattr(os, "geteuid") and os.geteuid() == 0
NOBODY = 65534


class _Planted:
    """Unpickling this runs ``touch <marker>``: what an attacker's cache file would do."""

    def __init__(self, marker):
        self.marker = str(marker)

    def __reduce__(self):
        return (os.system, (f"touch {self.marker}",))


def _installed() -> str:
    exe = shutil.which("knightgui", path=os.path.dirname(sys.executable))
    assert exe, "the knightgui entry point is not installed beside this Python"
    return exe


@pytest.fixture(scope="module")
def kernels(tmp_path_factory):
    """The kernel module every test of this file runs (one path: the cache copies fit it)."""
    return write_kernels(tmp_path_factory.mktemp("kernels"))


@pytest.fixture(scope="module")
def good_cache(kernels, tmp_path_factory):
    """A cache root filled (and sealed) by one run of the kernels."""
    return fill_cache(kernels, tmp_path_factory.mktemp("good"))


def _plant(good_cache, where, marker):
    """A copy of a real cache at ``where`` whose every entry, index and data, is a planted
    pickle (the index keeps numba's version header, so numba reads on into the payload)."""
    import numba
    shutil.copytree(good_cache / KEY, where / KEY)
    payload = pickle.dumps(_Planted(marker), protocol=2)
    n = 0
    for p in (where / KEY).rglob("*"):
        if p.name.endswith(".nbi"):
            p.write_bytes(pickle.dumps(numba.__version__, protocol=-1) + payload)
            n += 1
        elif p.name.endswith(".nbc"):
            p.write_bytes(payload)
    assert n
    return where


def _chown_tree(top, uid):
    for dirpath, dirs, files in os.walk(top):
        for name in [dirpath, *(os.path.join(dirpath, f) for f in dirs + files)]:
            os.chown(name, uid, uid)


def _loosen_tree(top):
    for dirpath, _dirs, files in os.walk(top):
        os.chmod(dirpath, 0o777)
        for f in files:
            os.chmod(os.path.join(dirpath, f), 0o666)


def _outside(cache, folder):
    """Whether the cache folder a child used is outside ``folder``."""
    return folder != Path(cache) and folder not in Path(cache).parents


def _blocked(home):
    """A KNIGHTGUI_CACHE_DIR that cannot be a folder (a file is in the way), even for root."""
    blocker = home / "a-file"
    blocker.write_text("not a folder")
    return str(blocker / "numba")


@pytest.mark.jit_only
@pytest.mark.skipif(not ROOT, reason="planting as another user needs root")
def test_a_fallback_folder_planted_by_another_user_is_never_loaded(kernels, good_cache, tmp_path):
    """The cache folder cannot be written, knightgui falls back to the temporary folder,
    which another user created first and filled."""
    marker = tmp_path / "pwned"
    fallback = tmp_path / "tmp" / f"knightgui-numba-{os.geteuid()}"
    _plant(good_cache, fallback, marker)
    _chown_tree(fallback, NOBODY)
    fallback.chmod(0o755)
    r = run_kernels(kernels, tmp_path, KNIGHTGUI_CACHE_DIR=_blocked(tmp_path))
    assert not marker.exists(), "a planted cache entry was unpickled"
    assert_right(r)
    assert "not used" in r.stderr
    assert _outside(r.report["cache"], fallback) and r.report["hits"] == 0


@pytest.mark.jit_only
def test_a_fallback_folder_others_can_write_is_never_loaded(kernels, good_cache, tmp_path):
    """Owned by this user but writable by everyone: anyone may have planted the files."""
    marker = tmp_path / "pwned"
    fallback = tmp_path / "tmp" / f"knightgui-numba-{os.geteuid()}"
    _plant(good_cache, fallback, marker)
    _loosen_tree(fallback)
    r = run_kernels(kernels, tmp_path, KNIGHTGUI_CACHE_DIR=_blocked(tmp_path))
    assert not marker.exists(), "a planted cache entry was unpickled"
    assert_right(r)
    assert _outside(r.report["cache"], fallback) and r.report["hits"] == 0


@pytest.mark.jit_only
@pytest.mark.parametrize("how", ["another-user", "world-writable"])
def test_a_shared_cache_dir_is_not_trusted(kernels, good_cache, tmp_path, how):
    """KNIGHTGUI_CACHE_DIR itself pointing at a folder others control: not used."""
    if how == "another-user" and not ROOT:
        pytest.skip("planting as another user needs root")
    marker = tmp_path / "pwned"
    shared = _plant(good_cache, tmp_path / "shared", marker)
    if how == "another-user":
        _chown_tree(shared, NOBODY)
    else:
        _loosen_tree(shared)
    r = run_kernels(kernels, tmp_path, KNIGHTGUI_CACHE_DIR=str(shared))
    assert not marker.exists(), "a planted cache entry was unpickled"
    assert_right(r)
    assert "not used" in r.stderr
    assert _outside(r.report["cache"], shared) and r.report["hits"] == 0


@pytest.mark.jit_only
def test_entries_whose_seal_does_not_match_are_never_unpickled(kernels, good_cache, tmp_path):
    """In the user's own private folder, a file replaced behind knightgui's back (seal left
    as it was) is a miss: compiled again, one warning, no code run."""
    marker = tmp_path / "pwned"
    root = tmp_path / "cache"
    root.mkdir(mode=0o700)
    _plant(good_cache, root, marker)
    r = run_kernels(kernels, tmp_path, KNIGHTGUI_CACHE_DIR=str(root))
    assert not marker.exists(), "a planted cache entry was unpickled"
    assert_right(r)
    assert r.report["cache"] == str(root / KEY) and r.report["hits"] == 0
    assert len(r.warnings) == 1 and "could not be trusted" in r.stderr, r
    # the entries were rewritten, sealed: the next run is quiet and loads them
    again = assert_right(run_kernels(kernels, tmp_path, KNIGHTGUI_CACHE_DIR=str(root)), 0)
    assert again.report["misses"] == 0 and again.report["hits"] > 0, again


@pytest.mark.jit_only
@pytest.mark.parametrize("with_seals", [False, True])
def test_entries_holding_other_kernels_code_cost_one_compile(kernels, good_cache, tmp_path,
                                                              with_seals):
    """Every data file holding the next kernel's (its seal too, or not): never unpickled as
    this kernel's, so loading cannot run another kernel's code; compiled again."""
    root = tmp_path / "cache"
    shutil.copytree(good_cache, root)
    datas = entries(root, "*.nbc")
    assert len(datas) > 1
    blobs = [(p.read_bytes(), (p.parent / (p.name + ".seal")).read_bytes()) for p in datas]
    for p, (blob, seal) in zip(datas, blobs[1:] + blobs[:1]):
        p.write_bytes(blob)
        if with_seals:
            (p.parent / (p.name + ".seal")).write_bytes(seal)
    r = assert_right(run_kernels(kernels, tmp_path, KNIGHTGUI_CACHE_DIR=str(root)))
    assert r.report["misses"] > 0 and r.report["hits"] == 0, r


@pytest.mark.jit_only
@pytest.mark.slow
def test_the_installed_command_never_unpickles_a_planted_engine_cache(tmp_path):
    """The planted cache on the engine's own kernels: ``knightgui enumerate`` fills a cache
    cold, every entry is replaced by a planted pickle behind the seals' back, and the next
    run compiles again, one warning, no code run (the tests above hold the same rules on the
    tiny kernels, in seconds)."""
    cmd = [_installed(), "enumerate", "--rows", "8", "--cols", "8", "--start", "a8",
           "--end", "c7"]
    answer = "a8→c7: 14,258 solutions, 18,280 dead ends"

    def run(root):
        env = {"PATH": "/usr/bin:/bin", "HOME": str(tmp_path), "TMPDIR": str(tmp_path / "tmp"),
               "KNIGHTGUI_CACHE_DIR": str(root)}
        (tmp_path / "tmp").mkdir(exist_ok=True)
        r = subprocess.run(cmd, capture_output=True, text=True, timeout=600, env=env,
                           cwd=str(tmp_path))
        assert r.returncode == 0 and answer in r.stdout, (r.returncode, r.stdout, r.stderr[-2000:])
        return [ln for ln in r.stderr.splitlines()
                if ln.strip() and "compiling the engine (once)" not in ln]

    good = tmp_path / "good"
    assert run(good) == []
    marker = tmp_path / "pwned"
    root = tmp_path / "cache"
    root.mkdir(mode=0o700)
    _plant(good, root, marker)
    assert len(run(root)) == 1
    assert not marker.exists(), "a planted cache entry was unpickled"
    assert run(root) == []


# --- the rules themselves, in this process ------------------------------------------------

def test_a_world_writable_cache_dir_is_refused_with_its_reason(tmp_path, monkeypatch, caplog):
    shared = tmp_path / "shared"
    shared.mkdir()
    shared.chmod(0o777)
    monkeypatch.setenv("KNIGHTGUI_CACHE_DIR", str(shared))
    monkeypatch.setattr(kernel_cache.tempfile, "tempdir", str(tmp_path))
    with caplog.at_level("WARNING", logger="knightgui.jit"):
        chosen = jit.choose_cache_dir()
    assert shared not in chosen.parents
    assert "can be written by others" in caplog.text


def test_the_private_fallback_is_created_0700_and_reused(tmp_path, monkeypatch):
    monkeypatch.setenv("KNIGHTGUI_CACHE_DIR", _blocked(tmp_path))
    monkeypatch.setattr(kernel_cache.tempfile, "tempdir", str(tmp_path))
    first, again = jit.choose_cache_dir(), jit.choose_cache_dir()
    base = tmp_path / f"knightgui-numba-{os.geteuid()}"
    assert first == again == base / KEY
    assert stat.S_IMODE(base.stat().st_mode) == 0o700


def test_a_fallback_name_taken_by_a_link_gives_a_fresh_private_folder(tmp_path, monkeypatch):
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir(mode=0o700)
    (tmp_path / f"knightgui-numba-{os.geteuid()}").symlink_to(elsewhere)
    monkeypatch.setenv("KNIGHTGUI_CACHE_DIR", _blocked(tmp_path))
    monkeypatch.setattr(kernel_cache.tempfile, "tempdir", str(tmp_path))
    chosen = jit.choose_cache_dir()
    assert elsewhere not in chosen.parents and chosen != elsewhere / KEY
    assert chosen.name.startswith("knightgui-numba-")
    assert stat.S_IMODE(chosen.stat().st_mode) == 0o700


def test_a_seal_vouches_for_its_own_file_only(tmp_path):
    a, b = str(tmp_path / "a.1.nbc"), str(tmp_path / "b.1.nbc")
    kernel_cache.write_sealed(a, b"\x80\x04alpha.")
    kernel_cache.write_sealed(b, b"\x80\x04beta.")
    assert kernel_cache.read_sealed(a) == b"\x80\x04alpha."
    shutil.copy(b + kernel_cache.SEAL, a + kernel_cache.SEAL)        # another file's seal
    with pytest.raises(kernel_cache.UnsealedEntry):
        kernel_cache.read_sealed(a)
    kernel_cache.write_sealed(a, b"\x80\x04alpha.")
    with open(a, "ab") as f:
        f.write(b"more")                                               # other bytes
    with pytest.raises(kernel_cache.UnsealedEntry):
        kernel_cache.read_sealed(a)
    os.unlink(b + kernel_cache.SEAL)                                   # no seal: a quiet miss
    with pytest.raises(kernel_cache.NoSeal):
        kernel_cache.read_sealed(b)


@pytest.mark.jit_only
@pytest.mark.stress
def test_a_rotated_cache_under_a_huge_closed_tour(tmp_path):
    """The probe's case on the construction's kernels: every data file holding the next
    one's. Before seals this ended in a numba typing traceback; now one warning, the tour."""
    root = tmp_path / "cache"
    cmd = [_installed(), "solve", "--rows", "100", "--cols", "100", "--closed"]
    env = {"PATH": "/usr/bin:/bin", "HOME": str(tmp_path), "KNIGHTGUI_CACHE_DIR": str(root)}
    first = subprocess.run(cmd, capture_output=True, text=True, timeout=600, env=env)
    assert first.returncode == 0, first.stderr[-2000:]
    datas = sorted(root.rglob("*.nbc"))
    blobs = [p.read_bytes() for p in datas]
    for p, blob in zip(datas, blobs[1:] + blobs[:1]):
        p.write_bytes(blob)
    r = subprocess.run(cmd, capture_output=True, text=True, timeout=600, env=env)
    assert r.returncode == 0 and "Traceback" not in r.stderr, r.stderr[-2000:]
    assert first.stdout.split(";")[0] == r.stdout.split(";")[0]
    assert len([ln for ln in r.stderr.splitlines()
                if ln.strip() and "compiling the engine (once)" not in ln]) <= 1, r.stderr[-2000:]
