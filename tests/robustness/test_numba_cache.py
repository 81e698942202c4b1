"""A numba cache folder that cannot be written, or holds garbage, costs a compile, never a crash."""
import pytest
import shutil
import subprocess
import sys

import knightgui_core._jit as jit
from knightgui_core.solve import solve


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
    datas = sorted(cache.rglob("walk.greedy_walk*.nbc"))
    index = sorted(cache.rglob("validate.path_is_tour*.nbi"))
    assert datas and index
    datas[0].write_bytes(b"\x00garbage")
    index[0].write_bytes(b"\x80\x04garbage")  # no STOP: a torn write
    code = ("from knightgui_core.solve import solve; r = solve(8, 8, method='greedy'); "
            "assert r.ok; print('solved')")
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                       timeout=300, env={"KNIGHTGUI_CACHE_DIR": str(cache), "PATH": "/usr/bin"})
    assert r.returncode == 0 and "solved" in r.stdout, r.stderr
    assert "unreadable files" in r.stderr
    assert all(p.read_bytes()[:1] == b"\x80" for p in cache.rglob("*.nbc"))
