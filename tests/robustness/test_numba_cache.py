"""A numba cache folder that cannot be written, or holds garbage, costs a compile, never a crash."""
import pytest
import shutil
import subprocess
import sys

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
    cache = tmp_path / "cache"
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
                       timeout=300, env={"KNIGHTGUI_CACHE_DIR": str(cache), "PATH": "/usr/bin"})
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
